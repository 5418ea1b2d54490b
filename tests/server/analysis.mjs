// The engine's analysis of a finished game (issue 23, docs/api.md "Analysis"): queued by POST (202, 200
// once it exists), shared by everyone who asks, its progress and end told to the game's watchers over
// WebSocket, the moves judged by the drop in winning chances with the better move and its line, the
// accuracy and summary per side, in English and German. Only finished games; limits per account and
// per address a day (429), a bounded queue (503). The server runs with a small node budget, --trust-proxy
// 127.0.0.1 (the tests' visitors come from addresses of their own), --analysis-per-day 2,
// --analysis-per-day-address 3, --analysis-queue 1.
//
//   node analysis.mjs HOLD   HOLD: the file whose existence holds the analysis runs (SCHACH_ANALYSIS_HOLD)
import fs from 'node:fs';
import { api, assert, BASE, expectError, expectOk, namer, playMoves, runTests, WsClient } from './lib.mjs';

const HOLD = process.argv[2];
const fresh = namer('n');
let visitor = 0;
const from = (address) => ({ headers: { 'x-forwarded-for': address } });
const nextAddress = () => `198.51.100.${++visitor}`;

// A friend game from ADDRESS (each test game from an address of its own: the games per minute limit).
async function friendGame(address) {
  const created = expectOk(await api('POST', '/api/games', { mode: 'friend', color: 'white', time: { type: 'none' } },
    from(address)), 'create', 201);
  const joined = expectOk(await api('POST', `/api/games/${created.id}/join`, { invite: created.invite }, from(address)),
    'join');
  return { id: created.id, white: created.secret, black: joined.secret };
}

// A game ended by the mate in the opening: 3...Nf6?? lets 4.Qxf7# through.
async function finishedGame(address = nextAddress()) {
  const g = await friendGame(address);
  const state = await playMoves(g, ['e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6', 'Qxf7#']);
  assert.equal(state.outcome.result, '1-0');
  return g;
}

