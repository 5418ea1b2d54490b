// Browser end-to-end test of schach serve: two people in two browser contexts play a friend game
// to checkmate on the real board (dragging and clicking squares), with a promotion and a castling
// (the king dropped on its rook) on the way, a reload in the middle, an illegal move typed in, and
// the PGN downloaded and read back by `schach pgn check --json`; then a game against the computer
// created with the level picker, whose reply appears on the board.
//
//   node browser_game.mjs BASE_URL SCHACH_BINARY ARTIFACT_DIR
//
// Playwright only drives Debian's /usr/bin/chromium (CHROMIUM overrides); it never downloads a browser.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { args, check, drag, launch, run, seated, shot, squareCenter, WAIT } from './lib.mjs';

const [base, schach, artifacts] = args('node browser_game.mjs BASE_URL SCHACH_BINARY ARTIFACT_DIR');

// 1. e4 d5 2. exd5 c6 3. dxc6 Nf6 4. cxb7 Bd7 5. bxa8=Q e6 6. Nf3 Be7 7. Bc4 Nc6 8. O-O Nd4
// 9. Qd5 e5 10. Qxf7# — moves as [from, to, how]; how: drag, click, or promote (drag + chooser)
// and "type" (the keyboard field).
const LINE = [
  ['e2', 'e4', 'drag'], ['d7', 'd5', 'drag'],
  ['e4', 'd5', 'click'], ['c7', 'c6', 'click'],
  ['d5', 'c6', 'drag'], ['g8', 'f6', 'drag'],
  ['c6', 'b7', 'click'], ['c8', 'd7', 'drag'],
  ['b7', 'a8', 'promote'], ['e7', 'e6', 'click'],
  ['g1', 'f3', 'drag'], ['f8', 'e7', 'drag'],
  ['f1', 'c4', 'click'], ['b8', 'c6', 'drag'],
  ['e1', 'h1', 'drag'], // castling: the king dropped on its rook
  ['c6', 'd4', 'click'],
  ['a8', 'd5', 'drag'], ['e5', 'type'],
  ['d5', 'f7', 'click'],
];
const RELOAD_AFTER_PLY = 15;

async function clickMove(page, from, to) {
  const a = await squareCenter(page, from);
  const b = await squareCenter(page, to);
  await page.mouse.click(a.x, a.y);
  await page.mouse.click(b.x, b.y);
}

const atPly = (page, ply) => page.waitForSelector(`body[data-ply="${ply}"]`, WAIT);
const pieceCount = (fen) => fen.split(' ')[0].replace(/[^a-zA-Z]/g, '').length;

/** Waits until the board shows as many pieces as the page's FEN (captured pieces fade out first). */
async function boardMatchesFen(page, what) {
  const fen = await page.inputValue('#fen');
  const want = pieceCount(fen);
  const sel = '#board cg-board piece:not(.ghost):not(.fading)';
  const ok = await page
    .waitForFunction(([s, n]) => document.querySelectorAll(s).length === n, [sel, want], WAIT)
    .then(() => true, () => false);
  check(`${what}: the board shows the FEN's ${want} pieces`, ok, `${await page.locator(sel).count()} shown`);
  return fen;
}

// The scripts and stylesheets PAGE fetches from the server, in a list that fills as it loads them. The
// built schach serves the bundled browser UI (scripts/web-bundle) unless SCHACH_WEB_BUNDLE=0: then
// each page loads one script and one stylesheet.
const bundled = (process.env.SCHACH_WEB_BUNDLE || '1') === '1';
function scriptsAndStyles(page) {
  const seen = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.origin === new URL(base).origin && ['script', 'stylesheet'].includes(r.resourceType())) seen.push(u.pathname);
  });
  return seen;
}
function oneBundleCheck(title, seen) {
  if (bundled) check(title, [...seen].sort().join(' ') === '/app.css /app.js', seen.join(' '));
}

