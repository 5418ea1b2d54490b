// The analysis board (/analysis): a position from ?fen= or ?pgn= (or #fen= / #pgn=), a game's moves
// from ?game=ID&ply=N, or whatever is pasted; moves by drag, click and keyboard, kept as a tree of
// variations (analysis-tree.js); the local engine in a Web Worker (analysis-engine.js) with an
// evaluation bar, its best lines and an arrow; the tree as PGN with comments. Every rule (legal moves,
// SAN, FEN, PGN) comes from libschach in WebAssembly (wasm/rules.js): without it the page says so and
// shows the text it was given.
import { Chessground } from '/vendor/chessground/dist/chessground.js';
import * as api from './api.js';
import { moveWords } from './board-keys.js';
import { lang, t, translateDom } from './i18n.js';
import { LocalEngine } from './analysis-engine.js';
import { PageKeys, PromotionChooser, sayIn } from './analysis-board.js';
import { START_FEN, Tree, formatScore, moveNumber, treeFromFen, treeFromPgn, whiteShare } from './analysis-tree.js';
import './strings-analysis.js';
import { gameState, loadRules, validateFen, writePgn } from './analysis-rules.js';
import { $, fragmentParams, show, showError } from './util.js';


/** The message of a libschach error in the page's language. */
export const reason = (error) => (error ? (lang() === 'de' ? error.de : error.en) || error.en || '' : '');

/** The address of the analysis board for FEN. */
export const analysisPath = (fen) => `/analysis?fen=${encodeURIComponent(fen)}`;

export async function initAnalysis() {
  const page = new AnalysisPage();
  await page.start();
  return page;
}

class AnalysisPage {
  constructor() {
    this.tree = null;
    this.current = null;
    this.state = null;
    this.orientation = 'white';
    this.engineOn = false;
    this.engineLines = [];
    this.pgnUrl = null;
  }

  async start() {
    const section = $('analysis-page');
    show(section, true);
    translateDom(section);
    document.title = `${t('an_title')} – ${t('app_title')}`;
    const q = new URLSearchParams(location.search);
    const frag = fragmentParams();
    const given = { fen: q.get('fen') ?? frag.fen, pgn: q.get('pgn') ?? frag.pgn, game: q.get('game'), ply: q.get('ply') };
    $('an-status').textContent = t('an_loading');
    const ok = await loadRules();
    if (!ok) return this.unavailable(given);
    section.dataset.rules = 'ready';
    this.makeBoard();
    this.bind();
    let loaded = null;
    if (given.game) loaded = await this.fromGame(given.game, given.ply);
    else if (given.pgn) loaded = treeFromPgn(given.pgn);
    else loaded = treeFromFen(given.fen || '');
    if (!loaded.tree) {
      // What was given stays in the loader's box with the reason; the board starts from the start.
      $('an-load-text').value = given.pgn || given.fen || '';
      $('an-load-box').open = true;
      showError($('an-load-error'), loaded.error ? new Error(reason(loaded.error)) : null);
      loaded = treeFromFen('');
    }
    this.setTree(loaded.tree, loaded.at);
  }

  /** Without WebAssembly: says so and shows what was given, nothing else. */
  unavailable(given) {
    $('analysis-page').dataset.rules = 'unavailable';
    $('an-status').textContent = '';
    const box = $('an-unavailable');
    box.textContent = t('an_unavailable');
    show(box, true);
    const text = given.pgn || given.fen || (given.game ? `/g/${given.game}` : START_FEN);
    $('an-given').value = text;
    show($('an-given-box'), true);
    show($('an-layout'), false);
    this.relabel = () => {
      box.textContent = t('an_unavailable');
    };
  }

  async fromGame(id, plyText) {
    let s;
    try {
      s = await api.getGame(id);
    } catch (e) {
      return { error: { en: t('an_game_error', { error: e.message }), de: t('an_game_error', { error: e.message }) } };
    }
    const chess960 = s.variant === 'chess960';
    const start = validateFen(s.start_fen || START_FEN);
    if (!start || !start.ok) return { error: start ? start.error : null };
    const tree = new Tree(start.fen, chess960);
    tree.tags = [['Site', `${location.origin}/g/${id}`]];
    let at = tree.root;
    for (const m of s.moves || []) {
      const r = tree.play(at, m.uci);
      if (!r.node) break;
      at = r.node;
    }
    const ply = plyText == null || plyText === '' ? Infinity : Math.max(0, Number(plyText) | 0);
    let n = tree.root;
    while (n.ply < ply && n.children.length) n = n.children[0];
    return { tree, at: n };
  }

