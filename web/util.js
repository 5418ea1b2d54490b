// Small helpers the pages share: elements, errors, links, copying, and how times are written.
import { lang, t } from './i18n.js';

export const $ = (id) => document.getElementById(id);
export const other = (c) => (c === 'white' ? 'black' : 'white');

export function show(el, visible) {
  el.hidden = !visible;
}

export function showError(el, err) {
  el.textContent = err ? sentence(err.message || String(err)) : '';
  show(el, !!err);
}

/** A message as a sentence: its first letter capitalised (the rules core words its explanations in
 *  lower case, "the path is blocked at e2"), unless it begins with a square or a move ("e4 …"). */
export function sentence(text) {
  if (!/^\p{Ll}/u.test(text) || /^[a-h][1-8]/.test(text)) return text;
  return text[0].toUpperCase() + text.slice(1);
}

/** Parses "#a=1&b=2" into an object. */
export function fragmentParams() {
  const out = {};
  for (const part of location.hash.replace(/^#/, '').split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const k = eq < 0 ? part : part.slice(0, eq);
    out[decodeURIComponent(k)] = eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1));
  }
  return out;
}

export function gamePath(id) {
  return `/g/${encodeURIComponent(id)}`;
}

/** The private link of one side: the game's address with that side's secret in the fragment. Only the
 *  game page's "continue on another device" box shows it (whoever opens it plays that side); the page
 *  that opens it takes the secret into storage and the fragment out of the address bar. */
export function privateLink(id, color, secret) {
  return `${location.origin}${gamePath(id)}#s=${encodeURIComponent(secret)}&c=${color}`;
}

/** Copies INPUT's text and says so beside BUTTON (in its row's status element, read out by screen
 *  readers); the confirmation goes away after a few seconds. */
export async function copyFrom(input, button) {
  input.select();
  let ok = true;
  try {
    await navigator.clipboard.writeText(input.value);
  } catch (_) {
    // The clipboard API needs a secure context; the older command works on plain http.
    ok = document.execCommand('copy');
  }
  const status = button && button.parentElement.querySelector('.copy-status');
  if (!status || !ok) return;
  status.textContent = t('copied');
  clearTimeout(status.timer);
  status.timer = setTimeout(() => {
    status.textContent = '';
  }, 4000);
}

export function timeControlText(time) {
  if (!time || time.type === 'none') return t('tc_none');
  if (time.type === 'live') return t('tc_live', { m: time.minutes, i: time.increment });
  return t('tc_corr', { d: time.days });
}


export function formatDate(ms) {
  return new Date(ms).toLocaleString(lang() === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

/** Milliseconds as a clock: h:mm:ss, m:ss, or s.t below ten seconds. */
export function formatClock(ms) {
  const m = Math.max(0, ms);
  if (m < 10000) return (Math.floor(m / 100) / 10).toFixed(1);
  const total = Math.floor(m / 1000);
  const h = Math.floor(total / 3600);
  const min = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(min).padStart(2, '0')}:${s}` : `${min}:${s}`;
}

/** A remaining span for correspondence deadlines: "2 T 3 h" / "2 d 3 h", "5 h 10 min", "4 min". */
export function formatSpan(ms) {
  const min = Math.max(0, Math.floor(ms / 60000));
  const d = Math.floor(min / 1440);
  const h = Math.floor((min % 1440) / 60);
  const dayUnit = lang() === 'de' ? 'T' : 'd';
  if (d) return `${d} ${dayUnit} ${h} h`;
  if (h) return `${h} h ${min % 60} min`;
  return `${min} min`;
}

/** An element TAG with ATTRS (true: present, false/null: left out; i18n: the key whose text it shows,
 *  as data-i18n, which the language switch follows) and CHILDREN. */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'i18n') {
      e.dataset.i18n = v;
      e.textContent = t(v);
    } else if (v === true) e.setAttribute(k, '');
    else if (v !== false && v != null) e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
}
