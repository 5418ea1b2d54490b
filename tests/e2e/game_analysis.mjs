// The computer analysis on the game page (issue 23): two players (an English and a German browser)
// finish 1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6?? 4.Qxf7#; White's page requests the analysis; both pages show
// the evaluation graph, the ?? on 3…Nf6 with the better move, the accuracy and the summary; a click on
// the graph goes to that move in review, the arrow keys on the graph step through the moves, the FEN
// field and the material follow the move shown, the next mistake's better move has its arrow; the
// annotated PGN downloads with [%eval] and $4; "Learn from your mistakes" on Black's (German) page
// takes it to the position before 3…Nf6, refuses a bad try and shows the engine's move after the second
// miss; axe-core finds no violation (light and dark, desktop and phone); a request over the day's limit
// (the server allows one per address) is refused in the page's language and queues nothing.
//
//   node game_analysis.mjs BASE_URL ARTIFACT_DIR
//
// Nothing waits for a fixed time: every wait is for a condition, with a generous deadline.
import fs from 'node:fs';
import { api, args, axeCheck, check, clickSquare, DESKTOP, launch, noSidewaysCheck, PHONE, run, seated, shot, until, WAIT } from './lib.mjs';

const [base] = args('node game_analysis.mjs BASE_URL ARTIFACT_DIR');

