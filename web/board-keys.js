// The board for the keyboard and for screen readers: a labelled grid of 64 cells laid over
// chessground's board (which draws pieces as unlabelled elements and takes only pointer input).
// The grid lets pointer events through to chessground and reads what it shows (pieces, selection,
// targets, orientation), so a review position is described as faithfully as the live one.
// Also here: a move in words ("Weiß: Springer f3") and the page's announcer (aria-live).
import { boardOf } from './chess.js';
import { colorName, t } from './i18n.js';
import './strings-game.js';

const FILES = 'abcdefgh';

export class BoardKeys {
  /** FRAME: the element around #board; CG: the chessground api; HANDLERS: {activate(square),
   *  cancel(), clocks()} called for Enter/Space, Escape and "c". */
  constructor(frame, cg, handlers) {
    this.cg = cg;
    this.handlers = handlers;
    this.focusSq = null;
    const help = document.createElement('p');
    help.id = 'board-help';
    help.className = 'visually-hidden';
    frame.append(help);
    this.help = help;
    const grid = document.createElement('div');
    grid.id = 'board-grid';
    grid.className = 'board-grid';
    grid.setAttribute('role', 'grid');
    grid.setAttribute('aria-describedby', 'board-help');
    this.rows = [];
    this.cells = [];
    for (let r = 0; r < 8; r++) {
      const row = document.createElement('div');
      row.setAttribute('role', 'row');
      for (let c = 0; c < 8; c++) {
        const cell = document.createElement('div');
        cell.setAttribute('role', 'gridcell');
        cell.tabIndex = -1;
        row.append(cell);
        this.cells.push(cell);
      }
      grid.append(row);
    }
    frame.append(grid);
    this.grid = grid;
    grid.addEventListener('keydown', (e) => this.onKey(e));
    // A cell taking focus (by Tab or a screen reader's own navigation) becomes the roving stop.
    grid.addEventListener('focusin', (e) => {
      const sq = e.target.dataset && e.target.dataset.square;
      if (sq && sq !== this.focusSq) {
        this.focusSq = sq;
        this.update();
      }
    });
    this.update();
  }

  /** The square at visual row R (0 = top) and column C (0 = left) in the board's orientation. */
  squareAt(r, c) {
    const white = this.cg.state.orientation !== 'black';
    return white ? FILES[c] + String(8 - r) : FILES[7 - c] + String(r + 1);
  }

  /** Redraws the labels from what chessground shows now. */
  update() {
    const pieces = boardOf(this.cg.getFen() + ' w - - 0 1');
    const selected = this.cg.state.selected;
    const dests = (selected && this.cg.state.movable.dests && this.cg.state.movable.dests.get(selected)) || [];
    if (!this.focusSq) this.focusSq = this.cg.state.orientation === 'black' ? 'h8' : 'a1';
    this.grid.setAttribute('aria-label', t('board_label'));
    this.help.textContent = t('board_help');
    for (let r = 0; r < 8; r++)
      for (let c = 0; c < 8; c++) {
        const cell = this.cells[r * 8 + c];
        const sq = this.squareAt(r, c);
        const p = pieces.get(sq);
        let label = p ? t('square_piece', { square: sq, piece: t(`piece_${p.color}_${p.role}`) }) : t('square_empty', { square: sq });
        if (sq === selected) label += ', ' + t('square_selected');
        if (dests.includes(sq)) label += ', ' + t('square_target');
        cell.dataset.square = sq;
        cell.setAttribute('aria-label', label);
        cell.setAttribute('aria-selected', sq === selected ? 'true' : 'false');
        cell.classList.toggle('target', dests.includes(sq));
        cell.tabIndex = sq === this.focusSq ? 0 : -1;
      }
  }

  cellOf(sq) {
    return this.cells.find((c) => c.dataset.square === sq);
  }

  focusSquare(sq) {
    this.focusSq = sq;
    this.update();
    const cell = this.cellOf(sq);
    if (cell) cell.focus();
  }

  /** Puts the focus back on the board (after the promotion chooser, for instance). */
  focus() {
    this.focusSquare(this.focusSq);
  }

  onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const idx = this.cells.findIndex((c) => c.dataset.square === this.focusSq);
    let r = Math.floor(idx / 8);
    let c = idx % 8;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[e.key]) {
      r = Math.min(7, Math.max(0, r + moves[e.key][0]));
      c = Math.min(7, Math.max(0, c + moves[e.key][1]));
    } else if (e.key === 'Home') c = 0;
    else if (e.key === 'End') c = 7;
    else if (e.key === 'PageUp') r = 0;
    else if (e.key === 'PageDown') r = 7;
    else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.handlers.activate(this.focusSq);
      return;
    } else if (e.key === 'Escape') {
      this.handlers.cancel();
      return;
    } else if (e.key === 'c' || e.key === 'C') {
      this.handlers.clocks();
      return;
    } else return;
    e.preventDefault();
    this.focusSquare(this.squareAt(r, c));
  }
}

/**
 * A move in words. FEN_BEFORE: the position it was played in (null when unknown: then the words
 * come from the SAN alone and an en passant capture is said as a capture); MOVE: {uci, san}.
 */
