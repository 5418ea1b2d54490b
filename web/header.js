// The header's account part (#account-nav) on every page: logged in, the name (a link to the player's
// page), "your turn" (turns.js) and log-out; anonymous, links to log in and to sign up. Who is logged
// in comes from GET /api/me, asked again every minute and whenever the tab comes back into view, so
// that games started elsewhere (another browser, the lobby) appear.
import './strings-account.js';
import { request } from './api.js';
import { t } from './i18n.js';
import { Turns } from './turns.js';
import { $ } from './util.js';

const REFRESH_MS = 60000;

let mePromise = null;

/** The logged-in player ({username, ratings, playing}) or null; REFRESH asks the server again.
 *  Rejects only when the server cannot tell (network, busy). */
export function whoami(refresh = false) {
  if (!mePromise || refresh) {
    // Nobody logged in: 200 {"username": null} (a 401 from older servers means the same).
    mePromise = request('GET', '/api/me').then(
      (m) => (m && m.username ? m : null),
      (e) => {
        if (e.status === 401) return null;
        throw e;
      },
    );
  }
  return mePromise;
}

/** Where /account should send the user back to: this page, without its fragment (which may hold a
 *  game's secret; the game page finds that in localStorage again). */
export function accountLink(hash = '') {
  const here = location.pathname + location.search;
  const next = location.pathname.startsWith('/account') ? '' : `?next=${encodeURIComponent(here)}`;
  return `/account${next}${hash}`;
}

export function logOut() {
  return request('DELETE', '/api/session').catch(() => {});
}

export function initHeader() {
  const nav = $('account-nav');
  let me; // undefined until known, then null or the account
  let turns = null;

  const link = (href, key) => {
    const a = document.createElement('a');
    a.href = href;
    a.dataset.i18n = key;
    a.textContent = t(key);
    return a;
  };

  const render = () => {
    nav.textContent = '';
    nav.className = 'account-nav';
    if (me === undefined) return;
    if (!me) {
      if (turns) {
        turns.setPlaying([]);
        turns = null;
      }
      nav.append(link(accountLink(), 'hdr_login'), link(accountLink('#signup'), 'hdr_signup'));
      return;
    }
    const name = document.createElement('a');
    name.className = 'account-name';
    name.href = `/@/${encodeURIComponent(me.username)}`;
    name.textContent = me.username;
    if (!turns) turns = new Turns();
    turns.setPlaying(me.playing);
    const out = document.createElement('button');
    out.type = 'button';
    out.className = 'logout';
    out.dataset.i18n = 'acc_logout';
    out.textContent = t('acc_logout');
    out.addEventListener('click', async () => {
      out.disabled = true;
      await logOut();
      // Every part of the page (the lobby, the account page) depends on who is logged in.
      location.reload();
    });
    nav.append(name, turns.el, out);
  };

  const refresh = (force) =>
    whoami(force).then(
      (m) => {
        const same = me !== undefined && (me ? me.username : null) === (m ? m.username : null);
        me = m;
        // The same person: only the games change (re-rendering would take the focus away).
        if (same && turns) turns.setPlaying(me.playing);
        else if (!same) render();
      },
      () => {
        // The server could not tell: keep what the header shows until the next try.
      },
    );

  refresh(false);
  setInterval(() => refresh(true), REFRESH_MS);
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) refresh(true);
  });
  return {
    relabel() {
      if (turns) turns.render();
    },
  };
}
