// Browser test of the lobby, the accounts and "your turn" (issue 13), through the page as people use
// it, with three browser contexts (two people with accounts, one anonymous visitor):
//   - two accounts sign up (from the header's link, back to where they came from);
//   - one posts a rated 5+3 challenge with the form; the other sees it appear in the lobby live and
//     accepts; both land on the game with opposite colours (the poster without reloading);
//   - the header's "your turn" says which side is to move, lists the game and follows the moves live,
//     also on another page, where a notification says so (clicking it opens the game);
//   - the quick-pairing buttons named with the server's categories; quick pairing 10+0 by both makes one game;
//   - a Chess960 challenge from the form says Chess960 in the lobby; Chess960 quick pairing makes a Chess960 game;
//   - the anonymous visitor is told to log in for a rated challenge, cannot mark one rated, and posts a
//     casual one that an account accepts; a withdrawn challenge leaves the other lists;
//   - log out, a wrong password shown, log in (back to the page it came from), change the password;
//   - axe-core: 0 violations on home and /account, German and English, desktop and phone (and no
//     sideways scrolling on the phone).
//
//   node lobby.mjs BASE_URL ARTIFACT_DIR
//
// Playwright only drives Debian's /usr/bin/chromium (CHROMIUM overrides); it never downloads a browser.
// Nothing waits for a fixed time: every wait is for a condition, with a generous deadline.
import { args, axeCheck, check, DESKTOP, launch, noSidewaysCheck, PHONE, run, shot, until, WAIT } from './lib.mjs';

const [base] = args('node lobby.mjs BASE_URL ARTIFACT_DIR');

// Unique names per run, so the test can run against a database used before.
const tag = Date.now().toString(36).slice(-5);
const users = { a: `ana_${tag}`, b: `ben_${tag}` };
const PASSWORD = 'correct horse 1';
const NEW_PASSWORD = 'battery staple 2';

/** Replaces the Notification API with a recorder that has permission: headless Chromium shows no
 *  notifications, and the test wants to see what the page would show and to click it. */
function fakeNotifications() {
  window.__notes = [];
  class FakeNotification {
    constructor(title, options = {}) {
      this.title = title;
      this.body = options.body;
      this.onclick = null;
      window.__notes.push(this);
    }
    close() {}
    // "granted" unless the test set sessionStorage "fake-notify" to "default" (not asked yet).
    static get permission() {
      return sessionStorage.getItem('fake-notify') || 'granted';
    }
    static requestPermission() {
      sessionStorage.setItem('fake-notify', 'granted');
      return Promise.resolve('granted');
    }
  }
  window.Notification = FakeNotification;
}

const axe = (page, what) => axeCheck(page, `axe: ${what}: 0 violations`);
const noSidewaysScroll = (page, what) => noSidewaysCheck(page, `${what}: no horizontal overflow`);

/** axe (and on the phone the width) for the page as it is, in German and in English (the switch). */
async function axeBothLanguages(page, what, prepare = async () => {}) {
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    const size = viewport === PHONE ? 'phone' : 'desktop';
    for (let i = 0; i < 2; i++) {
      const l = await page.evaluate(() => document.documentElement.lang);
      await prepare();
      await axe(page, `${what}, ${l}, ${size}`);
      if (viewport === PHONE) await noSidewaysScroll(page, `${what}, ${l}, phone`);
      await shot(page, `lobby-${what.replace(/\W+/g, '-')}-${l}-${size}.png`);
      await page.click('#lang-switch');
    }
  }
  await page.setViewportSize(DESKTOP);
}

