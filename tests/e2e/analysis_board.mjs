// The analysis board (/analysis) in Chromium against the real schach serve (issue 23):
//   - a FEN from the address; moves by click, by drag and by keyboard (the board's grid), with SAN
//     and FEN from libschach in WebAssembly;
//   - a variation from a move where another continuation exists, promoted to the main line, one
//     deleted, a comment on a move; the move list navigated by click, arrows, Home and End;
//   - the local engine on: an evaluation, a line with a score (+1.2 / −0.8 / #3) and an arrow for its
//     best move; two lines with multi-PV 2;
//   - the exported PGN (nested variations and comments) read back identically by `schach pgn
//     convert`, accepted by `schach pgn check`, and parsed by chessops with the same moves and
//     comments in every variation;
//   - the German page: German SAN (Lc4, Sf6) and a decimal comma in the score;
//   - a game's page link (/analysis?game=ID&ply=N) starts at that move with the game's moves;
//   - without WebAssembly the page says so and shows the FEN it was given;
//   - axe-core: no violations, light and dark, desktop and phone.
//
//   node analysis_board.mjs BASE_URL SCHACH ORACLE_DIR ARTIFACT_DIR
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DESKTOP, PHONE, WAIT, api, args, axeCheck, check, clickSquare, drag, launch, noSidewaysCheck, run, shot, until } from './lib.mjs';

const [base, schach, oracle] = args('node analysis_board.mjs BASE_URL SCHACH ORACLE_DIR ARTIFACT_DIR');
const chessopsPgn = await import(pathToFileURL(path.join(oracle, 'node_modules/chessops/dist/esm/pgn.js')).href);
const chessopsSan = await import(pathToFileURL(path.join(oracle, 'node_modules/chessops/dist/esm/san.js')).href);

const BOARD = '#an-board';
const START = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';

const ready = (page) => page.waitForFunction(() => document.getElementById('analysis-page').dataset.rules === 'ready', null, WAIT);
const plyIs = (page, ply) => page.waitForFunction((p) => document.getElementById('analysis-page').dataset.ply === String(p), ply, WAIT);
const pgnText = (page) => page.inputValue('#an-pgn');
const movesText = (page) => page.locator('#an-moves').innerText();
const clickMove = (page, text) => page.locator('#an-moves .an-move', { hasText: text }).first().click();

/** Every line of the page's tree from the root to a leaf as "SAN{comment} …", depth first. */
const pageLines = (page) =>
  page.evaluate(() => {
    const out = [];
    const walk = (n, prefix) => {
      if (!n.children.length) return out.push(prefix.join(' '));
      for (const c of n.children) walk(c, [...prefix, c.san + (c.comment ? `{${c.comment}}` : '')]);
    };
    walk(window.schachPage.tree.root, []);
    return out;
  });

/** The same lines as chessops reads them from TEXT, each SAN replayed by chessops's rules. */
function chessopsLines(text) {
  const games = chessopsPgn.parsePgn(text);
  if (games.length !== 1) return { error: `${games.length} games` };
  const pos = chessopsPgn.startingPosition(games[0].headers);
  if (pos.isErr) return { error: String(pos.error) };
  const out = [];
  let bad = null;
  const walk = (node, position, prefix) => {
    if (!node.children.length) return out.push(prefix.join(' '));
    for (const c of node.children) {
      const p = position.clone();
      const move = chessopsSan.parseSan(p, c.data.san);
      if (!move) bad = bad || c.data.san;
      else p.play(move);
      const comment = (c.data.comments || []).join(' ');
      walk(c, p, [...prefix, c.data.san + (comment ? `{${comment}}` : '')]);
    }
  };
  walk(games[0].moves, pos.value, []);
  return { lines: out, bad };
}

