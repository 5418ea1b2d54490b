// The board editor (/editor) and the new-game form's start position in Chromium against the real
// schach serve (issue 23):
//   - a position built by clicks (palette, then squares) and by keyboard (palette button, then the
//     board's grid); the FEN field follows the board;
//   - libschach's reason for an illegal position (two white kings; the side not to move in check) in
//     English and in German, and the position fixed;
//   - a FEN typed into the field sets the board, side to move, castling rights and en passant square;
//   - "Play the computer" starts a game from that FEN (its address holds no secret); "Analyse" opens
//     /analysis with it;
//   - the home page's form with a FEN starts a game from it, and refuses an illegal one with the reason;
//   - axe-core: no violations, light and dark, desktop and phone.
//
//   node editor.mjs BASE_URL ARTIFACT_DIR
import { DESKTOP, PHONE, WAIT, api, args, axeCheck, check, clickSquare, launch, noSidewaysCheck, run, shot, until } from './lib.mjs';

const [base] = args('node editor.mjs BASE_URL ARTIFACT_DIR');
const BOARD = '#ed-board';

const ready = (page) => page.waitForFunction(() => document.getElementById('editor-page').dataset.rules === 'ready', null, WAIT);
const fenIs = (page, fen) => page.waitForFunction((f) => document.getElementById('ed-fen').value === f, fen, WAIT);
const status = (page) => page.locator('#ed-status').innerText();
const errorName = (page) => page.getAttribute('#ed-status', 'data-error');

async function put(page, tool, squares) {
  await page.click(`#ed-palette [data-tool="${tool}"]`);
  for (const sq of squares) await clickSquare(page, sq, BOARD);
}

