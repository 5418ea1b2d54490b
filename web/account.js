// The account page (/account): anonymous, a sign-up and a log-in form; logged in, the name with a link
// to the player's page, a form to change the password, log-out and log-out everywhere. After signing
// up or logging in the page goes back to where the user came from (?next=, a path on this site) or home.
import './strings-account.js';
import { request } from './api.js';
import { t } from './i18n.js';
import { logOut, whoami } from './header.js';
import { $, el, show, showError } from './util.js';

/** The page to return to: only a page of this site (never another site, never /account itself), else
 *  home. `next` is resolved as the browser would resolve it, so that what a test of the text lets
 *  through cannot become another site: the URL parser drops tabs and line feeds ("/\t/evil.example"
 *  is "//evil.example") and reads a backslash as a slash. */
function nextPath() {
  const next = new URLSearchParams(location.search).get('next') || '';
  let url;
  try {
    url = new URL(next, location.origin);
  } catch {
    return '/';
  }
  if (!next.startsWith('/') || url.origin !== location.origin || url.pathname.startsWith('/account')) return '/';
  return url.pathname + url.search + url.hash;
}

/** One labelled input in a form. */
function field(id, labelKey, type, name, autocomplete, extra = {}) {
  return el(
    'div',
    { class: 'field' },
    el('label', { for: id, i18n: labelKey }),
    el('input', { id, name, type, autocomplete, required: true, ...extra }),
  );
}

/** A form: heading, fields, submit button, error paragraph (role=alert). ONSUBMIT(form) may throw. */
function accountForm(id, titleKey, fields, submitKey, onSubmit, hintKey) {
  const error = el('p', { class: 'error', role: 'alert', id: `${id}-error`, hidden: true });
  const button = el('button', { type: 'submit', class: 'primary', i18n: submitKey });
  const children = [el('h2', { i18n: titleKey, id: `${id}-title` })];
  if (hintKey) children.push(el('p', { class: 'hint', id: `${id}-hint`, i18n: hintKey }));
  const form = el('form', { id, class: 'card account-form', 'aria-labelledby': `${id}-title`, novalidate: true }, ...children, ...fields, button, error);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    showError(error, null);
    button.disabled = true;
    try {
      await onSubmit(form);
    } catch (e) {
      showError(error, e);
    }
    button.disabled = false;
  });
  return form;
}

function anonymousView(page) {
  const signup = accountForm(
    'signup-form',
    'acc_signup',
    [
      field('signup-username', 'acc_username', 'text', 'username', 'username', { 'aria-describedby': 'signup-form-hint', maxlength: 20 }),
      field('signup-password', 'acc_password', 'password', 'password', 'new-password', { 'aria-describedby': 'signup-form-hint' }),
    ],
    'acc_signup',
    async (f) => {
      await request('POST', '/api/accounts', { username: f.elements.username.value.trim(), password: f.elements.password.value });
      location.assign(nextPath());
    },
    'acc_signup_hint',
  );
  const login = accountForm(
    'login-form',
    'acc_login',
    [
      field('login-username', 'acc_username', 'text', 'username', 'username'),
      field('login-password', 'acc_password', 'password', 'password', 'current-password'),
    ],
    'acc_login',
    async (f) => {
      await request('POST', '/api/session', { username: f.elements.username.value.trim(), password: f.elements.password.value });
      location.assign(nextPath());
    },
  );
  page.append(el('div', { class: 'account-forms' }, login, signup));
  // The header's "Sign up" link ends in #signup: start there.
  const first = location.hash === '#signup' ? 'signup-username' : 'login-username';
  $(first).focus();
}

function accountView(page, me) {
  const name = el('a', { href: `/@/${encodeURIComponent(me.username)}`, id: 'account-username' });
  name.textContent = me.username;
  const logout = el('button', { type: 'button', id: 'account-logout', i18n: 'acc_logout' });
  logout.addEventListener('click', async () => {
    logout.disabled = true;
    await logOut();
    location.reload();
  });
  // Log out everywhere (DELETE /api/sessions): every session of the account ends, this one too, and
  // the seat secrets handed out so far are revoked (a lost device or a shared private link).
  const allError = el('p', { class: 'error', role: 'alert', id: 'account-logout-all-error', hidden: true });
  const logoutAll = el('button', {
    type: 'button',
    id: 'account-logout-all',
    i18n: 'acc_logout_all',
    'aria-describedby': 'account-logout-all-hint',
  });
  logoutAll.addEventListener('click', async () => {
    logoutAll.disabled = true;
    showError(allError, null);
    try {
      await request('DELETE', '/api/sessions');
    } catch (e) {
      // 401 not_logged_in: this session had ended already; the page shows that below.
      if (e.status !== 401) {
        showError(allError, e);
        logoutAll.disabled = false;
        return;
      }
    }
    location.reload();
  });
  const who = el('section', { class: 'card', 'aria-labelledby': 'account-who' },
    el('h2', { id: 'account-who', i18n: 'acc_logged_in_as' }),
    el('p', { class: 'account-who' }, name),
    el('p', {}, logout),
    el('p', {}, logoutAll),
    el('p', { class: 'hint', id: 'account-logout-all-hint', i18n: 'acc_logout_all_hint' }),
    allError,
  );
  const done = el('p', { class: 'success', role: 'status', id: 'password-done' });
  const change = accountForm(
    'password-form',
    'acc_change_password',
    [
      // The name for password managers, which file the new password under it.
      el('input', { type: 'text', name: 'username', autocomplete: 'username', value: me.username, hidden: true, 'aria-hidden': 'true', tabindex: '-1' }),
      field('current-password', 'acc_current_password', 'password', 'password', 'current-password'),
      field('new-password', 'acc_new_password', 'password', 'new_password', 'new-password'),
    ],
    'acc_change_password',
    async (f) => {
      done.textContent = '';
      await request('POST', '/api/account/password', { password: f.elements.password.value, new_password: f.elements.new_password.value });
      f.reset();
      done.dataset.i18n = 'acc_password_changed';
      done.textContent = t('acc_password_changed');
    },
  );
  change.append(done);
  page.append(who, change);
}

export function initAccount() {
  const page = $('account-page');
  show(page, true);
  page.textContent = '';
  const h1 = el('h1', { i18n: 'acc_title' });
  const intro = el('p', { class: 'account-intro', i18n: 'acc_intro' });
  const error = el('p', { class: 'error', role: 'alert', hidden: true });
  page.append(h1, intro, error);
  document.title = `${t('acc_title')} – ${t('app_title')}`;
  whoami().then(
    (me) => (me ? accountView(page, me) : anonymousView(page)),
    (e) => showError(error, e),
  );
  return {
    relabel() {
      document.title = `${t('acc_title')} – ${t('app_title')}`;
    },
  };
}
