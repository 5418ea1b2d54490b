// The evaluation graph of an analysed game (game-analysis.js): inline SVG of White's winning chances
// after every move (lichess's curve: 2 / (1 + e^(−0.00368208·cp)) − 1, cp clamped to ±1000, a mate
// as ±1000), the judged moves marked. For the keyboard the graph is a slider over the plies (Left,
// Right, Home, End go to that move in review); for screen readers it has a table of every move with
// its evaluation and judgement (visually hidden), which says what the curve shows.
import { colorName, t } from './i18n.js';
import './strings-game-analysis.js';

const NS = 'http://www.w3.org/2000/svg';
const W = 600;
const H = 120;

function svgEl(name, attrs = {}) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** White's winning chances (−1…1) of an API eval ({cp} or {mate}). */
export function winningChances(ev) {
  if (!ev) return 0;
  let cp;
  if (typeof ev.mate === 'number') cp = ev.mate > 0 ? 1000 : ev.mate < 0 ? -1000 : 0;
  else cp = Math.max(-1000, Math.min(1000, ev.cp || 0));
  return 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
}

/** An API eval in words: "+1.2", "−0.4", "mate in 3 for White"; a mate given ({mate: 0}) says so. */
export function evalText(ev) {
  if (!ev) return '';
  if (typeof ev.mate === 'number') {
    if (ev.mate === 0) return t('ga_mated');
    return t('ga_mate_for', { n: Math.abs(ev.mate), color: colorName(ev.mate > 0 ? 'white' : 'black') });
  }
  const p = (ev.cp || 0) / 100;
  return (p > 0 ? '+' : p < 0 ? '\u2212' : '') + Math.abs(p).toFixed(1);
}

/** The eval of a move, with {mate: 0} (the move mated) read as a win for the side that moved. */
function effectiveEval(m) {
  if (m.eval && m.eval.mate === 0) return { mate: m.ply % 2 === 1 ? 1 : -1 };
  return m.eval;
}

export class EvalGraph {
  /** BOX: the element to fill; OPTS: {label(ply) → "3… Nf6", go(ply), judgementName(j)}. */
  constructor(box, opts) {
    this.box = box;
    this.opts = opts;
    this.moves = [];
    this.current = 0;
  }

  /** Draws MOVES (the analysis' moves, ply from 1; BLACK_FIRST when the game began with Black). */
  draw(moves, blackFirst) {
    this.moves = moves;
    this.blackFirst = blackFirst;
    const n = moves.length;
    this.box.textContent = '';
    const x = (ply) => (n ? (ply / n) * W : 0);
    const y = (wc) => H / 2 - (wc * H) / 2;
    const slider = document.createElement('div');
    slider.className = 'ga-graph';
    slider.id = 'analysis-graph-slider';
    slider.tabIndex = 0;
    slider.setAttribute('role', 'slider');
    slider.setAttribute('aria-label', t('ga_graph'));
    slider.setAttribute('aria-describedby', 'analysis-graph-help');
    slider.setAttribute('aria-valuemin', '0');
    slider.setAttribute('aria-valuemax', String(n));
    const svg = svgEl('svg', { viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', 'aria-hidden': 'true', focusable: 'false' });
    svg.append(svgEl('rect', { x: 0, y: 0, width: W, height: H, class: 'ga-bg' }));
    // White's area: from the bottom up to the curve.
    const pts = [[0, y(0)]];
    moves.forEach((m, i) => pts.push([x(i + 1), y(winningChances(effectiveEval(m)))]));
    const line = pts.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(' ');
    svg.append(svgEl('polygon', { points: `0,${H} ${line} ${W},${H}`, class: 'ga-white' }));
    svg.append(svgEl('line', { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: 'ga-mid' }));
    svg.append(svgEl('polyline', { points: line, class: 'ga-line' }));
    this.cursor = svgEl('line', { x1: 0, x2: 0, y1: 0, y2: H, class: 'ga-cursor' });
    svg.append(this.cursor);
    moves.forEach((m, i) => {
      if (!m.judgement) return;
      const [cx, cy] = pts[i + 1];
      svg.append(svgEl('circle', { cx: cx.toFixed(1), cy: cy.toFixed(1), r: 5, class: `ga-dot ga-${m.judgement}`, 'data-ply': m.ply }));
    });
    slider.append(svg);
    // A click goes to the nearest move.
    slider.addEventListener('click', (e) => {
      const dot = e.target.closest && e.target.closest('circle[data-ply]');
      if (dot) return this.opts.go(Number(dot.dataset.ply));
      const r = svg.getBoundingClientRect();
      if (!r.width || !n) return;
      this.opts.go(Math.max(0, Math.min(n, Math.round(((e.clientX - r.left) / r.width) * n))));
    });
    slider.addEventListener('keydown', (e) => {
      const to = { ArrowLeft: this.current - 1, ArrowDown: this.current - 1, ArrowRight: this.current + 1, ArrowUp: this.current + 1, Home: 0, End: n }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      e.stopPropagation();
      this.opts.go(Math.max(0, Math.min(n, to)));
    });
    const help = document.createElement('p');
    help.id = 'analysis-graph-help';
    help.className = 'visually-hidden';
    help.textContent = t('ga_graph_help');
    this.box.append(slider, help, this.table());
    this.slider = slider;
    this.mark(this.current);
  }

  /** The visually hidden table: move, evaluation, judgement, better move. */
  table() {
    // In a hidden box: a table itself keeps its width whatever the visually-hidden class says.
    const wrap = document.createElement('div');
    wrap.className = 'visually-hidden';
    const table = document.createElement('table');
    table.id = 'analysis-table';
    wrap.append(table);
    const cap = document.createElement('caption');
    cap.textContent = t('ga_table_caption');
    table.append(cap);
    const head = document.createElement('tr');
    for (const k of ['ga_col_move', 'ga_col_eval', 'ga_col_judgement', 'ga_col_best']) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = t(k);
      head.append(th);
    }
    const thead = document.createElement('thead');
    thead.append(head);
    const body = document.createElement('tbody');
    for (const m of this.moves) {
      const tr = document.createElement('tr');
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = this.opts.label(m.ply);
      tr.append(th);
      for (const text of [evalText(m.eval), m.judgement ? this.opts.judgementName(m.judgement) : '', m.judgement && m.best_san ? m.best_san : '']) {
        const td = document.createElement('td');
        td.textContent = text;
        tr.append(td);
      }
      body.append(tr);
    }
    table.append(thead, body);
    return wrap;
  }

  /** Shows PLY as the graph's current move. */
  mark(ply) {
    this.current = ply;
    if (!this.slider) return;
    const n = this.moves.length;
    const x = n ? (ply / n) * W : 0;
    this.cursor.setAttribute('x1', x.toFixed(1));
    this.cursor.setAttribute('x2', x.toFixed(1));
    this.slider.setAttribute('aria-valuenow', String(ply));
    const m = this.moves[ply - 1];
    if (!m) {
      this.slider.setAttribute('aria-valuetext', t('review_start'));
      return;
    }
    const j = m.judgement ? t('ga_mark_sr', { judgement: this.opts.judgementName(m.judgement) }) : '';
    this.slider.setAttribute('aria-valuetext', t('ga_graph_value', { move: this.opts.label(ply), eval: evalText(m.eval), judgement: j }));
  }
}