export function moveWords(fenBefore, move) {
  const before = fenBefore ? boardOf(fenBefore) : null;
  const uci = move.uci || '';
  const san = move.san || '';
  const from = uci.slice(0, 2);
  const to = uci.slice(2, 4);
  const piece = before && before.get(from);
  const color = colorName(piece ? piece.color : fenBefore && fenBefore.split(' ')[1] === 'b' ? 'black' : 'white');
  const role = piece ? piece.role : /^[KQRBN]/.test(san) ? san[0].toLowerCase() : 'p';
  let words;
  if (san.startsWith('O-O-O')) words = t('say_castle_long', { color });
  else if (san.startsWith('O-O')) words = t('say_castle_short', { color });
  else if (san.includes('x')) {
    const target = before && before.get(to);
    if (before && !target && role === 'p') words = t('say_en_passant', { color, to });
    else if (target) words = t('say_capture', { color, piece: t('name_' + role), captured: t('name_' + target.role), to });
    else words = t('say_capture_plain', { color, piece: t('name_' + role), to });
  } else words = t('say_move', { color, piece: t('name_' + role), to });
  if (uci.length > 4) words += t('say_promotion', { piece: t('name_' + uci[4]) });
  if (san.endsWith('#')) words += t('say_mate');
  else if (san.endsWith('+')) words += t('say_check');
  return words;
}

/** Says TEXT in the page's aria-live region (#announcer). The same text twice in a row is still
 *  read: a no-break space is toggled at its end, so the region's content changes. */
export function announce(text) {
  const el = document.getElementById('announcer');
  if (!el) return;
  el.textContent = el.textContent === text ? text + '\u00a0' : text;
}

/** A rating change as "+12" or "−8" (a real minus sign), "±0" for none. */
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : '\u00b10';
}

/**
 * What changed from state PREV to state NEXT, in words and as a sound: the new move (the last one
 * when several came at once), the ending, and the rating changes once a rated game is settled.
 * Answers {text, sound} (either may be empty) or null when nothing is worth saying.
 */
export function narrate(prev, next, outcomeText) {
  if (!prev || !next) return null;
  const parts = [];
  let sound = '';
  if (next.ply > prev.ply && next.moves && next.moves.length === next.ply) {
    const m = next.moves[next.ply - 1];
    parts.push(moveWords(next.ply === prev.ply + 1 ? prev.fen : null, m) + '.');
    const captured = m.san.includes('x');
    sound = m.san.endsWith('+') ? 'check' : captured ? 'capture' : 'move';
  }
  if (next.outcome && !prev.outcome) {
    parts.push(outcomeText(next) + '.');
    sound = 'end';
  }
  const diffs = (s) => ['white', 'black'].map((c) => s.accounts && s.accounts[c] && s.accounts[c].diff);
  const before = diffs(prev);
  const after = diffs(next);
  if (after.some((d, i) => typeof d === 'number' && typeof before[i] !== 'number')) {
    const list = ['white', 'black']
      .filter((c, i) => typeof after[i] === 'number')
      .map((c) => {
        const a = next.accounts[c];
        return `${a.name} ${a.rating + a.diff} (${signed(a.diff)})`;
      });
    parts.push(t('rating_say', { list: list.join(', ') }));
  }
  if (!parts.length) return null;
  return { text: parts.join(' '), sound };
}

/**
 * The keys' actions on the game page PAGE (a GamePage): Enter or Space on a square takes the same
 * steps as clicks on the board (pick a piece, then play it on a target, the promotion chooser for a
 * pawn onto the last rank) and says what cannot be done; Escape drops the pick; C reads the clocks.
 */
export function keyHandlers(page) {
  const error = (text) => {
    const el = document.getElementById('error');
    el.textContent = text || '';
    el.hidden = !text;
  };
  const cancel = () => {
    if (!page.cg.state.selected) return;
    page.cg.selectSquare(null);
    page.keys.update();
    announce(t('pick_cancelled'));
  };
  const activate = (sq) => {
    const s = page.state;
    if (!s) return;
    if (page.review.active) return announce(t('review_no_move'));
    if (!page.canMove()) {
      if (s.outcome) return announce(t('game_is_over'));
      return announce(page.held().length ? t('not_your_turn') : t('spectator'));
    }
    const pieces = boardOf(s.fen);
    const mine = (x) => pieces.get(x) && pieces.get(x).color === s.turn;
    const legal = s.legal || {};
    const picked = page.cg.state.selected;
    error(null);
    if (picked && picked === sq) {
      cancel();
    } else if (picked && (legal[picked] || []).includes(sq)) {
      page.byKey = true; // a promotion chooser opened by this move gives the focus back to the board
      page.cg.selectSquare(sq); // plays the move through chessground, as a click would
    } else if (mine(sq)) {
      const n = (legal[sq] || []).length;
      const role = pieces.get(sq).role;
      if (!n) error(t(s.check ? 'no_legal_move_check' : 'no_legal_move', { piece: t('the_' + role), square: sq }));
      else {
        page.cg.selectSquare(sq);
        announce(t(n === 1 ? 'picked_one' : 'picked', { piece: t('name_' + role), square: sq, n }));
      }
    } else if (picked) {
      page.cg.selectSquare(null);
      page.explainIllegal(picked, sq); // the server says why (the path is blocked, …)
    } else if (pieces.get(sq)) error(t('not_your_piece'));
    page.keys.update();
  };
  /** The clocks in words, White's first (the button beside the board and the key C). */
  const clocks = () => {
    const s = page.state;
    if (!s || !s.time || s.time.type === 'none' || !s.clock) return announce(t('no_clocks'));
    const parts = [];
    for (const color of ['white', 'black']) {
      const el = document.querySelector(`.player-bar[data-color="${color}"] .clock`);
      if (!el) continue;
      let time = el.textContent || t('no_deadline');
      if (el.classList.contains('running')) time += ` (${t('clock_running')})`;
      parts.push(t('clock_say', { color: colorName(color), time }));
    }
    announce(parts.join(', ') + '.');
  };
  return { activate, cancel, clocks };
}