  makeBoard() {
    this.cg = Chessground($('an-board'), {
      fen: START_FEN,
      coordinates: true,
      movable: { free: false, color: undefined, showDests: true, events: { after: (o, d) => this.onBoardMove(o, d) } },
      premovable: { enabled: false },
      draggable: { enabled: true, showGhost: true },
      selectable: { enabled: true },
      highlight: { lastMove: true, check: true },
      animation: { enabled: true, duration: 120 },
      drawable: { enabled: true },
      events: { select: () => setTimeout(() => this.keys.update(), 0) },
    });
    this.keys = new PageKeys($('an-frame'), this.cg, this.keyHandlers(), 'an_board_help');
    this.promotion = new PromotionChooser($('an-promotion'));
  }

  say(text) {
    sayIn($('an-announcer'), text);
  }

  keyHandlers() {
    const from = (sq) => (this.state ? this.state.moves.filter((m) => m.from === sq) : []);
    const cancel = () => {
      if (!this.cg.state.selected) return;
      this.cg.selectSquare(null);
      this.keys.update();
      this.say(t('pick_cancelled'));
    };
    const activate = (sq) => {
      const picked = this.cg.state.selected;
      if (picked && picked === sq) cancel();
      else if (picked && from(picked).some((m) => m.to === sq)) {
        this.byKey = true;
        this.cg.selectSquare(sq); // plays through chessground's after-event, as a click would
      } else if (from(sq).length) {
        this.cg.selectSquare(sq);
        const p = this.cg.state.pieces.get(sq);
        const n = from(sq).length;
        this.say(t(n === 1 ? 'picked_one' : 'picked', { piece: t('name_' + letterOf(p)), square: sq, n }));
      } else if (picked) cancel();
      this.keys.update();
    };
    return { activate, cancel, clocks: () => {} };
  }

  onBoardMove(orig, dest) {
    const cands = this.state.moves.filter((m) => m.from === orig && m.to === dest);
    if (!cands.length) return this.render();
    if (cands.some((m) => m.promotion)) {
      const byKey = this.byKey;
      this.byKey = false;
      this.promotion.show(this.state.turn, dest, this.orientation, (role) => {
        if (byKey) this.keys.focus();
        if (!role) return this.render();
        this.play(orig + dest + role);
      });
      return;
    }
    this.byKey = false;
    this.play(cands[0].uci);
  }

  /** Plays MOVE at the current node (a new variation when it has another continuation). */
  play(move) {
    const before = this.current;
    const r = this.tree.play(before, move);
    if (!r.node) {
      showError($('an-error'), r.error ? new Error(reason(r.error)) : null);
      return this.render();
    }
    showError($('an-error'), null);
    this.current = r.node;
    this.render();
    const words = moveWords(before.fen, { uci: r.node.uci, san: r.node.san });
    this.say(words + (r.variation && r.added ? ' ' + t('an_variation_new') : ''));
  }

  setTree(tree, at) {
    this.tree = tree;
    this.current = at || tree.root;
    this.render();
  }

  goTo(n, focusList = false) {
    if (!n) return;
    this.current = n;
    this.render();
    this.say(n.parent ? `${this.moveLabel(n)}` : t('an_at_start'));
    if (focusList) {
      const b = document.querySelector(`#an-moves [data-id="${n.id}"]`);
      if (b) b.focus();
    }
  }

  /** "12. Nf3" / "12… Nf6" in the page's language. */
  moveLabel(n, withNumber = true) {
    const mn = moveNumber(this.tree.root.fen, n);
    const san = lang() === 'de' ? n.san_de : n.san;
    if (!withNumber) return san;
    return `${mn.number}${mn.white ? '.' : '\u2026'} ${san}`;
  }

  bind() {
    $('an-first').addEventListener('click', () => this.goTo(this.tree.root));
    $('an-prev').addEventListener('click', () => this.goTo(this.current.parent));
    $('an-next').addEventListener('click', () => this.goTo(this.current.children[0]));
    $('an-last').addEventListener('click', () => this.goTo(this.tree.lineEnd(this.current)));
    $('an-flip').addEventListener('click', () => {
      this.orientation = this.orientation === 'white' ? 'black' : 'white';
      this.cg.set({ orientation: this.orientation });
      // White's share of the bar stays on White's side of the board.
      $('an-evalbar').classList.toggle('flipped', this.orientation === 'black');
      this.keys.update();
    });
    $('an-promote').addEventListener('click', () => {
      if (this.tree.promote(this.current)) {
        this.render();
        this.say(t('an_promoted'));
      }
    });
    $('an-delete').addEventListener('click', () => {
      const parent = this.tree.remove(this.current);
      if (parent) {
        this.current = parent;
        this.render();
        this.say(t('an_deleted'));
      }
    });
    $('an-comment').addEventListener('input', () => {
      this.current.comment = $('an-comment').value;
      this.renderMoves();
      this.renderPgn();
    });
    $('an-engine').addEventListener('change', () => this.setEngine($('an-engine').checked));
    $('an-multipv').addEventListener('change', () => {
      if (this.engineOn) this.analyse();
    });
    $('an-load').addEventListener('click', () => this.loadText());
    // The moves by keyboard: arrows, Home and End anywhere but in a text field, a list or the board.
    document.addEventListener('keydown', (e) => {
      if ($('analysis-page').hidden || e.altKey || e.ctrlKey || e.metaKey || this.promotion.open) return;
      const tg = e.target;
      if (tg && tg.closest && tg.closest('input, textarea, select, #board-grid, [contenteditable]')) return;
      const inList = !!(tg && tg.closest && tg.closest('#an-moves'));
      const go = {
        ArrowLeft: () => this.current.parent,
        ArrowRight: () => this.current.children[0],
        Home: () => this.tree.root,
        End: () => this.tree.lineEnd(this.current),
      }[e.key];
      if (!go) return;
      e.preventDefault();
      this.goTo(go(), inList);
    });
  }

