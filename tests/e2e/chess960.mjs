// Chess960 in the browser (docs/api.md "variant"): the new-game form's Chess960 choice makes a game
// from a start array the server draws, and the game page names it; in a game from start position 692
// (RBBQKNNR: king and rooks where standard chess has them) castling is the king dropped on its rook,
// played by the Chess960 rule (king g1, rook f1) and recorded as e1h1, and the dropped king stays on
// g1 while the move is on its way (the server runs with SCHACH_STORE_COMMIT_DELAY_MS, and the page's
// own refresh of the position before the move is answered only after the drop); the new-game form
// passes axe-core in both languages.
//
//   node chess960.mjs BASE_URL ARTIFACT_DIR
//
// Nothing waits for a fixed time: every wait is for a condition, with a generous deadline.
import { api, args, axeCheck, check, drag, launch, run, seated, shot, until, WAIT } from './lib.mjs';

const [base] = args('node chess960.mjs BASE_URL ARTIFACT_DIR');

const gameOf = (page) => new URL(page.url()).pathname.replace(/^\/g\//, '');
const atPly = (page, ply) => page.waitForSelector(`body[data-ply="${ply}"]`, WAIT);

async function main() {
  const { browser, open: openPage, noScriptErrors } = await launch();
  const open = (locale) => openPage(locale, { viewport: { width: 1200, height: 900 } });
  try {
    // The form: Chess960, both sides on this screen.
    const page = await open('en-US');
    await page.goto(base);
    await page.click('#door-friend'); // the form behind the home page's door (issue 24)
    await page.waitForSelector('#new-game');
    await axeCheck(page, 'axe-core: no violations on the new-game form with its variant choice (English)');
    check('the form offers Chess960', (await page.textContent('#new-game')).includes('Chess960 (random start position)'));
    await page.check('input[name="mode"][value="local"]');
    await page.check('input[name="variant"][value="chess960"]');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.click('#create');
    await seated(page, 'white black');
    await atPly(page, 0);
    const made = await api('GET', `/api/games/${gameOf(page)}`);
    const s = made.json;
    if (s.variant === 'chess960') {
      check('the server drew a Chess960 start position', Number.isInteger(s.chess960) && s.chess960 >= 0 && s.chess960 < 960, JSON.stringify(s.chess960));
      const kind = await page.waitForSelector('#game-kind:not([hidden])', WAIT).then((e) => e.textContent(), () => '');
      check('the game page names the variant and its position', kind === `Chess960 · position no. ${s.chess960}`, kind);
      check('the board shows the drawn array', (await page.inputValue('#fen')) === s.start_fen, s.start_fen);
    } else {
      // 1 in 960: the standard array, which is a standard game.
      check('the standard array (518) is a standard game', s.variant === 'standard' && s.start_fen === null, JSON.stringify(s));
    }
    await shot(page, '01-chess960-game.png');
    await page.goto(base);
    const listed = await page.locator('#my-games li', { hasText: 'Chess960' }).first().waitFor(WAIT).then(() => true, () => false);
    check('the home page lists the game as Chess960', s.variant !== 'chess960' || listed);

    // Castling in position 692: the knights leave, then the king is dropped on the h1 rook.
    const created = await api('POST', '/api/games', { mode: 'local', variant: 'chess960', position: 692 });
    const g = created.json;
    check('(setup) a local game from position 692', created.status === 201 && g.state.chess960 === 692, created.text);
    const de = await open('de-DE');
    // A private link of both sides (as an API client hands out): the page keeps them and drops the fragment.
    await de.goto(`${new URL(`/g/${g.id}`, base)}#w=${encodeURIComponent(g.secrets.white)}&b=${encodeURIComponent(g.secrets.black)}`);
    await seated(de, 'white black');
    await atPly(de, 0);
    const kind = await de.textContent('#game-kind');
    check('the German page names the position', kind === 'Chess960 · Stellung Nr. 692', kind);
    let ply = 0;
    // The page fetches the position once more a second after a move's ack (refreshSoon): that answer,
    // held until the king is dropped, is the position before the castling arriving while the castling
    // is on its way. Drawn, it put the king back on e1, and the castling then slid it over the f-file.
    let release;
    const released = new Promise((r) => { release = r; });
    let heldOne;
    const held = new Promise((r) => { heldOne = r; });
    await de.route((u) => u.pathname === `/api/games/${g.id}`, async (route) => {
      if (route.request().method() !== 'GET' || ply < 4) return route.continue();
      heldOne();
      await released;
      return route.continue();
    });
    for (const m of ['Sh3', 'Sh6', 'Se3', 'Se6']) {
      await de.fill('#move-input', m);
      await de.press('#move-input', 'Enter');
      await atPly(de, ++ply);
    }
    let timer;
    await Promise.race([held, new Promise((r) => { timer = setTimeout(r, WAIT.timeout); })]);
    clearTimeout(timer);
    await drag(de, 'e1', 'h1');
    // From the drop on, the file the king is drawn on (0 = a), every frame.
    await de.evaluate(() => {
      const files = (window.kingFiles = []);
      const file = () => {
        const k = document.querySelector('#board cg-board piece.king.white');
        const b = document.querySelector('#board cg-board').getBoundingClientRect();
        if (k) files.push(((k.getBoundingClientRect().left - b.left) / b.width) * 8);
        requestAnimationFrame(file);
      };
      file();
    });
    release();
    check('the king dropped on its rook castles', await until(atPly(de, 5)));
    const after = (await api('GET', `/api/games/${g.id}`)).json;
    check('by the Chess960 rule: king g1, rook f1', after.fen.startsWith('rbbqk2r/pppppppp/4n2n/8/8/4N2N/PPPPPPPP/RBBQ1RK1 b kq'), after.fen);
    check('recorded as king takes rook (e1h1) and 0-0', after.last_move === 'e1h1' && after.moves[4].san_de === '0-0', JSON.stringify(after.moves[4]));
    // What a person waits for: the board at rest (chessground slides pieces for 150 ms), the king on g1.
    const atRest = () => {
      const k = document.querySelector('#board cg-board piece.king.white');
      if (!k || k.classList.contains('anim') || k.classList.contains('dragging')) return null;
      const b = document.querySelector('#board cg-board').getBoundingClientRect();
      return Math.round(((k.getBoundingClientRect().left - b.left) / b.width) * 8);
    };
    await de.waitForFunction(`(${atRest})() === 6`, null, WAIT).catch(() => {});
    const kingAt = await de.evaluate(atRest);
    check('the board shows the king on the g-file', kingAt === 6, String(kingAt));
    const drawnAt = await de.evaluate(() => window.kingFiles);
    check('the dropped king is never drawn back towards e1 while the castling is on its way',
      drawnAt.every((f) => f >= 5.95), [...new Set(drawnAt.map((f) => f.toFixed(2)))].join(' '));
    await axeCheck(de, 'axe-core: no violations on a Chess960 game page (German)');
    await shot(de, '02-chess960-castled.png');
    noScriptErrors();
  } finally {
    await browser.close();
  }
}

run(main);
