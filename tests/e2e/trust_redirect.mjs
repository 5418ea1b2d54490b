// Browser check of the account page's redirect after logging in (issue 22, defect 6): /account?next=…
// sends the user back to `next` only when it is a page of this site. Before the fix
// `next=/%09/evil.example/` (a tab, or a line feed, which browsers strip from URLs) passed the page's
// check and sent the user to evil.example after logging in.
//
//   node trust_redirect.mjs BASE_URL ARTIFACT_DIR
//
// Every request to another host is stopped and recorded (no traffic leaves the machine): none may be
// made. Playwright only drives Debian's /usr/bin/chromium (CHROMIUM overrides); it never downloads a
// browser. Nothing waits for a fixed time: every wait is for a condition, with a generous deadline.
import { api, args, check, launch, run, shot, until, WAIT } from './lib.mjs';

const [base] = args('node trust_redirect.mjs BASE_URL ARTIFACT_DIR');
const origin = new URL(base).origin;
const NAME = `redir${process.pid % 100000}`;
const PASSWORD = 'good password';

// The raw query of each bad `next` (as a link would carry it): every one must end on the home page.
// One of each way out (each a log-in of its own in a browser, the most of this test's time): the
// page's three refusals (not a path, another origin once the browser has resolved it, the account
// page) and each rewriting of the browser's URL parser they must see through. Left out as the same
// case again: a CR LF or two tabs (stripped as the tab and the line feed are), two backslashes or
// backslash-slash after the first slash (read as slashes like the one), and the percent-encoded forms
// of //evil.example, https://evil.example/ and javascript:alert(1) (URLSearchParams hands the page the
// very same string).
const BAD = [
  '/%09/evil.example/', // a tab, which the URL parser strips: //evil.example/
  '/%0A/evil.example/', // a line feed, the same
  '//evil.example',
  '/%5Cevil.example', // /\evil.example: a backslash is a slash in http(s) URLs
  '%5C%5Cevil.example',
  'https://evil.example/',
  'http:evil.example',
  'javascript:alert(1)',
  '%20//evil.example',
  '/account', // never the account page itself
];

// A new account for each log-in (logins to one name are limited per minute): its name.
let accounts = 0;
async function account() {
  const name = `${NAME}${++accounts}`;
  const made = await api('POST', '/api/accounts', { username: name, password: PASSWORD });
  if (made.status !== 201) throw new Error(`sign-up: ${made.status} ${made.text}`);
  return name;
}

run(async () => {
  const { browser, open, noScriptErrors } = await launch();
  const foreign = [];

  // Logs in on /account?QUERY in a fresh context; the URL the page went to afterwards.
  async function logInWith(query, name = null) {
    const page = await open('en-GB');
    await page.context().route('**/*', (route) => {
      const u = route.request().url();
      if (u.startsWith(`${origin}/`)) return route.continue();
      foreign.push(`${query} -> ${u}`);
      return route.abort();
    });
    let dialog = null;
    page.on('dialog', (d) => { dialog = d.message(); });
    await page.goto(`${base}account?${query}`);
    await page.waitForSelector('#login-username', WAIT);
    if (!name) {
      await page.fill('#signup-username', `${NAME}s`); // a name of its own
      await page.fill('#signup-password', PASSWORD);
      await page.locator('#signup-form button[type=submit]').click();
    } else {
      await page.fill('#login-username', name);
      await page.fill('#login-password', PASSWORD);
      await page.locator('#login-form button[type=submit]').click();
    }
    const left = await until(page.waitForURL((u) => !u.href.startsWith(`${origin}/account`), WAIT));
    // The page it went to has loaded (or failed to): its URL no longer changes.
    await page.waitForLoadState('load', WAIT).catch(() => {});
    const url = left ? page.url() : `${page.url()} ${await page.locator('#login-form-error').textContent().catch(() => '')}`;
    if (dialog) foreign.push(`${query}: a dialog: ${dialog}`);
    await page.context().close();
    return left ? url : `(still on ${url})`;
  }

  // Three at once, each in a context of its own (in turn they were most of this test's time); their
  // accounts are made first, one after the other, so that no password hash waits in the server's
  // queue long enough to be answered 503 busy on a loaded machine.
  const queries = BAD.map((n) => `next=${n}`);
  for (let i = 0; i < queries.length; i += 3) {
    const batch = queries.slice(i, i + 3);
    const names = [];
    for (const _ of batch) names.push(await account());
    const urls = await Promise.all(batch.map((query, k) => logInWith(query, names[k])));
    batch.forEach((query, k) => check(`log-in with ${query}: home page of this site`, urls[k] === `${origin}/`, urls[k]));
  }
  // Signing up goes the same way.
  const url = await logInWith('next=/%09/evil.example/');
  check('sign-up with next=/%09/evil.example/: home page of this site', url === `${origin}/`, url);
  check('no request left the site, no script ran', foreign.length === 0, foreign.join(' | '));

  // A page of this site is where the user goes back to.
  const player = await account();
  // The three at once, each in a context of its own.
  await Promise.all([[`next=/@/${player}`, `/@/${player}`], [`next=%2F%40%2F${player}`, `/@/${player}`],
    [`next=/@/${player}?page=2`, `/@/${player}?page=2`]].map(async ([query, want]) => {
    const page = await open('en-GB');
    await page.goto(`${base}account?${query}`);
    await page.waitForSelector('#login-username', WAIT);
    await page.fill('#login-username', await account());
    await page.fill('#login-password', PASSWORD);
    await page.locator('#login-form button[type=submit]').click();
    const back = await until(page.waitForURL(`${origin}${want}`, WAIT));
    // The detail is read only on a failure: on the player page there is no #login-form-error, and
    // waiting for it took the locator's 30 s (that was the half minute each of these cases took).
    check(`log-in with ${query}: back to ${want}`, back,
      back ? '' : `${page.url()} ${await page.locator('#login-form-error').textContent().catch(() => '')}`);
    check(`${want}: the player page shows the name`,
      await until(page.locator('h1', { hasText: player }).first().waitFor(WAIT)));
    if (query === `next=/@/${player}`) await shot(page, 'trust-redirect-player.png');
    await page.context().close();
  }));
  noScriptErrors();
  await browser.close();
});
