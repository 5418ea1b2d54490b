// The board editor (/editor): pieces put and removed from a palette (click a piece, then squares; or
// drag it onto the board), moved and dragged off on the board itself (chessground's free mode), the side
// to move, castling rights and the en passant square; the FEN field follows the board and the board the
// FEN field. libschach in WebAssembly (wasm/rules.js validateFen) says whether the position is legal,
// and why not, in the page's language. From a legal position: a game against a friend or the computer
// (POST /api/games with the FEN, the secret kept in storage as on the home page), or the analysis board.
import { Chessground } from '/vendor/chessground/dist/chessground.js';
import * as api from './api.js';
import { lang, levelName, t, translateDom } from './i18n.js';
import { PageKeys, sayIn } from './analysis-board.js';
import { analysisPath, letterOf, reason } from './analysis.js';
import { START_FEN } from './analysis-tree.js';
import './strings-analysis.js';
import './strings-game.js';
import { gameState, loadRules, validateFen } from './analysis-rules.js';
import { gameAddress, saveGame } from './storage.js';
import { $, show, showError } from './util.js';

const ROLES = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'];
const PLACEMENT = /^([pnbrqkPNBRQK1-8]+\/){7}[pnbrqkPNBRQK1-8]+$/;

export async function initEditor() {
  const page = new EditorPage();
  await page.start();
  return page;
}

class EditorPage {
  constructor() {
    this.tool = 'move';
    this.picked = null;
    this.counters = '0 1';
    this.legal = false;
    this.rules = false;
  }

  async start() {
    const section = $('editor-page');
    show(section, true);
    translateDom(section);
    document.title = `${t('ed_title')} – ${t('app_title')}`;
    this.makeBoard();
    this.makePalette();
    this.bind();
    const given = new URLSearchParams(location.search).get('fen');
    this.rules = await loadRules();
    section.dataset.rules = this.rules ? 'ready' : 'unavailable';
    this.loadLevels();
    this.setFen(given || START_FEN, true);
  }

  makeBoard() {
    this.cg = Chessground($('ed-board'), {
      fen: START_FEN,
      coordinates: true,
      movable: { free: true, color: 'both', showDests: false },
      premovable: { enabled: false },
      draggable: { enabled: true, showGhost: true, deleteOnDropOff: true },
      selectable: { enabled: true },
      highlight: { lastMove: false, check: false },
      animation: { enabled: false },
      drawable: { enabled: false },
      events: { change: () => this.fromBoard() },
    });
    this.keys = new PageKeys($('ed-frame'), this.cg, this.keyHandlers(), 'ed_board_help');
    // With a piece or the remover chosen, a press on a square puts or removes instead of moving.
    const down = (e) => {
      if (this.tool === 'move') return;
      if (e.button !== undefined && e.button !== 0) return;
      this.cg.state.dom.bounds.clear();
      const p = (e.touches && e.touches[0]) || e;
      const key = this.cg.getKeyAtDomPos([p.clientX, p.clientY]);
      if (!key) return;
      e.stopPropagation();
      e.preventDefault();
      this.apply(key);
    };
    $('ed-board').addEventListener('mousedown', down, true);
    $('ed-board').addEventListener('touchstart', down, { capture: true, passive: false });
  }

