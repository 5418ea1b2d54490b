// Browser checks of the web page's defects found in Chromium (issue 13, defects 1–10), one check
// (or a few) per defect, each of which failed on the page before its fix:
//   1 phone: the file letters sit in their squares, the page does not scroll sideways
//   2 phone: the invitation link is visible without scrolling after creating a friend game
//   3 an illegal drag, and a tap on a piece without a legal move, say why
//   4 the board's coordinates are at least 12 px with a contrast of 4.5:1 or more
//   5 "claim with the next move" only when such a claim is possible; Resign apart from it
//   6 Offer draw and Resign hidden until both players are there
//   7 "Copy" confirms (in an aria-live element)
//   8 German "1 Halbzug"; the move box's placeholder fits
//   9 the two PGN downloads have different file names
//  10 /favicon.ico is served; the promotion chooser opens over the promotion square; aborted games
//     are not among the recently finished
// and issue 24's (the checks named "24/N"): 4 the home page's h1, three doors and one form at a time,
// number boxes a finger can use; 6 a game from a FEN counts the pieces taken from its moves;
// 10 error messages begin with a capital, ?lang=de is honoured, draws read "½-½", "(1-0)" on one line,
// the result in the viewer's colour, the announcement follows a language switch, "Game aborted" without
// "(*)", no "Read the clocks" in correspondence, a deadline leaves the name on one line, Resign and the
// rematch offer visible without scrolling on a phone.
//
//   node defects.mjs BASE_URL ARTIFACT_DIR
//
// Playwright only drives Debian's /usr/bin/chromium (CHROMIUM overrides); it never downloads a browser.
// Nothing waits for a fixed time: every wait is for a condition, with a generous deadline.
import { api, args, centre, check, drag, launch, noSidewaysCheck, PHONE, run, seated, shot, squareBox, until, WAIT } from './lib.mjs';

const [base] = args('node defects.mjs BASE_URL ARTIFACT_DIR');
const DESKTOP = { width: 1200, height: 900 };

/** A game with both sides on one screen, created over the API; its private link holds both secrets (the
 *  page keeps them and takes them out of the address bar). */
async function localGame() {
  const r = await api('POST', '/api/games', { mode: 'local', color: 'white', time: { type: 'none' } });
  if (r.status !== 201) throw new Error(`creating a game: ${r.status} ${r.text}`);
  const g = r.json;
  g.url = `${new URL(`/g/${g.id}`, base)}#w=${encodeURIComponent(g.secrets.white)}&b=${encodeURIComponent(g.secrets.black)}`;
  return g;
}

async function playMoves(g, moves) {
  for (let i = 0; i < moves.length; i++) {
    const secret = g.secrets[i % 2 ? 'black' : 'white'];
    const r = await api('POST', `/api/games/${g.id}/move`, { secret, ply: i, move: moves[i] });
    if (r.status !== 200) throw new Error(`move ${moves[i]}: ${r.status} ${r.text}`);
  }
}

const inside = (p, b) => p.x >= b.x && p.x <= b.x + b.width && p.y >= b.y && p.y <= b.y + b.height;
const boxInside = (a, b, slack = 0.5) =>
  a.x >= b.x - slack && a.y >= b.y - slack && a.x + a.width <= b.x + b.width + slack && a.y + a.height <= b.y + b.height + slack;
const fmt = (b) => `${b.x.toFixed(1)},${b.y.toFixed(1)} ${b.width.toFixed(1)}×${b.height.toFixed(1)}`;

const atPly = (page, ply) => page.waitForSelector(`body[data-ply="${ply}"]`, WAIT);

/** The file letters on the board: each must lie inside its square of the bottom row. */
async function checkFileLetters(page, what) {
  const coords = page.locator('#board coords.files coord');
  const n = await coords.count();
  const bad = [];
  const black = await page.locator('#board.orientation-black, #board .orientation-black').count();
  for (let i = 0; i < n; i++) {
    const letter = (await coords.nth(i).textContent()).trim().toLowerCase();
    const box = await coords.nth(i).boundingBox();
    const sq = await squareBox(page, letter + (black ? '8' : '1'));
    if (!box || !boxInside(box, sq)) bad.push(`${letter}: letter ${box ? fmt(box) : 'none'}, square ${fmt(sq)}`);
  }
  check(`${what}: each of the 8 file letters lies inside its square`, n === 8 && bad.length === 0, `${n} letters; ${bad.join('; ')}`);
}