async function main() {
  const { browser, open, noScriptErrors } = await launch();
  const page = await open('en-GB', { viewport: DESKTOP });
  await page.goto(`${base}analysis?fen=${encodeURIComponent(START)}`);
  check('the rules load in the page (WebAssembly)', await until(ready(page)));
  check('the board starts from the FEN in the address', (await page.inputValue('#an-fen')) === START);

  // A move by click: the bishop f1 to c4.
  await clickSquare(page, 'f1', BOARD);
  await clickSquare(page, 'c4', BOARD);
  check('a move by click is played (3. Bc4)', (await until(plyIs(page, 1))) && (await movesText(page)).includes('3. Bc4'));
  // A move by keyboard: Black's bishop f8 to c5 through the board's grid.
  await page.focus('#board-grid [data-square="f8"]');
  await page.keyboard.press('Enter');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  check('a move by keyboard is played (3… Bc5)', (await until(plyIs(page, 2))) && (await movesText(page)).includes('Bc5'));
  // A move by drag: c2 to c3.
  await drag(page, 'c2', 'c3', BOARD);
  check('a move by drag is played (4. c3)', (await until(plyIs(page, 3))) && (await movesText(page)).includes('4. c3'));

  // A variation: back to 3. Bc4, then 3… Nf6 instead of 3… Bc5.
  await clickMove(page, '3. Bc4');
  await plyIs(page, 1);
  await drag(page, 'g8', 'f6', BOARD);
  await plyIs(page, 2);
  let pgn = await pgnText(page);
  check('a new move where another continuation exists starts a variation', /3\. Bc4 Bc5 \(3\.\.\. Nf6\) 4\. c3/.test(pgn), pgn);
  check('the variation is in brackets in the move list', (await page.locator('#an-moves .an-variation').innerText()).includes('Nf6'));
  await page.click('#an-promote');
  pgn = await pgnText(page);
  check('promoting the variation makes it the main line', /3\. Bc4 Nf6 \(3\.\.\. Bc5 4\. c3\)/.test(pgn), pgn);
  // A comment on the current move (3… Nf6).
  await page.fill('#an-comment', 'Two knights');
  pgn = await pgnText(page);
  check('a comment on the current move is in the PGN', pgn.includes('3. Bc4 Nf6 {Two knights}'), pgn);
  // Deleting a variation: 4. c3 in the side line.
  await clickMove(page, '4. c3');
  await page.click('#an-delete');
  pgn = await pgnText(page);
  check('deleting a move removes it and what follows', /3\. Bc4 Nf6 \{Two knights\} \(3\.\.\. Bc5\) \*/.test(pgn), pgn);

  // The move list by keyboard: Home, End, arrows on a focused move.
  await clickMove(page, 'Nf6');
  await page.keyboard.press('Home');
  const home = await until(plyIs(page, 0));
  await page.keyboard.press('End');
  const end = await until(plyIs(page, 2));
  await page.keyboard.press('ArrowLeft');
  const left = await until(plyIs(page, 1));
  await page.keyboard.press('ArrowRight');
  check('Home, End and the arrows step through the moves', home && end && left && (await until(plyIs(page, 2))));

  // A PGN with nested variations and comments, loaded by pasting it; one more move in a side line.
  const nested = '{Start} 1. e4 e5 (1... c5 2. Nf3 (2. c3 {Alapin} d5) 2... d6) 2. Nf3 {main} Nc6 (2... Nf6 3. Nxe5) 3. Bb5 *';
  await page.click('#an-load-box summary');
  await page.fill('#an-load-text', nested);
  await page.click('#an-load');
  await plyIs(page, 0);
  await clickMove(page, '2. c3');
  await plyIs(page, 3);
  await page.keyboard.press('ArrowRight');
  await plyIs(page, 4);
  await drag(page, 'e4', 'd5', BOARD); // 3. exd5, a new move at the end of the side line
  await plyIs(page, 5);
  pgn = await pgnText(page);
  check('a pasted PGN keeps its variations and comments', pgn.includes('{Alapin}') && pgn.includes('3. exd5') && pgn.includes('{Start}'), pgn);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'analysis-'));
  const file = path.join(dir, 'tree.pgn');
  fs.writeFileSync(file, pgn);
  const checked = spawnSync(schach, ['pgn', 'check', file], { encoding: 'utf8' });
  check('schach pgn check accepts the exported PGN', checked.status === 0, checked.stdout + checked.stderr);
  const converted = execFileSync(schach, ['pgn', 'convert', '--lang', 'en', file], { encoding: 'utf8' });
  check('schach pgn convert reads it back identically', converted.trim() === pgn.trim(), `${converted}\n---\n${pgn}`);
  const mine = await pageLines(page);
  const theirs = chessopsLines(pgn);
  check('chessops parses it with the same moves and comments in every variation',
    !theirs.error && !theirs.bad && JSON.stringify(theirs.lines) === JSON.stringify(mine),
    JSON.stringify({ mine, theirs }));
  check('the download link carries the PGN', (await page.getAttribute('#an-download', 'href')).startsWith('blob:'));
  await shot(page, 'analysis-tree.png');

  // The local engine: a score, a line and an arrow; two lines with multi-PV 2.
  await page.fill('#an-load-text', START);
  await page.click('#an-load');
  await plyIs(page, 0);
  await page.check('#an-engine');
  const score = /^([+\u2212]\d+\.\d|0\.0|#\u2212?\d+)$/;
  const lineShown = await until(page.waitForFunction(() => document.querySelectorAll('#an-lines li').length >= 1, null, WAIT));
  const s1 = lineShown ? await page.getAttribute('#an-lines li', 'data-score') : '';
  check('the engine shows a line with a score such as +0.3', lineShown && score.test(s1), s1);
  const pv = lineShown ? await page.locator('#an-lines li .an-pv').first().innerText() : '';
  check('the line is in SAN with move numbers', /^3\. [A-Za-z]/.test(pv), pv);
  const arrow = await until(page.waitForFunction(() => document.getElementById('an-frame').dataset.best && document.querySelector('#an-board svg line, #an-board svg path[d]'), null, WAIT));
  check('an arrow on the board shows the best move', arrow);
  check('the evaluation bar is shown', await page.locator('#an-evalbar').isVisible());
  await page.selectOption('#an-multipv', '2');
  check('multi-PV 2 gives two lines', await until(page.waitForFunction(() => document.querySelectorAll('#an-lines li').length === 2, null, WAIT)));
  await shot(page, 'analysis-engine.png');
  await axeCheck(page, 'axe-core: no violations on /analysis (English, light, desktop, engine on)');
  await page.uncheck('#an-engine');

  // German: German SAN and a decimal comma.
  await page.click('#lang-switch');
  await clickSquare(page, 'f1', BOARD);
  await clickSquare(page, 'c4', BOARD);
  await plyIs(page, 1);
  await drag(page, 'g8', 'f6', BOARD);
  await plyIs(page, 2);
  const de = await movesText(page);
  check('the German page writes German SAN (3. Lc4 Sf6)', de.includes('3. Lc4') && de.includes('Sf6'), de);
  check('the German PGN too', (await pgnText(page)).includes('3. Lc4 Sf6'));
  await page.check('#an-engine');
  const deScore = await until(page.waitForFunction(() => {
    const li = document.querySelector('#an-lines li');
    return li && /^([+\u2212]\d+,\d|0,0|#\u2212?\d+)$/.test(li.dataset.score);
  }, null, WAIT));
  check('the German score has a decimal comma', deScore, await page.locator('#an-lines').innerText().catch(() => ''));
  await page.emulateMedia({ colorScheme: 'dark' });
  await axeCheck(page, 'axe-core: no violations on /analysis (German, dark, desktop, engine on)');
  await page.uncheck('#an-engine');
  await page.click('#lang-switch');

  // A game's moves at a ply, as the game page links to it.
  const g = await api('POST', '/api/games', { mode: 'local' });
  let ply = 0;
  for (const m of ['e2e4', 'c7c5', 'g1f3', 'd7d6']) {
    const color = ply % 2 ? 'black' : 'white';
    await api('POST', `/api/games/${g.json.id}/move`, { secret: g.json.secrets[color], ply, move: m });
    ply++;
  }
  await page.goto(`${base}analysis?game=${g.json.id}&ply=2`);
  await ready(page);
  check('?game=ID&ply=N starts at that move of the game', await until(plyIs(page, 2)));
  check('with all of the game\'s moves', (await movesText(page)).includes('2. Nf3 d6'), await movesText(page));

  // Phone and light/dark.
  for (const scheme of ['light', 'dark']) {
    const phone = await open('en-GB', { viewport: PHONE, colorScheme: scheme });
    await phone.goto(`${base}analysis?fen=${encodeURIComponent(START)}`);
    await ready(phone);
    await axeCheck(phone, `axe-core: no violations on /analysis (phone, ${scheme})`);
    await noSidewaysCheck(phone, `/analysis on a phone does not scroll sideways (${scheme})`);
    if (scheme === 'dark') await shot(phone, 'analysis-phone-dark.png');
    await phone.close();
  }

  // Without WebAssembly: the page says so and still shows what it was given.
  const bare = await open('en-GB', { viewport: DESKTOP }, { init: 'delete globalThis.WebAssembly;' });
  await bare.goto(`${base}analysis?fen=${encodeURIComponent(START)}`);
  const said = await until(bare.waitForFunction(() => document.getElementById('analysis-page').dataset.rules === 'unavailable', null, WAIT));
  check('without WebAssembly the page says so', said && (await bare.locator('#an-unavailable').isVisible()));
  check('and shows the FEN it was given', (await bare.inputValue('#an-given')) === START);
  await shot(bare, 'analysis-no-wasm.png');

  noScriptErrors();
  await browser.close();
}

run(main);
