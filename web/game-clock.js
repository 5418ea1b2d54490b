// The game page's clocks (game-ctrl.js): a live game's clocks tick between the server's updates (from
// the time left when the state arrived); a correspondence game shows the mover's deadline and what is
// left of it.
import { t } from './i18n.js';
import { $, formatClock, formatDate, formatSpan } from './util.js';

/** The live clocks after the first PLY plies, from when each move was played (the moves' "at"): time
 *  runs once both sides have moved (docs/api.md), each move after that costs its mover the time since
 *  the move before and gives back the increment. Null when the moves carry no times. */
export function clocksAt(s, ply) {
  if (!s.time || s.time.type !== 'live' || s.moves.slice(0, ply).some((m) => typeof m.at !== 'number')) return null;
  const start = s.time.minutes * 60000;
  const c = { white: start, black: start };
  const blackFirst = !!s.start_fen && s.start_fen.split(' ')[1] === 'b';
  for (let i = 2; i < ply; i++) {
    const mover = (i % 2 === 0) !== blackFirst ? 'white' : 'black';
    c[mover] += s.time.increment * 1000 - (s.moves[i].at - s.moves[i - 1].at);
  }
  return c;
}

/** Draws both bars' clocks for the page's state (while reviewing: as they stood after the move shown). */
export function renderClocks(ctrl) {
  const s = ctrl.state;
  if (!s) return;
  const shown = ctrl.review && ctrl.review.active && ctrl.review.ply < s.ply ? clocksAt(s, ctrl.review.ply) : null;
  if (shown) {
    for (const barId of ['bar-top', 'bar-bottom']) {
      const bar = $(barId);
      const el = bar.querySelector('.clock');
      el.classList.remove('running', 'low');
      el.textContent = formatClock(shown[bar.dataset.color]);
    }
    return;
  }
  for (const barId of ['bar-top', 'bar-bottom']) {
    const bar = $(barId);
    const color = bar.dataset.color;
    const el = bar.querySelector('.clock');
    const c = s.clock;
    el.classList.remove('running', 'low');
    if (!c || !s.time || s.time.type === 'none') {
      el.textContent = '';
      continue;
    }
    const running = !s.outcome && c.running === color;
    if (s.time.type === 'live') {
      const ms = c[color] - (running ? performance.now() - ctrl.stateAt : 0);
      el.textContent = formatClock(ms);
      if (ms < 10000) el.classList.add('low');
    } else if (running && c.deadline) {
      el.textContent = `${t('deadline', { date: formatDate(c.deadline) })} (${t('time_left', { left: formatSpan(c.deadline - Date.now()) })})`;
    } else {
      el.textContent = running ? t('no_deadline') : '';
    }
    if (running) el.classList.add('running');
  }
}

/** Live clocks tick between updates; correspondence deadlines count down. */
export function tickClocks(ctrl) {
  setInterval(() => renderClocks(ctrl), 100);
}