function pgnCheck(file) {
  const out = execFileSync(schach, ['pgn', 'check', '--json', file], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n')[0]);
}

async function main() {
  const { browser, open: openPage, noScriptErrors } = await launch();
  const open = (locale) => openPage(locale, { acceptDownloads: true, viewport: { width: 1200, height: 900 } });
  try {
    // White: a German browser creates the friend game.
    const white = await open('de-DE');
    const whiteLoads = scriptsAndStyles(white);
    await white.goto(base);
    await white.click('#door-friend'); // the home page's doors (issue 24): the form opens behind "Play a friend"
    await white.waitForSelector('#new-game');
    oneBundleCheck('the home page loads one script and one stylesheet (the bundles)', whiteLoads);
    check('the new-game page is German for a German browser', (await white.textContent('#create')) === 'Partie erstellen');
    await white.check('input[name="mode"][value="friend"]');
    await white.check('input[name="color"][value="white"]');
    await white.check('input[name="time"][value="live"]');
    await white.fill('input[name="minutes"]', '10');
    await white.fill('input[name="increment"]', '5');
    await shot(white, '01-new-game.png');
    // A full-page screenshot of a page taller than the window (the lobby sits above the form) can leave
    // Chromium's scroll position past what scroll anchoring then restores, and the button moves between
    // the press and the release of the click: start the click from the top.
    await white.evaluate(() => window.scrollTo(0, 0));
    await white.click('#create');
    await seated(white, 'white');
    await atPly(white, 0);
    check('the creator plays White', (await white.textContent('#role')).includes('Weiß'));
    const invite = await white.inputValue('#invite-link');
    check('an invitation link is shown', /\/g\/[A-Za-z0-9_-]+#i=/.test(invite), invite);
    await white.waitForSelector('#connection[data-status="connected"]', WAIT);

    // Black: an English browser opens the invitation and joins.
    const black = await open('en-US');
    await black.goto(invite);
    await seated(black, 'black');
    await atPly(black, 0);
    check('the invitee plays Black', (await black.textContent('#role')).includes('Black'));
    check('the invitee sees the board from Black', (await black.locator('#board.orientation-black').count()) === 1);
    await black.waitForSelector('#connection[data-status="connected"]', WAIT);
    await white.waitForFunction(() => document.getElementById('invite-box').hidden, null, WAIT);
    check('the invitation disappears once Black has joined', true);

    // A spectator: the game's address without a fragment, in a third browser.
    const watcher = await open('en-GB');
    const watcherLoads = scriptsAndStyles(watcher);
    await watcher.goto(invite.replace(/#.*$/, ''));
    await atPly(watcher, 0);
    oneBundleCheck('a game page loads one script and one stylesheet (the bundles)', watcherLoads);
    check('the spectator link opens a watching page', (await watcher.textContent('#role')).includes('watching'));
    check('a spectator gets no move field', await watcher.locator('#move-form').isHidden());

    // An illegal move typed in: the server's German message, nothing played.
    await white.fill('#move-input', 'Dh5');
    await white.press('#move-input', 'Enter');
    await white.waitForSelector('#error:not([hidden])', WAIT);
    const msg = await white.textContent('#error');
    check('an illegal move shows the server message', msg.length > 5, msg);
    console.log(`   (the message: ${msg})`);
    await white.fill('#move-input', '');

    let ply = 0;
    for (const mv of LINE) {
      const page = ply % 2 === 0 ? white : black;
      await atPly(page, ply);
      if (mv[1] === 'type') {
        await page.fill('#move-input', mv[0]);
        await page.press('#move-input', 'Enter');
      } else if (mv[2] === 'click') {
        await clickMove(page, mv[0], mv[1]);
      } else {
        await drag(page, mv[0], mv[1]);
      }
      if (mv[2] === 'promote') {
        await page.waitForSelector('#promotion:not([hidden])', WAIT);
        await shot(page, '02-promotion-chooser.png');
        await page.click('#promotion [data-role="q"]');
      }
      ply++;
      await atPly(white, ply);
      await atPly(black, ply);
      const fw = await white.inputValue('#fen');
      const fb = await black.inputValue('#fen');
      if (fw !== fb) check(`both pages show the same FEN after ply ${ply}`, false, `${fw} / ${fb}`);
      if (ply === 10) {
        // A lost connection: Black's socket breaks, White moves meanwhile; Black's page reconnects,
        // subscribes again and shows the move.
        const before = Number(await black.getAttribute('body', 'data-ws-connects'));
        await black.evaluate(() => window.schachPage.live.ws.close());
        await black.waitForSelector(`body[data-ws-connects="${before + 1}"]`, WAIT);
        check('the page reconnects after a lost connection', true);
      }
      if (ply === 2) {
        await white.waitForSelector('#bar-bottom .clock.running', WAIT);
        check('the live clock runs for White once both have moved', (await white.textContent('#bar-top .clock')).length > 0);
      }
      if (mv[2] === 'promote') {
        check('the promoted queen stands on a8', (await white.locator('#board piece.white.queen').count()) === 2);
        const moves = await black.locator('#moves .move').allTextContents();
        check('the move list shows the promotion in SAN', moves[ply - 1] === 'bxa8=Q', moves[ply - 1]);
      }
      if (ply === 15) {
        check('castling by dropping the king on its rook', fw.startsWith('Q2qk2r/p2bbppp/2n1pn2/8/2B5/5N2/PPPP1PPP/RNBQ1RK1 b k -'), fw);
        const de = await white.locator('#moves .move').nth(14).textContent();
        check('the German move list shows the castling', /^[0O]-[0O]$/.test(de), de);
      }
      if (ply === RELOAD_AFTER_PLY) {
        await black.reload();
        await atPly(black, ply);
        await black.waitForSelector('#connection[data-status="connected"]', WAIT);
        const fen = await boardMatchesFen(black, 'after the reload');
        check('the reload restores the position', fen === fw, fen);
        check('the reload restores the move list', (await black.locator('#moves .move').count()) === ply);
        check('the reload keeps the side', (await black.textContent('#role')).includes('Black'));
        await shot(black, '03-after-reload.png');
      }
    }

    // Checkmate on both pages, each in its language.
    await white.waitForSelector('#result:not([hidden])', WAIT);
    await black.waitForSelector('#result:not([hidden])', WAIT);
    const rw = await white.textContent('#result');
    const rb = await black.textContent('#result');
    check('White sees the German result', rw.includes('Schachmatt – Weiß gewinnt'), rw);
    check('Black sees the English result', rb.includes('Checkmate – White wins'), rb);
    await watcher.waitForSelector('#result:not([hidden])', WAIT);
    check('the spectator followed the game to the end', (await watcher.inputValue('#fen')) === (await white.inputValue('#fen')));
    await watcher.context().close();
    check('no moves are offered after the end', (await white.locator('#resign').isHidden()) && (await black.locator('#offer-draw').isHidden()));
    await boardMatchesFen(white, 'at the end');
    // Reviewing, the clocks stand as they did after the move shown (issue 23): the full ten minutes
    // until both have moved, then each move's mover less the time since the move before plus the
    // increment (the moves' "at" from the server, checked here by their own arithmetic).
    const moves = await black.evaluate(() => window.schachPage.state.moves);
    const clockText = (ms) => { const t = Math.floor(ms / 1000); return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, '0')}`; };
    // The page redraws after the click: wait for the clocks to show the reviewed ply (or time out).
    const clocksShow = (want) => black.waitForFunction((w) => Object.entries(w).every(([sel, text]) =>
      document.querySelector(sel)?.textContent === text), want, WAIT).then(() => true, () => false);
    await black.click('#moves button[data-ply="1"]');
    check('reviewing ply 1: both clocks at the start',
      await clocksShow({ '#bar-top .clock': '10:00', '#bar-bottom .clock': '10:00' }),
      `${await black.textContent('#bar-top .clock')} / ${await black.textContent('#bar-bottom .clock')}`);
    await black.click('#moves button[data-ply="3"]');
    const whiteAt3 = clockText(600000 + 5000 - (moves[2].at - moves[1].at));
    const whiteBar = (await black.getAttribute('#bar-top', 'data-color')) === 'white' ? '#bar-top' : '#bar-bottom';
    check('reviewing ply 3: White\'s clock as it was after 2. …', await clocksShow({ [`${whiteBar} .clock`]: whiteAt3 }),
      `${await black.textContent(`${whiteBar} .clock`)} / ${whiteAt3}`);
    await black.keyboard.press('End');
    await shot(white, '04-checkmate-white.png');
    await shot(black, '05-checkmate-black.png');

    // The PGN, downloaded as a person would, read back by the rules core.
    for (const [page, l] of [[white, 'de'], [black, 'en']]) {
      const [download] = await Promise.all([page.waitForEvent('download', WAIT), page.click(`#pgn-${l}`)]);
      const file = path.join(artifacts, `game-${l}.pgn`);
      await download.saveAs(file);
      const r = pgnCheck(file);
      check(`the ${l} PGN reads back: 1-0 by checkmate in ${LINE.length} plies`,
        r.result === '1-0' && r.termination === 'checkmate' && r.plies === LINE.length && r.error === null, JSON.stringify(r));
    }

    // The home page lists the finished game among this browser's games and the recent ones.
    const id = new URL(white.url()).pathname.split('/')[2];
    await white.goto(base);
    await white.waitForSelector(`#my-games a[href*="${id}"]`, WAIT);
    await white.waitForSelector(`#recent-games a[href*="/g/${id}"]`, WAIT);
    check('the game is listed on the home page', true);
    await shot(white, '06-home-lists.png');

    // A second friend game: a draw offered and accepted.
    await white.click('#door-friend');
    await white.check('input[name="mode"][value="friend"]');
    await white.check('input[name="time"][value="none"]');
    await white.click('#create');
    await seated(white, 'white');
    await atPly(white, 0);
    await black.goto(await white.inputValue('#invite-link'));
    await seated(black, 'black');
    await atPly(black, 0);
    await drag(white, 'e2', 'e4');
    await atPly(black, 1);
    await clickMove(black, 'e7', 'e5');
    await atPly(white, 2);
    await white.click('#offer-draw');
    await black.waitForSelector('#accept-draw:not([hidden])', WAIT);
    check('the draw offer reaches the opponent', (await black.textContent('#draw-offer-text')).includes('White offers a draw'));
    await black.click('#accept-draw');
    await white.waitForSelector('#result:not([hidden])', WAIT);
    check('a draw by agreement is shown in German', (await white.textContent('#result')).includes('Remis durch Vereinbarung'));
    await black.waitForSelector('#result:not([hidden])', WAIT);
    check('a draw by agreement is shown in English', (await black.textContent('#result')).includes('Draw by agreement'));

    // Both sides on one screen: the fool's mate, and the language switch.
    await black.goto(base);
    await black.click('#door-friend');
    await black.check('input[name="mode"][value="local"]');
    await black.check('input[name="time"][value="none"]');
    await black.click('#create');
    await seated(black, 'white black');
    await atPly(black, 0);
    check('one screen holds both sides', (await black.textContent('#role')).includes('both sides'));
    let p = 0;
    for (const [from, to] of [['f2', 'f3'], ['e7', 'e5'], ['g2', 'g4'], ['d8', 'h4']]) {
      await atPly(black, p);
      await drag(black, from, to);
      await atPly(black, ++p);
    }
    await black.waitForSelector('#result:not([hidden])', WAIT);
    check('the fool\'s mate: Black wins', (await black.textContent('#result')).includes('Checkmate – Black wins'));
    await black.click('#lang-switch');
    await black.waitForFunction(() => document.getElementById('result').textContent.includes('Schachmatt – Schwarz gewinnt'), null, WAIT);
    check('the language switch translates the result', true);
    await black.reload();
    await atPly(black, 4);
    check('the language choice survives a reload', (await black.textContent('#flip')) === 'Brett drehen');
    await shot(black, '07-local-mate-de.png');

    // Threefold repetition on one screen (German now): once claimed with the move that repeats,
    // once with the claim button that appears exactly when the state's "claims" has it.
    const KNIGHTS = [['g1', 'f3'], ['g8', 'f6'], ['f3', 'g1'], ['f6', 'g8'], ['g1', 'f3'], ['g8', 'f6'], ['f3', 'g1'], ['f6', 'g8']];
    for (const withMove of [true, false]) {
      await black.goto(base);
      await black.click('#door-friend');
      await black.check('input[name="mode"][value="local"]');
      await black.click('#create');
      await seated(black, 'white black');
      for (let i = 0; i < KNIGHTS.length; i++) {
        await atPly(black, i);
        if (withMove && i === KNIGHTS.length - 1) await black.check('#claim-with-move');
        await (i % 2 ? clickMove : drag)(black, ...KNIGHTS[i]);
      }
      await atPly(black, KNIGHTS.length);
      if (!withMove) {
        await black.waitForSelector('#claim-threefold:not([hidden])', WAIT);
        check('the threefold claim button is offered', true);
        await black.click('#claim-threefold');
      }
      await black.waitForSelector('#result:not([hidden])', WAIT);
      const r = await black.textContent('#result');
      check(`a threefold repetition claimed ${withMove ? 'with the move' : 'by the button'}`,
        r.includes('Remis durch dreifache Stellungswiederholung'), r);
    }

    // Abort before both sides have moved.
    await black.goto(base);
    await black.click('#door-friend');
    await black.check('input[name="mode"][value="local"]');
    await black.click('#create');
    await seated(black, 'white black');
    await atPly(black, 0);
    await black.click('#abort');
    await black.waitForSelector('#result:not([hidden])', WAIT);
    check('an aborted game says so', (await black.textContent('#result')).includes('Partie abgebrochen'));

    // Against the computer (the page is German now): the level picker, a move, the reply on the board.
    await black.goto(base);
    await black.click('#door-computer');
    await black.waitForSelector('#level-options:not([hidden])', WAIT);
    await black.waitForSelector('#level option[value="beginner"]', { state: 'attached', ...WAIT });
    const levelText = await black.textContent('#level option[value="beginner"]');
    check('the level picker names the levels in German', levelText.includes('Anfänger'), levelText);
    await black.selectOption('#level', 'beginner');
    await black.check('input[name="color"][value="white"]');
    await black.check('input[name="time"][value="none"]');
    await shot(black, '08-computer-new-game.png');
    await black.click('#create');
    await seated(black, 'white');
    await atPly(black, 0);
    const name = await black.textContent('#bar-top .player-name');
    check('the computer\'s side is named with its level', name.includes('Computer (Anfänger)'), name);
    await drag(black, 'e2', 'e4');
    await atPly(black, 2);
    await boardMatchesFen(black, 'after the computer\'s reply');
    const reply = await black.locator('#moves .move').nth(1).textContent();
    check('the computer\'s reply is in the move list', reply.length >= 2, reply);
    check('the board marks the reply as the last move', (await black.locator('#board square.last-move').count()) === 2);
    check('it is the person\'s turn again', (await black.textContent('#status')).includes('Du bist am Zug'));
    await shot(black, '09-computer-reply.png');
  } finally {
    await browser.close();
  }
  noScriptErrors();
}

run(main);
