// Rematch and presence in the browser (docs/api.md "Rematch"): two browsers (an English and a German
// one) play a friend game; each sees the other online; Black resigns; White offers a rematch; Black
// sees the offer (axe-core finds no violation on that page) and accepts; both pages go to the new game
// by themselves (issue 24, defect 2: the accepting page stayed behind with "Zur neuen Partie"); in the
// new game the colours are swapped; when Black's
// page closes, White's dot for Black turns to offline (its text for screen readers too).
// Before the end, a premove and a takeback (issue 24): White queues Nf3 on the board in Black's turn (its
// squares marked, named in a box), cancels it with Escape (nothing is played for it), then queues d4,
// which the server plays right after Black's move; White asks to take it back and Black's German page
// accepts: both pages are back before d4.
//
//   node rematch.mjs BASE_URL ARTIFACT_DIR
//
// Nothing waits for a fixed time: every wait is for a condition, with a generous deadline.
import { api, args, axeCheck, check, clickSquare, launch, run, seated, shot, until, WAIT } from './lib.mjs';

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

    // A premove in Black's turn: marked on the board and named, then cancelled with Escape.
    const move = (secret, ply, mv) => api('POST', `/api/games/${g.id}/move`, { secret, ply, move: mv });
    const atPly = (page, ply) => page.waitForSelector(`body[data-ply="${ply}"]`, WAIT);
    check('(setup) White plays e4', (await move(g.secret, 0, 'e4')).status === 200);
    check('White\'s page shows e4', await until(atPly(white, 1)));
    // chessground redraws on animation frames, which a page in the background does not get.
    await white.bringToFront();
    await clickSquare(white, 'g1');
    await clickSquare(white, 'f3');
    check('White\'s premove is named on the page',
      await until(white.getByText('Premove: g1 → f3').waitFor(WAIT)));
    // chessground hides the squares it no longer needs: a mark counts while it is visible.
    check('… and its squares are marked on the board', await until(white.waitForFunction(() =>
      [...document.querySelectorAll('#board square.current-premove')].filter((q) => q.style.display !== 'none')
        .length === 2, null, WAIT)));
    await shot(white, 'rematch-00-premove.png');
    await white.keyboard.press('Escape');
    check('Escape cancels the premove', await until(white.waitForSelector('#premove-box', { state: 'hidden', ...WAIT })));
    check('… and its marks', await until(white.waitForFunction(
      () => [...document.querySelectorAll('#board square.current-premove')].every((q) => q.style.display === 'none'),
      null, WAIT)));
    // The server has heard of the cancellation before Black moves (the page marks the answer).
    check('the server cancelled it', await until(white.waitForSelector('body[data-premove="none"]', WAIT)));
    // Queued again: cancelled by the button, and once more: by a click on an empty square.
    for (const [how, cancel] of [
      ['the Cancel button', () => white.getByRole('button', { name: 'Cancel premove' }).click()],
      ['a click elsewhere on the board', () => clickSquare(white, 'h5')],
    ]) {
      await clickSquare(white, 'g1');
      await clickSquare(white, 'f3');
      check(`queued again (${how})`, await until(white.waitForSelector('body[data-premove="g1f3"]', WAIT)));
      await cancel();
      check(`${how} cancels it`, await until(white.waitForSelector('#premove-box', { state: 'hidden', ...WAIT })) &&
        await until(white.waitForSelector('body[data-premove="none"]', WAIT)));
    }
    check('(setup) Black plays e5', (await move(joined.json.secret, 1, 'e5')).status === 200);
    check('nothing was played for White', await until(atPly(white, 2)) &&
      (await api('GET', `/api/games/${g.id}`)).json.ply === 2);
    check('(setup) White plays Nf3', (await move(g.secret, 2, 'Nf3')).status === 200);
    check('White\'s page shows Nf3', await until(atPly(white, 3)));
    // A premove the server plays: d4 right after Black's Nc6.
    await clickSquare(white, 'd2');
    await clickSquare(white, 'd4');
    check('White queues d4', await until(white.getByText('Premove: d2 → d4').waitFor(WAIT)));
    check('the server holds it', await until(white.waitForSelector('body[data-premove="d2d4"]', WAIT)));
    check('(setup) Black plays Nc6', (await move(joined.json.secret, 3, 'Nc6')).status === 200);
    check('the server plays White\'s premove d4', await until(atPly(white, 5)) &&
      (await api('GET', `/api/games/${g.id}`)).json.last_move === 'd2d4');
    check('… and the premove box is gone', await until(white.waitForSelector('#premove-box', { state: 'hidden', ...WAIT })));

    // A takeback: White asks, Black's German page accepts; both pages are back before d4.
    const ask = white.getByRole('button', { name: 'Ask to take back' });
    check('White can ask to take back d4', await until(ask.waitFor(WAIT)));
    await ask.click();
    check('White\'s page says it asked', await until(white.getByText('You asked to take back your last move.').waitFor(WAIT)));
    const acceptTakeback = black.getByRole('button', { name: 'Zugrücknahme annehmen' });
    check('Black sees the request with Accept', await until(acceptTakeback.waitFor(WAIT)));
    check('… and its text', await black.getByText('Weiß bittet darum, den letzten Zug zurückzunehmen.').isVisible());
    await axeCheck(black, 'axe-core: no violations with a takeback request shown');
    await shot(black, 'rematch-00-takeback.png');
    await acceptTakeback.click();
    check('Black\'s page is back before d4', await until(atPly(black, 4)));
    check('White\'s page too', await until(atPly(white, 4)));
    const back = (await api('GET', `/api/games/${g.id}`)).json;
    check('the game is at ply 4 with White to move, the request gone',
      back.ply === 4 && back.turn === 'white' && back.takeback_offer === null, JSON.stringify(back.moves));

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