/** The rank numbers: each must lie inside its square of the left column. */
async function checkRankNumbers(page, what) {
  const coords = page.locator('#board coords.ranks coord');
  const n = await coords.count();
  const bad = [];
  const black = await page.locator('#board.orientation-black, #board .orientation-black').count();
  for (let i = 0; i < n; i++) {
    const rank = (await coords.nth(i).textContent()).trim();
    const box = await coords.nth(i).boundingBox();
    const sq = await squareBox(page, (black ? 'h' : 'a') + rank);
    if (!box || !boxInside(box, sq)) bad.push(`${rank}: number ${box ? fmt(box) : 'none'}, square ${fmt(sq)}`);
  }
  check(`${what}: each of the 8 rank numbers lies inside its square`, n === 8 && bad.length === 0, `${n} numbers; ${bad.join('; ')}`);
}

const checkNoSidewaysScroll = (page, what) => noSidewaysCheck(page, `${what}: the page does not scroll sideways`);

/** WCAG contrast of the coordinates: text (with its opacity) against its own background laid over
 *  the light and the dark squares. */
async function coordinateReadability(page) {
  return page.evaluate(() => {
    const parse = (c) => {
      const m = c.match(/rgba?\(([^)]+)\)/);
      if (!m) return [0, 0, 0, 0];
      const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    };
    const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * top[3] + bottom[i] * (1 - top[3])).concat(1);
    const lum = (c) => {
      const ch = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
    };
    const ratio = (a, b) => {
      const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
      return (x + 0.05) / (y + 0.05);
    };
    const squares = [[240, 217, 181, 1], [181, 136, 99, 1]]; // chessground's brown board
    let minSize = Infinity;
    let minRatio = Infinity;
    for (const el of document.querySelectorAll('#board coords coord')) {
      const cs = getComputedStyle(el);
      let opacity = 1;
      for (let e = el; e && e.id !== 'board'; e = e.parentElement) opacity *= Number(getComputedStyle(e).opacity);
      minSize = Math.min(minSize, parseFloat(cs.fontSize));
      const fg = parse(cs.color);
      const bg = parse(cs.backgroundColor);
      for (const sq of squares) {
        const back = over([bg[0], bg[1], bg[2], bg[3] * opacity], sq);
        const text = over([fg[0], fg[1], fg[2], fg[3] * opacity], back);
        minRatio = Math.min(minRatio, ratio(text, back));
      }
    }
    return { minSize, minRatio };
  });
}

/** Whether the input's placeholder fits in its box (measured with the input's own font). */
async function placeholderFits(page, sel) {
  return page.evaluate((s) => {
    const el = document.querySelector(s);
    const cs = getComputedStyle(el);
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const need = ctx.measureText(el.placeholder).width;
    const room = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    return { fits: need <= room, need: Math.ceil(need), room: Math.floor(room), text: el.placeholder };
  }, sel);
}

/** A friend game over the API with both sides taken: {id, secrets: {white, black}, link(color)}. */
async function friendGame(time = { type: 'none' }) {
  const c = await api('POST', '/api/games', { mode: 'friend', color: 'white', time });
  const j = await api('POST', `/api/games/${c.json.id}/join`, { invite: c.json.invite });
  if (c.status !== 201 || j.status !== 200) throw new Error(`friend game: ${c.status} ${j.status}`);
  const secrets = { white: c.json.secret, black: j.json.secret };
  return {
    id: c.json.id,
    secrets,
    link: (color) => `${new URL(`/g/${c.json.id}`, base)}#s=${encodeURIComponent(secrets[color])}&c=${color}`,
  };
}

/** Issue 24, defect 4: the home page says what the site is at the top, offers three doors (someone
 *  now, a friend, the computer; not radio buttons), shows one form that creates games at a time, and
 *  its number boxes are large enough on a phone. */
