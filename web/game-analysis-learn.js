// "Learn from your mistakes" on an analysed game (game-analysis.js): the positions before the chosen
// side's mistakes and blunders (inaccuracies when asked) one after the other; the player tries a move
// on the board or types it; a try counts when it loses less than 0.1 winning chances against the best
// play (the inaccuracy threshold of docs/analysis.md), as the engine in WebAssembly judges it
// (web/wasm/engine-worker.js, 200,000 nodes per position); without WebAssembly only the analysis' best
// move counts. The second miss shows the engine's move. Everything is said in an aria-live region.
import { announce } from './board-keys.js';
import { colorName, lang, t } from './i18n.js';
import { request } from './api.js';
import { loadRulesModule } from './game-analysis.js';
import './strings-game-analysis.js';
import { $, show } from './util.js';

const NODES = 200000;
const THRESHOLD = 0.1;

/** The mover's winning chances (−1…1) of an engine score ({cp} or {mate}) from the mover's view. */
function chances(score) {
  let cp;
  if (typeof score.mate === 'number') cp = score.mate > 0 ? 1000 : -1000;
  else cp = Math.max(-1000, Math.min(1000, score.cp || 0));
  return 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
}

/** The engine in a worker, one search at a time: search(fen, moves) → the side to move's score. */
class LocalEngine {
  constructor() {
    this.ready = new Promise((resolve) => {
      let w;
      try {
        w = new Worker('/wasm/engine-worker.js', { type: 'module' });
      } catch (_) {
        resolve(false);
        return;
      }
      this.worker = w;
      this.waiting = null;
      w.onmessage = (e) => this.receive(e.data, resolve);
      w.onerror = () => resolve(false);
      w.postMessage({ type: 'init' });
    });
    this.nextId = 1;
    this.queue = Promise.resolve();
  }

  receive(msg, ready) {
    if (!msg) return;
    if (msg.type === 'ready') return ready(true);
    if (msg.type === 'unavailable') return ready(false);
    const w = this.waiting;
    if (!w || msg.id !== w.id) return;
    if (msg.type === 'info' && msg.score && (msg.multipv || 1) === 1) w.score = msg.score;
    else if (msg.type === 'bestmove' || msg.type === 'error') {
      this.waiting = null;
      w.resolve(msg.type === 'bestmove' ? w.score : null);
    }
  }

  /** The score ({cp}|{mate}, the side to move's view) of FEN after MOVES, or null. */
  search(fen, moves) {
    const run = async () => {
      if (!(await this.ready)) return null;
      return new Promise((resolve) => {
        const id = this.nextId++;
        this.waiting = { id, resolve, score: null };
        this.worker.postMessage({ type: 'position', fen, moves });
        this.worker.postMessage({ type: 'go', nodes: NODES, id });
      });
    };
    this.queue = this.queue.then(run, run);
    return this.queue;
  }
}

export class Learn {
  constructor(ga) {
    this.ga = ga;
    this.active = false;
    this.engine = null;
    $('learn-start').addEventListener('click', () => this.start());
    $('learn-next').addEventListener('click', () => this.next());
    $('learn-stop').addEventListener('click', () => this.stop());
    $('learn-form').addEventListener('submit', (e) => {
      e.preventDefault();
      const text = $('learn-input').value.trim();
      if (text) this.tryText(text);
    });
  }

  get ctrl() {
    return this.ga.ctrl;
  }

  /** The side to practise: the one this browser holds, else the one chosen. */
  side() {
    const held = this.ctrl.held();
    return held.length === 1 ? held[0] : $('learn-side').value;
  }

  /** The controls once the analysis is done. */
  render() {
    const held = this.ctrl.held();
    show($('learn-side-label'), held.length !== 1);
    show($('learn-controls'), !!this.ga.done);
  }

  relabel() {
    if (this.active) this.say(this.lastWords ? this.lastWords() : '');
  }

  targets() {
    const a = this.ga.done;
    if (!a) return [];
    const s = this.ctrl.state;
    const blackFirst = !!(s.start_fen && s.start_fen.split(' ')[1] === 'b');
    const side = this.side();
    const kinds = $('learn-inaccuracies').checked ? ['inaccuracy', 'mistake', 'blunder'] : ['mistake', 'blunder'];
    return a.moves.filter((m) => {
      const mover = (m.ply - 1 + (blackFirst ? 1 : 0)) % 2 === 0 ? 'white' : 'black';
      return mover === side && kinds.includes(m.judgement) && m.best;
    });
  }

