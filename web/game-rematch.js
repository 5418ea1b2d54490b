// The game page's rematch box (#rematch-box) and the players' presence dots (docs/api.md "Rematch",
// WebSocket "Presence"). game-view.js calls renderRematch and renderPresence whenever it draws a state.
//
// After the end a player may offer a rematch; the other side sees the offer with Accept and Decline.
// Once the new game exists both players' pages go there by themselves: the page that accepted with
// the answer to its click, the page that offered when its state names the new game (a page that
// missed both still offers "Go to the new game"; spectators get a link). The new game's secret is
// asked for with the old one and kept in this browser's storage, as a created game's is.
import { request } from './api.js';
import { colorName, t } from './i18n.js';
import { gameAddress, saveGame } from './storage.js';
import './strings-rematch.js';
import { $, gamePath, show, showError } from './util.js';

const BUSY_RETRIES = 5;
const wentTo = new Set(); // games whose page is on its way to the rematch already
const lastOffer = new Map(); // game -> the side whose offer was last seen (to tell a withdrawal)

/** POST /api/games/{id}/rematch as COLOR (ACTION "offer" or "decline"); a 409 busy (the other side's
 *  change is being saved) is tried again a few times. */
async function rematchCall(page, color, action) {
  const body = { secret: page.secrets[color], action };
  for (let tries = 0; ; tries++) {
    try {
      return await request('POST', `/api/games/${encodeURIComponent(page.id)}/rematch`, body);
    } catch (e) {
      if (e.code !== 'busy' || tries >= BUSY_RETRIES) throw e;
      await new Promise((resolve) => setTimeout(resolve, 100 * (tries + 1)));
    }
  }
}

/** Keeps the new game's secrets and opens it. */
function goTo(answer) {
  saveGame(answer.id, { secrets: answer.secrets || { [answer.color]: answer.secret } });
  location.assign(gameAddress(answer.id));
}

/** A click: ACTION as COLOR. An answer that names the new game (an accepted offer, the "Go" button,
 *  the one click against the computer or in a local game) opens it. */
async function act(page, color, action) {
  const box = $('rematch-box');
  for (const b of box.querySelectorAll('button')) b.disabled = true;
  showError($('error'), null);
  try {
    const r = await rematchCall(page, color, action);
    if (r.id) {
      wentTo.add(page.id);
      goTo(r);
      return;
    }
    page.applyState(r.state);
  } catch (e) {
    showError($('error'), e);
  } finally {
    for (const b of box.querySelectorAll('button')) b.disabled = false;
  }
}

function button(label, onClick, primary) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  if (primary) b.className = 'primary';
  b.addEventListener('click', onClick);
  return b;
}

/** The box's parts, made once so the live region stays and focus is not lost on every state. */
function parts(box) {
  let text = box.querySelector('.rematch-text');
  let buttons = box.querySelector('.rematch-buttons');
  if (!text) {
    text = document.createElement('p');
    text.className = 'rematch-text';
    text.setAttribute('aria-live', 'polite');
    buttons = document.createElement('div');
    buttons.className = 'rematch-buttons';
    box.replaceChildren(text, buttons);
  }
  return { text, buttons };
}

/** What the box shows for the page's state: a key (redrawn only when it changes), a text, buttons. */
function view(page) {
  const s = page.state;
  const held = page.held();
  const r = s.rematch || {};
  if (r.offered_by) lastOffer.set(page.id, r.offered_by);
  if (r.game) {
    if (!held.length) {
      return { key: `watch ${r.game}`, text: t('rematch_ready'), link: { href: gamePath(r.game), label: t('rematch_watch') } };
    }
    const me = held.includes(r.offered_by) ? r.offered_by : held[0];
    return { key: `go ${r.game}`, text: t('rematch_ready'), buttons: [[t('rematch_go'), () => act(page, me, 'offer'), true]] };
  }
  if (!held.length) return null;
  if (r.offered_by && held.includes(r.offered_by)) {
    return {
      key: `mine ${r.offered_by}`,
      text: t('rematch_offered_mine'),
      buttons: [[t('rematch_withdraw'), () => act(page, r.offered_by, 'decline')]],
    };
  }
  const me = held[0];
  if (r.offered_by) {
    return {
      key: `theirs ${r.offered_by}`,
      text: t('rematch_offered_theirs'),
      buttons: [
        [t('rematch_accept'), () => act(page, me, 'offer'), true],
        [t('rematch_decline'), () => act(page, me, 'decline')],
      ],
    };
  }
  let text = '';
  if (r.declined_by) {
    const withdrawn = lastOffer.get(page.id) === r.declined_by;
    const mine = held.includes(r.declined_by);
    text = t(`rematch_${withdrawn ? 'withdrawn' : 'declined'}_${mine ? 'mine' : 'theirs'}`);
  }
  return { key: `offer ${r.declined_by || ''}`, text, buttons: [[t('rematch'), () => act(page, me, 'offer'), true]] };
}

/** Fills #rematch-box for the page's state (hidden while the game goes on). */
export function renderRematch(page) {
  const box = $('rematch-box');
  const s = page.state;
  const v = s && s.outcome ? view(page) : null;
  show(box, !!v);
  if (!v) {
    box.dataset.key = '';
    return;
  }
  const { text, buttons } = parts(box);
  const key = `${v.key} ${document.documentElement.lang}`;
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    text.textContent = v.text;
    const items = (v.buttons || []).map(([label, fn, primary]) => button(label, fn, primary));
    if (v.link) {
      const a = document.createElement('a');
      a.href = v.link.href;
      a.className = 'button';
      a.textContent = v.link.label;
      items.push(a);
    }
    buttons.replaceChildren(...items);
  }
  // The page that offered goes to the new game by itself, once.
  const r = s.rematch || {};
  if (r.game && page.held().includes(r.offered_by) && !wentTo.has(page.id)) {
    wentTo.add(page.id);
    rematchCall(page, r.offered_by, 'offer').then(goTo, (e) => showError($('error'), e));
  }
}

/** The presence dots in the player bars: a side is online while its player has the game open. */
export function renderPresence(page) {
  const s = page.state;
  if (!s || !s.online) return;
  for (const id of ['bar-top', 'bar-bottom']) {
    const bar = $(id);
    const span = bar.querySelector('.presence');
    const color = bar.dataset.color;
    if (!span || !color) continue;
    if (!span.firstChild) {
      const dot = document.createElement('span');
      dot.className = 'presence-dot';
      dot.setAttribute('aria-hidden', 'true');
      const word = document.createElement('span');
      word.className = 'visually-hidden';
      span.replaceChildren(dot, word);
    }
    const on = !!s.online[color];
    const word = t(on ? 'presence_online' : 'presence_offline');
    span.dataset.online = on ? 'true' : 'false';
    span.lastChild.textContent = word;
    span.title = t('presence_title', { color: colorName(color), state: word });
  }
}
