// A rating-history graph drawn as inline SVG (no library): axes with dates and ratings, a polyline
// through one point per rated game. Colours come from currentColor and the page's CSS variables, so
// the graph follows a dark theme; the viewBox scales it to any width (390 px phones included).
// For screen readers the whole graph is one image (role="img") whose label says what a sighted
// reader takes from it: first and last rating, lowest and highest, and over how many games.

const NS = 'http://www.w3.org/2000/svg';
const W = 400, H = 210;
const PAD = { left: 44, right: 14, top: 12, bottom: 30 };

function el(name, attrs = {}, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Tick values from lo to hi: a round step giving about three to five ticks. */
function ticks(lo, hi) {
  const span = hi - lo;
  const steps = [5, 10, 20, 25, 50, 100, 200, 250, 500];
  const step = steps.find((s) => span / s <= 4) || 1000;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi; v += step) out.push(v);
  return out;
}

/** Summary numbers of points ([[ms, rating]…]): first, last, min, max, count. */
export function summarize(points) {
  const r = points.map((p) => p[1]);
  return { first: r[0], last: r[r.length - 1], min: Math.min(...r), max: Math.max(...r), count: r.length };
}

/**
 * The graph of points ([[ended_ms, rating]…], oldest first) as an <svg>.
 * opts: title (the graph's name, e.g. "Blitz"), label (the aria-label, a sentence), date (ms → short
 * date text), pointTitle (ms, rating → a point's tooltip), start ([ms, rating]: where the history
 * began, before the first game: the line starts there, so that one game is a line, not a lone dot;
 * the points stay one per game).
 */
export function ratingGraph(games, opts) {
  const points = opts.start && games.length && opts.start[0] <= games[0][0] ? [opts.start, ...games] : games;
  const svg = el('svg', {
    viewBox: `0 0 ${W} ${H}`,
    class: 'rating-graph',
    role: 'img',
    'aria-label': opts.label,
    focusable: 'false',
  });
  svg.append(el('title', {}, opts.title));
  if (!points.length) return svg;
  const { min, max } = summarize(points);
  // A little room above and below; a flat line still gets a band around it.
  const lo = Math.floor((min - Math.max(10, (max - min) * 0.1)) / 5) * 5;
  const hi = Math.ceil((max + Math.max(10, (max - min) * 0.1)) / 5) * 5;
  const t0 = points[0][0], t1 = points[points.length - 1][0];
  const plotW = W - PAD.left - PAD.right, plotH = H - PAD.top - PAD.bottom;
  // One point (or all at one moment): in the middle. Else by time, so the gaps show.
  const x = (t) => PAD.left + (t1 === t0 ? plotW / 2 : ((t - t0) / (t1 - t0)) * plotW);
  const y = (r) => PAD.top + (1 - (r - lo) / (hi - lo)) * plotH;

  const axes = el('g', { class: 'axes' });
  for (const v of ticks(lo, hi)) {
    axes.append(el('line', { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v), class: 'grid' }));
    axes.append(el('text', { x: PAD.left - 5, y: y(v) + 4, 'text-anchor': 'end' }, String(v)));
  }
  axes.append(el('line', { x1: PAD.left, x2: PAD.left, y1: PAD.top, y2: H - PAD.bottom, class: 'axis' }));
  axes.append(el('line', { x1: PAD.left, x2: W - PAD.right, y1: H - PAD.bottom, y2: H - PAD.bottom, class: 'axis' }));
  const dates = t1 === t0 ? [[t0, 'middle']] : [[t0, 'start'], [t1, 'end']];
  for (const [t, anchor] of dates)
    axes.append(el('text', { x: x(t), y: H - PAD.bottom + 18, 'text-anchor': anchor }, opts.date(t)));
  svg.append(axes);

  const coords = points.map(([t, r]) => `${x(t).toFixed(1)},${y(r).toFixed(1)}`).join(' ');
  svg.append(el('polyline', { points: coords, class: 'line', 'data-from': points[0][1] }));
  const dots = el('g', { class: 'points' });
  for (const [t, r] of games) {
    const c = el('circle', { cx: x(t).toFixed(1), cy: y(r).toFixed(1), r: 3.2, 'data-rating': r });
    c.append(el('title', {}, opts.pointTitle(t, r)));
    dots.append(c);
  }
  svg.append(dots);
  return svg;
}
