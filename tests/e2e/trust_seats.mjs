// Browser check that the address bar does not give a seat away (issue 22, defect 8). Before the fix a
// game opened at /g/ID#s=SECRET&c=white and the secret stayed in the address: whoever got the copied
// address (a screenshot, a shared link, the browser's history) played that side. Now the page reads the
// fragment once, keeps the secret in the browser's storage and shows the plain /g/ID.
//
//   node trust_seats.mjs BASE_URL ARTIFACT_DIR
//
// A creates a friend game in one browser context, B joins it by the invitation in another: neither
// address holds a secret (no fragment). C opens A's exact address in a third context and gets no seat:
// it watches, holds no secret, is offered no move and its drag plays nothing. A reloads and still holds
// White (storage) and moves. D has no usable localStorage (it throws): a local game still works there
// (the secrets are kept in memory until the page is left). E, logged in, opens an account's game by its
// plain address and plays it; after "log out everywhere" (F) and a new log-in its move with the revoked
// secret goes through with the account's fresh one.
// Playwright only drives Debian's /usr/bin/chromium (CHROMIUM overrides); it never downloads a browser.
// Nothing waits for a fixed time: every wait is for a condition, with a generous deadline.
import { api, args, check, drag, launch, run, seated, shot, until, WAIT } from './lib.mjs';

const [base] = args('node trust_seats.mjs BASE_URL ARTIFACT_DIR');

const atPly = (page, ply) => until(page.waitForSelector(`body[data-ply="${ply}"]`, WAIT));
const roleIs = (page, text) =>
  until(page.waitForFunction((want) => document.getElementById('role').textContent === want, text, WAIT));
// The secrets this page's storage holds for game ID (an empty object when none).
const stored = (page, id) =>
  page.evaluate((gid) => {
    try {
      const all = JSON.parse(localStorage.getItem('schach.games') || '{}');
      return (all[gid] && all[gid].secrets) || {};
    } catch (_) {
      return {};
    }
  }, id);

