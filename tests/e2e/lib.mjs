// What every browser test in this folder shares: its command line, the ok/FAIL counting and the final
// summary, waiting for conditions, screenshots, launching Chromium, pages that collect script errors,
// the HTTP API, axe-core and the check against sideways scrolling. A test keeps its own check titles,
// so its output lines stay its own ("ok: …", "FAIL: …", "N passed, M failed").
//
// Playwright only drives Debian's /usr/bin/chromium (CHROMIUM overrides); it never downloads a browser.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';

// How long a wait for a condition may last: generous, for a busy machine (a condition met returns at once).
export const WAIT = { timeout: 60000 };
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let base = '';
let artifacts = '.';

/** The arguments USAGE names ("node x.mjs BASE_URL … ARTIFACT_DIR"), or exit 2 when one is missing.
 *  The first is always the server's address (for api()), the last the folder for screenshots (made). */
export function args(usage) {
  const count = usage.split(' ').length - 2;
  const values = process.argv.slice(2, 2 + count);
  if (values.length < count || values.some((v) => !v)) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  base = values[0];
  artifacts = values[count - 1];
  fs.mkdirSync(artifacts, { recursive: true });
  return values;
}

let passed = 0;
let failed = 0;
export function check(what, ok, detail = '') {
  if (ok) {
    passed++;
    console.log(`ok: ${what}`);
  } else {
    failed++;
    console.log(`FAIL: ${what}${detail ? ': ' + detail : ''}`);
  }
}

/** Runs the test's MAIN, then prints the summary and exits 1 on any failure; an exception is one more
 *  failure (with its stack), not a crash without a summary. */
export function run(main) {
  const finish = () => {
    console.log(`${passed} passed, ${failed} failed`);
    process.exit(failed ? 1 : 0);
  };
  main().then(finish, (e) => {
    check(e.stack || String(e), false);
    finish();
  });
}

/** Waits for a condition; false (not an exception) when the deadline passes. */
export const until = (promise) => promise.then(() => true, () => false);

export const shot = (page, name) => page.screenshot({ path: path.join(artifacts, name), fullPage: true });

/** Headless Chromium and open(locale, contextOptions, {dialogs, init}): a page in a new context whose
 *  script errors are collected in errors (checked by noScriptErrors), which accepts dialogs (the
 *  confirmations) unless dialogs is false, with INIT added as an init script. */
export async function launch() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run'],
  });
  const errors = [];
  const open = async (locale, contextOptions = {}, { dialogs = true, init } = {}) => {
    const ctx = await browser.newContext({ locale, ...contextOptions });
    if (init) await ctx.addInitScript(init);
    const page = await ctx.newPage();
    page.on('pageerror', (e) => errors.push(`${locale}: ${e.message}`));
    // The page works under its own Content-Security-Policy: a violation is an error too.
    page.on('console', (m) => {
      if (/Content Security Policy|Content-Security-Policy/i.test(m.text())) errors.push(`${locale}: ${m.text()}`);
    });
    if (dialogs) page.on('dialog', (d) => d.accept());
    return page;
  };
  const noScriptErrors = () => check('no script errors on the pages', errors.length === 0, errors.join(' | '));
  return { browser, open, noScriptErrors };
}

/** METHOD PATH of the server's API with a JSON BODY (as a browser page sends it, with its Origin) and a
 *  session COOKIE; the answer's status, headers, text, JSON (null if none) and the cookie it sets. */
export async function api(method, p, body, cookie) {
  const headers = body ? { 'Content-Type': 'application/json', Origin: new URL(base).origin } : {};
  if (cookie) headers.Cookie = cookie;
  const res = await fetch(new URL(p, base), { method, headers, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch (_) {
    json = null;
  }
  const set = res.headers.get('set-cookie');
  return { status: res.status, headers: res.headers, text, json, cookie: set ? set.split(';')[0] : null };
}

/** Waits until PAGE shows a game page whose address holds no fragment (no secret: issue 22, defect 8)
 *  and which holds the sides HELD: "white", "black", "white black" (a local game) or "" (a spectator). */
export function seated(page, held) {
  return page.waitForFunction(
    (h) => {
      const g = document.getElementById('game-page');
      return location.pathname.startsWith('/g/') && !location.hash && !!g && !g.hidden && g.dataset.held === h;
    },
    held,
    WAIT,
  );
}

const AXE_SOURCE = fs.readFileSync(AXE, 'utf8');

/** The rules that judge colours: all that can find something new in the dark colour scheme once the
 *  light scheme's full run found nothing, since the dark scheme changes nothing but colours (the
 *  @media (prefers-color-scheme: dark) rules of web/*.css set colours only; no script reads it). */
export const AXE_COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/** axe-core on the page as it is: check TITLE with the violations (rule, count, first elements). RULES,
 *  when given, are the only rules run (e.g. the colours' again after a change of colour scheme). */
export async function axeCheck(page, title, rules = null) {
  // Not a <script> tag: the page's Content-Security-Policy refuses inline scripts (evaluate is not one).
  // Once per document: a second check on the same page (another scheme or viewport) reuses it.
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async (only) => {
    const options = { resultTypes: ['violations'] };
    if (only) options.runOnly = { type: 'rule', values: only };
    const r = await window.axe.run(document, options);
    return r.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  }, rules);
  check(title, found.length === 0, found.join(' | '));
}

/** Check TITLE: the page is no wider than its visible area (it does not scroll sideways). The width
 *  without a scroll bar, not window.innerWidth, which would let the page overflow by the bar's width. */
export async function noSidewaysCheck(page, title) {
  // Right after a change of the viewport the board still has its old size until it follows its box
  // (a resize observer, on a later frame): wait for the page to settle, then judge it.
  const fits = () => document.documentElement.scrollWidth <= document.documentElement.clientWidth;
  await page.waitForFunction(fits, null, WAIT).catch(() => {});
  const w = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  check(title, w[0] <= w[1], `scrollWidth ${w[0]} > clientWidth ${w[1]}`);
}

/** The page box of a square on the real board (BOARD: the element chessground draws in, the game
 *  page's #board unless named), from the board's box and orientation. */
export async function squareBox(page, sq, board = '#board') {
  const box = await page.locator(`${board} cg-board`).boundingBox();
  const black = await page.locator(`${board}.orientation-black, ${board} .orientation-black`).count();
  const f = sq.charCodeAt(0) - 97;
  const r = Number(sq[1]) - 1;
  const col = black ? 7 - f : f;
  const row = black ? r : 7 - r;
  const w = box.width / 8;
  const h = box.height / 8;
  return { x: box.x + col * w, y: box.y + row * h, width: w, height: h };
}

/** The page coordinates of a box's centre. */
export const centre = (b) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 });

/** The page coordinates of a square's centre on the real board (BOARD as for squareBox). */
export const squareCenter = async (page, sq, board = '#board') => centre(await squareBox(page, sq, board));

/** Drags the piece on FROM to TO with the mouse, as a person does (BOARD as for squareBox). */
export async function drag(page, from, to, board = '#board') {
  const a = await squareCenter(page, from, board);
  const b = await squareCenter(page, to, board);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up();
}

/** Clicks the centre of square SQ on BOARD (as for squareBox). */
export async function clickSquare(page, sq, board = '#board') {
  const c = await squareCenter(page, sq, board);
  await page.mouse.click(c.x, c.y);
}