const summary = (page) => page.locator('#turns summary');
const gameId = (page) => new URL(page.url()).pathname.replace(/^\/g\//, '');
// On a game page holding one side, with no fragment (no secret) in the address; that side.
const onGame = (page) =>
  until(page.waitForFunction(() => {
    const g = document.getElementById('game-page');
    return location.pathname.startsWith('/g/') && !location.hash && !!g && /^(white|black)$/.test(g.dataset.held || '');
  }, null, WAIT));
const heldColor = (page) => page.evaluate(() => document.getElementById('game-page').dataset.held);

async function signUp(page, name, where) {
  await page.goto(new URL(where, base).href);
  await page.locator('#account-nav a[href*="#signup"]').click();
  await page.waitForSelector('#signup-username', WAIT);
  const focused = await page.evaluate(() => document.activeElement && document.activeElement.id);
  check(`${name}: the header's sign-up link opens /account with the sign-up name focused`, focused === 'signup-username', focused);
  await page.fill('#signup-username', name);
  await page.fill('#signup-password', PASSWORD);
  await page.locator('#signup-form button[type=submit]').click();
  const back = await until(page.waitForURL((u) => u.pathname === where, WAIT));
  check(`${name}: after signing up the page goes back to ${where}`, back, page.url());
  const shown = await until(page.locator('#account-nav .account-name', { hasText: name }).waitFor(WAIT));
  check(`${name}: the header shows the name, linked to the player page`, shown &&
    (await page.locator('#account-nav .account-name').getAttribute('href')) === `/@/${name}`);
}

/** Plays MOVE by the move box on a game page; waits until the state has PLY. */
async function typeMove(page, move, ply) {
  await page.fill('#move-input', move);
  await page.press('#move-input', 'Enter');
  return until(page.waitForSelector(`body[data-ply="${ply}"]`, WAIT));
}

async function main() {
  const { browser, open: openPage, noScriptErrors } = await launch();
  const open = (locale) => openPage(locale, { viewport: DESKTOP }, { init: fakeNotifications });
  const a = await open('de-DE');
  const b = await open('en-GB');
  const c = await open('de-DE'); // anonymous

  try {
    // --- Sign-up ---------------------------------------------------------------------------------
    await signUp(a, users.a, '/');
    await signUp(b, users.b, '/');

    // --- Asking for permission to notify: a button (a user gesture), then what was decided ------
    await b.evaluate(() => sessionStorage.setItem('fake-notify', 'default'));
    await b.reload();
    await summary(b).click();
    const ask = b.locator('#turns button.turns-notify');
    check('the your-turn list offers to turn notifications on', await until(ask.waitFor(WAIT)) && (await ask.innerText()) === 'Turn on notifications');
    await ask.click();
    const on = b.locator('#turns .turns-notify-state', { hasText: 'Notifications are on.' });
    check('after the permission: "notifications are on", focused', await until(on.waitFor(WAIT)) &&
      (await b.evaluate(() => document.activeElement && document.activeElement.className)) === 'turns-notify-state');
    await summary(b).click();

    // --- A rated 5+3 challenge through the form, accepted from the lobby ------------------------
    await b.goto(base);
    await b.waitForSelector('#lobby-table', { state: 'attached', ...WAIT });
    const rated = a.locator('#seek-rated');
    await until(a.waitForFunction(() => document.querySelector('#seek-rated') && !document.querySelector('#seek-rated').disabled, null, WAIT));
    check('account: the challenge form offers "rated", checked', (await rated.isEnabled()) && (await rated.isChecked()));
    await a.fill('#seek-form input[name=seek_minutes]', '5');
    await a.fill('#seek-form input[name=seek_increment]', '3');
    await a.locator('#seek-post').click();
    // A rated challenge with the colours left to chance says the ratings it looks for (its window,
    // which widens while it waits: issue 24).
    const waiting = await until(a.locator('#lobby-status', { hasText: /Suche einen Gegner mit Wertung \d+–\d+ \(5\+3, gewertet\)/ }).waitFor(WAIT));
    check('poster: "looking for" the ratings, with the control and "rated", and a cancel button', waiting && (await a.locator('#lobby-cancel').isVisible()));
    const row = b.locator('#lobby-table tbody tr', { hasText: users.a });
    const appeared = await until(row.waitFor(WAIT));
    check('the other account sees the challenge appear in the lobby without reloading', appeared);
    const rowText = appeared ? (await row.innerText()).replace(/\s+/g, ' ') : '';
    check('the lobby row says player, rating, 5+3 and rated', /1500/.test(rowText) && /5\+3/.test(rowText) && /rated/.test(rowText), rowText);
    check('a newcomer\'s rating shows as provisional: "1500?" (issue 24)', /1500\?/.test(rowText), rowText);
    check('the lobby table has a caption', (await b.locator('#lobby-table caption').innerText()).length > 0);
    check("the poster's own row offers no Accept", (await a.locator('#lobby-table tbody tr', { hasText: users.a }).locator('button.accept').count()) === 0);
    await shot(b, 'lobby-seek-listed.png');
    await row.locator('button.accept').click();
    const bThere = await onGame(b);
    const aThere = await onGame(a);
    check('the accepter lands on the game page', bThere, b.url());
    check('the poster is taken to the game page without reloading', aThere, a.url());
    const game1 = gameId(b);
    check('both are on the same game', gameId(a) === game1, `${gameId(a)} vs ${game1}`);
    const colors = [await heldColor(a), await heldColor(b)].sort().join(',');
    check('they hold opposite colours', colors === 'black,white', colors);
    await until(a.waitForSelector('body[data-ply="0"]', WAIT));
    await until(b.waitForSelector('body[data-ply="0"]', WAIT));
    const white = (await heldColor(a)) === 'white' ? a : b;
    const black = white === a ? b : a;
    const whiteRole = await white.locator('#role').innerText();
    check('the white side\'s page says it plays White', /Weiß|White/.test(whiteRole), whiteRole);
    // The player bars: each newcomer's rating as the game began, provisional: "1500?", which a screen
    // reader hears as "1500, provisional" ("vorläufig" on the German page), with a tooltip (issue 24).
    for (const [page, word, title] of [[a, 'vorläufig', /Vorläufige Wertung/], [b, 'provisional', /Provisional rating/]]) {
      const ratings = page.locator('.player-bar .player-name .rating');
      const both = await until(page.waitForFunction(() => document.querySelectorAll('.player-bar .player-name .rating').length === 2, null, WAIT));
      const shown = both ? await ratings.evaluateAll((els) => els.map((e) => ({
        visible: [...e.childNodes].filter((n) => !(n.classList && n.classList.contains('visually-hidden'))).map((n) => n.textContent).join(''),
        hidden: [...e.querySelectorAll('.visually-hidden')].map((n) => n.textContent).join(''),
        q: [...e.querySelectorAll('[aria-hidden="true"]')].map((n) => n.textContent).join(''),
        title: e.title,
      }))) : [];
      check(`${word}: both player bars show the newcomers' ratings as "(1500?)", "?" hidden from a screen reader, which hears "1500, ${word}", with a tooltip`,
        shown.length === 2 && shown.every((s) => s.visible.trim() === '(1500?)' && s.q === '?' && s.hidden.includes(word) && title.test(s.title)),
        JSON.stringify(shown));
    }

    // --- "Your turn" ----------------------------------------------------------------------------
    const whiteTurn = await until(white.locator('#turns summary', { hasText: ': 1' }).waitFor(WAIT));
    check('white\'s header shows "your turn: 1"', whiteTurn, await summary(white).innerText().catch(() => ''));
    const blackNone = await until(black.locator('#turns summary', { hasText: ': 0' }).waitFor(WAIT));
    check('black\'s header shows 0 games waiting', blackNone);
    await summary(white).click();
    const item = white.locator('#turns .turns-panel a');
    const href = (await item.count()) ? await item.first().getAttribute('href') : '';
    check('the your-turn list links to the game\'s plain address (no secret in it)', href === `/g/${game1}`, href);
    await shot(white, 'lobby-your-turn.png');
    await summary(white).click();

    // Black looks at the home page: the opponent's move shows up there, and as a notification.
    await black.goto(base);
    await until(black.locator('#turns summary', { hasText: ': 0' }).waitFor(WAIT));
    check('white moves e4 from the move box', await typeMove(white, 'e4', 1));
    const whiteDone = await until(white.locator('#turns summary', { hasText: ': 0' }).waitFor(WAIT));
    check("after the move white's indicator drops to 0", whiteDone);
    const blackNow = await until(black.locator('#turns summary', { hasText: ': 1' }).waitFor(WAIT));
    check("black's indicator (on the home page) rises to 1 live", blackNow);
    const notes = await black.evaluate(() => window.__notes.map((n) => ({ title: n.title, body: n.body })));
    check('black, not looking at the game, gets a notification naming the move', notes.length === 1 && /e4/.test(notes[0].body || ''), JSON.stringify(notes));
    await black.evaluate(() => window.__notes[0].onclick());
    const opened = await until(black.waitForURL((u) => u.pathname === `/g/${game1}`, WAIT));
    check('clicking the notification opens the game', opened, black.url());
    await until(black.waitForSelector('body[data-ply="1"]', WAIT));
    check('black answers e5', await typeMove(black, 'e5', 2));
    // The header with a name, "your turn" and log-out on a phone-sized game page.
    await white.setViewportSize(PHONE);
    check("white's indicator shows 1 again", await until(white.locator('#turns summary', { hasText: ': 1' }).waitFor(WAIT)));
    await noSidewaysScroll(white, 'game page with the account header, phone');
    await shot(white, 'lobby-game-phone.png');
    await white.setViewportSize(DESKTOP);
    const whiteNotes = await white.evaluate(() => window.__notes.length);
    check('no notification for the game one is looking at', whiteNotes === 0, String(whiteNotes));

    // --- Quick pairing 10+0 ---------------------------------------------------------------------
    await a.goto(base);
    await b.goto(base);
    // The pools named with the categories the server told (GET /api/seeks "categories").
    check('quick pairing: 1+0 is named bullet, 5+3 blitz, 15+10 rapid',
      await until(a.locator('.quick-buttons button[data-pool="1+0"]', { hasText: 'Bullet' }).waitFor(WAIT)) &&
        /Blitz/.test(await a.locator('.quick-buttons button[data-pool="5+3"]').innerText()) &&
        /Schnellschach|Rapid/.test(await a.locator('.quick-buttons button[data-pool="15+10"]').innerText()));
    await a.locator('.quick-buttons button[data-pool="10+0"]').click();
    check('quick pairing: the first waits', await until(a.locator('#lobby-status', { hasText: '10+0' }).waitFor(WAIT)));
    // The rating window the server reports (it widens while the seek waits: issue 24).
    const windowText = await a.locator('#lobby-status').innerText();
    check('quick pairing: the waiting line names the ratings looked for', /Suche einen Gegner mit Wertung \d+–\d+ \(10\+0, gewertet\)/.test(windowText), windowText);
    await b.locator('.quick-buttons button[data-pool="10+0"]').click();
    const q1 = await onGame(b);
    const q2 = await onGame(a);
    check('quick pairing 10+0 by both: both on a game page', q1 && q2);
    check('quick pairing: one game, a new one, opposite colours',
      gameId(a) === gameId(b) && gameId(a) !== game1 && (await heldColor(a)) !== (await heldColor(b)), `${a.url()} / ${b.url()}`);

    // --- Chess960 (issue 24): the form's variant, shown in the list; quick pairing by variant ----
    await a.goto(base);
    await b.goto(base);
    await until(a.waitForFunction(() => document.querySelector('#seek-rated') && !document.querySelector('#seek-rated').disabled, null, WAIT));
    await a.locator('#seek-form input[name=seek_variant][value=chess960]').check();
    await a.fill('#seek-form input[name=seek_minutes]', '7');
    await a.fill('#seek-form input[name=seek_increment]', '0');
    await a.locator('#seek-post').click();
    check('Chess960: the waiting line says Chess960', await until(a.locator('#lobby-status', { hasText: /7\+0, gewertet, Chess960/ }).waitFor(WAIT)));
    const row960 = b.locator('#lobby-table tbody tr', { hasText: users.a });
    const row960Text = (await until(row960.waitFor(WAIT))) ? (await row960.innerText()).replace(/\s+/g, ' ') : '';
    check('Chess960: the lobby row says 7+0, rated, Chess960', /7\+0/.test(row960Text) && /rated, Chess960/.test(row960Text), row960Text);
    await a.locator('#lobby-cancel').click();
    await until(row960.waitFor({ state: 'detached', ...WAIT }));
    await a.locator('#seek-form input[name=seek_variant][value=standard]').check();
    const quick960 = (page) => page.locator('.quick-buttons button[data-pool="chess960-5+3"]');
    check('Chess960: a quick-pairing button of its own', /Chess960 5\+3/.test(await quick960(b).innerText()));
    await quick960(a).click();
    await until(a.locator('#lobby-status', { hasText: 'Chess960' }).waitFor(WAIT));
    await quick960(b).click();
    const c1 = await onGame(b);
    const c2 = await onGame(a);
    const variant = c1 && c2 && gameId(a) === gameId(b)
      ? await b.evaluate(async (id) => (await (await fetch(`/api/games/${id}`)).json()).variant, gameId(b)) : null;
    check('Chess960 quick pairing by both: one Chess960 game', variant === 'chess960', `${variant} ${a.url()} / ${b.url()}`);

    // --- The anonymous visitor ------------------------------------------------------------------
    await a.goto(base);
    await c.goto(base);
    await a.locator('#seek-form input[value=live]').check();
    await a.fill('#seek-form input[name=seek_minutes]', '15');
    await a.fill('#seek-form input[name=seek_increment]', '10');
    await a.locator('#seek-post').click();
    await until(a.locator('#lobby-status', { hasText: '15+10' }).waitFor(WAIT));
    const ratedRow = c.locator('#lobby-table tbody tr', { hasText: users.a });
    check('anonymous: the rated challenge appears', await until(ratedRow.waitFor(WAIT)));
    const login = ratedRow.locator('a.login-to-accept');
    check('anonymous: a rated challenge has no Accept button but "log in to accept"',
      (await ratedRow.locator('button.accept').count()) === 0 && (await login.count()) === 1 && /Anmelden/.test(await login.innerText()));
    check('anonymous: "rated" is disabled and explained', (await c.locator('#seek-rated').isDisabled()) &&
      /Konto/.test(await c.locator('#seek-rated-note').innerText()));
    check('anonymous: quick pairing says it is casual', /Ungewertet/.test(await c.locator('#lobby-quick-note').innerText()));
    await a.locator('#lobby-cancel').click();
    check('withdrawn: the poster is told', await until(a.locator('#lobby-status', { hasText: 'zurückgezogen' }).waitFor(WAIT)));
    check('withdrawn: the challenge leaves the other lists live', await until(ratedRow.waitFor({ state: 'detached', ...WAIT })));

    // A waiting challenge leaves with its page (held over the lobby socket), also after more
    // challenges posted and withdrawn on the page than one connection may hold (4).
    for (let i = 0; i < 4; i++) {
      await a.locator('#seek-post').click();
      await until(a.locator('#lobby-status', { hasText: 'Suche einen Gegner' }).waitFor(WAIT));
      await a.locator('#lobby-cancel').click();
      await until(a.locator('#lobby-status', { hasText: 'zurückgezogen' }).waitFor(WAIT));
    }
    await a.locator('#seek-post').click();
    check('posted again: the challenge appears', await until(ratedRow.waitFor(WAIT)));
    await a.goto(new URL('/account', base).href);
    check('the poster leaves the page: the challenge leaves the other lists', await until(ratedRow.waitFor({ state: 'detached', ...WAIT })));

    await c.locator('#seek-form input[value=live]').check();
    await c.fill('#seek-form input[name=seek_minutes]', '3');
    await c.fill('#seek-form input[name=seek_increment]', '2');
    await c.locator('#seek-post').click();
    check('anonymous: a casual challenge waits', await until(c.locator('#lobby-status', { hasText: '3+2, ungewertet' }).waitFor(WAIT)));
    await b.goto(base);
    const anonRow = b.locator('#lobby-table tbody tr', { hasText: 'Anonymous' });
    check('the account sees the anonymous casual challenge', await until(anonRow.waitFor(WAIT)));
    // Waiting for a game of one's own leaves the others' Accept usable: accepting withdraws one's
    // own challenge (issue 24).
    await b.locator('.quick-buttons button[data-pool="1+0"]').click();
    check('the account waits for 1+0 meanwhile', await until(b.locator('#lobby-status', { hasText: '1+0' }).waitFor(WAIT)));
    check('waiting: the Accept of another challenge stays usable', await until(b.waitForFunction(() => {
      const button = document.querySelector('#lobby-table button.accept');
      return button && !button.disabled;
    }, null, WAIT)));
    // While a challenge is open: axe on the lobby with a listed seek and a waiting poster.
    await axeBothLanguages(b, 'home with an open seek (account)', async () => {
      await until(b.locator('#lobby-table tbody tr').first().waitFor(WAIT));
      // With the your-turn list open, so that it is checked too (the header builds it once GET /api/me
      // answered, which may come after the lobby's list).
      await b.locator('#turns').waitFor({ state: 'attached', ...WAIT });
      await b.evaluate(() => { document.querySelector('#turns').open = true; });
    });
    await b.locator('#turns').waitFor({ state: 'attached', ...WAIT });
    await b.evaluate(() => { document.querySelector('#turns').open = false; });
    await axeBothLanguages(c, 'home waiting (anonymous)');
    await b.setViewportSize(PHONE);
    const acceptBox = await b.locator('#lobby-table button.accept').first().boundingBox();
    check('phone: the Accept button is in view without scrolling sideways', acceptBox && acceptBox.x + acceptBox.width <= PHONE.width,
      JSON.stringify(acceptBox));
    await b.setViewportSize(DESKTOP);
    await anonRow.locator('button.accept').click();
    const bIn = await onGame(b);
    const cIn = await onGame(c);
    check('casual seek: both on one game with opposite colours',
      bIn && cIn && gameId(b) === gameId(c) && (await heldColor(b)) !== (await heldColor(c)), `${b.url()} / ${c.url()}`);
    const left = await b.evaluate(async () => (await (await fetch('/api/seeks')).json()).seeks.map((s) => s.name));
    check('accepting withdrew the accepter\'s own waiting challenge', !left.includes(users.b), JSON.stringify(left));
    await until(c.waitForSelector('body[data-ply="0"]', WAIT));
    const cRole = await c.locator('#role').innerText();
    check('the anonymous side plays its colour on the game page', /Du spielst (Weiß|Schwarz)/.test(cRole), cRole);

    // --- Log out, wrong password, log in, change password ---------------------------------------
    await a.goto(new URL('/account', base).href);
    check('/account logged in: the name links to the player page',
      await until(a.locator('#account-username', { hasText: users.a }).waitFor(WAIT)));
    await axeBothLanguages(a, 'account (logged in)');
    await a.locator('#account-logout').click();
    check('log out: the log-in form appears', await until(a.locator('#login-form').waitFor(WAIT)));
    check('log out: the header offers "Anmelden"', await until(a.locator('#account-nav a', { hasText: 'Anmelden' }).waitFor(WAIT)));
    await axeBothLanguages(a, 'account (anonymous)');
    await a.goto(new URL(`/@/${users.a}`, base).href);
    await a.locator('#account-nav a', { hasText: 'Anmelden' }).click();
    await a.waitForSelector('#login-username', WAIT);
    await a.fill('#login-username', users.a.toUpperCase());
    await a.fill('#login-password', 'wrong password');
    await a.locator('#login-form button[type=submit]').click();
    const alert = a.locator('#login-form [role=alert]');
    check('wrong password: the error is shown (role=alert, German)', await until(alert.waitFor(WAIT)) && /Passwort/.test(await alert.innerText()),
      await alert.innerText().catch(() => ''));
    await shot(a, 'lobby-wrong-password.png');
    await a.fill('#login-password', PASSWORD);
    await a.locator('#login-form button[type=submit]').click();
    check('log in: back to the page it came from', await until(a.waitForURL((u) => u.pathname === `/@/${users.a}`, WAIT)), a.url());
    check('log in: the header shows the name', await until(a.locator('#account-nav .account-name', { hasText: users.a }).waitFor(WAIT)));
    await a.goto(new URL('/account', base).href);
    await a.waitForSelector('#password-form', WAIT);
    await a.fill('#current-password', PASSWORD);
    await a.fill('#new-password', NEW_PASSWORD);
    await a.locator('#password-form button[type=submit]').click();
    check('change password: confirmed', await until(a.locator('#password-done', { hasText: 'geändert' }).waitFor(WAIT)));
    await a.locator('#account-logout').click();
    await a.waitForSelector('#login-username', WAIT);
    await a.fill('#login-username', users.a);
    await a.fill('#login-password', NEW_PASSWORD);
    await a.locator('#login-form button[type=submit]').click();
    check('log in with the new password', await until(a.waitForURL((u) => u.pathname === '/', WAIT)) &&
      await until(a.locator('#account-nav .account-name', { hasText: users.a }).waitFor(WAIT)));
  } catch (e) {
    check('the test ran to its end', false, e.stack || String(e));
    for (const [n, p] of [['a', a], ['b', b], ['c', c]]) await shot(p, `lobby-error-${n}.png`).catch(() => {});
  }
  noScriptErrors();
  await browser.close();
}

run(main);
