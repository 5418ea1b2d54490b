// Memory does not grow with the number of games ever played (issue 10, defect 4): node memory.mjs PID
// creates and finishes games over HTTP (mode "local", resigned at once, several requests in parallel)
// against the server with process id PID, reads its VmRSS from /proc after the first 2,000 games and
// after 20,000, and requires the growth between the two to stay within a fixed bound. Games that ended
// long ago must still be served (from the store): state, PGN, the browser's list and the recent list.
import fs from 'node:fs';
import { api, assert, expectOk, runTests } from './lib.mjs';

const pid = process.argv[2];
const FIRST = 2000, TOTAL = 20000, PARALLEL = 16;
// The old server kept every game: here (no moves) 18,000 more games grew it by 19 MB (~1.1 KB each).
// What may still grow is bounded by other things than games (SQLite's page cache, the allocator's
// free lists): measured at about 2 MB. 8 MB lies well between the two.
const BOUND_KB = 8 * 1024;

const rssKb = () => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(m, 'VmRSS of the server');
  return Number(m[1]);
};

// One game created and resigned; its id.
async function playOne() {
  const created = expectOk(await api('POST', '/api/games', { mode: 'local' }), 'create', 201);
  const r = await api('POST', `/api/games/${created.id}/resign`, { secret: created.secrets.white });
  expectOk(r, `resign ${created.id}`);
  return created.id;
}

async function playMany(count, ids) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      ids.push(await playOne());
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}

await runTests({
  async 'RSS after 20,000 finished games stays within a bound of RSS after 2,000'() {
    const ids = [];
    await playMany(FIRST, ids);
    const first = rssKb();
    await playMany(TOTAL - FIRST, ids);
    const last = rssKb();
    console.log(`VmRSS after ${FIRST} games: ${first} kB, after ${TOTAL}: ${last} kB (+${last - first} kB)`);
    assert.ok(last - first <= BOUND_KB,
      `RSS grew by ${last - first} kB from ${FIRST} to ${TOTAL} finished games (bound ${BOUND_KB} kB)`);

    // The oldest games are still there, read from the store.
    const oldest = ids[0];
    const state = expectOk(await api('GET', `/api/games/${oldest}`), 'state of the oldest game');
    assert.deepEqual(state.outcome, {
      result: '0-1', termination: 'resignation', winner: 'black', reason: null,
      text: 'White resigns – Black wins 0-1', text_de: 'Weiß gibt auf – Schwarz gewinnt 0:1',
    });
    const pgn = await api('GET', `/api/games/${oldest}/pgn`);
    assert.equal(pgn.status, 200);
    assert.match(pgn.text, /\[Result "0-1"\]/);
    const list = expectOk(await api('GET', `/api/games?ids=${ids.slice(0, 5).join(',')}`), 'list');
    assert.deepEqual(list.games.map((g) => g.id), ids.slice(0, 5));
    const recent = expectOk(await api('GET', '/api/recent'), 'recent');
    assert.equal(recent.games.length, 20);
    assert.ok(recent.games.every((g) => g.outcome && g.outcome.termination === 'resignation'));
  },
});