  loadText() {
    const text = $('an-load-text').value.trim();
    let r = null;
    const looksFen = !/\n/.test(text) && /^[^\s[]*\/[^\s]*\/[^\s]*/.test(text);
    if (!text || looksFen) r = treeFromFen(text);
    else r = treeFromPgn(text);
    if (!r.tree) {
      showError($('an-load-error'), new Error(reason(r.error)));
      $('an-load-text').focus();
      return;
    }
    showError($('an-load-error'), null);
    this.setTree(r.tree);
  }

  setEngine(on) {
    this.engineOn = on;
    if (!this.engine) this.engine = new LocalEngine((lines, fen, over) => this.onLines(lines, fen, over), (s) => this.onEngineState(s));
    show($('an-engine-box'), on);
    show($('an-evalbar'), on);
    if (on) this.analyse();
    else {
      this.engine.stop();
      this.engineLines = [];
      this.cg.setAutoShapes([]);
      $('an-frame').dataset.best = '';
    }
  }

  onEngineState(s) {
    $('analysis-page').dataset.engine = s;
    if (s === 'starting') $('an-engine-state').textContent = t('an_engine_starting');
    if (s === 'unavailable') {
      $('an-engine-state').textContent = t('an_engine_unavailable');
      $('an-engine').checked = false;
      this.engineOn = false;
    }
  }

  analyse() {
    this.engineLines = [];
    this.renderLines();
    if (!this.state || !this.state.moves.length) {
      $('an-engine-state').textContent = t('an_engine_over');
      this.cg.setAutoShapes([]);
      return;
    }
    this.engine.analyse(this.current.fen, Number($('an-multipv').value) || 1, this.tree.chess960);
  }

  onLines(lines, fen, over) {
    if (!this.engineOn || fen !== this.current.fen) return;
    this.engineLines = lines;
    if (over) $('an-engine-state').textContent = t('an_engine_over');
    this.renderLines();
  }

  renderLines() {
    const ol = $('an-lines');
    ol.textContent = '';
    const lines = this.engineLines;
    const turn = this.state ? this.state.turn : 'white';
    const best = lines[0];
    const bar = $('an-evalbar');
    const share = whiteShare(best && best.score, turn);
    bar.querySelector('.evalbar-white').style.height = `${(share * 100).toFixed(1)}%`;
    if (!best) {
      if (this.engineOn && this.engine && this.engine.ready && this.state && this.state.moves.length) $('an-engine-state').textContent = t('an_engine_starting');
      this.cg.setAutoShapes([]);
      $('an-frame').dataset.best = '';
      return;
    }
    $('an-engine-state').textContent = t('an_engine_depth', { depth: best.depth });
    const de = lang() === 'de';
    lines.forEach((l, i) => {
      const li = document.createElement('li');
      const score = formatScore(l.score, turn, lang());
      const s = document.createElement('span');
      s.className = 'an-score';
      s.textContent = score;
      const d = document.createElement('span');
      d.className = 'an-depth';
      d.textContent = t('an_engine_depth', { depth: l.depth });
      const mv = document.createElement('span');
      mv.className = 'an-pv';
      const sans = (de ? l.san_de : l.san) || l.pv;
      mv.textContent = pvText(this.tree.root.fen, this.current, sans.slice(0, 12));
      li.append(s, ' ', mv, ' ', d);
      li.dataset.score = score;
      ol.append(li);
      if (i === 0) $('an-eval-text').textContent = t('an_eval_label', { score });
    });
    const uci = best.pv[0];
    this.cg.setAutoShapes([{ orig: uci.slice(0, 2), dest: uci.slice(2, 4), brush: 'paleBlue' }]);
    $('an-frame').dataset.best = uci;
  }

  render() {
    const n = this.current;
    const r = gameState(n.fen, [], { chess960: this.tree.chess960 });
    this.state = r && r.ok ? r.state : { turn: 'white', moves: [], check: false };
    const s = this.state;
    const dests = new Map();
    for (const m of s.moves) {
      if (!dests.has(m.from)) dests.set(m.from, []);
      if (!dests.get(m.from).includes(m.to)) dests.get(m.from).push(m.to);
    }
    this.cg.set({
      fen: n.fen,
      orientation: this.orientation,
      turnColor: s.turn,
      lastMove: n.uci ? [n.uci.slice(0, 2), n.uci.slice(2, 4)] : undefined,
      check: s.check ? s.turn : false,
      movable: { free: false, color: s.moves.length ? s.turn : undefined, dests },
    });
    this.cg.setAutoShapes([]);
    this.keys.update();
    let status = t(s.turn === 'white' ? 'an_turn_white' : 'an_turn_black');
    if (s.checkmate) status = t('an_mate');
    else if (s.stalemate) status = t('an_stalemate');
    else if (s.check) status = `${t('an_check')} ${status}`;
    $('an-status').textContent = status;
    $('an-fen').value = n.fen;
    $('an-editor-link').href = `/editor?fen=${encodeURIComponent(n.fen)}`;
    $('an-comment').value = n.comment || '';
    $('an-comment-label').textContent = t(n.parent ? 'an_comment' : 'an_comment_root');
    $('an-promote').disabled = this.tree.onMainLine(n);
    $('an-delete').disabled = !n.parent;
    $('an-prev').disabled = $('an-first').disabled = !n.parent;
    $('an-next').disabled = $('an-last').disabled = !n.children.length;
    const page = $('analysis-page');
    page.dataset.fen = n.fen;
    page.dataset.ply = String(n.ply);
    this.renderMoves();
    this.renderPgn();
    if (this.engineOn) this.analyse();
  }

  renderMoves() {
    const box = $('an-moves');
    box.textContent = '';
    if (!this.tree.root.children.length && !this.tree.root.comment) {
      const p = document.createElement('p');
      p.className = 'an-empty';
      p.textContent = t('an_no_moves');
      box.append(p);
      return;
    }
    if (this.tree.root.comment) box.append(commentEl(this.tree.root.comment));
    this.renderLine(box, this.tree.root, true);
  }

  moveButton(n, withNumber) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'an-move';
    b.dataset.id = String(n.id);
    b.dataset.uci = n.uci;
    b.textContent = this.moveLabel(n, withNumber || moveNumber(this.tree.root.fen, n).white);
    if (n === this.current) b.setAttribute('aria-current', 'true');
    b.addEventListener('click', () => this.goTo(n));
    return b;
  }

