// The computer analysis on the game page (issue 23; docs/api.md "Analysis"): after the end, "Request
// computer analysis" (POST /api/games/{id}/analysis), its place in the queue and its progress from the
// answer and the game's WebSocket ({"type":"analysis"}, game-socket.js), else by asking again every
// 2 s; once done (or at once when the game has one) the evaluation graph (game-analysis-graph.js), the
// judged moves marked in the move list, the better move of the move in review with its arrow, the
// summary and accuracy per side, the annotated PGN to download, the link to the analysis board at the
// move shown and "Learn from your mistakes" (game-analysis-learn.js).
import { request } from './api.js';
import { colorName, lang, t } from './i18n.js';
import { EvalGraph } from './game-analysis-graph.js';
import { Learn } from './game-analysis-learn.js';
import { annotatePgn } from './game-analysis-pgn.js';
import './strings-game-analysis.js';
import { $, show } from './util.js';

const POLL_MS = 2000;
const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** rules.js from the server's /wasm/ folder (not bundled: it loads schach.wasm beside itself). */
export function loadRulesModule() {
  const url = '/wasm/rules.js';
  if (!loadRulesModule.p) {
    loadRulesModule.p = import(url).then(
      async (m) => ((await m.loadRules()) ? m : null),
      () => null,
    );
  }
  return loadRulesModule.p;
}

/** "2 min" / "40 s" for a Retry-After in seconds. */
function waitText(seconds) {
  const s = Math.max(1, Math.ceil(seconds || 1));
  if (s < 120) return t('ga_seconds', { n: s });
  if (s < 7200) return t('ga_minutes', { n: Math.ceil(s / 60) });
  return t('ga_hours', { n: Math.ceil(s / 3600) });
}

export class GameAnalysis {
  constructor(ctrl) {
    this.ctrl = ctrl;
    this.data = null; // the last answer (GET, POST or a socket message's status)
    this.asked = false; // GET done once for this game
    this.pollTimer = null;
    this.pgnUrl = null;
    this.graph = new EvalGraph($('analysis-graph'), {
      label: (ply) => this.ctrl.review.moveLabel(ply),
      go: (ply) => this.go(ply),
      judgementName: (j) => t('ga_' + j),
    });
    this.learn = new Learn(this);
    $('analysis-request').addEventListener('click', () => this.requestAnalysis());
  }

  get id() {
    return this.ctrl.id;
  }

  /** The finished analysis (status done with its moves), or null. */
  get done() {
    return this.data && this.data.status === 'done' && Array.isArray(this.data.moves) ? this.data : null;
  }

  /** Whether the game can have an analysis: it ended with a result. */
  analysable() {
    const s = this.ctrl.state;
    return !!(s && s.outcome && s.outcome.termination !== 'aborted' && s.ply > 0);
  }

  /** The ply on the board: the reviewed one or the live one. */
  shownPly() {
    const r = this.ctrl.review;
    return r.active ? r.ply : this.ctrl.state ? this.ctrl.state.ply : 0;
  }

  /** Called with every drawing of the page's side (game-view.js renderSide). */
  update() {
    const ok = this.analysable();
    show($('analysis-box'), ok);
    if (!ok) return;
    if (!this.asked) {
      this.asked = true;
      this.fetch();
    }
    this.renderStatus();
    this.markMoves();
    this.showPly();
  }

  async fetch() {
    try {
      this.apply(await request('GET', `/api/games/${encodeURIComponent(this.id)}/analysis`));
    } catch (e) {
      if (e.code === 'no_analysis') {
        this.data = null;
        this.renderStatus();
      } else if (e.code !== 'network') this.error(e.message);
      // A network failure while waiting: the poll asks again.
      if (this.data && this.data.status !== 'done') this.schedulePoll();
    }
  }

