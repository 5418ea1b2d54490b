// The game page's clocks (game-ctrl.js): a live game's clocks tick between the server's updates (from
// the time left when the state arrived); a correspondence game shows the mover's deadline and what is
// left of it.
import { t } from './i18n.js';
import { $, formatClock, formatDate, formatSpan } from './util.js';

/** Draws both bars' clocks for the page's state. */
export function renderClocks(ctrl) {
  const s = ctrl.state;
  if (!s) return;
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