  /** The line after FROM: its first children one after the other, each followed by the variations
   *  that are alternatives to it, in brackets. */
  renderLine(box, from, number) {
    let p = from;
    let needNumber = number;
    while (p.children.length) {
      const [main, ...alts] = p.children;
      box.append(this.moveButton(main, needNumber), ' ');
      needNumber = false;
      if (main.comment) {
        box.append(commentEl(main.comment), ' ');
        needNumber = true;
      }
      for (const a of alts) {
        const v = document.createElement('span');
        v.className = 'an-variation';
        v.append('(', this.moveButton(a, true), ' ');
        if (a.comment) v.append(commentEl(a.comment), ' ');
        this.renderLine(v, a, !!a.comment);
        v.append(')');
        box.append(v, ' ');
        needNumber = true;
      }
      p = main;
    }
  }

  renderPgn() {
    const r = writePgn(this.tree.toPgnTree(), { lang: lang() });
    const text = r && r.ok ? r.pgn : '';
    $('an-pgn').value = text;
    if (this.pgnUrl) URL.revokeObjectURL(this.pgnUrl);
    this.pgnUrl = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
    $('an-download').href = this.pgnUrl;
  }

  relabel() {
    document.title = `${t('an_title')} – ${t('app_title')}`;
    this.render();
  }
}

/** A chessground piece's letter: "n" for a knight, "k" for a king, … */
export const letterOf = (p) => (p ? (p.role === 'knight' ? 'n' : p.role[0]) : 'p');

function commentEl(text) {
  const c = document.createElement('span');
  c.className = 'an-comment';
  c.textContent = text;
  return c;
}

/** A line of SAN moves played from node AT, with move numbers. */
function pvText(rootFen, at, sans) {
  const out = [];
  let ply = at.ply;
  sans.forEach((san, i) => {
    ply++;
    const mn = moveNumber(rootFen, { ply });
    if (mn.white) out.push(`${mn.number}.`);
    else if (i === 0) out.push(`${mn.number}\u2026`);
    out.push(san);
  });
  return out.join(' ');
}