run(async () => {
  const { browser, open, noScriptErrors } = await launch();
  try {
    // A creates a friend game and plays White.
    const A = await open('en-GB');
    await A.goto(base);
    await A.click('#door-friend'); // the form behind the home page's door (issue 24)
    await A.waitForSelector('#new-game');
    await A.check('input[name="mode"][value="friend"]');
    await A.check('input[name="color"][value="white"]');
    await A.click('#create');
    check('A lands on the game page', await until(A.waitForURL((u) => u.pathname.startsWith('/g/'), WAIT)), A.url());
    const id = new URL(A.url()).pathname.slice(3);
    check('A plays White', (await atPly(A, 0)) && (await roleIs(A, 'You play White.')), await A.textContent('#role'));
    const invite = await A.inputValue('#invite-link');
    check('the invitation is shown to A', /\/g\/[A-Za-z0-9_-]+#i=/.test(invite), invite);
    const aHref = await A.evaluate(() => location.href);
    check("A's address holds no secret (no fragment)", !aHref.includes('#') && !aHref.includes('s='), aHref);
    check('A keeps its secret in the browser\'s storage', typeof (await stored(A, id)).white === 'string');

    // B joins by the invitation and plays Black.
    const B = await open('en-US');
    await B.goto(invite);
    check('B plays Black', (await atPly(B, 0)) && (await roleIs(B, 'You play Black.')), await B.textContent('#role'));
    await until(B.waitForFunction(() => !location.hash, null, WAIT));
    const bHref = await B.evaluate(() => location.href);
    check("B's address after joining holds no secret or invitation", !bHref.includes('#'), bHref);
    check("B's address is the game's plain address", new URL(bHref).pathname === `/g/${id}`, bHref);
    await shot(B, 'trust-seats-b.png');

    // C opens A's exact address: a spectator, without a seat.
    const C = await open('en-GB');
    await C.goto(aHref);
    await atPly(C, 0);
    check("C, with A's address, only watches", await roleIs(C, 'You are watching.'), await C.textContent('#role'));
    check('C holds no secret of the game', Object.keys(await stored(C, id)).length === 0, JSON.stringify(await stored(C, id)));
    check('C is offered no move (the move form is hidden)', await C.locator('#move-form').isHidden());
    check('C is offered no resignation', await C.locator('#resign').isHidden());
    await drag(C, 'd2', 'd4');
    await shot(C, 'trust-seats-c.png');

    // A reloads: still White (from storage), and moves.
    await A.reload();
    check('A after a reload still plays White', (await atPly(A, 0)) && (await roleIs(A, 'You play White.')), await A.textContent('#role'));
    check("A's address after the reload holds no fragment", !(await A.evaluate(() => location.href)).includes('#'));
    await A.waitForSelector('#connection[data-status="connected"]', WAIT);
    await drag(A, 'e2', 'e4');
    check('A moves after the reload', await atPly(A, 1));
    const state = await api('GET', `/api/games/${id}`);
    const first = state.json && state.json.moves && state.json.moves[0];
    check("the game's first move is A's e2-e4, not C's d2-d4", first && first.uci === 'e2e4', JSON.stringify(first));
    check('C sees the move without having played one', await atPly(C, 1));

    // D: localStorage throws (as in some private modes); a local game still works until the page is left.
    const D = await open('en-GB', {}, {
      init: () => {
        Object.defineProperty(window, 'localStorage', {
          configurable: true,
          get() {
            throw new DOMException('storage is disabled', 'SecurityError');
          },
        });
      },
    });
    await D.goto(base);
    await D.click('#door-friend');
    await D.waitForSelector('#new-game');
    await D.check('input[name="mode"][value="local"]');
    await D.click('#create');
    check('D (no storage) plays both sides of a local game', (await atPly(D, 0)) && (await roleIs(D, 'You play both sides on this screen.')),
      await D.textContent('#role'));
    check("D's address holds no secret", !(await D.evaluate(() => location.href)).includes('#'), D.url());
    await drag(D, 'e2', 'e4');
    check('D moves White', await atPly(D, 1));
    await drag(D, 'e7', 'e5');
    check('D moves Black', await atPly(D, 2));

    // An account's game on a browser that holds no side of it: the page takes the secret from GET
    // /api/me. "Log out everywhere" on another browser ends every session and revokes the secrets
    // handed out so far; logged in again, a move with the revoked secret in storage (403 bad_secret)
    // is sent once more with the account's fresh one.
    const NAME = `seat${process.pid % 100000}`;
    const PASSWORD = 'good password';
    const signUp = async (name) => {
      const r = await api('POST', '/api/accounts', { username: name, password: PASSWORD });
      if (r.status !== 201) throw new Error(`sign-up ${name}: ${r.status} ${r.text}`);
      return r.cookie;
    };
    const logIn = async (name) => {
      const r = await api('POST', '/api/session', { username: name, password: PASSWORD });
      if (r.status !== 200) throw new Error(`log-in ${name}: ${r.status} ${r.text}`);
      return r.cookie;
    };
    const withCookie = (page, cookie) => {
      const eq = cookie.indexOf('=');
      return page.context().addCookies([{ name: cookie.slice(0, eq), value: cookie.slice(eq + 1), url: base }]);
    };
    const xCookie = await signUp(`${NAME}x`);
    const yCookie = await signUp(`${NAME}y`);
    const seek = await api('POST', '/api/seeks', { time: { type: 'correspondence', days: 3 }, rated: true, color: 'white' }, xCookie);
    const took = await api('POST', `/api/seeks/${seek.json && seek.json.id}/accept`, {}, yCookie);
    check('(setup) a rated game between two accounts', seek.status === 201 && took.status === 200, `${seek.text} ${took.text}`);
    const rid = took.json.id;
    const E = await open('en-GB');
    await withCookie(E, xCookie);
    await E.goto(new URL(`/g/${rid}`, base).href);
    check("a logged-in player's plain /g/ID on a new browser plays its side (from /api/me)", await until(seated(E, 'white')),
      await E.textContent('#role'));
    const old = (await stored(E, rid)).white;

    const F = await open('en-GB');
    await withCookie(F, await logIn(`${NAME}x`));
    await F.goto(new URL('/account', base).href);
    await F.locator('#account-logout-all').click();
    check('"Log out everywhere": the account page shows the logged-out state', await until(F.waitForSelector('#login-form', WAIT)));
    const me = await api('GET', '/api/me', undefined, xCookie);
    check('… and the other browser\'s session has ended too', me.status === 200 && me.json?.username === null, `${me.status} ${me.text}`);
    const bad = await api('POST', `/api/games/${rid}/move`, { secret: old, ply: 0, move: 'e2e4' });
    check('… and the seat secret handed out before is refused', bad.status === 403, `${bad.status} ${bad.text}`);

    await withCookie(E, await logIn(`${NAME}x`));
    await E.waitForSelector('#connection[data-status="connected"]', WAIT);
    await drag(E, 'e2', 'e4');
    check('logged in again, the move with the revoked secret goes through with the fresh one', await atPly(E, 1),
      await E.textContent('#error'));
    const renewed = (await stored(E, rid)).white;
    check('… and the fresh secret is kept', typeof renewed === 'string' && renewed !== old);
    noScriptErrors();
  } finally {
    await browser.close();
  }
});
