// The game page for everyone (issue 13, "Accessibility and comfort"), checked in Chromium:
//   - two browsers (German desktop as White, English phone as Black) play a friend game with a live
//     clock to Scholar's mate with the keyboard only: Tab reaches the board (one tab stop), the arrow
//     keys move the focus in the board's orientation, Enter picks and plays; the squares' labels in
//     both languages, the picked piece and its targets, Escape;
//   - every move and the ending announced in words (aria-live) in each page's language; the clocks
//     read on demand (key C), with accessible names;
//   - review: a move clicked in the list shows its position (read through the grid's labels),
//     Left/Right/Home/End, a new move keeps the review, moving while reviewing does nothing, back to
//     the live position;
//   - the mute switch (aria-pressed) survives a reload; sounds are asked for per move;
//   - dark mode (prefers-color-scheme) gives a dark page;
//   - axe-core: 0 violations in both languages, desktop 1280×800 and phone 390×844, before and after
//     the game ends, light and dark; no sideways scrolling.
//
//   node game_a11y.mjs BASE_URL ARTIFACT_DIR
//
// Nothing waits for a fixed time: every wait is for a condition, with a generous deadline.
import { api, args, axeCheck, AXE_COLOUR_RULES, check, DESKTOP, launch, noSidewaysCheck, PHONE, run, seated, shot, until, WAIT } from './lib.mjs';

const [base] = args('node game_a11y.mjs BASE_URL ARTIFACT_DIR');

const focusedSquare = (page) => page.evaluate(() => document.activeElement && document.activeElement.dataset.square);
const label = (page, sq) => page.getAttribute(`#board-grid [data-square="${sq}"]`, 'aria-label');
const announced = (page) => page.textContent('#announcer');

/** Waits until the announcer's text contains TEXT; false when it never does. */
async function hears(page, text) {
  return until(page.waitForFunction((x) => document.getElementById('announcer').textContent.includes(x), text, WAIT));
}

/** Tab from wherever the focus is until a square of the board grid has it (at most 80 presses). */
async function tabToBoard(page) {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement && document.activeElement.getAttribute('role') === 'gridcell'))
      return true;
  }
  return false;
}

/** Moves the board focus to SQ with the arrow keys, checking each step lands where the board's
 *  orientation says it should. */
async function arrowTo(page, sq) {
  const pos = (s) =>
    page.evaluate((x) => {
      const cells = [...document.querySelectorAll('#board-grid [role="gridcell"]')];
      const i = cells.findIndex((c) => c.dataset.square === x);
      return [Math.floor(i / 8), i % 8];
    }, s);
  let bad = '';
  for (let n = 0; n < 16; n++) {
    const cur = await focusedSquare(page);
    if (cur === sq) return true;
    const [r, c] = await pos(cur);
    const [tr, tc] = await pos(sq);
    const key = r > tr ? 'ArrowUp' : r < tr ? 'ArrowDown' : c > tc ? 'ArrowLeft' : 'ArrowRight';
    await page.keyboard.press(key);
    const [nr, nc] = await pos(await focusedSquare(page));
    const want = { ArrowUp: [r - 1, c], ArrowDown: [r + 1, c], ArrowLeft: [r, c - 1], ArrowRight: [r, c + 1] }[key];
    if (nr !== want[0] || nc !== want[1]) bad = `${key} from ${cur} went to row ${nr} column ${nc}`;
  }
  throw new Error(`the focus did not reach ${sq}: ${bad}`);
}

/** Plays FROM-TO with the keyboard on a page whose focus is on the board. */
async function keyMove(page, from, to, ply) {
  await arrowTo(page, from);
  await page.keyboard.press('Enter');
  await arrowTo(page, to);
  await page.keyboard.press('Enter');
  await page.waitForFunction((p) => document.body.dataset.ply === String(p), ply, WAIT);
}

// The dark scheme with the rules that judge colours only (lib.mjs AXE_COLOUR_RULES: it changes nothing else).
const axe = (page, what, scheme = 'light') =>
  axeCheck(page, `axe: 0 violations, ${what}`, scheme === 'dark' ? AXE_COLOUR_RULES : null);
