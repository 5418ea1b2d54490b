// Faults of a cluster (tests/cli/cluster_faults.sh starts PostgreSQL, three nodes and HAProxy), as issue
// 12 names them; each in the middle of a game that is then played to the end:
//   - kill -9 of node 1 while White's move waits in its store (SCHACH_STORE_COMMIT_DELAY_MS): the move
//     is not answered and not committed; White goes on through HAProxy, repeating it with its ply
//     (played now; once more: a repeat), and every acknowledged move is there; White's WebSocket reconnects through HAProxy and gets the
//     full state; node 1 started again serves the finished game;
//   - PostgreSQL stopped and held down: every change on every node (HTTP and WebSocket, and through
//     HAProxy once its checks took every node out) is answered 503 with a JSON body, code storage;
//     /healthz says 503 store; the games held in memory can still be read; nothing half done. Once
//     PostgreSQL is back every node's /healthz says 200 again, the refused move is played (not a
//     repeat), announcements reach the other nodes' WebSockets again and nothing acknowledged is lost;
//   - SIGTERM drains node 3 while an HTTP move waits in its store and White's WebSocket is on it: the
//     move is answered, the WebSocket gets the move's state and then Close 1001, reconnects through
//     HAProxy to another node and gets the full state; requests through HAProxy meanwhile all succeed;
//     the node logs drained result=ok and exits;
//   - kill -9 of node 1 while it holds a game's analysis (SCHACH_ANALYSIS_HOLD, a short lease): asked
//     on node 2 once the lease ended, node 2 takes it over and finishes it; a game asked on two nodes at
//     once is analysed once (the nodes' schach_analyses_done_total).
// Every wait polls with a generous deadline; nothing depends on timing.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  assert, at, expectError, expectOk, FRONT, gameOn, gameRow, httpMove, metric, NODES, sleep, sql, subscribed, until, wsMove,
} from './cluster_lib.mjs';
import { OPERA, runTests } from './lib.mjs';

const [N1, N2, N3] = NODES;
const run = promisify(execFile);
const CLUSTER = process.env.CLUSTER;
const PG_TEMP = process.env.PG_TEMP;
const DIR = process.env.CLUSTER_DIR;
const cluster = (...args) => run(CLUSTER, args, { env: process.env });

// The moves PostgreSQL holds for game id, in order (UCI).
const storedMoves = (id) => sql(`SELECT uci FROM moves WHERE game_id = '${id}' ORDER BY ply`).map((r) => r[0]);

// A move over HTTP that resolves also when the connection breaks ({status: 0}).
const tryMove = (base, g, secret, ply, move) => httpMove(base, g, secret, ply, move)
  .catch((e) => ({ status: 0, json: null, text: String(e) }));

// Plays OPERA from the game's ply to the end: each move by play(ply, move) (returns the new state), then
// every watcher sees it. Returns the final state.
async function playOn(g, watchers, play, from) {
  let state;
  for (let ply = from; ply < OPERA.length; ply++) {
    state = await play(ply, OPERA[ply]);
    assert.equal(state.ply, ply + 1, `ply after ${OPERA[ply]}`);
    for (const [name, w] of watchers) {
      const s = (await w.state(g.id, ply + 1, `${name} after ${OPERA[ply]}`)).state;
      assert.equal(s.fen, state.fen, `${name} after ${OPERA[ply]}`);
    }
  }
  assert.equal(state.outcome.termination, 'checkmate');
  return state;
}

const httpPlayer = (g, whiteBase, blackBase) => async (ply, move) => expectOk(
  await httpMove(ply % 2 === 0 ? whiteBase : blackBase, g, ply % 2 === 0 ? g.white : g.black, ply, move),
  `${move} at ply ${ply}`).state;

// Whether node I's process has gone (its pid file names it until scripts/cluster removes it).
function processGone(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z';
  } catch {
    return true;
  }
}