async function main() {
  const { browser, open: openPage, noScriptErrors } = await launch();
  const open = (locale) => openPage(locale, { viewport: DESKTOP, acceptDownloads: true });
  try {
    const created = await api('POST', '/api/games', { mode: 'friend', color: 'white', time: { type: 'live', minutes: 10, increment: 5 } });
    const g = created.json;
    const joined = await api('POST', `/api/games/${g.id}/join`, { invite: g.invite });
    check('(setup) a friend game, both sides taken', created.status === 201 && joined.status === 200);
    const secrets = { white: g.secret, black: joined.json.secret };
    const link = (color) => `${new URL(`/g/${g.id}`, base)}#s=${encodeURIComponent(secrets[color])}&c=${color}`;

    const white = await open('en-US');
    const black = await open('de-DE');
    await white.goto(link('white'));
    await black.goto(link('black'));
    check('White\'s page holds White', await until(seated(white, 'white')));
    check('Black\'s page holds Black', await until(seated(black, 'black')));
    check('no analysis box while the game is played', await white.locator('#analysis-box').isHidden());

    // The game, through the API: the pages follow over their sockets.
    const moves = ['e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6', 'Qxf7#'];
    for (let i = 0; i < moves.length; i++) {
      const color = i % 2 ? 'black' : 'white';
      const r = await api('POST', `/api/games/${g.id}/move`, { secret: secrets[color], ply: i, move: moves[i] });
      if (r.status !== 200) check(`(setup) move ${moves[i]}`, false, r.text);
    }
    const request = white.getByRole('button', { name: 'Request computer analysis' });
    check('White\'s page offers "Request computer analysis" after the end', await until(request.waitFor(WAIT)));
    check('Black\'s page offers it in German', await until(black.getByRole('button', { name: 'Computeranalyse anfordern' }).waitFor(WAIT)));

    await request.click();
    const doneOn = (page) => page.waitForSelector('body[data-analysis="done"]', WAIT);
    check('White\'s page shows the finished analysis', await until(doneOn(white)));
    check('Black\'s page shows it too (told over its socket, or by asking)', await until(doneOn(black)));
    const analysis = (await api('GET', `/api/games/${g.id}/analysis?lang=en`)).json;
    const analysisDe = (await api('GET', `/api/games/${g.id}/analysis?lang=de`)).json;
    const nf6 = analysis.moves[5];
    check('(server) 3…Nf6 is judged a blunder with a better move', nf6.judgement === 'blunder' && !!nf6.best && !!nf6.best_san, JSON.stringify(nf6));

    for (const [page, name] of [[white, 'White'], [black, 'Black']]) {
      check(`${name}'s page shows the evaluation graph`, await page.locator('#analysis-graph svg').isVisible());
      const b = page.locator('#moves button[data-ply="6"]');
      const text = await b.textContent();
      check(`${name}'s move list marks 3…Nf6 with ??`, /Nf6\?\?|Sf6\?\?/.test(text) && (await b.getAttribute('data-judgement')) === 'blunder', text);
      const label = await b.getAttribute('aria-label');
      check(`… and says so to screen readers`, /Blunder|Grober Fehler/.test(label), label);
      const blunders = await page.locator('#analysis-summary tr[data-row="blunder"] td[data-color="black"]').textContent();
      check(`${name}'s summary counts Black's blunder`, blunders === String(analysis.summary.black.blunder) && blunders !== '0', blunders);
      const acc = await page.locator('#analysis-summary tr[data-row="accuracy"] td[data-color="white"]').textContent();
      check(`${name}'s page shows the accuracy`, acc.includes(String(analysis.accuracy.white)) && acc.includes('%'), acc);
    }
    check('the screen-reader table lists every move', (await white.locator('#analysis-table tbody tr').count()) === 7);

    // A click on the graph's mark of 3…Nf6 goes to that move in review.
    await white.locator('#analysis-graph circle[data-ply="6"]').click();
    check('a click on the graph goes to that move', await until(white.waitForSelector('body[data-review="6"]', WAIT)));
    const moveText = await white.locator('#analysis-move').textContent();
    check('the move in review shows its better move', moveText.includes(`${nf6.best_san} was best`), moveText);
    const fens = (await api('GET', `/api/games/${g.id}/positions`)).json.fens;
    check('the FEN field follows the move shown', (await white.inputValue('#fen')) === fens[6]);
    const capturedAt6 = await white.locator('#bar-bottom .captured').textContent();
    check('the material follows the move shown (nothing taken yet at 3…Nf6)', capturedAt6 === '', capturedAt6);
    // The keyboard: the graph is a slider; Left goes one move back.
    await white.focus('#analysis-graph-slider');
    await white.keyboard.press('ArrowLeft');
    check('Left on the graph goes one move back', await until(white.waitForSelector('body[data-review="5"]', WAIT)));
    const shapes = await white.evaluate(() => window.schachPage.cg.state.drawable.autoShapes.map((s) => s.orig + s.dest));
    check('before 3…Nf6 the board has the arrow of the better move', shapes.includes(nf6.best.slice(0, 4)), JSON.stringify(shapes));
    const link5 = await white.locator('#analysis-board-link').getAttribute('href');
    check('"Open in analysis board" names the game and the move shown', link5 === `/analysis?game=${g.id}&ply=5`, link5);
    await shot(white, 'game-analysis-01-review.png');
    await white.keyboard.press('End');
    check('End goes back to the live position', await until(white.waitForFunction(() => !document.body.dataset.review, null, WAIT)));
    const capturedLive = await white.locator('#bar-bottom .captured').textContent();
    check('the live material shows the pawn taken', capturedLive.includes('+1'), capturedLive);

    // The annotated PGN.
    const [download] = await Promise.all([white.waitForEvent('download', WAIT), white.click('#analysis-pgn')]);
    const pgn = fs.readFileSync(await download.path(), 'utf8');
    check('the annotated PGN downloads as schach-ID-analysis.pgn', download.suggestedFilename() === `schach-${g.id}-analysis.pgn`, download.suggestedFilename());
    check('… with [%eval] comments and the blunder\'s $4', pgn.includes('[%eval') && pgn.includes('$4'), pgn.slice(0, 400));

    // The position before the blunder in the analysis board, by the page's link; the local engine on;
    // a better try played there, kept beside the game's move (issue 23, "Done when").
    const board = await white.context().newPage();
    await board.goto(new URL(link5, base).href);
    const atPly = (p) => board.waitForFunction((n) => document.getElementById('analysis-page')?.dataset.ply === n, String(p), WAIT);
    check('the analysis board opens at the move shown', await until(atPly(5)));
    await board.check('#an-engine');
    check('its local engine gives a line',
      await until(board.waitForFunction(() => document.querySelectorAll('#an-lines li').length >= 1, null, WAIT)));
    await clickSquare(board, 'g7', '#an-board');
    await clickSquare(board, 'g6', '#an-board');
    check('3…g6 tried there is played', await until(atPly(6)));
    const tree = await board.locator('#an-moves').innerText();
    check('… and kept beside the game\'s 3…Nf6', tree.includes('g6') && tree.includes('Nf6'), tree);
    await board.close();

    // German on Black's page.
    check('Black\'s page is in German', await black.getByRole('heading', { name: 'Computeranalyse' }).isVisible());
    check('… its summary too', await black.getByRole('rowheader', { name: 'Genauigkeit', exact: true }).isVisible());

    // Learn from your mistakes, on Black's page.
    await black.getByRole('button', { name: 'Aus den eigenen Fehlern lernen' }).click();
    check('learning takes Black to the position before 3…Nf6', await until(black.waitForSelector('body[data-learn-ply="6"]', WAIT)));
    check('… the board shows that position', (await black.inputValue('#fen')) === fens[5]);
    const status = black.locator('#learn-status');
    check('… and says what to do', (await status.textContent()).includes('Finde einen besseren Zug'), await status.textContent());
    check('… with the engine in WebAssembly to judge the tries', !(await status.textContent()).includes('Ohne WebAssembly'));
    check('… the material follows that position', (await black.locator('#bar-top .captured').textContent()) === '');
    await black.fill('#learn-input', 'a6');
    await black.press('#learn-input', 'Enter');
    check('a bad try (3…a6) is refused', await until(black.waitForSelector('body[data-learn-result="miss"]', WAIT)),
      await status.textContent());
    check('… in words', /a6/.test(await status.textContent()), await status.textContent());
    await black.fill('#learn-input', 'h6');
    await black.press('#learn-input', 'Enter');
    check('the second miss shows the engine\'s move', await until(black.waitForSelector('body[data-learn-result="shown"]', WAIT)),
      await status.textContent());
    const shown = await status.textContent();
    check('… naming it', shown.includes(analysisDe.moves[5].best_san), `${shown} / ${analysisDe.moves[5].best_san}`);
    check('… and "next" takes the focus', await black.evaluate(() => document.activeElement && document.activeElement.id === 'learn-next'));
    await shot(black, 'game-analysis-02-learn.png');
    await black.keyboard.press('Enter');
    check('after the last mistake learning ends', await until(black.waitForFunction(() => document.body.dataset.learn === '', null, WAIT)));

    // The language switch: the analysis comes again in German letters.
    await white.click('#lang-switch');
    check('after the switch to German the analysis speaks German',
      await until(white.getByRole('heading', { name: 'Computeranalyse' }).waitFor(WAIT)));
    check('… with German letters and the marks in the move list',
      await until(white.waitForFunction(() => /Sf6\?\?/.test(document.querySelector('#moves button[data-ply="6"]').textContent), null, WAIT)));
    await white.click('#lang-switch');
    await white.getByRole('heading', { name: 'Computer analysis' }).waitFor(WAIT);

    // Accessibility: the analysed page, light and dark, desktop and phone.
    await white.locator('#moves button[data-ply="6"]').click();
    await white.waitForSelector('body[data-review="6"]', WAIT);
    for (const scheme of ['light', 'dark']) {
      await white.emulateMedia({ colorScheme: scheme });
      for (const [vp, name] of [[DESKTOP, 'desktop'], [PHONE, 'phone']]) {
        await white.setViewportSize(vp);
        await axeCheck(white, `axe-core: no violations on the analysed game (${scheme}, ${name})`);
        if (name === 'phone') await noSidewaysCheck(white, `the analysed game fits the phone (${scheme})`);
      }
    }
    await black.emulateMedia({ colorScheme: 'dark' });
    await axeCheck(black, 'axe-core: no violations on the German page after learning (dark)');
    await shot(white, 'game-analysis-03-phone-dark.png');

    // Over the day's limit (the server allows one analysis a day per address): the page says so in its
    // language, and nothing is queued.
    const g2 = (await api('POST', '/api/games', { mode: 'friend', color: 'white', time: { type: 'none' } })).json;
    const j2 = (await api('POST', `/api/games/${g2.id}/join`, { invite: g2.invite })).json;
    await api('POST', `/api/games/${g2.id}/move`, { secret: g2.secret, ply: 0, move: 'e4' });
    await api('POST', `/api/games/${g2.id}/move`, { secret: j2.secret, ply: 1, move: 'e5' });
    const resigned = await api('POST', `/api/games/${g2.id}/resign`, { secret: j2.secret });
    check('(setup) a second finished game', resigned.status === 200, resigned.text);
    const late = await openPage('de-DE', { viewport: PHONE });
    await late.goto(new URL(`/g/${g2.id}`, base).href);
    const ask = late.getByRole('button', { name: 'Computeranalyse anfordern' });
    check('a spectator is offered the analysis', await until(ask.waitFor(WAIT)));
    await ask.click();
    const refused = late.locator('#analysis-error');
    check('over the day\'s limit the page says so in German', await until(late.waitForFunction(() =>
      /Heute sind keine weiteren Analysen möglich. Versuche es in \d+/.test(document.getElementById('analysis-error').textContent), null, WAIT)),
    await refused.textContent());
    check('… and nothing was queued', (await api('GET', `/api/games/${g2.id}/analysis`)).status === 404);
  } finally {
    await browser.close();
  }
  noScriptErrors();
}

run(main);