  async start() {
    const list = this.targets();
    if (!list.length) {
      this.say(t('ga_learn_none', { color: colorName(this.side()) }));
      show($('learn-panel'), true);
      show($('learn-form'), false);
      show($('learn-next'), false);
      return;
    }
    const r = this.ctrl.review;
    if (r.fens.length <= this.ctrl.state.ply) {
      try {
        r.fens = (await request('GET', `/api/games/${encodeURIComponent(this.ctrl.id)}/positions`)).fens;
      } catch (e) {
        this.ga.error(e.message);
        return;
      }
    }
    this.rules = await loadRulesModule();
    if (!this.engine && this.rules && typeof Worker === 'function') this.engine = new LocalEngine();
    this.list = list;
    this.index = 0;
    this.found = 0;
    r.ply = null;
    this.active = true;
    document.body.dataset.learn = 'on';
    show($('learn-panel'), true);
    this.ctrl.closePromotion();
    this.enter();
  }

  stop() {
    this.active = false;
    document.body.dataset.learn = '';
    show($('learn-panel'), false);
    this.ctrl.cg.setAutoShapes([]);
    this.ctrl.render();
    $('learn-start').focus();
  }

  /** The current target's position, ready for a try. */
  enter() {
    this.misses = 0;
    this.settled = false;
    this.afterFen = null;
    const m = this.list[this.index];
    document.body.dataset.learnPly = String(m.ply);
    show($('learn-form'), true);
    show($('learn-next'), false);
    $('learn-input').value = '';
    $('learn-input').disabled = false;
    this.draw();
    const words = () =>
      t('ga_learn_position', {
        i: this.index + 1,
        n: this.list.length,
        move: this.ctrl.review.moveLabel(m.ply),
        judgement: t('ga_' + m.judgement),
        color: colorName(this.side()),
      }) + (this.engine ? '' : ' ' + t('ga_learn_no_engine'));
    this.lastWords = words;
    this.say(words());
  }

  /** The position on the board while learning (the FEN field and the material follow it). */
  shownFen() {
    return this.afterFen || this.fen;
  }

  get fen() {
    return this.ctrl.review.fens[this.list[this.index].ply - 1];
  }

  /** The position before the bad move, the side to move free to try (game-view.js calls this while
   *  learning instead of drawing the live position). */
  draw() {
    if (!this.active) return;
    const fen = this.afterFen || this.fen;
    const m = this.list[this.index];
    const side = this.side();
    const dests = new Map();
    const legal = this.rules && !this.settled ? this.rules.legalMoves(this.fen, []) : null;
    if (legal) for (const mv of legal) dests.set(mv.from, [...(dests.get(mv.from) || []), mv.to]);
    const prev = m.ply > 1 ? this.ctrl.state.moves[m.ply - 2] : null;
    this.ctrl.cg.set({
      fen,
      orientation: side,
      turnColor: fen.split(' ')[1] === 'b' ? 'black' : 'white',
      lastMove: this.afterFen ? this.lastMove : prev ? [prev.uci.slice(0, 2), prev.uci.slice(2, 4)] : undefined,
      check: false,
      movable: { free: !legal && !this.settled, color: this.settled ? undefined : side, dests },
      selected: undefined,
    });
    this.ctrl.cg.setAutoShapes(this.shapes || []);
    this.ctrl.keys.update();
    $('fen').value = fen;
    this.ctrl.renderBars();
  }

  onBoardMove(orig, dest) {
    if (this.settled || this.checking) return this.draw();
    let uci = orig + dest;
    const legal = this.rules ? this.rules.legalMoves(this.fen, []) : null;
    if (legal) {
      // A pawn onto the last rank: a queen (the keyboard or the text field names another piece).
      const mv = legal.find((x) => x.uci === uci + 'q') || legal.find((x) => x.uci === uci || (x.from === orig && x.to === dest));
      if (mv) uci = mv.uci;
    }
    this.judge(uci, null);
  }

