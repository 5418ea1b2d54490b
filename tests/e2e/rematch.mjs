// Rematch and presence in the browser (docs/api.md "Rematch"): two browsers (an English and a German
// one) play a friend game; each sees the other online; Black resigns; White offers a rematch; Black
// sees the offer (axe-core finds no violation on that page) and accepts; both pages go to the new game
// by themselves (issue 24, defect 2: the accepting page stayed behind with "Zur neuen Partie"); in the
// new game the colours are swapped; when Black's
// page closes, White's dot for Black turns to offline (its text for screen readers too).
//
//   node rematch.mjs BASE_URL ARTIFACT_DIR
//
// Nothing waits for a fixed time: every wait is for a condition, with a generous deadline.
import { api, args, axeCheck, check, launch, run, seated, shot, until, WAIT } from './lib.mjs';

const [base] = args('node rematch.mjs BASE_URL ARTIFACT_DIR');

const gameOf = (page) => new URL(page.url()).pathname.replace(/^\/g\//, '');

/** The presence span of the bar showing COLOR has data-online = ON (a condition, not a sleep). */
const presence = (page, color, on) =>
  page.waitForSelector(`.player-bar[data-color="${color}"] .presence[data-online="${on}"]`, WAIT);

async function main() {
  const { browser, open: openPage, noScriptErrors } = await launch();
  const open = (locale) => openPage(locale, { viewport: { width: 1100, height: 900 } });
  try {
    const created = await api('POST', '/api/games', { mode: 'friend', color: 'white', time: { type: 'live', minutes: 10, increment: 5 } });
    const g = created.json;
    const joined = await api('POST', `/api/games/${g.id}/join`, { invite: g.invite });
    check('(setup) a friend game, both sides taken', created.status === 201 && joined.status === 200);
    const link = (color, secret) => `${new URL(`/g/${g.id}`, base)}#s=${encodeURIComponent(secret)}&c=${color}`;

    const white = await open('en-US');
    const black = await open('de-DE');
    // The game page's socket names its game (/ws?…&game=ID): HAProxy routes a game's pages to one node.
    const sockets = [];
    white.on('websocket', (ws) => sockets.push(ws.url()));
    await white.goto(link('white', g.secret));
    await black.goto(link('black', joined.json.secret));
    // Each page keeps its private link's secret and takes it out of the address bar.
    check('White\'s page holds White, no secret in its address', await until(seated(white, 'white')), white.url());
    check('Black\'s page holds Black, no secret in its address', await until(seated(black, 'black')), black.url());

    // Presence: each sees the other online, as a dot and as text for screen readers.
    check('White sees Black online', await until(presence(white, 'black', 'true')));
    check('the game page\'s WebSocket names the game', sockets.some((u) => new URL(u).pathname === '/ws' &&
      new URL(u).searchParams.get('game') === g.id), JSON.stringify(sockets));
    check('Black sees White online', await until(presence(black, 'white', 'true')));
    const srText = await white.locator('.player-bar[data-color="black"] .presence .visually-hidden').textContent();
    check('the dot says "online" to screen readers', srText === 'online', srText);

    // Black resigns on the page; White offers a rematch.
    await black.click('#resign');
    const rematch = white.getByRole('button', { name: 'Rematch', exact: true });
    check('White gets a "Rematch" button after the end', await until(rematch.waitFor(WAIT)));
    await rematch.click();
    check('White\'s page says the offer is made',
      await until(white.getByText('You offered a rematch').waitFor(WAIT)));
    const accept = black.getByRole('button', { name: 'Revanche annehmen' });
    check('Black sees the offer with Accept', await until(accept.waitFor(WAIT)));
    check('… and Decline', await black.getByRole('button', { name: 'Ablehnen' }).isVisible());
    check('… and the text', await black.getByText('Dein Gegner bietet eine Revanche an.').isVisible());
    await shot(black, 'rematch-01-offer.png');

    // Accessibility of the ended game page with the offer shown.
    await axeCheck(black, 'axe-core: no violations on the ended game with the offer');

    // Black accepts: both pages go to the new game by themselves, the accepting one too (issue 24,
    // defect 2: it stayed on the old game with "Die Revanche hat begonnen. / Zur neuen Partie").
    await accept.click();
    check('White\'s page goes to the new game by itself',
      await until(white.waitForURL((u) => u.pathname.startsWith('/g/') && !u.pathname.endsWith(g.id), WAIT)));
    check('Black\'s page (which accepted) goes there by itself too',
      await until(black.waitForURL((u) => u.pathname.startsWith('/g/') && !u.pathname.endsWith(g.id), WAIT)),
      black.url());
    const newId = gameOf(white);
    check('both pages show the same new game', newId === gameOf(black) && newId !== g.id, `${newId} ${gameOf(black)}`);
    check('the old game names it', (await api('GET', `/api/games/${g.id}`)).json.rematch.game === newId);

    // Colours swapped: White of the old game plays Black now, and Black moves first as White.
    check('the former White plays Black', await until(white.getByText('You play Black').waitFor(WAIT)));
    check('the former Black plays White', await until(black.getByText('Du spielst Weiß').waitFor(WAIT)));
    await black.fill('#move-input', 'e4');
    await black.press('#move-input', 'Enter');
    check('the new White moves with its new secret', await until(white.waitForSelector('body[data-ply="1"]', WAIT)));
    check('White sees the new opponent online', await until(presence(white, 'white', 'true')));
    await shot(white, 'rematch-02-new-game.png');

    // The opponent's page closes: the dot turns to offline.
    await black.context().close();
    check('the dot turns to offline when the opponent\'s page closes', await until(presence(white, 'white', 'false')));
    const off = await white.locator('.player-bar[data-color="white"] .presence .visually-hidden').textContent();
    check('… and says "offline" to screen readers', off === 'offline', off);
    await shot(white, 'rematch-03-offline.png');
  } finally {
    await browser.close();
  }
  noScriptErrors();
}

run(main);