async function homeDoors(page, words, what) {
  await page.goto(base);
  await page.waitForSelector('#home-page:not([hidden])', WAIT);
  await page.waitForSelector('#lobby-area button', WAIT).catch(() => {});
  const h1 = await page.evaluate(() => {
    const h = document.querySelector('#home-page h1');
    const first = document.querySelector('#home-page h1, #home-page h2');
    return h ? { text: h.textContent.trim(), top: h.getBoundingClientRect().top, first: first === h } : null;
  });
  check(`24/4 ${what}: an h1 at the top says what the site is`, !!h1 && h1.first && h1.top < 250 && words.title.test(h1.text), JSON.stringify(h1));
  const doors = [];
  for (const name of words.doors) doors.push(await page.getByRole('button', { name }).first().isVisible().catch(() => false));
  check(`24/4 ${what}: three doors, ${words.doors.map(String).join(', ')}`, doors.every(Boolean), JSON.stringify(doors));
  check(`24/4 ${what}: "play the computer" is no radio button`, (await page.locator('#home-page input[type=radio][value=computer]').count()) === 0);
  const visibleForms = () => page.evaluate(() => [...document.querySelectorAll('#home-page form')].filter((f) => f.offsetParent !== null).map((f) => f.id));
  let forms = await visibleForms();
  check(`24/4 ${what}: one form that creates games at a time (first door)`, forms.length <= 1, forms.join(', '));
  await page.getByRole('button', { name: words.doors[1] }).first().click();
  forms = await visibleForms();
  check(`24/4 ${what}: one form at a time (a friend)`, forms.length === 1 && forms[0] === 'new-game', forms.join(', '));
  await page.check('input[name="time"][value="live"]');
  const boxes = await page.evaluate(() => ['minutes', 'increment'].map((n) => {
    const r = document.querySelector(`#new-game input[name="${n}"]`).getBoundingClientRect();
    return [Math.round(r.width), Math.round(r.height)];
  }));
  check(`24/4 ${what}: the minutes and increment boxes are at least 64 × 44 px`, boxes.every(([w, h]) => w >= 64 && h >= 44), JSON.stringify(boxes));
  await page.getByRole('button', { name: words.doors[2] }).first().click();
  check(`24/4 ${what}: the computer's door shows its level`, await until(page.locator('#level').waitFor(WAIT)));
  await noSidewaysCheck(page, `24/4 ${what}: the home page does not scroll sideways`);
  await shot(page, `defects-24-home-${what.replace(/\W+/g, '-')}.png`);
}