  tryText(text) {
    if (this.settled || this.checking) return;
    if (this.rules) {
      const r = this.rules.playMove(this.fen, text, []);
      if (!r || !r.ok) return this.say(t('ga_learn_illegal', { move: text }));
      return this.judge(r.move.uci, r.move);
    }
    // Without the rules: the analysis' best move, by its SAN or UCI.
    const m = this.list[this.index];
    const plain = (x) => String(x || '').replace(/[+#!?]/g, '');
    this.judge(plain(text) === plain(m.best_san) || text === m.best ? m.best : text, null);
  }

  /** Judges the try UCI (MOVE: rules.js' move when known). */
  async judge(uci, move) {
    const m = this.list[this.index];
    const played = this.ctrl.state.moves[m.ply - 1];
    const name = this.sanOf(uci, move);
    if (uci === m.best) return this.good(uci, name, true);
    if (played && uci === played.uci) return this.miss(t('ga_learn_played', { move: name }));
    if (!this.engine || !this.rules) return this.miss(t('ga_learn_wrong', { move: name }));
    this.checking = true;
    this.say(t('ga_learn_checking'));
    const fen = this.fen;
    const after = this.rules.playMove(fen, uci, []);
    let ok = false;
    if (after && after.ok) {
      const st = after.state;
      let afterScore;
      if (st.checkmate) afterScore = { mate: 1 };
      else if (st.outcome) afterScore = { cp: 0 };
      else {
        const s = await this.engine.search(fen, [uci]);
        afterScore = s ? (typeof s.mate === 'number' ? { mate: -s.mate } : { cp: -s.cp }) : null;
      }
      const before = await this.bestScore(fen);
      if (afterScore && before) ok = chances(before) - chances(afterScore) < THRESHOLD;
    }
    this.checking = false;
    if (!this.active || this.list[this.index] !== m) return;
    if (ok) this.good(uci, name, false);
    else this.miss(t('ga_learn_wrong', { move: name }));
  }

  /** The engine's score of the position before the bad move (searched once per position). */
  async bestScore(fen) {
    this.bestCache = this.bestCache || new Map();
    if (!this.bestCache.has(fen)) this.bestCache.set(fen, await this.engine.search(fen, []));
    return this.bestCache.get(fen);
  }

  sanOf(uci, move) {
    const mv = move || (this.rules ? (this.rules.legalMoves(this.fen, []) || []).find((x) => x.uci === uci) : null);
    if (!mv) return uci;
    return lang() === 'de' ? mv.san_de : mv.san;
  }

  good(uci, name, best) {
    this.found++;
    this.settle(uci);
    const m = this.list[this.index];
    this.say(best ? t('ga_learn_good_best', { move: name }) : t('ga_learn_good', { move: name, best: m.best_san }));
    document.body.dataset.learnResult = 'good';
  }

  miss(text) {
    this.misses++;
    const m = this.list[this.index];
    if (this.misses < 2) {
      this.draw();
      document.body.dataset.learnResult = 'miss';
      this.say(text);
      return;
    }
    this.settle(m.best);
    this.say(t('ga_learn_shown', { best: m.best_san }));
    document.body.dataset.learnResult = 'shown';
  }

  /** The position after UCI with its arrow; the try is over, "Next mistake" takes the focus. */
  settle(uci) {
    this.settled = true;
    const r = this.rules ? this.rules.playMove(this.fen, uci, []) : null;
    this.afterFen = r && r.ok ? r.state.fen : null;
    this.lastMove = [uci.slice(0, 2), uci.slice(2, 4)];
    this.shapes = [{ orig: uci.slice(0, 2), dest: uci.slice(2, 4), brush: 'green' }];
    this.draw();
    this.shapes = [];
    $('learn-input').disabled = true;
    show($('learn-next'), true);
    $('learn-next').textContent = t(this.index + 1 < this.list.length ? 'ga_learn_next' : 'ga_learn_finish');
    $('learn-next').focus();
  }

  next() {
    if (this.index + 1 >= this.list.length) {
      const n = this.list.length;
      const good = this.found;
      this.stop();
      this.say(t('ga_learn_done', { n, good }), true);
      return;
    }
    this.index++;
    this.enter();
    $('learn-input').focus();
  }

  /** TEXT in the learning's live region (and the page's announcer). */
  say(text, keep = false) {
    $('learn-status').textContent = text;
    if (keep) show($('learn-panel'), true), show($('learn-form'), false), show($('learn-next'), false);
    announce(text);
  }
}