  makePalette() {
    const box = $('ed-palette');
    box.textContent = '';
    const tools = [
      { id: 'move', key: 'ed_tool_move', mark: '\u2725' },
      { id: 'trash', key: 'ed_tool_trash', mark: '\u2716' },
    ];
    this.buttons = [];
    const add = (parent, tool, content, labelKey, params) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'ed-tool';
      b.dataset.tool = tool;
      b.append(content);
      b.label = () => t(labelKey, params ? params() : {});
      parent.append(b);
      this.buttons.push(b);
      b.addEventListener('click', () => this.choose(tool));
      return b;
    };
    const row0 = document.createElement('div');
    row0.className = 'ed-row';
    for (const x of tools) {
      const s = document.createElement('span');
      s.className = 'ed-mark';
      s.setAttribute('aria-hidden', 'true');
      s.textContent = x.mark;
      add(row0, x.id, s, x.key);
    }
    box.append(row0);
    for (const color of ['white', 'black']) {
      const row = document.createElement('div');
      row.className = 'ed-row';
      for (const role of ROLES) {
        const piece = document.createElement('piece');
        piece.className = `${color} ${role}`;
        const b = add(row, `${color}-${role}`, piece, 'ed_put', () => ({ piece: t(`piece_${color}_${letterOf({ role })}`) }));
        // Dragged from the palette onto the board (chessground places it where it is dropped).
        const drag = (e) => {
          if (e.button !== undefined && e.button !== 0) return;
          this.choose(`${color}-${role}`);
          this.cg.dragNewPiece({ color, role }, e, true);
        };
        b.addEventListener('mousedown', drag);
        b.addEventListener('touchstart', drag, { passive: false });
      }
      box.append(row);
    }
    this.relabelPalette();
  }

  relabelPalette() {
    for (const b of this.buttons) {
      const label = b.label();
      b.setAttribute('aria-label', label);
      b.title = label;
      b.setAttribute('aria-pressed', b.dataset.tool === this.tool ? 'true' : 'false');
    }
  }

  choose(tool) {
    this.tool = tool;
    this.picked = null;
    this.relabelPalette();
    $('editor-page').dataset.tool = tool;
  }

  say(text) {
    sayIn($('ed-announcer'), text);
  }

  /** Puts the chosen piece on KEY or empties it (the remover). */
  apply(key) {
    if (this.tool === 'trash') {
      this.cg.setPieces(new Map([[key, undefined]]));
      this.say(t('ed_removed', { square: key }));
    } else if (this.tool !== 'move') {
      const [color, role] = this.tool.split('-');
      this.cg.setPieces(new Map([[key, { color, role }]]));
      this.say(t('ed_put_done', { piece: t(`piece_${color}_${letterOf({ role })}`), square: key }));
    }
    this.fromBoard();
  }

  keyHandlers() {
    const name = (p) => t(`piece_${p.color}_${letterOf(p)}`);
    const activate = (sq) => {
      if (this.tool !== 'move') return this.apply(sq);
      const here = this.cg.state.pieces.get(sq);
      if (!this.picked) {
        if (!here) return;
        this.picked = sq;
        this.cg.selectSquare(sq);
        this.say(t('ed_picked', { piece: name(here), square: sq }));
      } else {
        const from = this.picked;
        const p = this.cg.state.pieces.get(from);
        this.picked = null;
        this.cg.selectSquare(null);
        if (p && from !== sq) {
          this.cg.setPieces(new Map([[from, undefined], [sq, p]]));
          this.say(t('ed_moved', { piece: name(p), square: sq }));
          this.fromBoard();
        }
      }
      this.keys.update();
    };
    const cancel = () => {
      this.picked = null;
      this.cg.selectSquare(null);
      this.keys.update();
    };
    return { activate, cancel, clocks: () => {} };
  }

  bind() {
    for (const el of document.querySelectorAll('#ed-side input, #ed-castling input, #ed-ep')) el.addEventListener('change', () => this.fromBoard());
    $('ed-fen').addEventListener('input', () => this.setFen($('ed-fen').value, false));
    $('ed-start').addEventListener('click', () => this.setFen(START_FEN, true));
    $('ed-clear').addEventListener('click', () => this.setFen('8/8/8/8/8/8/8/8 w - - 0 1', true));
    $('ed-flip').addEventListener('click', () => {
      this.cg.toggleOrientation();
      this.keys.update();
    });
    $('ed-play-friend').addEventListener('click', () => this.create('friend'));
    $('ed-play-computer').addEventListener('click', () => this.create('computer'));
    $('ed-analyse').addEventListener('click', () => {
      if (this.legal) location.assign(analysisPath(this.fen));
    });
  }

  loadLevels() {
    api.getLevels().then(
      (r) => {
        this.levels = r.levels || [];
        this.fillLevels();
      },
      () => {},
    );
  }

  fillLevels() {
    const select = $('ed-level');
    const chosen = select.value || 'club';
    select.textContent = '';
    for (const l of this.levels || []) {
      const o = document.createElement('option');
      o.value = l.id;
      o.textContent = l.elo ? t('level_elo', { name: levelName(l), elo: l.elo }) : levelName(l);
      select.append(o);
    }
    if ((this.levels || []).some((l) => l.id === chosen)) select.value = chosen;
  }

  /** The FEN of what the form and the board show. */
  buildFen() {
    const side = $('ed-side').querySelector('input:checked').value;
    const castling = [...document.querySelectorAll('#ed-castling input')]
      .filter((c) => c.checked)
      .map((c) => c.value)
      .join('');
    return `${this.cg.getFen()} ${side} ${castling || '-'} ${$('ed-ep').value} ${this.counters}`;
  }

  /** The board or a field changed: the FEN field follows. */
  fromBoard() {
    const fen = this.buildFen();
    $('ed-fen').value = fen;
    this.check(fen);
    this.keys.update();
  }

  /** FEN typed (or given): the board and the fields follow what can be read of it; the check says
   *  whether it is legal. WRITE puts it into the FEN field too. */
  setFen(text, write) {
    const f = String(text).trim().split(/\s+/);
    if (PLACEMENT.test(f[0] || '')) this.cg.set({ fen: f[0] });
    const side = f[1] === 'b' ? 'b' : 'w';
    for (const r of $('ed-side').querySelectorAll('input')) r.checked = r.value === side;
    const castling = f[2] || '-';
    for (const c of document.querySelectorAll('#ed-castling input')) c.checked = castling.includes(c.value);
    const ep = $('ed-ep');
    ep.value = [...ep.options].some((o) => o.value === f[3]) ? f[3] : '-';
    this.counters = /^\d+$/.test(f[4] || '') && /^\d+$/.test(f[5] || '') ? `${f[4]} ${f[5]}` : '0 1';
    if (write) $('ed-fen').value = String(text).trim();
    this.check(String(text).trim());
    this.keys.update();
  }

  /** Whether FEN is legal (libschach's reason when not), and whether a game can start from it. */
  check(fen) {
    const status = $('ed-status');
    let playable = false;
    this.legal = false;
    if (!this.rules) {
      status.textContent = t('ed_unavailable');
      playable = true;
    } else {
      const r = validateFen(fen);
      if (r && r.ok) {
        this.legal = true;
        this.fen = r.fen;
        const st = gameState(r.fen, []);
        const outcome = st && st.ok ? st.state.outcome : null;
        if (outcome) status.textContent = t('ed_over', { reason: lang() === 'de' ? outcome.de : outcome.en });
        else status.textContent = t('ed_legal');
        playable = !outcome;
        status.dataset.error = '';
      } else {
        status.textContent = t('ed_illegal', { reason: reason(r && r.error) });
        status.dataset.error = r && r.error ? r.error.name || 'error' : 'error';
      }
    }
    this.fen = this.legal ? this.fen : fen;
    status.dataset.legal = this.legal ? 'true' : 'false';
    $('ed-play-friend').disabled = !playable;
    $('ed-play-computer').disabled = !playable;
    $('ed-analyse').disabled = !this.legal;
    this.lastText = fen;
  }

  /** A game from this position (MODE friend or computer) through the API, as the home page makes one:
   *  the secret goes to the browser's storage, never into the address. */
  async create(mode) {
    const color = document.querySelector('#ed-color input:checked').value;
    const body = { mode, color, time: { type: 'none' }, fen: this.fen };
    if (mode === 'computer') body.level = $('ed-level').value || 'club';
    showError($('ed-error'), null);
    $('ed-play-friend').disabled = $('ed-play-computer').disabled = true;
    try {
      const r = await api.createGame(body);
      saveGame(r.id, { secrets: { [r.color]: r.secret }, invite: r.invite || null });
      location.assign(gameAddress(r.id));
    } catch (e) {
      showError($('ed-error'), e);
      this.check(this.lastText);
    }
  }

  relabel() {
    document.title = `${t('ed_title')} – ${t('app_title')}`;
    this.relabelPalette();
    this.fillLevels();
    this.check(this.lastText || this.buildFen());
    this.keys.update();
  }
}
