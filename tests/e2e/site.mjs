// The whole site as issue 13 describes a stranger's visit, in one flow through the real pages:
//   - two people sign up (A in German, B in English);
//   - A posts a rated 5+3 challenge in the lobby, B accepts it from the lobby list;
//   - they play to checkmate with the move box;
//   - both game pages show the rating change, and it is what Glicko-2 (Glickman's eight steps,
//     computed here independently of the server, tau 0.5) gives for two newcomers;
//   - the game is listed on both player pages (won on the winner's, lost on the loser's) with the
//     same change, and the rating there is the new one;
//   - the loser offers a rematch, the winner accepts: both play the new game with colours swapped;
//   - a third, anonymous visitor on a phone posts a casual challenge that A accepts; they play and the
//     visitor resigns; the game is casual (no rating changes);
//   - an anonymous visitor's first page logs no errors in the console (issue 24);
//   - axe-core finds no violations on any page visited (home, account, game, player page, analysis
//     board, editor; desktop and phone), in the light and the dark colour scheme, and no phone page
//     scrolls sideways.
//
//   node site.mjs BASE_URL ARTIFACT_DIR
//
// Playwright only drives Debian's /usr/bin/chromium (CHROMIUM overrides); it never downloads a browser.
// Nothing waits for a fixed time: every wait is for a condition, with a generous deadline.
import { args, axeCheck, AXE_COLOUR_RULES, check, DESKTOP, launch, noSidewaysCheck, PHONE, run, shot as saveShot, until, WAIT } from './lib.mjs';

const [base] = args('node site.mjs BASE_URL ARTIFACT_DIR');
const shot = (page, name) => saveShot(page, `site-${name}.png`);

const tag = Date.now().toString(36).slice(-5);
const NAMES = { a: `Alma_${tag}`, b: `Bodo_${tag}` };
const PASSWORD = 'a good long password';

// ---- Glicko-2 (Glickman, "Example of the Glicko-2 system", steps 1-8), one game in the period ----
const SCALE = 173.7178;
function glicko2(player, opponent, score, tau = 0.5) {
  const mu = (player.rating - 1500) / SCALE;
  const phi = player.rd / SCALE;
  const muJ = (opponent.rating - 1500) / SCALE;
  const phiJ = opponent.rd / SCALE;
  const g = 1 / Math.sqrt(1 + (3 * phiJ * phiJ) / (Math.PI * Math.PI));
  const e = 1 / (1 + Math.exp(-g * (mu - muJ)));
  const v = 1 / (g * g * e * (1 - e));
  const delta = v * g * (score - e);
  const a = Math.log(player.vol * player.vol);
  const f = (x) =>
    (Math.exp(x) * (delta * delta - phi * phi - v - Math.exp(x))) / (2 * (phi * phi + v + Math.exp(x)) ** 2) -
    (x - a) / (tau * tau);
  let A = a;
  let B;
  if (delta * delta > phi * phi + v) B = Math.log(delta * delta - phi * phi - v);
  else {
    let k = 1;
    while (f(a - k * tau) < 0) k++;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > 1e-6) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else fA /= 2;
    B = C;
    fB = fC;
  }
  const vol = Math.exp(A / 2);
  const phiStar = Math.sqrt(phi * phi + vol * vol);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * g * (score - e);
  return { rating: SCALE * muNew + 1500, rd: SCALE * phiNew, vol };
}
const NEWCOMER = { rating: 1500, rd: 350, vol: 0.06 };

// axe-core in both colour schemes (issue 24, defect 7: the player page's active filter was white on
// dark mode's light green), the dark one with the rules that judge colours (lib.mjs AXE_COLOUR_RULES);
// the page goes on in the light one.
const axe = async (page, what) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await axeCheck(page, `axe: ${what}, light: 0 violations`);
  await page.emulateMedia({ colorScheme: 'dark' });
  await axeCheck(page, `axe: ${what}, dark (colours): 0 violations`, AXE_COLOUR_RULES);
  await page.emulateMedia({ colorScheme: 'light' });
};
const noSidewaysScroll = (page, what) => noSidewaysCheck(page, `${what}: no sideways scrolling on the phone`);

