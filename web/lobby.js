// The lobby on the home page (#lobby-area): quick-pairing buttons, a form to post a challenge (a
// "seek"), and the open seeks listed live, each with an Accept button. A seek this page posted is held
// over the lobby socket (docs/api.md, WebSocket `lobby` with `hold`), so it vanishes when the page
// closes; once someone takes it, GET /api/seeks/{id} names the game and this page goes there.
// Rated seeks need an account on both sides: anonymous visitors play casual ones.
import './strings-lobby.js';
import { request } from './api.js';
import { categoryOf } from './categories.js';
import { colorName, t } from './i18n.js';
import { accountLink, whoami } from './header.js';
import { lobbySocket } from './lobby-live.js';
import { gameAddress, saveGame } from './storage.js';
import { $, el, show, showError, timeControlText } from './util.js';

// The form's fields are named seek_* so they never clash with the new-game form's below on the page.
// The quick-pairing pools: live minutes+increment, and correspondence with 3 days a move.
const POOLS = [
  { type: 'live', minutes: 1, increment: 0 },
  { type: 'live', minutes: 3, increment: 2 },
  { type: 'live', minutes: 5, increment: 3 },
  { type: 'live', minutes: 10, increment: 0 },
  { type: 'live', minutes: 15, increment: 10 },
  { type: 'live', minutes: 30, increment: 0 },
  { type: 'correspondence', days: 3 },
  // Chess960: its own pool (and its own rating category, whatever the time control).
  { type: 'live', minutes: 5, increment: 3, variant: 'chess960' },
];
// How often a waiting page asks whether its seek was taken (besides watching the lobby list).
const POLL_MS = 3000;

/** A seek's kind: rated or casual, and Chess960 when it is. */
const kindText = (s) => {
  const kind = t(s.rated ? 'lobby_rated_short' : 'lobby_casual_short');
  return s.variant === 'chess960' ? t('lobby_kind_chess960', { kind }) : kind;
};

const radio = (name, value, key, checked) =>
  el('label', {}, el('input', { type: 'radio', name, value, checked }), ' ', el('span', { i18n: key }));

const numberField = (name, key, min, max, value) =>
  el('label', {}, el('span', { i18n: key }), ' ', el('input', { type: 'number', name, min, max, value, required: true }));