  async requestAnalysis() {
    this.error(null);
    $('analysis-request').disabled = true;
    let res;
    try {
      res = await fetch(`/api/games/${encodeURIComponent(this.id)}/analysis?lang=${lang()}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ lang: lang() }),
        cache: 'no-store',
      });
    } catch (_) {
      $('analysis-request').disabled = false;
      return this.error(t('network_error'));
    }
    let body = null;
    try {
      body = await res.json();
    } catch (_) {
      body = null;
    }
    $('analysis-request').disabled = false;
    if (res.ok && body) return this.apply(body);
    const code = body && body.error ? body.error.code : '';
    const wait = Number(res.headers.get('Retry-After'));
    if (res.status === 429) return this.error(t('ga_rate_limited', { wait: waitText(wait) }));
    if (res.status === 503) return this.error(t('ga_busy', { wait: waitText(wait) }));
    if (res.status === 409 || code === 'not_finished') return this.error(t('ga_not_finished'));
    this.error(body && body.error ? body.error.message : `HTTP ${res.status}`);
  }

  /** A message of the game's socket: {"type": "analysis", "game", "analysis": {status, progress}}. */
  onMessage(msg) {
    const a = msg && msg.analysis;
    if (!a || msg.game !== this.id) return;
    if (a.status === 'done') {
      if (!this.done) this.fetch();
      return;
    }
    this.apply({ ...(this.data || {}), ...a });
  }

  /** Takes an answer: a status while waiting (and asks again in 2 s unless a message comes first),
   *  the result once done. */
  apply(a) {
    if (!a || !a.status) return;
    clearTimeout(this.pollTimer);
    this.pollTimer = null;
    const wasDone = !!this.done;
    this.data = a;
    if (a.status !== 'done') this.schedulePoll();
    else if (!Array.isArray(a.moves)) {
      this.fetch();
      return;
    }
    this.renderStatus();
    if (this.done) {
      this.renderResult();
      this.markMoves();
      this.showPly();
      if (!wasDone) document.body.dataset.analysis = 'done';
    }
  }

  schedulePoll() {
    clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(() => this.fetch(), POLL_MS);
  }

  error(text) {
    $('analysis-error').textContent = text || '';
    show($('analysis-error'), !!text);
  }

  renderStatus() {
    const a = this.data;
    const st = $('analysis-status');
    const bar = $('analysis-progress');
    show($('analysis-request'), !a);
    show(bar, !!a && a.status !== 'done');
    show($('analysis-result'), !!this.done);
    document.body.dataset.analysisStatus = a ? a.status : 'none';
    if (!a) {
      st.textContent = '';
      return;
    }
    const p = a.progress || { done: 0, total: 0 };
    if (a.status === 'queued') st.textContent = a.position ? t('ga_queued_at', { n: a.position }) : t('ga_queued');
    else if (a.status === 'running') st.textContent = p.total ? t('ga_running', { done: p.done, total: p.total }) : t('ga_running_start');
    else st.textContent = t('ga_done');
    bar.max = Math.max(1, p.total || 1);
    bar.value = a.status === 'done' ? bar.max : Math.min(p.done || 0, bar.max);
  }

  renderResult() {
    const a = this.done;
    const s = this.ctrl.state;
    const blackFirst = !!(s.start_fen && s.start_fen.split(' ')[1] === 'b');
    this.graph.draw(a.moves, blackFirst);
    this.renderSummary();
    this.renderPgn();
    this.learn.render();
  }

  renderSummary() {
    const a = this.done;
    const table = $('analysis-summary');
    table.textContent = '';
    const cap = document.createElement('caption');
    cap.className = 'visually-hidden';
    cap.textContent = t('ga_summary_caption');
    const head = document.createElement('tr');
    head.append(document.createElement('td'));
    for (const c of ['white', 'black']) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = colorName(c);
      head.append(th);
    }
    const thead = document.createElement('thead');
    thead.append(head);
    const body = document.createElement('tbody');
    const sum = a.summary || {};
    const acc = a.accuracy || {};
    const rows = [
      ['ga_accuracy', (c) => (typeof acc[c] === 'number' ? t('ga_accuracy_value', { n: acc[c] }) : '–'), 'accuracy'],
      ['ga_inaccuracies', (c) => String((sum[c] || {}).inaccuracy ?? 0), 'inaccuracy'],
      ['ga_mistakes', (c) => String((sum[c] || {}).mistake ?? 0), 'mistake'],
      ['ga_blunders', (c) => String((sum[c] || {}).blunder ?? 0), 'blunder'],
      ['ga_acpl', (c) => String((sum[c] || {}).acpl ?? '–'), 'acpl'],
    ];
    for (const [key, value, name] of rows) {
      const tr = document.createElement('tr');
      tr.dataset.row = name;
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = t(key);
      tr.append(th);
      for (const c of ['white', 'black']) {
        const td = document.createElement('td');
        td.dataset.color = c;
        td.textContent = value(c);
        tr.append(td);
      }
      body.append(tr);
    }
    table.append(cap, thead, body);
  }

  /** The annotated PGN as a file: the server's (its "pgn" member, in the page's language), else made
   *  here from the game's PGN and the analysis with rules.js. */
  async renderPgn() {
    const a = this.done;
    const link = $('analysis-pgn');
    const l = lang();
    link.download = `schach-${this.id}-analysis${l === 'de' ? '-de' : ''}.pgn`;
    let text = typeof a.pgn === 'string' ? a.pgn : null;
    if (!text) text = await this.buildPgn(a, l);
    show(link, !!text);
    if (!text || a !== this.done) return;
    if (this.pgnUrl) URL.revokeObjectURL(this.pgnUrl);
    this.pgnUrl = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
    link.href = this.pgnUrl;
  }

  async buildPgn(a, l) {
    const rules = await loadRulesModule();
    if (!rules) return null;
    let plain;
    try {
      const res = await fetch(`/api/games/${encodeURIComponent(this.id)}/pgn?lang=${l}`, { cache: 'no-store' });
      if (!res.ok) return null;
      plain = await res.text();
    } catch (_) {
      return null;
    }
    return annotatePgn(rules, plain, a, l);
  }

  /** The move list's marks (?!, ?, ??) with the judgement in the buttons' names for screen readers. */
  markMoves() {
    const a = this.done;
    if (!a) return;
    for (const b of $('moves').querySelectorAll('button[data-ply]')) {
      const m = a.moves[Number(b.dataset.ply) - 1];
      if (!m || !m.judgement || b.querySelector('.ga-mark')) continue;
      const mark = document.createElement('span');
      mark.className = `ga-mark ga-${m.judgement}`;
      mark.setAttribute('aria-hidden', 'true');
      mark.textContent = MARKS[m.judgement];
      b.append(mark);
      b.dataset.judgement = m.judgement;
      b.setAttribute('aria-label', this.ctrl.review.moveLabel(m.ply) + t('ga_mark_sr', { judgement: t('ga_' + m.judgement) }));
    }
  }

  /** The move shown: the graph's cursor, the judgement and the better move of the move that led to it
   *  and of the next one (with its arrow, as lichess draws it: from the position before that move),
   *  and the analysis board's link at this ply. */
  showPly() {
    if (!this.analysable() || this.learn.active) return;
    const ply = this.shownPly();
    $('analysis-board-link').href = `/analysis?game=${encodeURIComponent(this.id)}&ply=${ply}`;
    const a = this.done;
    const box = $('analysis-move');
    if (!a) {
      box.textContent = '';
      return;
    }
    this.graph.mark(ply);
    const parts = [];
    const cur = a.moves[ply - 1];
    if (cur && cur.judgement && cur.best_san)
      parts.push(t('ga_was_best', { judgement: t('ga_' + cur.judgement), move: this.ctrl.review.moveLabel(ply) + MARKS[cur.judgement], best: cur.best_san }));
    const next = a.moves[ply];
    const shapes = [];
    if (next && next.judgement && next.best) {
      parts.push(t('ga_next_best', { move: this.ctrl.review.moveLabel(ply + 1) + MARKS[next.judgement], best: next.best_san }));
      shapes.push({ orig: next.best.slice(0, 2), dest: next.best.slice(2, 4), brush: 'green' });
    }
    box.textContent = parts.join(' ');
    box.dataset.ply = String(ply);
    this.ctrl.cg.setAutoShapes(shapes);
  }

  /** Goes to PLY in review (the graph's click and keys). */
  go(ply) {
    this.ctrl.review.go(ply);
  }

  /** Board moves while learning go to the learning; answers whether it took the move. */
  onBoardMove(orig, dest) {
    return this.learn.active ? (this.learn.onBoardMove(orig, dest), true) : false;
  }

  relabel() {
    if (!this.analysable()) return;
    // SAN and the PGN come in the page's language: ask again.
    if (this.done) this.fetch();
    this.renderStatus();
    this.learn.relabel();
  }
}