/** Issue 24's page defects (4, 6 and 10), each failed on the page before its fix. */
async function issue24(open) {
  const homePhone = await open('de-DE', PHONE, { isMobile: true, hasTouch: true });
  await homeDoors(homePhone, { title: /Schach/, doors: [/Jetzt gegen jemanden/, /Gegen einen Freund/, /Gegen den Computer/] }, 'phone, German');
  await homePhone.context().close();
  const homeDesk = await open('en-GB', DESKTOP);
  await homeDoors(homeDesk, { title: /chess/i, doors: [/Play someone now/, /Play a friend/, /Play the computer/] }, 'desktop, English');
  await homeDesk.context().close();

  // 6: a game from a FEN lists no pieces as taken until one is; then only that one.
  const fenGame = await api('POST', '/api/games', { mode: 'local', color: 'white', time: { type: 'none' }, fen: '4k3/8/8/8/8/8/8/Rq2K3 w - - 0 1' });
  const fg = fenGame.json;
  const desk = await open('en-GB', DESKTOP);
  await desk.goto(`${new URL(`/g/${fg.id}`, base)}#w=${encodeURIComponent(fg.secrets.white)}&b=${encodeURIComponent(fg.secrets.black)}`);
  await atPly(desk, 0);
  const captured = () => desk.evaluate(() => ['bar-bottom', 'bar-top'].map((b) => document.querySelector(`#${b} .captured`).textContent.trim()));
  let cap = await captured();
  check('24/6 a game from a FEN: no piece listed as taken before a capture', cap[0] === '' && cap[1] === '+4', JSON.stringify(cap));
  const rx = await api('POST', `/api/games/${fg.id}/move`, { secret: fg.secrets.white, ply: 0, move: 'a1b1' });
  await atPly(desk, 1);
  cap = await captured();
  check('24/6 … after Rxb1 White shows the queen taken and its lead, Black nothing', rx.status === 200 && cap[0] === '♛ +5' && cap[1] === '', JSON.stringify(cap));

  // 10: an error message begins with a capital letter (the rules core's explanation, English and German).
  await desk.fill('#move-input', 'Kd3');
  await desk.press('#move-input', 'Enter');
  const en = await until(desk.waitForFunction(() => !document.getElementById('error').hidden, null, WAIT)) ? await desk.textContent('#error') : '';
  check('24/10 an error message begins with a capital letter (English)', /^\p{Lu}/u.test(en), en);

  // 10: ?lang=de in the address sets the language (and keeps it, as the switch does).
  await desk.goto(new URL('/?lang=de', base).href);
  await desk.waitForSelector('#home-page:not([hidden])', WAIT);
  check('24/10 ?lang=de makes the page German', (await desk.getAttribute('html', 'lang')) === 'de' &&
    (await desk.textContent('#lang-switch')).trim() === 'English', await desk.getAttribute('html', 'lang'));
  await desk.goto(new URL(`/g/${fg.id}`, base).href);
  await atPly(desk, 1);
  check('24/10 … and the next page stays German', (await desk.getAttribute('html', 'lang')) === 'de');
  await desk.fill('#move-input', 'Kd3');
  await desk.press('#move-input', 'Enter');
  const de = await until(desk.waitForFunction(() => !document.getElementById('error').hidden, null, WAIT)) ? await desk.textContent('#error') : '';
  check('24/10 an error message begins with a capital letter (German)', /^\p{Lu}/u.test(de), de);
  await desk.context().close();

  // 10: a draw shows "½-½"; the score never breaks over two lines on a phone; the result is green for
  // the winner only; "Read the clocks" only in live games; an aborted game says no "(*)".
  const drawn = await friendGame();
  await api('POST', `/api/games/${drawn.id}/draw`, { secret: drawn.secrets.white, action: 'offer' });
  const acc = await api('POST', `/api/games/${drawn.id}/draw`, { secret: drawn.secrets.black, action: 'accept' });
  const phone = await open('de-DE', PHONE, { isMobile: true, hasTouch: true });
  await phone.goto(drawn.link('white'));
  await phone.waitForSelector('body[data-over="true"]', WAIT);
  const drawText = await phone.textContent('#result');
  check('24/10 a draw shows "(½-½)", not "1/2-1/2"', acc.status === 200 && drawText.includes('(½-½)') && !drawText.includes('1/2'), drawText);

  const won = await friendGame({ type: 'live', minutes: 5, increment: 0 });
  await phone.goto(won.link('white'));
  await seated(phone, 'white');
  // 10: on a phone Resign is in the first screen, without scrolling.
  await phone.waitForSelector('#resign:not([hidden])', WAIT);
  const inView = async (sel) => {
    const b = await phone.locator(sel).boundingBox();
    const y = await phone.evaluate(() => window.scrollY);
    return { ok: !!b && y === 0 && b.y >= 0 && b.y + b.height <= PHONE.height, detail: b ? `${fmt(b)} (scrollY ${y})` : 'no box' };
  };
  let v = await inView('#resign');
  check('24/10 phone: Resign is visible without scrolling', v.ok, v.detail);
  check('24/10 "Read the clocks" is offered in a live game', await phone.locator('#read-clocks').isVisible());
  const loser = await open('en-GB', DESKTOP);
  await loser.goto(won.link('black'));
  await seated(loser, 'black');
  await api('POST', `/api/games/${won.id}/resign`, { secret: won.secrets.black });
  await phone.waitForSelector('body[data-over="true"]', WAIT);
  // Whatever width the line has (a phone's, a longer name, the other language), the score's end never
  // stands alone: the box is narrowed step by step and "(1-0)" must keep to one line at each width.
  const broken = await phone.evaluate(() => {
    const el = document.getElementById('result');
    const lines = () => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      let text = '';
      const nodes = [];
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        nodes.push([n, text.length]);
        text += n.textContent;
      }
      const at = text.indexOf('(1-0)');
      if (at < 0) return -1;
      const r = document.createRange();
      const place = (pos, fn) => {
        for (const [n, off] of nodes) if (pos >= off && pos <= off + n.textContent.length) return fn(n, pos - off);
      };
      place(at, (n, o) => r.setStart(n, o));
      place(at + 5, (n, o) => r.setEnd(n, o));
      return new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top))).size;
    };
    const bad = [];
    for (let w = 380; w >= 60; w -= 2) {
      el.style.maxWidth = `${w}px`;
      const n = lines();
      if (n !== 1) bad.push(`${w}px: ${n}`);
    }
    el.style.maxWidth = '';
    return bad;
  });
  check('24/10 phone: "(1-0)" never breaks over two lines', broken.length === 0, broken.slice(0, 3).join(', '));
  const winColour = await phone.evaluate(() => getComputedStyle(document.getElementById('result')).color);
  // 10: the rematch offer (Rematch) in the first screen on a phone.
  await phone.waitForSelector('#rematch-box:not([hidden]) button', WAIT);
  await phone.evaluate(() => window.scrollTo(0, 0));
  v = await inView('#rematch-box button');
  check('24/10 phone: the rematch button is visible without scrolling', v.ok, v.detail);
  await shot(phone, 'defects-24-phone-ended.png');
  await loser.waitForSelector('body[data-over="true"]', WAIT);
  await loser.waitForFunction(() => /wins|resign/.test(document.getElementById('announcer').textContent), null, WAIT).catch(() => {});
  const loseColour = await loser.evaluate(() => getComputedStyle(document.getElementById('result')).color);
  check('24/10 the loser does not see the result in the winner\'s green', loseColour !== winColour, `${loseColour} / ${winColour}`);

  // 10: the hidden announcement follows a switch of the language.
  const said = (await loser.textContent('#announcer')).trim();
  await loser.click('#lang-switch');
  await loser.waitForFunction(() => document.documentElement.lang === 'de', null, WAIT);
  const gesagt = (await loser.textContent('#announcer')).trim();
  check('24/10 the screen readers\' announcement of the ending is German after the switch', /Weiß|Schwarz/.test(gesagt) && gesagt !== said, `${said} → ${gesagt}`);
  await loser.context().close();

  const aborted = await friendGame();
  await api('POST', `/api/games/${aborted.id}/abort`, { secret: aborted.secrets.white });
  await phone.goto(aborted.link('white'));
  await phone.waitForSelector('body[data-over="true"]', WAIT);
  const abortText = (await phone.textContent('#result')).trim();
  check('24/10 an aborted game says "Partie abgebrochen" with no "(*)"', abortText === 'Partie abgebrochen', abortText);

  // A correspondence game between two accounts with long names: White's deadline beside the name.
  const stamp = Date.now().toString(36).slice(-6);
  const cookies = [];
  for (const n of [`Maximiliane_${stamp}`, `Bartholomew_${stamp}`]) {
    const r = await api('POST', '/api/accounts', { username: n, password: 'correct horse battery' });
    if (r.status !== 201 || !r.cookie) throw new Error(`signing up ${n}: ${r.status} ${r.text}`);
    cookies.push(r.cookie);
  }
  const seek = await api('POST', '/api/seeks', { time: { type: 'correspondence', days: 3 }, color: 'white', rated: false }, cookies[0]);
  const took = await api('POST', `/api/seeks/${seek.json.id}/accept`, {}, cookies[1]);
  const poster = await api('GET', `/api/seeks/${seek.json.id}`, null, cookies[0]);
  if (took.status !== 200 || !poster.json.secret) throw new Error(`correspondence seek: ${took.status} ${poster.text}`);
  for (const [i, mv] of ['e4', 'e5'].entries()) {
    await api('POST', `/api/games/${took.json.id}/move`, { secret: i ? took.json.secret : poster.json.secret, ply: i, move: mv });
  }
  await phone.goto(`${new URL(`/g/${took.json.id}`, base)}#s=${encodeURIComponent(poster.json.secret)}&c=white`);
  await seated(phone, 'white');
  await phone.waitForSelector('.player-bar[data-color="white"] .clock.running', WAIT);
  check('24/10 no "Read the clocks" in a correspondence game', await phone.locator('#read-clocks').isHidden());
  const squeeze = await phone.evaluate(() => {
    const n = document.querySelector('.player-bar[data-color="white"] .player-name');
    const cs = getComputedStyle(n);
    const line = parseFloat(cs.lineHeight) || parseFloat(cs.fontSize) * 1.25; // "normal" is about 1.2
    return Math.round(n.getBoundingClientRect().height / line);
  });
  check('24/10 phone: the deadline leaves the name on one line', squeeze <= 1, `${squeeze} lines`);
  await shot(phone, 'defects-24-corr.png');
  await phone.context().close();
}