const gameId = (page) => new URL(page.url()).pathname.replace(/^\/g\//, '');
// On a game page holding one side, with no fragment (no secret) in the address; that side.
const onGame = (page) =>
  until(page.waitForFunction(() => {
    const g = document.getElementById('game-page');
    return location.pathname.startsWith('/g/') && !location.hash && !!g && /^(white|black)$/.test(g.dataset.held || '');
  }, null, WAIT));
const sideOf = (page) => page.evaluate(() => document.getElementById('game-page').dataset.held);

async function signUp(page, name) {
  await page.goto(new URL('/account', base).href);
  await page.waitForSelector('#signup-username', WAIT);
  await page.fill('#signup-username', name);
  await page.fill('#signup-password', PASSWORD);
  await page.locator('#signup-form button[type=submit]').click();
  check(`${name} signed up: the header shows the name`,
    await until(page.locator('#account-nav .account-name', { hasText: name }).waitFor(WAIT)));
}

/** Plays UCI on PAGE with the move box; true once the page shows ply PLY. */
async function play(page, uci, ply) {
  await page.fill('#move-input', uci);
  await page.press('#move-input', 'Enter');
  return until(page.waitForSelector(`body[data-ply="${ply}"]`, WAIT));
}

/** Plays the moves alternately on the pages of White and Black (by the pages' sides). */
async function playLine(pages, moves, what) {
  for (const [i, uci] of moves.entries()) {
    const mover = pages[i % 2 === 0 ? 'white' : 'black'];
    const ok = await play(mover, uci, i + 1);
    if (!ok) {
      check(`${what}: move ${i + 1} (${uci}) played`, false, await mover.locator('#error').innerText().catch(() => ''));
      return false;
    }
  }
  return true;
}

/** The rating change shown in the player bar of COLOR on PAGE, as a number (NaN when none). */
async function barDiff(page, color) {
  const el = page.locator(`.player-bar[data-color="${color}"] .rating-diff`);
  if (!(await until(el.waitFor(WAIT)))) return NaN;
  return Number((await el.innerText()).replace('−', '-').replace('+', '').trim());
}

async function main() {
  const { browser, open: openPage, noScriptErrors } = await launch();
  const open = (locale, viewport) => openPage(locale, { viewport });
  const A = await open('de-DE', DESKTOP);
  const B = await open('en-GB', DESKTOP);
  const C = await open('de-DE', PHONE); // the anonymous visitor
  // Everything the anonymous visitor's console says is an error (a failed request is one: Chromium logs
  // "Failed to load resource: … 401" for it).
  const anonymousErrors = [];
  C.on('console', (m) => {
    if (m.type() === 'error') anonymousErrors.push(m.text());
  });

  try {
    // --- An anonymous visitor's first page: nothing in the console (issue 24: GET /api/me said 401) ---
    await C.goto(base);
    check('the anonymous home page shows the log-in link',
      await until(C.locator('#account-nav a[href^="/account"]').first().waitFor(WAIT)));
    await until(C.waitForLoadState('networkidle', WAIT));
    check('an anonymous page load logs no console errors', anonymousErrors.length === 0, anonymousErrors.join(' | '));

    // --- Two strangers arrive and sign up ----------------------------------------------------------
    await signUp(A, NAMES.a);
    await axe(A, 'account page (logged in, de, desktop)');
    await signUp(B, NAMES.b);

    // --- A rated challenge, accepted from the lobby --------------------------------------------------
    await A.goto(base);
    await B.goto(base);
    await until(A.waitForFunction(() => document.querySelector('#seek-rated') && !document.querySelector('#seek-rated').disabled, null, WAIT));
    await A.fill('#seek-form input[name=seek_minutes]', '5');
    await A.fill('#seek-form input[name=seek_increment]', '3');
    if (!(await A.locator('#seek-rated').isChecked())) await A.locator('#seek-rated').check();
    await A.locator('#seek-post').click();
    const row = B.locator('#lobby-table tbody tr', { hasText: NAMES.a });
    check('the rated challenge appears in B\'s lobby', await until(row.waitFor(WAIT)));
    await axe(B, 'home with the lobby (en, desktop)');
    await shot(B, '01-lobby');
    await row.locator('button.accept').click();
    check('B lands on the game', await onGame(B), B.url());
    check('A is taken to the game', await onGame(A), A.url());
    const game1 = gameId(A);
    const sides1 = [await sideOf(A), await sideOf(B)];
    check('both on one game, opposite colours', game1 === gameId(B) && sides1[0] !== sides1[1] && !!sides1[0],
      `${A.url()} ${B.url()} ${sides1}`);
    const pages1 = { [sides1[0]]: A, [sides1[1]]: B };
    check('the game says "rated"', await until(A.waitForSelector('body[data-ply="0"]', WAIT)) &&
      /gewertet/i.test(await A.locator('#game-page').innerText()));
    await axe(A, 'game page before the first move (de, desktop)');

    // --- To a result: Black mates (1. f3 e5 2. g4 Qh4#) ---------------------------------------------
    const mated = await playLine(pages1, ['f2f3', 'e7e5', 'g2g4', 'd8h4'], 'game 1');
    check('checkmate shown on both pages', mated && await until(A.waitForSelector('body[data-over="true"]', WAIT)) &&
      await until(B.waitForSelector('body[data-over="true"]', WAIT)));
    const winner = pages1.black;
    const loser = pages1.white;
    const winnerName = winner === A ? NAMES.a : NAMES.b;
    const loserName = loser === A ? NAMES.a : NAMES.b;

    // --- Both ratings change, by Glicko-2 ----------------------------------------------------------
    const won = glicko2(NEWCOMER, NEWCOMER, 1);
    const lost = glicko2(NEWCOMER, NEWCOMER, 0);
    const wantUp = Math.round(won.rating) - 1500;
    const wantDown = Math.round(lost.rating) - 1500;
    for (const [page, who] of [[A, 'A'], [B, 'B']]) {
      const up = await barDiff(page, 'black');
      const down = await barDiff(page, 'white');
      check(`${who}'s game page shows both changes as Glicko-2 gives them (+${wantUp} / ${wantDown})`,
        Math.abs(up - wantUp) <= 1 && Math.abs(down - wantDown) <= 1, `shown ${up} / ${down}`);
    }
    await shot(A, '02-rated-result');
    const resultText = await B.locator('#result').innerText();
    check('the result and the rating changes stand without a stray "·" (issue 24)', !resultText.includes('·') &&
      resultText.includes(winnerName), resultText);
    await axe(B, 'ended rated game (en, desktop)');

    // --- Both player pages list the game -----------------------------------------------------------
    for (const [name, outcome, rating] of [[winnerName, 'won', won.rating], [loserName, 'lost', lost.rating]]) {
      await C.goto(new URL(`/@/${name}`, base).href);
      const item = C.locator('.pl-list > li', { has: C.locator(`a[href="/g/${game1}"]`) });
      check(`${name}'s page lists the game`, await until(item.waitFor(WAIT)));
      check(`… as ${outcome}`, (await item.locator(`.pl-outcome.${outcome}`).count()) === 1,
        await item.innerText().catch(() => ''));
      const cell = C.locator('tr[data-category="blitz"] td').first();
      const shown = (await until(cell.waitFor(WAIT))) ? Number((await cell.innerText()).replace(/\D/g, '')) : NaN;
      check(`… with the new blitz rating ${Math.round(rating)}`, Math.abs(shown - Math.round(rating)) <= 1, String(shown));
      // One game: the graph is a line from the rating it began with, not a lone dot (issue 24).
      const graph = await C.locator('svg.rating-graph[data-category="blitz"]').evaluate((svg) => ({
        dots: [...svg.querySelectorAll('.points circle')].map((c) => Number(c.dataset.rating)),
        line: (svg.querySelector('polyline')?.getAttribute('points') || '').trim().split(/\s+/).filter(Boolean).length,
        from: Number(svg.querySelector('polyline')?.dataset.from),
      }));
      check('… its graph is a line from 1500 to the new rating', graph.dots.length === 1 && graph.line === 2 &&
        graph.from === 1500 && Math.abs(graph.dots[0] - Math.round(rating)) <= 1, JSON.stringify(graph));
      await axe(C, `player page of ${name} (de, phone)`);
      await noSidewaysScroll(C, `player page of ${name}`);
    }
    await shot(C, '03-player-page-phone');

    // --- Rematch: the loser offers, the winner accepts -------------------------------------------------
    const offer = loser.getByRole('button', { name: loser === A ? 'Revanche' : 'Rematch', exact: true });
    check('the loser is offered a rematch', await until(offer.waitFor(WAIT)));
    await offer.click();
    const accept = winner.getByRole('button', { name: winner === A ? 'Revanche annehmen' : 'Accept rematch' });
    check('the winner sees the offer', await until(accept.waitFor(WAIT)));
    await accept.click();
    const elsewhere = (u) => u.pathname.startsWith('/g/') && !u.pathname.endsWith(game1);
    check('the offerer\'s page goes to the new game', await until(loser.waitForURL(elsewhere, WAIT)));
    check('the accepter gets there too, by itself', await until(winner.waitForURL(elsewhere, WAIT)));
    const game2 = gameId(A);
    check('one new game for both', game2 === gameId(B) && game2 !== game1);
    // The new game's address carries no secret (the page keeps it): the page says whom one plays.
    const says = async (page, de, en) => until(page.locator('#role', { hasText: page === A ? de : en }).waitFor(WAIT));
    check('colours swapped: the loser plays Black now', await says(loser, 'Du spielst Schwarz', 'You play Black'));
    check('… and the winner White', await says(winner, 'Du spielst Weiß', 'You play White'));
    check('the first move of the rematch is played', await play(winner, 'e2e4', 1) &&
      await until(loser.waitForSelector('body[data-ply="1"]', WAIT)));

    // --- An anonymous visitor on a phone plays a casual challenge ------------------------------------
    await C.goto(base);
    check('anonymous: "rated" cannot be chosen', await until(C.locator('#seek-rated').waitFor(WAIT)) &&
      await C.locator('#seek-rated').isDisabled());
    await C.fill('#seek-form input[name=seek_minutes]', '10');
    await C.fill('#seek-form input[name=seek_increment]', '0');
    await C.locator('#seek-post').click();
    await axe(C, 'home while the challenge waits (de, phone)');
    await noSidewaysScroll(C, 'home while waiting');
    await A.goto(base);
    const casual = A.locator('#lobby-table tbody tr', { hasText: '10+0' });
    check('the casual challenge appears in A\'s lobby', await until(casual.waitFor(WAIT)));
    await casual.locator('button.accept').first().click();
    check('A lands on the casual game', await onGame(A));
    check('the visitor is taken there', await onGame(C));
    const game3 = gameId(C);
    check('the visitor and A share the game', game3 === gameId(A));
    const pages3 = { [await sideOf(A)]: A, [await sideOf(C)]: C };
    check('a move each', await playLine(pages3, ['e2e4', 'e7e5'], 'casual game'));
    await axe(C, 'casual game page (de, phone)');
    await noSidewaysScroll(C, 'casual game page');
    await shot(C, '04-casual-phone');
    await C.locator('#resign').click();
    check('the visitor resigned: the game is over', await until(C.waitForSelector('body[data-over="true"]', WAIT)) &&
      await until(A.waitForSelector('body[data-over="true"]', WAIT)));
    check('a casual game changes no rating', (await A.locator('.rating-diff').count()) === 0);
    await axe(C, 'ended casual game (de, phone)');

    // --- The analysis board and the editor, reached from the header ------------------------------------
    // (Without schach.wasm in the served folder the analysis board says that it cannot run: that page
    // is checked then.)
    for (const [path, ready] of [['/analysis', '#analysis-page[data-rules="ready"], #an-unavailable:not([hidden])'], ['/editor', '#ed-board cg-board']]) {
      await C.goto(new URL(path, base).href);
      check(`${path} opens`, await until(C.locator(ready).waitFor(WAIT)));
      await axe(C, `${path} (de, phone)`);
    }
  } catch (e) {
    check('the test ran to its end', false, e.stack || String(e));
    for (const [n, p] of [['a', A], ['b', B], ['c', C]]) await shot(p, `error-${n}`).catch(() => {});
  }
  noScriptErrors();
  await browser.close();
}

run(main);
