// Browser checks of the player page /@/NAME (issue 13): the data is made over the HTTP API (Anna
// plays 22 rated games from the lobby against eight accounts: mates, resignations, agreed draws; one casual game
// against an anonymous visitor), then Chromium shows what a visitor sees: the ratings equal to the
// API's, one graph point per rated game, the "won" filter and page 2 in the address, the opponent's
// link, both PGN downloads with names and Termination, the message for an unknown name, the language
// switch; axe-core finds nothing on the page in German and English, on a desktop and a phone, and the
// page never scrolls sideways. Then Anna logged in on the home page (issue 24): "your turn" names the
// opponent of a game she created and Bert joined by its link, with his rating and the last move; "My
// games" and "Recently finished" name the players, their ratings, the date and the result in each link.
//
//   node player.mjs BASE_URL ARTIFACT_DIR   (the server runs with --no-limits: many sign-ups and seeks)
//
// Nothing waits for a fixed time: every wait is for a condition, with a generous deadline.
import fs from 'node:fs';
import path from 'node:path';
import { api as request, args, axeCheck, check, DESKTOP, launch, noSidewaysCheck, PHONE, run, shot, until, WAIT } from './lib.mjs';

const [base, artifacts] = args('node player.mjs BASE_URL ARTIFACT_DIR');
const BLITZ = { type: 'live', minutes: 5, increment: 3 };

/** The API for making the data: any error stops the test. */
async function api(method, p, body, cookie) {
  const r = await request(method, p, body, cookie);
  if (r.status >= 400) throw new Error(`${method} ${p}: ${r.status} ${r.text}`);
  return r;
}

const tag = `${process.pid % 100000}`;
async function account(prefix) {
  const name = `${prefix}${tag}`;
  const r = await api('POST', '/api/accounts', { username: name, password: 'a good password' });
  return { name, cookie: r.cookie };
}

/** A game from a seek the poster (White) posts and the accepter (null: anonymous) accepts. */
async function seekGame(poster, accepter, rated) {
  const seek = (await api('POST', '/api/seeks', { time: BLITZ, rated, color: 'white' }, poster.cookie)).json;
  const got = (await api('POST', `/api/seeks/${seek.id}/accept`, {}, accepter && accepter.cookie)).json;
  const me = (await api('GET', '/api/me', undefined, poster.cookie)).json;
  return { id: got.id, white: me.playing.find((g) => g.id === got.id).secret, black: got.secret };
}

async function play(g, moves) {
  for (let ply = 0; ply < moves.length; ply++)
    await api('POST', `/api/games/${g.id}/move`, { secret: ply % 2 ? g.black : g.white, ply, move: moves[ply] });
}

/** Anna's games: 22 rated against Bert and seven others in turn (at most 3 rated games a day between
 *  two accounts count), every third a mate by the opponent, a resignation by the opponent once both
 *  have moved (a resignation before is an abort), a draw agreed; and a casual one an anonymous
 *  visitor resigns. */