/** Issue 24, "threefold repetition shows its move numbers": the page says where the position stood
 *  while the claim is open (English) and after it (German). */
async function repetitionShown(open) {
  const g = await localGame();
  await playMoves(g, ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1', 'Ng8']);
  const desk = await open('en-GB', DESKTOP);
  await desk.goto(g.url);
  await atPly(desk, 8);
  const status = await desk.textContent('#status');
  check('24 repetition: the status says where the position stood',
    status.includes('A threefold repetition can be claimed: the starting position stood after 2…Ng8 and 4…Ng8.'), status);
  await desk.context().close();
  const claim = await api('POST', `/api/games/${g.id}/claim`, { secret: g.secrets.white, kind: 'threefold' });
  const de = await open('de-DE', DESKTOP);
  await de.goto(g.url);
  await de.waitForSelector('body[data-over="true"]', WAIT);
  const result = await de.textContent('#result');
  check('24 repetition: … and the result, in German', claim.status === 200 &&
    result.includes('Wiederholt: dieselbe Stellung zu Beginn, nach 2. … Sg8 und 4. … Sg8.'), result);
  await de.context().close();
}

async function main() {
  const { browser, open: openPage, noScriptErrors } = await launch();
  const open = (locale, viewport, extra = {}) => openPage(locale, { acceptDownloads: true, viewport, ...extra });
  try {
    // -- A friend game created on a German phone -----------------------------------------------
    const phone = await open('de-DE', PHONE, { isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    await phone.goto(base);
    await phone.click('#door-friend'); // the form behind the home page's door (issue 24)
    await phone.waitForSelector('#new-game');
    await checkNoSidewaysScroll(phone, '1 phone, new-game page');
    await phone.check('input[name="mode"][value="friend"]');
    await phone.check('input[name="color"][value="white"]');
    await phone.check('input[name="time"][value="none"]');
    await phone.click('#create');
    await seated(phone, 'white');
    await atPly(phone, 0);
    await phone.waitForSelector('#invite-box:not([hidden])', WAIT);
    await phone.evaluate(() => window.scrollTo(0, 0));
    await shot(phone, 'defects-01-phone-game.png');

    // 1: the file letters in their squares; no sideways scrolling.
    await checkFileLetters(phone, '1 phone');
    await checkRankNumbers(phone, '1 phone');
    await checkNoSidewaysScroll(phone, '1 phone, game page');

    // 2: the invitation link without scrolling.
    const link = await phone.locator('#invite-link').boundingBox();
    const scrollY = await phone.evaluate(() => window.scrollY);
    check('2 phone: the invitation link is visible without scrolling', !!link && scrollY === 0 && link.y >= 0 && link.y + link.height <= PHONE.height,
      link ? `its box ${fmt(link)} in a ${PHONE.height} px high screen` : 'no box');

    // 4: readable coordinates.
    const read = await coordinateReadability(phone);
    check('4 the coordinates are at least 12 px', read.minSize >= 12, `${read.minSize} px`);
    check('4 the coordinates have a contrast of at least 4.5:1 on both square colours', read.minRatio >= 4.5, read.minRatio.toFixed(2));

    // 6: no Offer draw or Resign while nobody has joined.
    const early = await phone.evaluate(() => ['offer-draw', 'resign'].filter((id) => !document.getElementById(id).hidden));
    check('6 Offer draw and Resign are hidden before the opponent has joined', early.length === 0, `shown: ${early.join(', ')}`);

    // 5: no claim checkbox in the starting position; Resign is not beside it.
    check('5 no "claim with the next move" at the start of a game', await phone.locator('#claim-with-move-label').isHidden());
    const parents = await phone.evaluate(() => [
      document.getElementById('resign').parentElement.id,
      document.getElementById('claim-with-move-label').parentElement.id,
    ]);
    check('5 Resign does not sit in the row of the claim checkbox', parents[0] !== parents[1], `both in #${parents[0]}`);

    // 8: the German placeholder fits the move box (phone).
    const fitPhone = await placeholderFits(phone, '#move-input');
    check('8 phone: the move box shows its whole placeholder', fitPhone.fits, `"${fitPhone.text}" needs ${fitPhone.need} px, has ${fitPhone.room}`);

    // 7: "Copy" confirms, for screen readers too.
    await phone.click('#invite-box [data-copy="invite-link"]');
    const copied = await until(
      phone.waitForFunction(() => {
        const live = [...document.querySelectorAll('[aria-live], [role="status"]')];
        return live.some((el) => el.textContent.includes('Kopiert.') && el.offsetParent !== null);
      }, null, WAIT),
    );
    check('7 "Kopieren" shows "Kopiert." in an aria-live element', copied);
    await shot(phone, 'defects-02-copied.png');

    // The opponent joins from an English desktop browser.
    const invite = await phone.inputValue('#invite-link');
    const black = await open('en-US', DESKTOP);
    await black.goto(invite);
    await seated(black, 'black');
    await atPly(black, 0);
    const late = await until(phone.waitForSelector('#resign:not([hidden])', WAIT));
    check('6 Resign appears once the opponent has joined', late && (await phone.locator('#offer-draw').isVisible()));
    await checkFileLetters(black, '1 desktop, board from Black');
    await checkRankNumbers(black, '1 desktop, board from Black');
    const fitDesk = await placeholderFits(black, '#move-input');
    check('8 desktop: the move box shows its whole placeholder', fitDesk.fits, `"${fitDesk.text}" needs ${fitDesk.need} px, has ${fitDesk.room}`);

    // 3: an illegal drag says why (the server's reason), and nothing is played.
    await drag(phone, 'f1', 'c4');
    const said = await until(phone.waitForFunction(() => {
      const e = document.getElementById('error');
      return !e.hidden && /e2/.test(e.textContent);
    }, null, WAIT));
    check('3 an illegal drag (Bf1–c4) says why', said, await phone.textContent('#error'));
    console.log(`   (the message: ${await phone.textContent('#error')})`);
    check('3 the illegal drag plays nothing', (await phone.getAttribute('body', 'data-ply')) === '0');
    // A tap (a touch: this is a phone) on a piece with no legal move says so.
    const a1 = centre(await squareBox(phone, 'a1'));
    await phone.touchscreen.tap(a1.x, a1.y);
    const tapped = await until(phone.waitForFunction(() => {
      const e = document.getElementById('error');
      return !e.hidden && /a1/.test(e.textContent) && !/a2/.test(e.textContent);
    }, null, WAIT));
    check('3 a tap on a piece with no legal move (Ra1) says why', tapped, await phone.textContent('#error'));
    console.log(`   (the message: ${await phone.textContent('#error')})`);
    await shot(phone, 'defects-03-illegal.png');

    // 8: one ply is "1 Halbzug" in the German list of this browser's games.
    await drag(phone, 'e2', 'e4');
    await atPly(phone, 1);
    await atPly(black, 1);
    // 9: the two PGN downloads have different names.
    const names = [];
    for (const l of ['de', 'en']) {
      const [download] = await Promise.all([black.waitForEvent('download', WAIT), black.click(`#pgn-${l}`)]);
      names.push(download.suggestedFilename());
    }
    check('9 the German and English PGN download under different names', names[0] !== names[1], names.join(' / '));
    const id = new URL(phone.url()).pathname.split('/')[2];
    await phone.goto(base);
    await phone.waitForSelector(`#my-games a[href*="${id}"]`, WAIT);
    const mine = await phone.textContent('#my-games');
    check('8 German: "1 Halbzug", not "1 Halbzüge"', mine.includes('1 Halbzug') && !mine.includes('1 Halbzüge'), mine);
    await black.context().close();
    await phone.context().close();

    // -- 10: the icon, the promotion chooser, the recently finished games ------------------------
    const ico = await api('GET', '/favicon.ico');
    check('10 /favicon.ico is served as an image', ico.status === 200 && /^image\//.test(ico.headers.get('content-type') || ''),
      `${ico.status} ${ico.headers.get('content-type')}`);

    const desk = await open('en-GB', DESKTOP);
    const g = await localGame();
    await playMoves(g, ['e2e4', 'd7d5', 'e4d5', 'c7c6', 'd5c6', 'g8f6', 'c6b7', 'c8d7']);
    await desk.goto(g.url);
    await atPly(desk, 8);
    const icon = await desk.evaluate(() => [...document.querySelectorAll('link[rel~="icon"]')].map((l) => l.href));
    let iconOk = icon.length > 0;
    for (const href of icon) iconOk = iconOk && (await api('GET', href)).status === 200;
    check('10 the page names an icon that is served', iconOk, icon.join(', ') || 'no <link rel="icon">');

    await drag(desk, 'b7', 'a8');
    await desk.waitForSelector('#promotion:not([hidden])', WAIT);
    await shot(desk, 'defects-04-promotion.png');
    const queen = await desk.locator('#promotion [data-role="q"]').boundingBox();
    const chooser = await desk.locator('#promotion').boundingBox();
    const a8 = await squareBox(desk, 'a8');
    check('10 the promotion chooser opens with the queen on the promotion square', !!queen && inside(centre(a8), queen),
      `queen ${queen ? fmt(queen) : 'none'}, a8 ${fmt(a8)}`);
    const middle = [];
    for (const sq of ['d4', 'e4', 'd5', 'e5']) if (inside(centre(await squareBox(desk, sq)), chooser)) middle.push(sq);
    check('10 the promotion chooser leaves the board centre free', middle.length === 0, `covers ${middle.join(' ')}`);
    await desk.click('#promotion [data-role="q"]');
    await atPly(desk, 9);
    check('10 the chosen queen stands on a8', (await desk.inputValue('#fen')).startsWith('Q'), await desk.inputValue('#fen'));

    // 5: the claim checkbox appears when a move can repeat a position a third time.
    const rep = await localGame();
    await playMoves(rep, ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1']);
    await desk.goto(rep.url);
    await atPly(desk, 7);
    check('5 "claim with the next move" is offered when the next move can repeat a position three times',
      await until(desk.waitForSelector('#claim-with-move-label:not([hidden])', WAIT)));

    // 10: an aborted game is not among the recently finished; a resigned one is.
    const aborted = await localGame();
    const ab = await api('POST', `/api/games/${aborted.id}/abort`, { secret: aborted.secrets.white });
    const resigned = await localGame();
    await playMoves(resigned, ['e2e4', 'e7e5']);
    const rs = await api('POST', `/api/games/${resigned.id}/resign`, { secret: resigned.secrets.white });
    check('10 (setup) a game aborted and one resigned', ab.status === 200 && rs.status === 200, `${ab.status} ${rs.status}`);
    const recent = (await api('GET', '/api/recent')).json.games.map((x) => x.id);
    check('10 GET /api/recent leaves the aborted game out', !recent.includes(aborted.id), recent.join(' '));
    check('10 GET /api/recent lists the resigned game', recent.includes(resigned.id), recent.join(' '));
    await desk.goto(base);
    await desk.waitForSelector(`#recent-games a[href*="/g/${resigned.id}"]`, WAIT);
    check('10 the page\'s recently finished games leave the aborted one out',
      (await desk.locator(`#recent-games a[href*="/g/${aborted.id}"]`).count()) === 0);
    await shot(desk, 'defects-05-recent.png');
    await desk.context().close();

    await issue24(open);
    await repetitionShown(open);
  } finally {
    await browser.close();
  }
  noScriptErrors();
}

run(main);