async function until(cond, what, ms = 120000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await cond();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const analysisOf = async (id, lang = 'en') =>
  api('GET', `/api/games/${id}/analysis?lang=${lang}`, undefined, from('203.0.113.9'));
const done = (id) => until(async () => {
  const r = await analysisOf(id);
  return r.status === 200 && r.json.status === 'done' ? r.json : null;
}, `the analysis of ${id}`);
// Until this node holds no analysis, running or queued (/metrics): a run's result is stored, and so read
// as done, a moment before its thread is free again and its place in the queue given back.
const idle = () => until(async () => {
  const text = await (await fetch(new URL('/metrics', BASE))).text();
  return /^schach_analyses_waiting 0$/m.test(text);
}, 'no analysis held');

await runTests({
  async 'a finished game is analysed once, for everyone, its watchers told'() {
    const g = await finishedGame();
    expectError(await analysisOf(g.id), 404, 'no_analysis', 'before anyone asked');
    const ws = await WsClient.open();
    ws.send({ type: 'subscribe', game: g.id });
    await ws.next((m) => m.type === 'state' && m.game === g.id, 'subscribed');
    const queued = expectOk(await api('POST', `/api/games/${g.id}/analysis`, {}, from(nextAddress())), 'ask', 202);
    assert.ok(['queued', 'running', 'done'].includes(queued.status), JSON.stringify(queued));
    assert.equal(queued.progress.total, 8, 'seven moves: eight positions');
    const told = await ws.next((m) => m.type === 'analysis' && m.game === g.id && m.analysis.status === 'done',
      'the watcher hears of the end', 120000);
    assert.equal(told.analysis.progress.done, 8);
    const a = await done(g.id);
    assert.equal(a.moves.length, 7);
    assert.deepEqual(a.moves.map((m) => m.ply), [1, 2, 3, 4, 5, 6, 7]);
    assert.deepEqual(a.moves.map((m) => m.san), ['e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6', 'Qxf7#']);
    const nf6 = a.moves[5];
    assert.equal(nf6.judgement, 'blunder', JSON.stringify(nf6));
    assert.ok(nf6.best && nf6.best !== 'g8f6' && typeof nf6.best_san === 'string', JSON.stringify(nf6));
    assert.ok(Array.isArray(nf6.line) && nf6.line[0] === nf6.best_san, JSON.stringify(nf6));
    assert.ok('mate' in nf6.eval, `after Nf6 White mates: ${JSON.stringify(nf6.eval)}`);
    assert.equal(a.moves[6].judgement, null, 'the mate is the best move');
    assert.ok(a.summary.black.blunder >= 1, JSON.stringify(a.summary));
    assert.equal(typeof a.accuracy.white, 'number');
    assert.ok(a.accuracy.white > a.accuracy.black, JSON.stringify(a.accuracy));
    // The annotated PGN: evaluations, the blunder's NAG and the better line as a variation.
    assert.match(a.pgn, /\[%eval /);
    assert.match(a.pgn, /Nf6 \$4/);
    assert.match(a.pgn, /\[Annotator "schach analyse"\]/);
    assert.ok(a.pgn.includes(`(3... ${nf6.best_san}`), a.pgn);
    // German letters; the same analysis for every visitor, and asking again changes nothing.
    const de = expectOk(await analysisOf(g.id, 'de'), 'in German');
    assert.equal(de.moves[5].san, 'Sf6');
    assert.match(de.pgn, /Sf6 \$4/);
    assert.deepEqual(de.moves.map((m) => m.judgement), a.moves.map((m) => m.judgement));
    const again = expectOk(await api('POST', `/api/games/${g.id}/analysis`, {}, from(nextAddress())), 'ask again');
    assert.equal(again.status, 'done');
    assert.deepEqual(again.moves, a.moves);
    ws.close();
  },

  async 'only finished games that exist; nothing changes on a refusal'() {
    const g = await friendGame(nextAddress());
    await playMoves(g, ['e4']);
    expectError(await api('POST', `/api/games/${g.id}/analysis`, {}, from(nextAddress())), 409, 'not_finished',
      'a game in play');
    expectError(await analysisOf(g.id), 404, 'no_analysis', 'nothing was queued');
    expectError(await api('POST', '/api/games/nosuchgame01/analysis', {}, from(nextAddress())), 404, 'not_found',
      'an unknown game');
    const r = await api('DELETE', `/api/games/${g.id}/analysis`, undefined, from(nextAddress()));
    assert.equal(r.status, 405);
    const german = await api('POST', `/api/games/${g.id}/analysis`, {},
      { headers: { 'x-forwarded-for': nextAddress(), 'accept-language': 'de' } });
    assert.match(expectError(german, 409, 'not_finished', 'in German').message, /beendete Partie/);
  },

  async 'limits per account and per address a day'() {
    const name = fresh('ana');
    const signup = await api('POST', '/api/accounts', { username: name, password: 'good password' },
      from(nextAddress()));
    expectOk(signup, 'sign up', 201);
    const cookie = /schach_session=[^;]*/.exec(signup.headers.get('set-cookie'))[0];
    const games = [];
    for (let i = 0; i < 4; i++) games.push(await finishedGame());
    // The account: two a day, from whichever address.
    // (Each waited for: the queue holds one.)
    for (let i = 0; i < 2; i++) {
      expectOk(await api('POST', `/api/games/${games[i].id}/analysis`, {},
        { headers: { cookie, 'x-forwarded-for': nextAddress() } }), `account's analysis ${i + 1}`, 202);
      await done(games[i].id);
      await idle();
    }
    const over = await api('POST', `/api/games/${games[2].id}/analysis`, {},
      { headers: { cookie, 'x-forwarded-for': nextAddress() } });
    expectError(over, 429, 'rate_limited', "the account's third");
    assert.ok(Number(over.headers.get('retry-after')) > 0, 'Retry-After');
    expectError(await analysisOf(games[2].id), 404, 'no_analysis', 'the refused one was not queued');
    // An address: three a day; asking about one that exists counts nothing.
    const address = nextAddress();
    expectOk(await api('POST', `/api/games/${games[0].id}/analysis`, {}, from(address)), 'an existing one');
    for (const g of [games[2], games[3]]) {
      expectOk(await api('POST', `/api/games/${g.id}/analysis`, {}, from(address)), 'from one address', 202);
      await done(g.id);
      await idle();
    }
    const more = [await finishedGame(), await finishedGame()];
    expectOk(await api('POST', `/api/games/${more[0].id}/analysis`, {}, from(address)), 'the third', 202);
    await done(more[0].id);
    await idle();
    expectError(await api('POST', `/api/games/${more[1].id}/analysis`, {}, from(address)), 429, 'rate_limited',
      "the address's fourth");
  },

  async 'the queue is bounded: beyond it 503, and every queued one is done'() {
    const games = [await finishedGame(), await finishedGame(), await finishedGame()];
    await idle();
    fs.writeFileSync(HOLD, 'hold');
    try {
      expectOk(await api('POST', `/api/games/${games[0].id}/analysis`, {}, from(nextAddress())), 'runs', 202);
      const second = expectOk(await api('POST', `/api/games/${games[1].id}/analysis`, {}, from(nextAddress())),
        'waits', 202);
      assert.equal(second.status, 'queued');
      assert.equal(second.position, 1, 'first in the queue');
      const full = await api('POST', `/api/games/${games[2].id}/analysis`, {}, from(nextAddress()));
      expectError(full, 503, 'busy', 'the queue is full');
      assert.ok(Number(full.headers.get('retry-after')) > 0);
      expectError(await analysisOf(games[2].id), 404, 'no_analysis', 'nothing queued for the refused one');
    } finally {
      fs.rmSync(HOLD, { force: true });
    }
    await done(games[0].id);
    await done(games[1].id);
  },
});