async function main() {
  const { browser, open, noScriptErrors } = await launch();
  const page = await open('en-GB', { viewport: DESKTOP });
  await page.goto(`${base}editor`);
  check('the rules load in the editor (WebAssembly)', await until(ready(page)));
  await page.click('#ed-clear');
  check('"Clear board" empties the board', await until(fenIs(page, '8/8/8/8/8/8/8/8 w - - 0 1')));

  // Built by clicks: kings, a rook; then a second white king.
  await put(page, 'white-king', ['e1']);
  await put(page, 'black-king', ['e8']);
  await put(page, 'white-rook', ['h1']);
  check('the FEN follows the board', await until(fenIs(page, '4k3/8/8/8/8/8/8/4K2R w - - 0 1')));
  check('the position is legal', (await page.getAttribute('#ed-status', 'data-legal')) === 'true', await status(page));
  await put(page, 'white-king', ['a1']);
  await fenIs(page, '4k3/8/8/8/8/8/8/K3K2R w - - 0 1');
  check('two white kings: illegal, with libschach\'s reason', (await errorName(page)) === 'two_kings' && /more than one king/.test(await status(page)), await status(page));
  check('and no game can start from it', (await page.isDisabled('#ed-play-computer')) && (await page.isDisabled('#ed-analyse')));
  await page.click('#lang-switch');
  check('the reason in German', /mehr als einen König/.test(await status(page)), await status(page));
  await page.click('#lang-switch');
  await put(page, 'trash', ['a1']);
  check('removing the second king makes it legal again', await until(page.waitForFunction(() => document.getElementById('ed-status').dataset.legal === 'true', null, WAIT)));

  // The side not to move in check: a white rook on e5 with White to move.
  await put(page, 'white-rook', ['e5']);
  await fenIs(page, '4k3/8/8/4R3/8/8/8/4K2R w - - 0 1');
  check('the side not to move in check: illegal, with the reason', (await errorName(page)) === 'opponent_in_check', await status(page));
  await page.click('#lang-switch');
  const deReason = await status(page);
  check('the reason in German', /^Keine legale Stellung: /.test(deReason) && !/ check/.test(deReason), deReason);
  await page.click('#lang-switch');
  await page.check('#ed-side input[value="b"]');
  check('Black to move fixes it', await until(fenIs(page, '4k3/8/8/4R3/8/8/8/4K2R b - - 0 1')) && (await page.getAttribute('#ed-status', 'data-legal')) === 'true');
  // Castling rights: White's short castling with the rook on h1 is possible, long is not.
  await page.check('#ed-castling input[value="K"]');
  check('a castling right the pieces allow', await until(fenIs(page, '4k3/8/8/4R3/8/8/8/4K2R b K - 0 1')) && (await page.getAttribute('#ed-status', 'data-legal')) === 'true');
  await page.check('#ed-castling input[value="Q"]');
  await fenIs(page, '4k3/8/8/4R3/8/8/8/4K2R b KQ - 0 1');
  check('an impossible castling right is refused with the reason', (await errorName(page)) === 'castling_pieces', await status(page));
  await page.uncheck('#ed-castling input[value="Q"]');

  // By keyboard: the white queen from the palette onto d4 through the board's grid.
  await page.focus('#ed-palette [data-tool="white-queen"]');
  await page.keyboard.press('Enter');
  await page.focus('#board-grid [data-square="d4"]');
  await page.keyboard.press('Enter');
  check('a piece put by keyboard', await until(fenIs(page, '4k3/8/8/4R3/3Q4/8/8/4K2R b K - 0 1')));
  check('the grid says what stands on d4', /queen/.test(await page.getAttribute('#board-grid [data-square="d4"]', 'aria-label')));

  // FEN → board: typed into the field.
  const typed = 'r3k2r/ppp1qppp/2n5/3pP3/8/8/PPP2PPP/R3K2R w KQkq d6 0 12';
  await page.fill('#ed-fen', typed);
  const fields = await page.evaluate(() => ({
    side: document.querySelector('#ed-side input:checked').value,
    castling: [...document.querySelectorAll('#ed-castling input:checked')].map((c) => c.value).join(''),
    ep: document.getElementById('ed-ep').value,
    e5: document.querySelector('#board-grid [data-square="e5"]').getAttribute('aria-label'),
    e7: document.querySelector('#board-grid [data-square="e7"]').getAttribute('aria-label'),
  }));
  check('a typed FEN sets the board and the fields', fields.side === 'w' && fields.castling === 'KQkq' && fields.ep === 'd6' && /pawn/.test(fields.e5) && /queen/.test(fields.e7), JSON.stringify(fields));
  check('and is legal', (await page.getAttribute('#ed-status', 'data-legal')) === 'true', await status(page));
  // Board → FEN again: moving nothing but flipping the side keeps everything else.
  await page.check('#ed-side input[value="b"]');
  await page.check('#ed-side input[value="w"]');
  check('the FEN round trip keeps it', await until(fenIs(page, typed)));
  await page.fill('#ed-fen', '4k3/8/8/8/8/8/4P3/4K2R w K - 0 1');
  await fenIs(page, '4k3/8/8/8/8/8/4P3/4K2R w K - 0 1');
  await axeCheck(page, 'axe-core: no violations on /editor (English, light, desktop)');
  await shot(page, 'editor.png');

  // "Analyse" opens the analysis board with the position.
  const fen = '4k3/8/8/8/8/8/4P3/4K2R w K - 0 1';
  await page.click('#ed-analyse');
  const analysed = await until(page.waitForFunction((f) => {
    const a = document.getElementById('analysis-page');
    return location.pathname === '/analysis' && a && a.dataset.fen === f;
  }, fen, WAIT));
  check('"Analyse" opens /analysis with the position', analysed);

  // "Play the computer" starts a game from it.
  await page.goto(`${base}editor?fen=${encodeURIComponent(fen)}`);
  await ready(page);
  check('?fen= opens the editor with that position', (await page.inputValue('#ed-fen')) === fen);
  await page.click('#ed-play-computer');
  await page.waitForURL(/\/g\/[A-Za-z0-9_-]+$/, WAIT).catch(() => {});
  const id = new URL(page.url()).pathname.split('/')[2];
  const state = id ? await api('GET', `/api/games/${id}`) : { json: null };
  check('"Play the computer" starts a game from the FEN', state.json && state.json.start_fen === fen && state.json.mode === 'computer', JSON.stringify(state.json && state.json.start_fen));
  check('and the address holds no secret', !new URL(page.url()).hash);
  check('the page plays it', await until(page.waitForFunction(() => document.getElementById('game-page').dataset.held === 'white', null, WAIT)));

  // The home page's form with a start position.
  await page.goto(base);
  await page.click('#door-friend'); // the form behind the home page's door (issue 24)
  await page.fill('#start-fen', 'k7/8/8/8/8/8/8/KK6 w - - 0 1');
  await page.click('#create');
  const refused = await until(page.waitForFunction(() => /more than one king/.test(document.getElementById('home-error').textContent), null, WAIT));
  check('the new-game form refuses an illegal FEN with the reason', refused && new URL(page.url()).pathname === '/', await page.locator('#home-error').innerText().catch(() => ''));
  await page.click('#lang-switch');
  await page.click('#create');
  check('in German too', await until(page.waitForFunction(() => /mehr als einen König/.test(document.getElementById('home-error').textContent), null, WAIT)));
  await page.click('#lang-switch');
  const start = '8/5k2/8/8/8/8/3QK3/8 b - - 3 40';
  await page.fill('#start-fen', start);
  await page.click('#create');
  await page.waitForURL(/\/g\/[A-Za-z0-9_-]+$/, WAIT).catch(() => {});
  const id2 = new URL(page.url()).pathname.split('/')[2];
  const s2 = id2 ? await api('GET', `/api/games/${id2}`) : { json: null };
  check('the new-game form with a FEN starts a game from it', s2.json && s2.json.start_fen === start && s2.json.turn === 'black', JSON.stringify(s2.json && s2.json.start_fen));

  // German, dark, phone.
  for (const [locale, viewport, scheme] of [['de-DE', DESKTOP, 'dark'], ['de-DE', PHONE, 'light'], ['en-GB', PHONE, 'dark']]) {
    const p = await open(locale, { viewport, colorScheme: scheme });
    await p.goto(`${base}editor`);
    await ready(p);
    const what = `${locale}, ${scheme}, ${viewport === PHONE ? 'phone' : 'desktop'}`;
    await axeCheck(p, `axe-core: no violations on /editor (${what})`);
    if (viewport === PHONE) await noSidewaysCheck(p, `/editor does not scroll sideways (${what})`);
    if (locale === 'de-DE' && viewport === PHONE) await shot(p, 'editor-phone-de.png');
    await p.close();
  }
  const home = await open('de-DE', { viewport: PHONE, colorScheme: 'dark' });
  await home.goto(new URL('/#friend', base).href); // the door that opens the form (issue 24)
  await home.waitForSelector('#start-fen', WAIT);
  await axeCheck(home, 'axe-core: no violations on the home page with the FEN field (German, dark, phone)');
  await home.close();

  noScriptErrors();
  await browser.close();
}

run(main);