async function setup() {
  const anna = await account('Anna');
  const bert = await account('Bert');
  const opponents = [bert];
  for (let k = 2; k <= 8; k++) opponents.push(await account(`Opp${k}x`));
  const RATED = 22;
  for (let i = 0; i < RATED; i++) {
    const g = await seekGame(anna, opponents[i % opponents.length], true);
    if (i % 3 === 0) {
      await play(g, ['f3', 'e5', 'g4', 'Qh4']);
    } else if (i % 3 === 1) {
      await play(g, ['e4', 'e5']);
      await api('POST', `/api/games/${g.id}/resign`, { secret: g.black });
    } else {
      await play(g, ['d4', 'd5']);
      await api('POST', `/api/games/${g.id}/draw`, { secret: g.white, action: 'offer' });
      await api('POST', `/api/games/${g.id}/draw`, { secret: g.black, action: 'accept' });
    }
  }
  const casual = await seekGame(anna, null, false);
  await play(casual, ['c4']);
  await api('POST', `/api/games/${casual.id}/resign`, { secret: casual.black });
  // The ratings change on the server's accounts worker after each game: wait until all are in.
  let page;
  for (let i = 0; i < 2400; i++) {
    page = (await api('GET', `/api/players/${anna.name}`)).json;
    if (page.history.blitz && page.history.blitz.length === RATED) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  check('setup: 22 rated games rated, 23 games finished', page.history.blitz.length === RATED && page.more,
    `${page.history.blitz && page.history.blitz.length} points`);
  const won = (await api('GET', `/api/players/${anna.name}?result=won`)).json.games.length;
  return { anna, bert, page, rated: RATED, won };
}

const axe = (page, what) => axeCheck(page, `${what}: axe-core finds no violations`);
const noOverflow = (page, what) => noSidewaysCheck(page, `${what}: no horizontal overflow`);

async function main() {
  const data = await setup();
  const { anna, bert } = data;
  const { browser, open: openPage, noScriptErrors } = await launch();
  const open = (locale, viewport, extra = {}) => openPage(locale, { acceptDownloads: true, viewport, ...extra }, { dialogs: false });
  const playerUrl = (name, q = '') => new URL(`/@/${name}${q}`, base).href;
  const gamesShown = (page) => page.locator('.pl-list > li').count();
  try {
    // -- English, desktop ------------------------------------------------------------------------
    const desk = await open('en-GB', DESKTOP);
    await desk.goto(playerUrl(anna.name));
    await desk.waitForSelector('.pl-head h1', WAIT);
    check('the name is the heading', (await desk.textContent('.pl-head h1')) === anna.name);
    check('member since is shown', /Member since/.test(await desk.textContent('.pl-since')));
    const blitz = data.page.ratings.blitz;
    const shown = (await desk.textContent('tr[data-category="blitz"] .pl-rating')).trim();
    check('the blitz rating equals the API\'s', shown.replace('?', '') === String(blitz.rating), `${shown} vs ${blitz.rating}`);
    check('a provisional rating shows "?" and is explained',
      blitz.provisional === shown.endsWith('?') && (!blitz.provisional || (await desk.locator('.pl-note').count()) === 1));
    const cells = await desk.locator('tr[data-category="blitz"] td').allTextContents();
    check('RD and games equal the API\'s', cells[1] === String(blitz.rd) && cells[2] === String(blitz.games), cells.join(' '));
    const points = await desk.locator('svg.rating-graph[data-category="blitz"] circle').count();
    check('the graph has one point per rated game', points === data.rated, `${points} points`);
    const label = await desk.getAttribute('svg.rating-graph[data-category="blitz"]', 'aria-label');
    const h = data.page.history.blitz.map((p) => p[1]);
    check('the graph is an image labelled with first, last, lowest and highest',
      (await desk.getAttribute('svg.rating-graph', 'role')) === 'img' &&
      label.includes(`first ${h[0]}`) && label.includes(`last ${h[h.length - 1]}`) &&
      label.includes(`lowest ${Math.min(...h)}`) && label.includes(`highest ${Math.max(...h)}`), label);
    check('the first page lists 20 games', (await gamesShown(desk)) === 20);
    const anon = await desk.locator('.pl-list > li').first().textContent();
    check('the casual game against an anonymous visitor says so, casual', /Anonymous/.test(anon) && /casual/.test(anon), anon);
    const firstRated = await desk.locator('.pl-list > li').nth(1).textContent();
    check('a rated game shows its rating change', /rated [+−±]\d+/.test(firstRated), firstRated);
    check('a game shows the ending in words', /resigns|Checkmate|agreement/.test(firstRated), firstRated);
    await axe(desk, 'en desktop');
    await noOverflow(desk, 'en desktop');
    await shot(desk, 'player-01-en-desktop.png');

    // Page 2, in the address.
    await desk.click('#pl-next');
    await desk.waitForURL(/[?&]page=2/, WAIT);
    await desk.waitForFunction(() => document.querySelectorAll('.pl-list > li').length === 3, null, WAIT);
    check('page 2 shows the other 3 games and says "Page 2"',
      (await gamesShown(desk)) === 3 && (await desk.textContent('.pl-page')) === 'Page 2');
    check('on the last page, "Next" is disabled', await desk.isDisabled('#pl-next'));
    await desk.click('#pl-prev');
    await desk.waitForFunction(() => document.querySelectorAll('.pl-list > li').length === 20, null, WAIT);
    check('back on page 1', !/page=/.test(desk.url()));

    // The "won" filter, in the address, linkable.
    await desk.click('button[data-filter="won"]');
    await desk.waitForURL(/[?&]result=won/, WAIT);
    await desk.waitForSelector('button[data-filter="won"][aria-pressed="true"]', WAIT);
    await desk.waitForFunction((n) => document.querySelectorAll('.pl-list > li').length === n, data.won, WAIT);
    const outcomes = await desk.locator('.pl-list > li').evaluateAll((els) => els.map((e) => e.dataset.outcome));
    check('"won" shows only won games, as many as the API lists',
      outcomes.length === data.won && outcomes.every((o) => o === 'won'), outcomes.join(','));
    check('each says "Won"', (await desk.locator('.pl-list .pl-outcome').allTextContents()).every((s) => s === 'Won'));
    const linked = await open('en-GB', DESKTOP);
    await linked.goto(playerUrl(anna.name, '?result=lost'));
    await linked.waitForSelector('button[data-filter="lost"][aria-pressed="true"]', WAIT);
    await linked.waitForSelector('.pl-list > li', WAIT);
    const lost = await linked.locator('.pl-list > li').evaluateAll((els) => els.map((e) => e.dataset.outcome));
    check('a linked ?result=lost opens with the filter set', lost.length > 0 && lost.every((o) => o === 'lost'), lost.join(','));
    await linked.context().close();

    // Both PGN downloads: names, language, Termination.
    for (const l of ['en', 'de']) {
      const [download] = await Promise.all([desk.waitForEvent('download', WAIT), desk.click(`#pl-pgn-${l}`)]);
      const file = path.join(artifacts, `player-${l}.pgn`);
      await download.saveAs(file);
      const text = fs.readFileSync(file, 'utf8');
      const games = text.split(/\n(?=\[Event )/).length;
      check(`PGN ${l}: named for the player and the language`, download.suggestedFilename() === `schach-${anna.name}-${l}.pgn`,
        download.suggestedFilename());
      // The PGN standard's Termination values, the ending in words in the comment after the last move
      // (issue 24, defect 9).
      check(`PGN ${l}: every game, with the names, the standard's Termination and the ending in words`,
        games === 23 && text.includes(`[White "${anna.name}"]`) && text.includes(`[Black "${bert.name}"]`) &&
        text.includes('[Termination "normal"]') &&
        [...text.matchAll(/\[Termination "([^"]*)"\]/g)].every((m) => ['normal', 'time forfeit', 'abandoned',
          'rules infraction', 'unterminated'].includes(m[1])) &&
        (l === 'en' ? /\{[^}]*Checkmate – Black wins/ : /\{[^}]*Schachmatt – Schwarz gewinnt/).test(text), `${games} games`);
    }

    // The opponent's link leads to their page.
    await desk.goto(playerUrl(anna.name));
    await desk.waitForSelector('.pl-list a.pl-opponent', WAIT);
    await desk.click(`.pl-list a.pl-opponent >> text=${bert.name}`);
    await desk.waitForURL(new RegExp(`/@/${bert.name}$`), WAIT);
    await desk.waitForFunction((n) => document.querySelector('.pl-head h1')?.textContent === n, bert.name, WAIT);
    check('the opponent\'s link opens their page', true);

    // An unknown name.
    await desk.goto(playerUrl('nobody_by_that_name'));
    await desk.waitForSelector('.pl-missing h1', WAIT);
    check('an unknown name says "Player not found"', (await desk.textContent('.pl-missing h1')) === 'Player not found');
    await axe(desk, 'en desktop, unknown player');
    await shot(desk, 'player-02-unknown.png');
    await desk.context().close();

    // -- German, desktop and phone; English phone --------------------------------------------------
    const deDesk = await open('de-DE', DESKTOP);
    await deDesk.goto(playerUrl(anna.name));
    await deDesk.waitForSelector('.pl-head h1', WAIT);
    check('German: "Wertungszahlen" and "Dabei seit"', (await deDesk.textContent('#pl-ratings-title')) === 'Wertungszahlen' &&
      /Dabei seit/.test(await deDesk.textContent('.pl-since')));
    await axe(deDesk, 'de desktop');
    await noOverflow(deDesk, 'de desktop');
    await shot(deDesk, 'player-03-de-desktop.png');
    await deDesk.click('#lang-switch');
    await deDesk.waitForFunction(() => document.querySelector('#pl-ratings-title')?.textContent === 'Ratings', null, WAIT);
    check('the language switch re-renders the page in English', /Member since/.test(await deDesk.textContent('.pl-since')));
    await deDesk.context().close();

    for (const locale of ['de-DE', 'en-GB']) {
      const phone = await open(locale, PHONE, { isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
      await phone.goto(playerUrl(anna.name));
      await phone.waitForSelector('.pl-list > li', WAIT);
      await axe(phone, `${locale} phone`);
      await noOverflow(phone, `${locale} phone`);
      await shot(phone, `player-04-${locale}-phone.png`);
      await phone.goto(playerUrl('nobody_by_that_name'));
      await phone.waitForSelector('.pl-missing h1', WAIT);
      await axe(phone, `${locale} phone, unknown player`);
      await phone.context().close();
    }

    // -- Who played, in the lists and in "your turn" (issue 24, defect 5 and "your turn") ---------------
    // Anna logged in; Bert joins her casual 5+3 game by its link and plays 1. e4: her turn.
    const own = (await api('POST', '/api/games', { mode: 'friend', color: 'black', time: BLITZ }, anna.cookie)).json;
    const joined = (await api('POST', `/api/games/${own.id}/join`, { invite: own.invite }, bert.cookie)).json;
    await api('POST', `/api/games/${own.id}/move`, { secret: joined.secret, ply: 0, move: 'e4' });
    const bertBlitz = (await api('GET', `/api/players/${bert.name}`)).json.ratings.blitz;
    const logged = await open('en-GB', DESKTOP);
    const [cname, cvalue] = anna.cookie.split('=');
    await logged.context().addCookies([{ name: cname, value: cvalue, url: base }]);
    await logged.goto(base);
    const turns = logged.locator('#turns summary', { hasText: ': 1' });
    check('"your turn: 1" for the game Anna created and Bert joined by link', await until(turns.waitFor(WAIT)));
    check('"My games" lists the account\'s game before this browser opened it',
      await until(logged.locator('#my-games a', { hasText: `Game against ${bert.name}` }).waitFor(WAIT)));
    await turns.click();
    const item = logged.locator('#turns .turns-panel a').first();
    const wantOpp = `against ${bert.name} (${bertBlitz.rating}${bertBlitz.provisional ? '?' : ''})`;
    const itemText = await until(logged.locator('#turns .turns-panel a', { hasText: '1. e4' }).waitFor(WAIT))
      ? await item.textContent() : await item.textContent().catch(() => '');
    check('"your turn" names the opponent with their rating', itemText.includes(wantOpp), `${itemText} (want ${wantOpp})`);
    check('… and the last move in SAN', itemText.includes('last 1. e4'), itemText);
    await item.click(); // the game page: the game goes into this browser's "my games"
    await logged.waitForURL((u) => u.pathname === `/g/${own.id}`, WAIT);
    // The game's bars name both accounts (issue 24, defect 3: the bar said only "White").
    check("the game page's bars name the creator and the player who joined by link",
      await until(logged.locator('.player-bar[data-color="black"] .player-name a', { hasText: anna.name }).waitFor(WAIT)) &&
      await until(logged.locator('.player-bar[data-color="white"] .player-name a', { hasText: bert.name }).waitFor(WAIT)));
    await logged.goto(base);
    const date = new Date().toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
    const mineLink = logged.locator('#my-games a', { hasText: 'Game against' }).first();
    const mineText = (await until(mineLink.waitFor(WAIT))) ? await mineLink.textContent() : '';
    check('"My games" names the game for a screen reader: "Game against NAME, DATE, in play" (casual: no rating)',
      mineText === `Game against ${bert.name}, ${date}, in play`, mineText);
    const ratedLink = logged.locator('#recent-games a', { hasText: `${anna.name} (` }).first();
    const ratedText = (await until(ratedLink.waitFor(WAIT))) ? await ratedLink.textContent() : '';
    check('"Recently finished" names both players with their ratings, the date and the result',
      new RegExp(`^${anna.name} \\(\\d+\\??\\) vs Opp\\d+x${tag} \\(\\d+\\??\\), ${date}, (1–0|0–1|½–½)$`).test(ratedText) ||
      new RegExp(`^Opp\\d+x${tag} \\(\\d+\\??\\) vs ${anna.name} \\(\\d+\\??\\), ${date}, (1–0|0–1|½–½)$`).test(ratedText),
      ratedText);
    check('no list link is named only by a date', (await logged.locator('#recent-games a, #my-games a').allTextContents())
      .every((x) => / vs | against |one device/.test(x)));
    await axe(logged, 'home page with the lists, logged in');
    await logged.context().close();
  } finally {
    await browser.close();
  }
  noScriptErrors();
}

run(main);
