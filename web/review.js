// Review on the game page: the move list as buttons, and any earlier position shown read-only on the
// board (clicked in the list, or stepped through with Left/Right/Home/End). The positions come from
// the server (GET /api/games/{id}/positions), so castling, en passant and promotion are drawn as the
// rules core played them. New moves arriving keep the review until the user goes back.
import { request } from './api.js';
import { lang, t } from './i18n.js';
import { announce, moveWords } from './board-keys.js';
import { $, show, showError } from './util.js';
import './strings-game.js';

export class Review {
  constructor(page) {
    this.page = page;
    this.ply = null; // the ply shown, null for the live position
    this.fens = []; // every position so far, fetched when first needed; the list only grows
    $('review-back').addEventListener('click', () => this.back());
    $('moves').addEventListener('click', (e) => {
      const b = e.target.closest('button[data-ply]');
      if (b) this.go(Number(b.dataset.ply));
    });
    document.addEventListener('keydown', (e) => this.onKey(e));
  }

  get active() {
    return this.ply !== null;
  }

  /** The FEN of the position on the board: the reviewed one, else the live one. */
  shownFen() {
    const s = this.page.state;
    if (this.page.analysis.learn.active) return this.page.analysis.learn.shownFen();
    return this.active && this.fens[this.ply] ? this.fens[this.ply] : s ? s.fen : '';
  }

  /** Left/Right/Home/End step through the game, unless the focus is where those keys mean
   *  something else (a text field, the board grid) or the promotion chooser is open. */
  onKey(e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
    const el = document.activeElement;
    if (el && (el.closest('input, textarea, select, #board-grid, #promotion') || el.isContentEditable)) return;
    if ($('game-page').hidden || !this.page.state || this.page.pendingPromotion) return;
    const live = this.page.state.ply;
    const cur = this.active ? this.ply : live;
    const to = { ArrowLeft: cur - 1, ArrowRight: cur + 1, Home: 0, End: live }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    this.go(Math.max(0, Math.min(live, to)));
  }

  /** Shows the position after PLY plies; the live ply means the live position. */
  async go(ply) {
    const s = this.page.state;
    if (!s) return;
    if (ply >= s.ply) {
      if (this.page.analysis.learn.active) this.page.analysis.learn.stop();
      return this.back();
    }
    if (this.fens.length <= ply) {
      try {
        this.fens = (await request('GET', `/api/games/${encodeURIComponent(this.page.id)}/positions`)).fens;
      } catch (e) {
        showError($('error'), e);
        return;
      }
    }
    if (!this.fens[ply]) return;
    if (this.page.analysis.learn.active) this.page.analysis.learn.stop();
    this.ply = ply;
    this.page.closePromotion();
    this.draw();
    announce(this.describe());
  }

  back() {
    const was = this.active;
    this.ply = null;
    this.page.render();
    if (was) announce(t('review_live'));
  }

  /** "Position after 3. Nf3." for the shown ply, the move in words after it. */
  describe() {
    if (this.ply === 0) return t('review_start');
    const m = this.page.state.moves[this.ply - 1];
    return `${t('review_at', { move: this.moveLabel(this.ply) })} ${moveWords(this.fens[this.ply - 1], m)}.`;
  }

  /** "3. Nf3" or "3… Nf6" for the move that made PLY. */
  moveLabel(ply) {
    const s = this.page.state;
    const start = (s.start_fen || '').split(' ');
    const blackFirst = start[1] === 'b';
    const startNo = Number(start[5] || 1);
    const idx = ply - 1 + (blackFirst ? 1 : 0);
    const no = startNo + Math.floor(idx / 2);
    const m = s.moves[ply - 1];
    const san = m[lang() === 'de' ? 'san_de' : 'san'] || m.san || m.uci;
    return idx % 2 === 0 ? `${no}. ${san}` : `${no}… ${san}`;
  }

  /** Draws the reviewed position, read-only, with the move that led to it highlighted. */
  draw() {
    const s = this.page.state;
    const fen = this.fens[this.ply];
    const m = this.ply > 0 ? s.moves[this.ply - 1] : null;
    const turn = fen.split(' ')[1] === 'b' ? 'black' : 'white';
    this.page.cg.set({
      fen,
      orientation: this.page.orientation,
      turnColor: turn,
      lastMove: m ? [m.uci.slice(0, 2), m.uci.slice(2, 4)] : undefined,
      check: m && /[+#]$/.test(m.san) ? turn : false,
      movable: { color: undefined, dests: new Map() },
      selected: undefined,
    });
    this.page.cg.selectSquare(null);
    this.page.keys.update();
    this.renderBar();
    this.markList();
    // The FEN field and the material follow the position shown (the clocks are not recorded per move).
    $('fen').value = fen;
    this.page.renderBars();
    this.page.analysis.showPly();
  }

  renderBar() {
    show($('review-bar'), this.active);
    if (this.active) $('review-text').textContent = this.describe();
    document.body.dataset.review = this.active ? String(this.ply) : '';
  }

  markList() {
    const shown = this.active ? this.ply : this.page.state.ply;
    for (const b of $('moves').querySelectorAll('button[data-ply]')) {
      if (Number(b.dataset.ply) === shown) b.setAttribute('aria-current', 'step');
      else b.removeAttribute('aria-current');
    }
  }

  /** The move list: one button per move, numbered as in the PGN. */
  renderMoves() {
    const s = this.page.state;
    const ol = $('moves');
    const focused = document.activeElement && ol.contains(document.activeElement) ? document.activeElement.dataset.ply : null;
    ol.textContent = '';
    ol.setAttribute('aria-label', t('moves_label'));
    const key = lang() === 'de' ? 'san_de' : 'san';
    // A game from a position with black to move starts its list with "1. …".
    const blackFirst = s.start_fen ? s.start_fen.split(' ')[1] === 'b' : false;
    const startNo = s.start_fen ? Number(s.start_fen.split(' ')[5] || 1) : 1;
    const moves = (s.moves || []).map((m, i) => ({ text: m[key] || m.san || m.uci, ply: i + 1 }));
    const cells = blackFirst ? [null, ...moves] : moves;
    for (let i = 0; i < cells.length; i += 2) {
      const li = document.createElement('li');
      li.value = startNo + i / 2;
      for (const mv of [cells[i], cells[i + 1]]) {
        if (mv === undefined) continue;
        if (mv === null) {
          const span = document.createElement('span');
          span.className = 'move';
          span.textContent = '…';
          li.append(span);
          continue;
        }
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'move';
        b.dataset.ply = String(mv.ply);
        b.textContent = mv.text;
        b.setAttribute('aria-label', this.moveLabel(mv.ply));
        if (mv.ply === s.ply) b.classList.add('last');
        li.append(b);
      }
      ol.append(li);
    }
    this.markList();
    if (focused) {
      const again = ol.querySelector(`button[data-ply="${focused}"]`);
      if (again) again.focus();
    }
    if (!this.active) ol.scrollTop = ol.scrollHeight;
    this.renderBar();
  }
}