const noSideways = (page, what) => noSidewaysCheck(page, `no sideways scrolling, ${what}`);
/** axe in the light and the dark colour scheme (issue 24: every page axe-clean in both). */
async function axeBoth(page, what) {
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    await axe(page, `${what}, ${scheme}`, scheme);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** axe at both sizes (the page's own size last), light and dark. */
async function axeEverywhere(page, own, what) {
  const sizes = own === PHONE ? [['desktop', DESKTOP], ['phone', PHONE]] : [['phone', PHONE], ['desktop', DESKTOP]];
  for (const [name, vp] of sizes) {
    await page.setViewportSize(vp);
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await axe(page, `${what}, ${name}, ${scheme}`, scheme);
    }
    await noSideways(page, `${what}, ${name}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

async function main() {
  const { browser, open: openPage, noScriptErrors } = await launch();
  const open = (locale, viewport, extra = {}) => openPage(locale, { viewport, ...extra }, { dialogs: false });
  try {
    // A friend game with a live clock (10+0), White created it over the API.
    const c = await api('POST', '/api/games', { mode: 'friend', color: 'white', time: { type: 'live', minutes: 10, increment: 0 } });
    if (c.status !== 201) throw new Error(`creating the game: ${c.status}`);
    const id = c.json.id;
    const white = await open('de-DE', DESKTOP);
    await white.goto(`${base}g/${id}#s=${encodeURIComponent(c.json.secret)}&c=white`);
    const black = await open('en-US', PHONE, { isMobile: true, hasTouch: true });
    await black.goto(`${base}g/${id}#i=${encodeURIComponent(c.json.invite)}`);
    await seated(white, 'white');
    await seated(black, 'black');
    for (const p of [white, black]) await p.waitForSelector('#board-grid [data-square="e2"][aria-label$="Bauer"], #board-grid [data-square="e2"][aria-label$="pawn"]', WAIT);

    // The grid: a labelled grid of 8 rows of 8 cells, one tab stop, labels in the page's language.
    const shape = await white.evaluate(() => {
      const g = document.getElementById('board-grid');
      return {
        role: g.getAttribute('role'),
        name: g.getAttribute('aria-label'),
        rows: g.querySelectorAll(':scope > [role="row"]').length,
        cells: g.querySelectorAll('[role="row"] > [role="gridcell"]').length,
        stops: g.querySelectorAll('[tabindex="0"]').length,
      };
    });
    check('the board is a grid named "Schachbrett" of 8 rows and 64 cells', shape.role === 'grid' && shape.name === 'Schachbrett' && shape.rows === 8 && shape.cells === 64, JSON.stringify(shape));
    check('the grid has exactly one tab stop', shape.stops === 1, `${shape.stops}`);
    check('German: "e2 weißer Bauer", "e4 leer", "d8 schwarze Dame"',
      (await label(white, 'e2')) === 'e2 weißer Bauer' && (await label(white, 'e4')) === 'e4 leer' && (await label(white, 'd8')) === 'd8 schwarze Dame',
      `${await label(white, 'e2')} / ${await label(white, 'e4')} / ${await label(white, 'd8')}`);
    check('English: "e2 white pawn", "e4 empty", "g8 black knight"',
      (await label(black, 'e2')) === 'e2 white pawn' && (await label(black, 'e4')) === 'e4 empty' && (await label(black, 'g8')) === 'g8 black knight',
      `${await label(black, 'e2')} / ${await label(black, 'e4')} / ${await label(black, 'g8')}`);
    const clockNames = await white.evaluate(() => [...document.querySelectorAll('.clock')].map((e) => `${e.getAttribute('role')}:${e.getAttribute('aria-label')}`));
    check('the clocks are timers named by their side', clockNames.includes('timer:Uhr von Weiß') && clockNames.includes('timer:Uhr von Schwarz'), clockNames.join(', '));

    await axeEverywhere(white, DESKTOP, 'German game page before the first move');
    await axeEverywhere(black, PHONE, 'English game page before the first move');

    // Keyboard only from here on: Tab reaches the board, once.
    check('White: Tab reaches the board', await tabToBoard(white));
    check('Black: Tab reaches the board', await tabToBoard(black));
    await white.keyboard.press('Tab');
    check('one more Tab leaves the board (a single tab stop)', await white.evaluate(() => !document.activeElement.closest('#board-grid')));
    await white.keyboard.press('Shift+Tab');
    check('Shift+Tab comes back to the board', await white.evaluate(() => !!document.activeElement.closest('#board-grid')));

    // The focus moves in the board's orientation: up is towards rank 8 for White, rank 1 for Black.
    await arrowTo(white, 'e2');
    await white.keyboard.press('ArrowUp');
    check('White: ArrowUp from e2 goes to e3', (await focusedSquare(white)) === 'e3', await focusedSquare(white));
    await arrowTo(black, 'e7');
    await black.keyboard.press('ArrowUp');
    check('Black (board turned): ArrowUp from e7 goes to e6', (await focusedSquare(black)) === 'e6', await focusedSquare(black));
    await black.keyboard.press('ArrowRight');
    check('Black (board turned): ArrowRight from e6 goes to d6', (await focusedSquare(black)) === 'd6', await focusedSquare(black));

    // Pick, see the targets, cancel with Escape; pick again and play.
    await arrowTo(white, 'e2');
    await white.keyboard.press('Enter');
    check('a picked piece says so', /ausgewählt/.test(await label(white, 'e2')) && (await white.getAttribute('#board-grid [data-square="e2"]', 'aria-selected')) === 'true', await label(white, 'e2'));
    check('its targets say so', (await label(white, 'e4')) === 'e4 leer, mögliches Zielfeld', await label(white, 'e4'));
    check('picking is announced', await hears(white, 'Bauer auf e2 genommen. 2 Zielfelder.'), await announced(white));
    await white.keyboard.press('Escape');
    check('Escape cancels the pick', (await label(white, 'e2')) === 'e2 weißer Bauer' && (await hears(white, 'Auswahl aufgehoben')), await label(white, 'e2'));

    const game = [
      ['e2', 'e4', 'Weiß: Bauer e4.', 'White: pawn e4.'],
      ['e7', 'e5', 'Schwarz: Bauer e5.', 'Black: pawn e5.'],
      ['f1', 'c4', 'Weiß: Läufer c4.', 'White: bishop c4.'],
      ['b8', 'c6', 'Schwarz: Springer c6.', 'Black: knight c6.'],
    ];
    for (const [i, [from, to, de, en]] of game.entries()) {
      const mover = i % 2 ? black : white;
      await keyMove(mover, from, to, i + 1);
      check(`ply ${i + 1} (${from}-${to}) announced in German: "${de}"`, await hears(white, de), await announced(white));
      check(`ply ${i + 1} (${from}-${to}) announced in English: "${en}"`, await hears(black, en), await announced(black));
    }
    check('the focus stays on the target square after a move', (await focusedSquare(black)) === 'c6', await focusedSquare(black));
    check('a move asks for its sound', /^move:on$/.test(await black.getAttribute('body', 'data-sound')), await black.getAttribute('body', 'data-sound'));

    // The clocks on demand: the key C on the board, in words.
    await white.keyboard.press('c');
    check('C reads the clocks (German)', await until(white.waitForFunction(() => /Weiß: \d+:\d\d.*Schwarz: \d+:\d\d/.test(document.getElementById('announcer').textContent), null, WAIT)), await announced(white));
    await black.keyboard.press('c');
    check('C reads the clocks (English), the running one marked', await until(black.waitForFunction(() => /White: \d+:\d\d \(running\)/.test(document.getElementById('announcer').textContent), null, WAIT)), await announced(black));

    // Review while the game goes on: Black clicks White's first move.
    await black.click('#moves button[data-ply="1"]');
    await black.waitForSelector('#review-bar:not([hidden])', WAIT);
    check('review: move 1 shows its position (e4 white pawn, e7 black pawn, c4 empty)',
      (await label(black, 'e4')) === 'e4 white pawn' && (await label(black, 'e7')) === 'e7 black pawn' && (await label(black, 'c4')) === 'c4 empty',
      `${await label(black, 'e4')} / ${await label(black, 'e7')} / ${await label(black, 'c4')}`);
    check('review: the bar says which move', /1\. e4/.test(await black.textContent('#review-text')), await black.textContent('#review-text'));
    check('review: the move is marked in the list', (await black.getAttribute('#moves button[data-ply="1"]', 'aria-current')) === 'step');
    await shot(black, 'a11y-01-review-phone.png');
    await black.keyboard.press('ArrowRight');
    check('review: Right shows ply 2 (e5 black pawn)', await until(black.waitForFunction(() => document.body.dataset.review === '2', null, WAIT)) && (await label(black, 'e5')) === 'e5 black pawn', await label(black, 'e5'));
    await black.keyboard.press('ArrowLeft');
    await black.keyboard.press('ArrowLeft');
    check('review: Left twice shows the start (e4 empty, e2 white pawn)', await until(black.waitForFunction(() => document.body.dataset.review === '0', null, WAIT)) && (await label(black, 'e4')) === 'e4 empty' && (await label(black, 'e2')) === 'e2 white pawn');

    // White plays on; Black's review stays, the list grows.
    await white.focus('#board-grid [tabindex="0"]');
    await keyMove(white, 'd1', 'h5', 5);
    await black.waitForFunction(() => document.body.dataset.ply === '5', null, WAIT);
    check('review: a new move keeps the review', (await black.getAttribute('body', 'data-review')) === '0' && (await label(black, 'h5')) === 'h5 empty', await label(black, 'h5'));
    check('review: the new move is in the list', (await black.locator('#moves button[data-ply="5"]').count()) === 1);
    check('the new move was still announced', await hears(black, 'White: queen h5.'), await announced(black));
    // Moving while reviewing does nothing (and says why).
    await black.focus('#board-grid [tabindex="0"]');
    await arrowTo(black, 'g8');
    await black.keyboard.press('Enter');
    check('moving while reviewing is refused in words', await hears(black, 'go back to the live position'), await announced(black));
    check('...and nothing is picked', (await label(black, 'g8')) === 'g8 black knight', await label(black, 'g8'));
    await axeBoth(black, 'English phone while reviewing');
    // End (with the focus off the board and out of inputs) goes back to the live position.
    await black.focus('#review-back');
    await black.keyboard.press('Home');
    check('review: Home shows the start', await until(black.waitForFunction(() => document.body.dataset.review === '0', null, WAIT)));
    await black.keyboard.press('End');
    check('review: End goes back to the live position', await until(black.waitForSelector('#review-bar', { state: 'hidden', ...WAIT })) && (await label(black, 'h5')) === 'h5 white queen', await label(black, 'h5'));
    // Again with the button.
    await black.keyboard.press('ArrowLeft');
    await black.waitForSelector('#review-bar:not([hidden])', WAIT);
    await black.focus('#review-back');
    await black.keyboard.press('Enter');
    check('review: the "back to the live position" button', await until(black.waitForSelector('#review-bar', { state: 'hidden', ...WAIT })) && (await black.getAttribute('body', 'data-review')) === '');

    // The mute switch: pressed, kept over a reload.
    await black.focus('#mute');
    await black.keyboard.press('Enter');
    check('the mute switch is pressed', (await black.getAttribute('#mute', 'aria-pressed')) === 'true');
    await black.reload();
    await black.waitForFunction(() => document.body.dataset.ply === '5', null, WAIT);
    check('the mute switch stays pressed after a reload', (await black.getAttribute('#mute', 'aria-pressed')) === 'true');
    check('Black: Tab reaches the board after the reload', await tabToBoard(black));
    await keyMove(black, 'g8', 'f6', 6);
    check('a muted page plays no sound', (await black.getAttribute('body', 'data-sound')) === 'move:muted', await black.getAttribute('body', 'data-sound'));
    check('ply 6 announced: "Black: knight f6."', await hears(black, 'Black: knight f6.'), await announced(black));

    // Mate: a capture with check, announced with the ending in both languages.
    check('ply 6 announced in German', await hears(white, 'Schwarz: Springer f6.'), await announced(white));
    await keyMove(white, 'h5', 'f7', 7);
    check('mate announced in German', await hears(white, 'Weiß: Dame schlägt Bauer auf f7, Schachmatt. Schachmatt – Weiß gewinnt.'), await announced(white));
    check('mate announced in English', await hears(black, 'White: queen takes pawn on f7, checkmate. Checkmate – White wins.'), await announced(black));
    check('the ending asks for its sound', (await white.getAttribute('body', 'data-sound')) === 'end:on', await white.getAttribute('body', 'data-sound'));
    check('after the end the board says the game is over', await (async () => {
      await white.keyboard.press('Enter');
      return hears(white, 'Die Partie ist beendet.');
    })(), await announced(white));
    await shot(white, 'a11y-02-mate-desktop.png');
    await shot(black, 'a11y-03-mate-phone.png');

    // Review after the end: click move 1, step, End.
    await white.click('#moves button[data-ply="1"]');
    await white.waitForSelector('#review-bar:not([hidden])', WAIT);
    check('finished game: move 1 shows its position', (await label(white, 'e4')) === 'e4 weißer Bauer' && (await label(white, 'f7')) === 'f7 schwarzer Bauer');
    await white.keyboard.press('End');
    check('finished game: End shows the mate again', await until(white.waitForSelector('#review-bar', { state: 'hidden', ...WAIT })) && (await label(white, 'f7')) === 'f7 weiße Dame', await label(white, 'f7'));

    // Dark mode: the page is dark.
    await white.emulateMedia({ colorScheme: 'dark' });
    const bg = await white.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const rgb = bg.match(/\d+/g).map(Number);
    check('dark mode: the page background is dark', rgb.slice(0, 3).every((x) => x < 60), bg);
    await shot(white, 'a11y-04-dark-desktop.png');
    await white.emulateMedia({ colorScheme: 'light' });

    await axeEverywhere(white, DESKTOP, 'German game page after the mate');
    await axeEverywhere(black, PHONE, 'English game page after the mate');

    // Promotion, en passant and castling with the keyboard, both sides on one screen (German).
    const l = await api('POST', '/api/games', { mode: 'local', color: 'white', time: { type: 'none' }, fen: '4k3/1P6/8/8/3p4/8/4P3/4K2R w K - 0 1' });
    if (l.status !== 201) throw new Error(`creating the local game: ${l.status} ${JSON.stringify(l.json)}`);
    await white.goto(`${base}g/${l.json.id}#w=${encodeURIComponent(l.json.secrets.white)}&b=${encodeURIComponent(l.json.secrets.black)}`);
    await seated(white, 'white black');
    await white.waitForSelector('#board-grid [data-square="b7"][aria-label="b7 weißer Bauer"]', WAIT);
    check('local game: Tab reaches the board', await tabToBoard(white));
    await arrowTo(white, 'b7');
    await white.keyboard.press('Enter');
    await arrowTo(white, 'b8');
    await white.keyboard.press('Enter');
    const chooser = await until(white.waitForFunction(() => !document.getElementById('promotion').hidden && document.activeElement.dataset.role === 'q', null, WAIT));
    check('promotion by keyboard: the chooser opens with the focus on the queen', chooser);
    await white.keyboard.press('Tab');
    await white.keyboard.press('Tab');
    await white.keyboard.press('Tab');
    check('promotion by keyboard: Tab reaches the knight', (await white.evaluate(() => document.activeElement.dataset.role)) === 'n');
    await white.keyboard.press('Enter');
    await white.waitForFunction(() => document.body.dataset.ply === '1', null, WAIT);
    check('promotion announced: "Weiß: Bauer b8, Umwandlung in Springer."', await hears(white, 'Weiß: Bauer b8, Umwandlung in Springer.'), await announced(white));
    check('promotion: the focus is back on the board, b8 a white knight',
      (await focusedSquare(white)) === 'b8' && (await label(white, 'b8')) === 'b8 weißer Springer', `${await focusedSquare(white)} ${await label(white, 'b8')}`);
    await keyMove(white, 'e8', 'f7', 2);
    await keyMove(white, 'e2', 'e4', 3);
    await keyMove(white, 'd4', 'e3', 4);
    check('en passant announced: "Schwarz: Bauer schlägt en passant auf e3."', await hears(white, 'Schwarz: Bauer schlägt en passant auf e3.'), await announced(white));
    check('en passant: e4 is empty', (await label(white, 'e4')) === 'e4 leer', await label(white, 'e4'));
    await keyMove(white, 'e1', 'g1', 5);
    check('castling announced: "Weiß: kurze Rochade, Schach."', await hears(white, 'Weiß: kurze Rochade, Schach.'), await announced(white));
    check('castling: f1 a white rook', (await label(white, 'f1')) === 'f1 weißer Turm', await label(white, 'f1'));
    await white.keyboard.press('Home');
    check('Home in the grid goes to the row\'s first square', (await focusedSquare(white)) === 'a1', await focusedSquare(white));

    // The language switch relabels the board and the announcements.
    await white.focus('#lang-switch');
    await white.keyboard.press('Enter');
    check('after switching to English: "f1 white rook"', await until(white.waitForSelector('#board-grid [data-square="f1"][aria-label="f1 white rook"]', WAIT)), await label(white, 'f1'));
    await white.focus('#board-grid [tabindex="0"]');
    await white.keyboard.press('c');
    check('after switching: the board speaks English', await hears(white, 'This game has no clock.'), await announced(white));
    await white.focus('#lang-switch');
    await white.keyboard.press('Enter');
    await white.waitForSelector('#board-grid [data-square="f1"][aria-label="f1 weißer Turm"]', WAIT);

    // A rated game between two accounts, watched by an English spectator: the names link to the
    // player pages, the ratings stand beside them, and the end shows and says the changes.
    const stamp = Date.now().toString(36).slice(-6);
    const names = [`Ada_${stamp}`, `Bob_${stamp}`];
    const cookies = [];
    for (const n of names) {
      const r = await api('POST', '/api/accounts', { username: n, password: 'correct horse battery' });
      if (r.status !== 201 || !r.cookie) throw new Error(`signing up ${n}: ${r.status} ${JSON.stringify(r.json)}`);
      cookies.push(r.cookie);
    }
    const seek = await api('POST', '/api/seeks', { time: { type: 'correspondence', days: 3 }, color: 'white', rated: true }, cookies[0]);
    if (seek.status !== 201) throw new Error(`posting the seek: ${seek.status} ${JSON.stringify(seek.json)}`);
    const acc = await api('POST', `/api/seeks/${seek.json.id}/accept`, {}, cookies[1]);
    if (acc.status !== 200) throw new Error(`accepting the seek: ${acc.status} ${JSON.stringify(acc.json)}`);
    const poster = await api('GET', `/api/seeks/${seek.json.id}`, null, cookies[0]);
    const rated = { id: acc.json.id, white: poster.json.secret, black: acc.json.secret };
    const watcher = await open('en-US', DESKTOP);
    await watcher.goto(`${base}g/${rated.id}`);
    await watcher.waitForSelector('.player-bar[data-color="white"] .player-name a', WAIT);
    const bar = (c) => watcher.textContent(`.player-bar[data-color="${c}"] .player-name`);
    const link = await watcher.getAttribute('.player-bar[data-color="white"] .player-name a', 'href');
    check('rated game: White\'s bar names the account and links to its page', link === `/@/${names[0]}` && (await bar('white')).includes(names[0]), `${link} ${await bar('white')}`);
    check('rated game: the newcomers\' provisional ratings stand in the bars ("1500?", issue 24)', /\(1500\?/.test(await bar('white')) && /\(1500\?/.test(await bar('black')), `${await bar('white')} | ${await bar('black')}`);
    check('rated game: "Rated game" is shown', (await watcher.textContent('#game-kind')) === 'Rated game');
    for (const [i, mv] of ['f3', 'e5', 'g4', 'Qh4#'].entries()) {
      const r = await api('POST', `/api/games/${rated.id}/move`, { secret: i % 2 ? rated.black : rated.white, ply: i, move: mv });
      if (r.status !== 200) throw new Error(`rated move ${mv}: ${r.status} ${JSON.stringify(r.json)}`);
    }
    const settled = await until(watcher.waitForFunction(() => /[+\u2212]\d+/.test(document.querySelector('.player-bar[data-color="black"] .rating-diff')?.textContent || ''), null, WAIT));
    check('rated game: the rating changes appear in the bars', settled, `${await bar('white')} | ${await bar('black')}`);
    const result = await watcher.textContent('#result');
    check('rated game: the changes stand beside the result', result.includes(`${names[0]}: \u2212`) && result.includes(`${names[1]}: +`), result);
    check('rated game: the changes are announced', await hears(watcher, 'Ratings: '), await announced(watcher));
    await axeBoth(watcher, 'English rated game after the end');
    await shot(watcher, 'a11y-05-rated.png');

    // The home page in both colour schemes, each door open.
    const home = await open('de-DE', DESKTOP, { colorScheme: 'dark' });
    await home.goto(base);
    await home.waitForSelector('#home-page .doors');
    for (const door of ['now', 'friend', 'computer']) {
      await home.click(`#door-${door}`);
      await axeBoth(home, `German home page, door "${door}"`);
    }
  } finally {
    await browser.close();
  }
  noScriptErrors();
}

run(main);