// Each node's state on HAProxy's statistics page: {node1: 'UP', …}.
async function proxyStates() {
  const r = await fetch(`http://127.0.0.1:${process.env.STATS_PORT}/;csv`);
  const rows = (await r.text()).split('\n').map((l) => l.split(','));
  return Object.fromEntries(rows.filter((c) => c[0] === 'schach' && /^node\d$/.test(c[1])).map((c) => [c[1], c[17]]));
}

// Every node runs and answers /healthz 200 (a test starts so, whatever an earlier one left behind: a
// node that a failed test did not start again is started here; one that runs is left alone).
async function healthy() {
  for (const [i, base] of [N1, N2, N3].entries()) {
    await cluster('node-start', String(i + 1));
    await until(async () => (await at(base, 'GET', '/healthz')).status === 200, `/healthz of ${base} is 200`, 60000);
  }
}

function expectStorage(r, what) {
  assert.equal(r.status, 503, `${what}: want 503 storage, got ${r.status} ${r.text}`);
  assert.match(r.headers.get('content-type') || '', /^application\/json/, `${what}: content type`);
  expectError(r, 503, 'storage', what);
}

await runTests({
  async 'kill -9 of a node mid-game: the players go on through HAProxy, nothing acknowledged is lost'() {
    await healthy();
    // Node 1 holds every commit 1.5 s, so that a move is surely in its store when it is killed (the
    // kill goes through scripts/cluster, a process of its own: a busy machine may take a while).
    await cluster('node-kill', '1');
    await run(CLUSTER, ['node-start', '1'], { env: { ...process.env, SCHACH_STORE_COMMIT_DELAY_MS: '1500' } });
    const g = await gameOn(N1, N2);
    let white = await subscribed(N1, g.id, 'white on node 1');
    const black = await subscribed(N2, g.id, 'black on node 2');
    const spectator = await subscribed(N3, g.id, 'spectator on node 3');
    const acked = [];
    const play = httpPlayer(g, N1, N2);
    for (let ply = 0; ply < 10; ply++) {
      const s = await play(ply, OPERA[ply]);
      acked.push(s.last_move);
      await spectator.state(g.id, ply + 1);
    }
    // White's eleventh move waits in node 1's store when node 1 is killed: no answer.
    const inFlight = tryMove(N1, g, g.white, 10, OPERA[10]);
    await until(async () => (await metric(N1, 'schach_pending_changes')) >= 1, 'the move waits in node 1\'s store', 10000, 10);
    await cluster('node-kill', '1');
    const first = await inFlight;
    assert.equal(first.status, 0, `the move in flight is not answered: ${first.status} ${first.text}`);
    assert.deepEqual(storedMoves(g.id), acked, 'the unanswered move was not committed');
    // The player repeats it through HAProxy with the same ply (node 1 is still in HAProxy's list until
    // its checks fail: the refused connection is retried on another node); it is played now.
    const again = expectOk(await httpMove(FRONT, g, g.white, 10, OPERA[10]), 'the repeated move through HAProxy');
    assert.equal(again.state.ply, 11);
    assert.equal(again.duplicate, undefined);
    acked.push(again.state.last_move);
    // And once more (the answer got lost, say): a repeat, nothing played twice.
    const third = expectOk(await httpMove(FRONT, g, g.white, 10, OPERA[10]), 'the move repeated once more');
    assert.equal(third.duplicate, true);
    assert.deepEqual(storedMoves(g.id), acked, 'every acknowledged move is in PostgreSQL, nothing else');
    // White's WebSocket on node 1 broke; it reconnects through HAProxy and gets the full state.
    await white.closed('White\'s WebSocket on the killed node');
    assert.notEqual(white.closeCode, 1000);
    white = await subscribed(FRONT, g.id, 'white again through HAProxy');
    assert.equal(white.first.ply, 11);
    assert.deepEqual(white.first.moves.map((m) => m.uci), acked);
    for (const w of [black, spectator]) await w.state(g.id, 11, 'the move after the kill');
    // The game goes on: White through HAProxy, Black on node 2, and ends in mate.
    const end = await playOn(g, [['white', white], ['black', black], ['spectator', spectator]],
      httpPlayer(g, FRONT, N2), 11);
    assert.deepEqual(storedMoves(g.id), end.moves.map((m) => m.uci));
    // Node 1 comes back and serves the game as it ended.
    await cluster('node-start', '1');
    const back = expectOk(await at(N1, 'GET', `/api/games/${g.id}`), 'node 1 after its restart');
    assert.equal(back.fen, end.fen);
    assert.deepEqual(back.outcome, end.outcome);
    for (const c of [white, black, spectator]) c.close();
  },

  async 'PostgreSQL down mid-game: 503 storage, then everything resumes and nothing acknowledged is lost'() {
    await healthy();
    const g = await gameOn(N1, N2);
    const white = await subscribed(N1, g.id, 'white on node 1');
    const black = await subscribed(N2, g.id, 'black on node 2');
    const spectator = await subscribed(N3, g.id, 'spectator on node 3');
    const play = httpPlayer(g, N1, N2);
    let state;
    for (let ply = 0; ply < 8; ply++) {
      state = await play(ply, OPERA[ply]);
      for (const w of [white, black, spectator]) await w.state(g.id, ply + 1);
    }
    const before = gameRow(g.id);
    await run(PG_TEMP, ['stop', path.join(DIR, 'pg')]);
    try {
      // Every node refuses the change, over HTTP and WebSocket: 503, JSON, storage.
      for (const base of [N1, N2, N3]) expectStorage(await httpMove(base, g, g.white, 8, OPERA[8]), `a move on ${base} with PostgreSQL down`);
      const e = await wsMove(white, g, g.white, 8, OPERA[8]);
      assert.equal(e.type, 'error', JSON.stringify(e));
      assert.equal(e.error.code, 'storage', JSON.stringify(e));
      for (const base of [N1, N2, N3]) {
        const h = await until(async () => { const r = await at(base, 'GET', '/healthz'); return r.status === 503 && r; },
          `/healthz of ${base} says 503`, 30000);
        assert.deepEqual(h.json, { status: 'unavailable', reason: 'store' });
        // The game in memory can still be read, as it was.
        const s = expectOk(await at(base, 'GET', `/api/games/${g.id}`), `the game on ${base} with PostgreSQL down`);
        assert.equal(s.ply, 8);
        assert.equal(s.fen, state.fen);
      }
      // HAProxy takes every node out, then sends to them unchecked: the nodes' own 503 storage.
      await until(async () => Object.values(await proxyStates()).every((v) => v.startsWith('DOWN')) && true,
        'HAProxy takes every node out', 30000);
      expectStorage(await httpMove(FRONT, g, g.white, 8, OPERA[8]), 'a move through HAProxy with PostgreSQL down');
      expectStorage(await at(FRONT, 'POST', '/api/games', { mode: 'friend' }), 'a new game through HAProxy with PostgreSQL down');
      // Nothing was played meanwhile: no state with ply 9 reached anyone.
      for (const w of [white, black, spectator]) assert.ok(!w.inbox.some((m) => m.type === 'state' && m.state.ply > 8));
    } finally {
      await run(PG_TEMP, ['start', path.join(DIR, 'pg')]);
    }
    for (const base of [N1, N2, N3, FRONT]) {
      await until(async () => (await at(base, 'GET', '/healthz')).status === 200, `/healthz of ${base} is 200 again`, 60000);
    }
    const after = gameRow(g.id);
    assert.equal(after.moves, before.moves, 'nothing half done while PostgreSQL was down');
    assert.equal(after.rev, before.rev);
    // The refused move now is played (no repeat of anything), and reaches the other nodes' watchers.
    const played = expectOk(await httpMove(N1, g, g.white, 8, OPERA[8]), 'the refused move once PostgreSQL is back');
    assert.equal(played.duplicate, undefined);
    assert.equal(played.state.ply, 9);
    for (const [name, w] of [['white', white], ['black', black], ['spectator', spectator]]) {
      const s = (await w.state(g.id, 9, `${name} after PostgreSQL came back`)).state;
      assert.equal(s.fen, played.state.fen);
    }
    const end = await playOn(g, [['white', white], ['black', black], ['spectator', spectator]], httpPlayer(g, N2, N3), 9);
    assert.deepEqual(storedMoves(g.id), end.moves.map((m) => m.uci), 'every acknowledged move in PostgreSQL');
    for (const c of [white, black, spectator]) c.close();
  },

  async 'SIGTERM drains a node: its client sees a reconnect and nothing else'() {
    await healthy();
    // Node 3 holds every commit 1.5 s, so that a move is surely in its store when SIGTERM comes.
    await cluster('node-kill', '3');
    await run(CLUSTER, ['node-start', '3'], { env: { ...process.env, SCHACH_STORE_COMMIT_DELAY_MS: '1500' } });
    const g = await gameOn(N1, N2);
    let white = await subscribed(N3, g.id, 'white on node 3');
    const spectator = await subscribed(N1, g.id, 'spectator on node 1');
    const play = httpPlayer(g, N1, N2);
    for (let ply = 0; ply < 6; ply++) {
      await play(ply, OPERA[ply]);
      for (const w of [white, spectator]) await w.state(g.id, ply + 1);
    }
    // White's move over HTTP to node 3; once it waits in the store, SIGTERM.
    const pid = Number(fs.readFileSync(path.join(DIR, 'node3.pid'), 'utf8'));
    const inFlight = tryMove(N3, g, g.white, 6, OPERA[6]);
    await until(async () => {
      const m = (await at(N3, 'GET', '/metrics')).text.match(/^schach_pending_changes (\d+)$/m);
      return m && Number(m[1]) >= 1;
    }, 'the move waits in node 3\'s store', 10000, 10);
    process.kill(pid, 'SIGTERM');
    // Meanwhile every request through HAProxy succeeds.
    const front = (async () => {
      const bad = [];
      for (let i = 0; i < 40; i++) {
        const r = await at(FRONT, 'GET', `/api/games/${g.id}`).catch((e) => ({ status: 0, text: String(e) }));
        if (r.status !== 200) bad.push(`${r.status} ${r.text}`);
        await sleep(50);
      }
      return bad;
    })();
    const answered = expectOk(await inFlight, 'the move in flight on the draining node');
    assert.equal(answered.state.ply, 7);
    // The WebSocket gets the move's state, then Close 1001.
    const s7 = (await white.state(g.id, 7, 'the move\'s state before the close')).state;
    assert.equal(s7.fen, answered.state.fen);
    assert.equal(await white.closed('White\'s WebSocket on the draining node'), 1001);
    // The page reconnects through HAProxy (node 3 refuses connections now) and gets the full state.
    white = await subscribed(FRONT, g.id, 'white again through HAProxy');
    assert.equal(white.first.ply, 7);
    assert.deepEqual(white.first.moves, answered.state.moves);
    await spectator.state(g.id, 7);
    assert.deepEqual(await front, [], 'requests through HAProxy during the drain');
    await until(() => processGone(pid), 'node 3 exits after draining', 30000);
    const log = fs.readFileSync(path.join(DIR, 'node3.log'), 'utf8');
    assert.match(log, / info drain pending=1 /, 'the drain saw the move in flight');
    assert.match(log, / info drained result=ok/);
    assert.match(log, / info stop /);
    // The game goes on, White over the new WebSocket, Black on node 2.
    let id = 1000;
    const overWs = async (ply, move) => {
      if (ply % 2 === 1) return expectOk(await httpMove(N2, g, g.black, ply, move), `${move}`).state;
      white.send({ type: 'move', game: g.id, secret: g.white, ply, move, id: ++id });
      const ack = await white.reply(id, move);
      assert.equal(ack.type, 'ack', JSON.stringify(ack));
      return (await white.state(g.id, ply + 1, `White's own state after ${move}`)).state;
    };
    const end = await playOn(g, [['spectator', spectator]], overWs, 7);
    assert.deepEqual(storedMoves(g.id), end.moves.map((m) => m.uci));
    // Node 3 starts again (no commit delay) and serves the game as it ended.
    await cluster('node-start', '3');
    const back = expectOk(await at(N3, 'GET', `/api/games/${g.id}`), 'node 3 after its restart');
    assert.deepEqual(back.moves, end.moves);
    for (const c of [white, spectator]) c.close();
  },

  async 'kill -9 of a node mid-analysis: another node finishes it, and a game asked on two nodes runs once'() {
    await healthy();
    // Node 1 holds each analysis it claimed (SCHACH_ANALYSIS_HOLD) under a short lease.
    const hold = path.join(DIR, 'analysis-hold');
    fs.writeFileSync(hold, 'hold');
    await cluster('node-kill', '1');
    await run(CLUSTER, ['node-start', '1'],
      { env: { ...process.env, SCHACH_ANALYSIS_HOLD: hold, SCHACH_ANALYSIS_LEASE_MS: '3000' } });
    const mated = async () => {
      const g = await gameOn(N2, N3);
      const moves = [[N2, g.white, 'f3'], [N3, g.black, 'e5'], [N2, g.white, 'g4'], [N3, g.black, 'Qh4#']];
      for (const [ply, [base, secret, move]] of moves.entries()) expectOk(await httpMove(base, g, secret, ply, move), move);
      return g;
    };
    const g = await mated();
    const before = [await metric(N2, 'schach_analyses_done_total'), await metric(N3, 'schach_analyses_done_total')];
    expectOk(await at(N1, 'POST', `/api/games/${g.id}/analysis`, {}), 'asked on node 1', 202);
    await until(() => {
      const [row] = sql(`SELECT status FROM analyses WHERE game_id = '${g.id}'`);
      return row && row[0] === 'running';
    }, 'node 1 holds the analysis', 30000);
    await cluster('node-kill', '1');
    fs.rmSync(hold, { force: true });
    // Asked on node 2 once node 1's lease ended: node 2 takes it over and finishes it.
    const done = await until(async () => {
      const r = expectOk(await at(N2, 'GET', `/api/games/${g.id}/analysis`), 'the analysis on node 2');
      return r.status === 'done' ? r : undefined;
    }, 'node 2 finishes the analysis', 120000, 500);
    assert.equal(done.moves.length, 4);
    assert.equal(done.moves[3].san, 'Qh4#');
    assert.equal(await metric(N2, 'schach_analyses_done_total'), before[0] + 1, 'node 2 ran it');
    // Another game asked on nodes 2 and 3 at once: both answer, one of them runs it.
    const h = await mated();
    const asked = await Promise.all([N2, N3].map((base) => at(base, 'POST', `/api/games/${h.id}/analysis`, {})));
    for (const r of asked) assert.ok(r.status === 202 || r.status === 200, `${r.status} ${r.text}`);
    await until(async () => (await at(N3, 'GET', `/api/games/${h.id}/analysis`)).json?.status === 'done',
      'the second analysis is done', 120000, 500);
    const after = [await metric(N2, 'schach_analyses_done_total'), await metric(N3, 'schach_analyses_done_total')];
    assert.equal(after[0] + after[1], before[0] + before[1] + 2, `each analysis ran once: ${before} -> ${after}`);
    assert.deepEqual(sql(`SELECT status FROM analyses WHERE game_id IN ('${g.id}', '${h.id}')`), [['done'], ['done']]);
    await cluster('node-start', '1');
  },
});
// Open WebSockets of a failed test would keep the process alive.
process.exit();