export function mountLobby(area) {
  let me = null;
  let seeks = [];
  let categories = null; // the server's rating categories (GET /api/seeks): the quick pools' names
  let pending = null; // this page's open seek: {id, secret, time, rated, window}
  let pollTimer = null;
  let leaving = false;
  const socket = lobbySocket();

  // --- Quick pairing, the waiting state and the errors ---------------------------------------
  const quickNote = el('p', { id: 'lobby-quick-note', class: 'hint' });
  const quickButtons = el('div', { class: 'quick-buttons', role: 'group', 'aria-labelledby': 'lobby-quick-title', 'aria-describedby': 'lobby-quick-note' });
  const status = el('p', { id: 'lobby-status', class: 'lobby-status', role: 'status' });
  const cancel = el('button', { type: 'button', id: 'lobby-cancel', i18n: 'lobby_cancel_seek', hidden: true });
  const error = el('p', { id: 'lobby-error', class: 'error', role: 'alert', hidden: true });
  const quick = el(
    'section',
    { class: 'card lobby-quick', 'aria-labelledby': 'lobby-quick-title' },
    el('h2', { id: 'lobby-quick-title', i18n: 'lobby_quick' }),
    quickNote,
    quickButtons,
    el('div', { class: 'lobby-wait' }, status, cancel),
    error,
  );

  // --- The open seeks ------------------------------------------------------------------------
  const caption = el('caption', { id: 'lobby-caption', i18n: 'lobby_caption' });
  const head = el(
    'tr',
    {},
    ...['lobby_col_player', 'lobby_col_rating', 'lobby_col_time', 'lobby_col_kind', 'lobby_col_color', 'lobby_col_action'].map((k) =>
      el('th', { scope: 'col', i18n: k, class: k === 'lobby_col_rating' || k === 'lobby_col_kind' || k === 'lobby_col_color' ? 'wide-only' : null }),
    ),
  );
  const body = el('tbody');
  const table = el('table', { id: 'lobby-table', class: 'lobby-table' }, caption, el('thead', {}, head), body);
  const empty = el('p', { id: 'lobby-empty', i18n: 'lobby_none' });
  const list = el(
    'section',
    { class: 'card lobby-seeks', 'aria-labelledby': 'lobby-open-title' },
    el('h2', { id: 'lobby-open-title', i18n: 'lobby_open' }),
    // On a phone the table may scroll sideways inside its box: reachable by keyboard, and named.
    el('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-labelledby': 'lobby-caption' }, table),
    empty,
  );

  // --- Posting a challenge -------------------------------------------------------------------
  const ratedBox = el('input', { type: 'checkbox', name: 'rated', id: 'seek-rated', 'aria-describedby': 'seek-rated-note' });
  const ratedNote = el('p', { id: 'seek-rated-note', class: 'hint' });
  const form = el(
    'form',
    { id: 'seek-form', class: 'card seek-form', 'aria-labelledby': 'seek-form-title' },
    el('h2', { id: 'seek-form-title', i18n: 'lobby_create' }),
    el(
      'fieldset',
      {},
      el('legend', { i18n: 'lobby_time' }),
      radio('seek_time', 'live', 'lobby_live', true),
      el('div', { class: 'sub', id: 'seek-live' }, numberField('seek_minutes', 'lobby_minutes', 1, 180, 5), numberField('seek_increment', 'lobby_increment', 0, 60, 3)),
      radio('seek_time', 'correspondence', 'lobby_corr', false),
      el('div', { class: 'sub', id: 'seek-corr', hidden: true }, numberField('seek_days', 'lobby_days', 1, 14, 3)),
    ),
    el(
      'fieldset',
      {},
      el('legend', { i18n: 'lobby_color' }),
      radio('seek_color', 'random', 'random', true),
      radio('seek_color', 'white', 'white', false),
      radio('seek_color', 'black', 'black', false),
    ),
    el(
      'fieldset',
      {},
      el('legend', { i18n: 'lobby_variant' }),
      radio('seek_variant', 'standard', 'lobby_variant_standard', true),
      radio('seek_variant', 'chess960', 'lobby_variant_chess960', false),
    ),
    el('div', { class: 'seek-rated' }, el('label', {}, ratedBox, ' ', el('span', { i18n: 'lobby_rated' })), ratedNote),
    el('button', { type: 'submit', class: 'primary', id: 'seek-post', i18n: 'lobby_post' }),
  );

  area.textContent = '';
  area.append(quick, list, form);

  // What the status line says (a key, or 'waiting' for the waiting text), so a language switch can
  // say it again in the other language.
  let statusKey = null;
  const statusText = () => (statusKey === 'waiting' ? (pending ? waitingText(pending) : '') : t(statusKey));
  const setStatus = (key) => {
    statusKey = key;
    status.textContent = statusText();
  };

  // While this page's seek waits, the quick buttons and the form wait too; the Accept buttons stay
  // usable (accepting withdraws the waiting seek: docs/api.md "Lobby").
  const setBusy = (busy) => {
    for (const b of area.querySelectorAll('.quick-buttons button, #seek-post')) b.disabled = busy;
  };
  let accepting = false;
  const setAccepting = (on) => {
    accepting = on;
    for (const b of area.querySelectorAll('#lobby-table button.accept')) b.disabled = on;
  };

  // --- Going to the game -----------------------------------------------------------------------
  const goToGame = (id, color, secret) => {
    leaving = true;
    stopWaiting();
    saveGame(id, { secrets: { [color]: secret } });
    setStatus('lobby_paired');
    location.assign(gameAddress(id));
  };

  const stopWaiting = () => {
    clearInterval(pollTimer);
    pollTimer = null;
    pending = null;
    socket.setHold(null);
    show(cancel, false);
    if (!leaving) setBusy(false);
  };

  /** Whether this page's seek was taken (then to the game) or is gone; with autoPair, also takes the
   *  waiting seek the server names as a match. */
  const checkPending = async (autoPair = true) => {
    const p = pending;
    if (!p || p.checking) return;
    p.checking = true;
    try {
      const r = await request('GET', `/api/seeks/${encodeURIComponent(p.id)}`);
      if (pending !== p) return;
      // An account's side has a secret of its own; an anonymous poster plays with the seek's.
      if (r.game) {
        goToGame(r.game, r.color, r.secret || p.secret);
        return;
      }
      // The rating window widens while the seek waits: say the one the server reports now.
      if (r.seek && JSON.stringify(r.seek.window) !== JSON.stringify(p.window)) {
        p.window = r.seek.window;
        if (statusKey === 'waiting') setStatus('waiting');
      }
      // Another waiting seek and ours now take each other's ratings: take it (ours is withdrawn).
      if (autoPair && r.match && !accepting) {
        const s = seeks.find((x) => x.id === r.match) || { id: r.match };
        p.checking = false;
        await accept(s);
      }
    } catch (e) {
      if (pending !== p) return;
      if (e.code === 'no_seek') {
        stopWaiting();
        setStatus('lobby_expired');
      }
    } finally {
      p.checking = false;
    }
  };

  const waitingText = (p) => {
    const args = { tc: timeControlText(p.time), kind: kindText(p) };
    return p.window ? t('lobby_waiting_window', { ...args, min: p.window.min, max: p.window.max }) : t('lobby_waiting', args);
  };

  /** Posts a seek (BODY as POST /api/seeks wants it): paired at once (quick pairing found one) or
   *  waiting for an opponent. */
  const post = async (body) => {
    if (pending) return;
    showError(error, null);
    setBusy(true);
    let r;
    try {
      // "hold": the seek waits only a short grace for this page's hold (below), so one whose page went
      // between the post and the hold leaves too (docs/api.md "Lobby").
      r = await request('POST', '/api/seeks', { ...body, hold: true });
    } catch (e) {
      showError(error, e);
      setBusy(false);
      return;
    }
    if (r.state) {
      goToGame(r.id, r.color, r.secret);
      return;
    }
    pending = { id: r.id, secret: r.secret, time: r.time, rated: r.rated, variant: r.variant, window: r.window || null };
    socket.setHold({ seek: r.id, secret: r.secret });
    setStatus('waiting');
    show(cancel, true);
    cancel.focus();
    pollTimer = setInterval(() => checkPending(), POLL_MS);
    renderSeeks();
  };

  // The page goes: its seek goes along at once. The closing socket withdraws a held seek anyway; this
  // also covers a hold still on its way (a reconnecting socket), which would otherwise wait out its grace.
  window.addEventListener('pagehide', () => {
    const p = pending;
    if (!p || leaving) return;
    request('DELETE', `/api/seeks/${encodeURIComponent(p.id)}`, { secret: p.secret }, { keepalive: true }).catch(() => {});
  });

  cancel.addEventListener('click', async () => {
    const p = pending;
    if (!p) return;
    cancel.disabled = true;
    try {
      await request('DELETE', `/api/seeks/${encodeURIComponent(p.id)}`, { secret: p.secret });
      stopWaiting();
      setStatus('lobby_cancelled');
    } catch (e) {
      // Taken just now? Then the check goes to the game; otherwise say what happened.
      await checkPending(false);
      if (pending === p) showError(error, e);
      else if (!leaving) setStatus('lobby_cancelled');
    }
    cancel.disabled = false;
  });

  // Accepts a seek; a seek of this page's that waits is withdrawn with it (both or neither).
  const accept = async (seek) => {
    if (accepting) return;
    showError(error, null);
    setBusy(true);
    setAccepting(true);
    const p = pending;
    try {
      const body = p ? { withdraw: { seek: p.id, secret: p.secret } } : {};
      const r = await request('POST', `/api/seeks/${encodeURIComponent(seek.id)}/accept`, body);
      goToGame(r.id, r.color, r.secret);
    } catch (e) {
      setAccepting(false);
      // Our own seek may have been taken meanwhile: then its game is the one to go to.
      if (p && pending === p) await checkPending(false);
      if (leaving) return;
      showError(error, e);
      setBusy(!!pending);
    }
  };

  // --- Rendering -------------------------------------------------------------------------------
  const renderQuick = () => {
    quickNote.textContent = t(me ? 'lobby_quick_rated' : 'lobby_quick_casual');
    quickButtons.textContent = '';
    for (const time of POOLS) {
      // A live pool is named with its category once the server has told the categories.
      const { variant, ...control } = time;
      const cat = time.type === 'live' ? categoryOf(categories, control) : null;
      const label =
        variant === 'chess960'
          ? t('lobby_quick_960', { tc: timeControlText(control) })
          : time.type !== 'live'
            ? t('lobby_corr_button')
            : cat
              ? t('lobby_quick_button', { tc: timeControlText(control), cat: t(`lobby_cat_${cat}`) })
              : timeControlText(control);
      const pool = time.type === 'live' ? `${time.minutes}+${time.increment}` : `corr${time.days}`;
      const b = el('button', { type: 'button', class: 'quick', 'data-pool': variant ? `${variant}-${pool}` : pool });
      b.textContent = label;
      b.disabled = !!pending;
      b.addEventListener('click', () =>
        post({ pool: true, time: control, color: 'random', rated: !!me, ...(variant ? { variant } : {}) }));
      quickButtons.append(b);
    }
  };

  const isOwn = (s) => (pending && s.id === pending.id) || (me && s.name && s.name.toLowerCase() === me.username.toLowerCase());

  const renderSeeks = () => {
    // Keep the keyboard focus on the same seek's button across the live updates.
    const focused = document.activeElement && body.contains(document.activeElement) ? document.activeElement.closest('tr')?.dataset.seek : null;
    body.textContent = '';
    for (const s of seeks) {
      const tr = el('tr', { 'data-seek': s.id });
      const who = s.name ? el('a', { href: `/@/${encodeURIComponent(s.name)}` }, s.name) : el('span', { i18n: 'lobby_anonymous' });
      const kind = kindText(s);
      const tc = timeControlText(s.time);
      let action;
      if (isOwn(s)) {
        action = el('span', { i18n: 'lobby_own' });
      } else if (s.rated && !me) {
        action = el('a', { href: accountLink(), class: 'login-to-accept' }, t('lobby_login_to_accept'));
        action.title = t('lobby_login_to_accept_label');
      } else {
        action = el('button', { type: 'button', class: 'accept' }, t('lobby_accept'));
        action.append(el('span', { class: 'visually-hidden' }, ` – ${t('lobby_accept_label', { name: s.name || t('lobby_anonymous'), tc, kind })}`));
        if (pending) action.append(el('span', { class: 'visually-hidden' }, ` ${t('lobby_accept_withdraws')}`));
        if (pending) action.title = t('lobby_accept_withdraws');
        action.disabled = accepting;
        action.addEventListener('click', () => accept(s));
      }
      // A provisional rating shows with "?" as on the player page ("1662?").
      const rating = s.rating == null ? '–' : `${Math.round(s.rating)}${s.provisional ? '?' : ''}`;
      // On a phone the rating and kind columns give way: the same words then follow the name and the
      // time control (these spans are not displayed, hence not read, on wider screens).
      tr.append(
        el('td', {}, who, el('span', { class: 'narrow-only' }, ` (${rating})`)),
        el('td', { class: 'num wide-only' }, rating),
        el('td', {}, tc, el('span', { class: 'narrow-only' }, `, ${kind}`)),
        el('td', { class: 'wide-only' }, kind),
        el('td', { class: 'wide-only' }, s.color === 'random' ? t('random') : colorName(s.color)),
        el('td', {}, action),
      );
      body.append(tr);
    }
    show(table, seeks.length > 0);
    show(empty, seeks.length === 0);
    if (focused) {
      const again = body.querySelector(`tr[data-seek="${CSS.escape(focused)}"] button, tr[data-seek="${CSS.escape(focused)}"] a`);
      if (again) again.focus();
    }
  };

  const renderForm = () => {
    ratedBox.disabled = !me;
    if (!me) ratedBox.checked = false;
    ratedNote.textContent = '';
    if (!me) {
      const a = el('a', { href: accountLink() }, t('hdr_login'));
      ratedNote.append(t('lobby_rated_needs_account'), ' ', a);
    }
  };

  const syncForm = () => {
    const live = form.elements.seek_time.value === 'live';
    show($('seek-live'), live);
    show($('seek-corr'), !live);
  };
  form.addEventListener('change', syncForm);
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const f = form.elements;
    const time =
      f.seek_time.value === 'live'
        ? { type: 'live', minutes: Number(f.seek_minutes.value), increment: Number(f.seek_increment.value) }
        : { type: 'correspondence', days: Number(f.seek_days.value) };
    post({ time, color: f.seek_color.value, rated: !!me && ratedBox.checked, variant: f.seek_variant.value });
  });

  const render = () => {
    renderQuick();
    renderSeeks();
    renderForm();
    // Only an announced status is said again (in the new language); an empty one stays empty.
    if (statusKey) status.textContent = statusText();
  };

  // --- Live --------------------------------------------------------------------------------------
  const onSeeks = (list) => {
    seeks = list;
    renderSeeks();
    // Our seek left the list: taken (or withdrawn, or expired); the seek itself says which.
    if (pending && !list.some((s) => s.id === pending.id)) checkPending(false);
  };

  render();
  whoami().then(
    (m) => {
      me = m;
      if (me) ratedBox.checked = true;
      render();
    },
    () => {},
  );
  // The list at once over HTTP; the socket keeps it current from then on.
  request('GET', '/api/seeks').then(
    (r) => {
      categories = r.categories || null;
      renderQuick();
      if (!seeks.length) onSeeks(r.seeks || []);
    },
    (e) => showError(error, e),
  );
  socket.watchLobby(onSeeks);

  return { relabel: render };
}
