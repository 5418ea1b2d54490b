// The game service's part of issue 22 ("A site strangers can trust"), each seen failing on the server
// from before:
//   - ratings could be farmed: a rated game resigned before both sides had moved was rated (+162/-162
//     for two new accounts). Now a resignation before both sides have moved aborts a rated game
//     (result "*", termination "aborted"), and an aborted game is not rated;
//   - games nobody moved in never expired (node trust_service.mjs expiry, run against a server started
//     with short --unstarted-expiry times): such a game is aborted after a while, also when it was
//     loaded at start, and leaves memory.
//
//   node trust_service.mjs          the rating tests
//   node trust_service.mjs expiry   the expiry tests (the server aborts unstarted games after 1 s)
//   node trust_service.mjs create   creates the games for the restart test and prints their ids
//   node trust_service.mjs loaded IDS   checks those games after a restart: all aborted
import { api, as, assert, BASE, expectError, expectOk, getState, namer, runTests, signUp, WsClient, ratedGame as ratedGameOf } from './lib.mjs';

const fresh = namer('t');
const BLITZ = { type: 'live', minutes: 5, increment: 3 };
const account = (prefix) => signUp(fresh(prefix));
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

const ratedGame = (white, black) => ratedGameOf(white, black, BLITZ);

async function play(g, moves) {
  for (let ply = 0; ply < moves.length; ply++)
    expectOk(await api('POST', `/api/games/${g.id}/move`,
      { secret: ply % 2 ? g.black : g.white, ply, move: moves[ply] }), `${g.id} ply ${ply}`);
}

const blitzOf = async (who) => expectOk(await api('GET', '/api/me', undefined, as(who)), 'me').ratings.blitz;

// Polls (up to a minute) until cond(value of get()) holds; returns that value.
async function until(get, cond, what) {
  let v;
  for (let i = 0; i < 1200; i++) {
    v = await get();
    if (cond(v)) return v;
    await sleep(50);
  }
  assert.fail(`${what}: not reached in a minute; last ${JSON.stringify(v)}`);
}

const ABORTED = { result: '*', termination: 'aborted', winner: null, reason: null, text: 'Game aborted',
  text_de: 'Partie abgebrochen' };

const rating = {
  async 'a rated game resigned before both sides moved is aborted, not rated; after both moved it is rated'() {
    const a = await account('Farm');
    const b = await account('Hand');
    // Resigned at ply 0 by either side, and at ply 1 by the side yet to move or by the one who moved.
    const early = [];
    for (const [moves, who] of [[[], 'white'], [[], 'black'], [['e4'], 'black'], [['e4'], 'white']]) {
      const g = await ratedGame(a, b);
      await play(g, moves);
      const r = expectOk(await api('POST', `/api/games/${g.id}/resign`, { secret: g[who] }),
        `${who} resigns at ply ${moves.length}`);
      assert.deepEqual(r.state.outcome, ABORTED, `resigned by ${who} at ply ${moves.length}`);
      assert.deepEqual(r.state.accounts.white.diff, null);
      early.push(g.id);
    }
    for (const id of early) {
      const s = await getState(id);
      assert.deepEqual(s.outcome, ABORTED, `${id} stays aborted`);
      assert.equal(s.accounts.white.diff, null, `${id}: no rating change`);
    }
    // Once both sides have moved a resignation is one: rated. The accounts' worker rates games in the
    // order they ended, so once this one is rated, any rating of the early ones would have been made.
    const g = await ratedGame(a, b);
    await play(g, ['e4', 'e5']);
    const r = expectOk(await api('POST', `/api/games/${g.id}/resign`, { secret: g.black }), 'black resigns at ply 2');
    assert.equal(r.state.outcome.termination, 'resignation');
    assert.equal(r.state.outcome.result, '1-0');
    const state = await until(() => getState(g.id), (s) => s.accounts.white.diff !== null, 'the rating');
    assert.ok(state.accounts.white.diff > 0);
    const ra = await blitzOf(a), rb = await blitzOf(b);
    assert.equal(ra.games, 1, `only the game both sides moved in counts: ${JSON.stringify(ra)}`);
    assert.equal(rb.games, 1, `only the game both sides moved in counts: ${JSON.stringify(rb)}`);
    assert.equal(ra.rating, 1500 + state.accounts.white.diff);
    assert.equal(rb.rating, 1500 + state.accounts.black.diff);
    // The aborted games are no finished games of the players.
    const page = expectOk(await api('GET', `/api/players/${a.name}`), 'player page');
    assert.deepEqual(page.games.map((x) => x.id), [g.id]);
  },

  async 'a casual game resigned at once stays a resignation'() {
    const a = await account('Casu');
    const seek = expectOk(await api('POST', '/api/seeks', { time: BLITZ, color: 'white' }, as(a)), 'seek', 201);
    const got = expectOk(await api('POST', `/api/seeks/${seek.id}/accept`, {}), 'anonymous accepts');
    const r = expectOk(await api('POST', `/api/games/${got.id}/resign`, { secret: got.secret }), 'resign');
    assert.equal(r.state.outcome.termination, 'resignation');
    assert.equal(r.state.outcome.result, '1-0');
  },
};

// GET /metrics as {name: value} for the lines without labels.
async function metrics() {
  const text = await (await fetch(new URL('/metrics', BASE))).text();
  const values = {};
  for (const line of text.split('\n')) {
    const m = /^schach_([a-z_]+) (\S+)$/.exec(line);
    if (m) values[m[1]] = Number(m[2]);
  }
  return values;
}

const create = async (body) => expectOk(await api('POST', '/api/games', body), 'create', 201);
const LIVE = { type: 'live', minutes: 5, increment: 3 };

// A game both sides moved in (local, so one request each), made again should it expire on a busy
// machine before its second move (the server here aborts games nobody began after a second or two).
async function begunGame(time) {
  for (let attempt = 0; attempt < 20; attempt++) {
    const g = await create({ mode: 'local', time });
    let ok = true;
    for (const [ply, move] of ['e4', 'e5'].entries()) {
      const r = await api('POST', `/api/games/${g.id}/move`,
        { secret: ply ? g.secrets.black : g.secrets.white, ply, move });
      if (r.status === 409 && r.json?.error?.code === 'game_over') { ok = false; break; }
      expectOk(r, `move ${move}`);
    }
    if (ok) return g.id;
  }
  assert.fail('no game could be begun in 20 tries');
}

// The games of the expiry tests nobody began: {name: id}.
async function unstartedGames() {
  const friendLive = await create({ mode: 'friend', time: LIVE });
  const friendNone = await create({ mode: 'friend', time: { type: 'none' } });
  const corr = await create({ mode: 'friend', time: { type: 'correspondence', days: 3 } });
  const joined = await create({ mode: 'friend', time: LIVE });
  expectOk(await api('POST', `/api/games/${joined.id}/join`, { invite: joined.invite }), 'join');
  const oneMove = await create({ mode: 'local', time: LIVE });
  const r = await api('POST', `/api/games/${oneMove.id}/move`, { secret: oneMove.secrets.white, ply: 0, move: 'e4' });
  // On a very busy machine it may have expired already: then it is aborted all the same.
  if (r.status !== 200) expectError(r, 409, 'game_over', 'the first move');
  const computer = await create({ mode: 'computer', level: 'beginner', color: 'white', time: { type: 'none' } });
  return { friendLive: friendLive.id, friendNone: friendNone.id, corr: corr.id, joined: joined.id,
    oneMove: oneMove.id, computer: computer.id };
}

// Waits until the server holds just the games in play it should (the others aborted and freed), then
// checks every game's state.
async function expectExpired(unstarted, begun) {
  const m = await until(metrics, (v) => v.games_in_play === begun.length && v.games_in_memory === begun.length,
    `only the ${begun.length} begun games in memory`);
  assert.equal(m.games_in_memory, begun.length);
  for (const [name, id] of Object.entries(unstarted))
    assert.deepEqual((await getState(id)).outcome, ABORTED, `${name} is aborted`);
  for (const id of begun) {
    const s = await getState(id);
    assert.equal(s.outcome, null, `the begun game ${id} goes on`);
    assert.equal(s.ply, 2);
  }
}

const expiry = {
  async 'games nobody began are aborted after a while and leave memory; begun games go on; watchers hear it'() {
    const before = await metrics();
    assert.equal(before.games_in_play, 0, 'a fresh server');
    const begun = [await begunGame(LIVE), await begunGame({ type: 'none' })];
    const unstarted = await unstartedGames();
    // A watcher of one hears of its end, as of any other.
    const ws = await WsClient.open();
    ws.send({ type: 'subscribe', game: unstarted.friendNone });
    const seen = await ws.next((m) => m.type === 'state' && m.game === unstarted.friendNone && m.state.outcome,
      'the watched game ends');
    assert.deepEqual(seen.state.outcome, ABORTED);
    ws.close();
    await expectExpired(unstarted, begun);
    // Not rated, not in the recent list.
    const recent = expectOk(await api('GET', '/api/recent'), 'recent');
    assert.ok(!recent.games.some((g) => Object.values(unstarted).includes(g.id)), 'aborted games are not recent');
  },
};

const mode = process.argv[2];
if (mode === 'expiry') {
  await runTests(expiry);
} else if (mode === 'create') {
  // For the restart: games nobody began (the server keeps them: default expiry) and two begun ones.
  const begun = [await begunGame(LIVE), await begunGame({ type: 'correspondence', days: 3 })];
  console.log(JSON.stringify({ unstarted: await unstartedGames(), begun }));
} else if (mode === 'loaded') {
  const { unstarted, begun } = JSON.parse(process.argv[3]);
  await runTests({
    async 'games loaded at start that nobody began expire too'() { await expectExpired(unstarted, begun); },
  });
} else {
  await runTests(rating);
}
