// Storage faults (driven by tests/cli/server_faults.sh). The state of the games lives in FILE between
// steps, so a step can run against a restarted server:
//   play FILE N        start games and play N plies in all (each acknowledged); remember them
//   more FILE N        N more plies in the remembered games, each acknowledged
//   check FILE         every acknowledged move is there, and nothing more
//   check-min FILE     every acknowledged move is there (a backup may hold later ones too)
//   refused FILE       a move and a new game are refused with 503 "storage"; reads still work
// A game plays the Opera game's first 30 plies (no mate), so each game holds at most 30.
import fs from 'node:fs';
import { api, assert, expectError, expectOk, friendGame, getState, OPERA } from './lib.mjs';

const [cmd, file, count] = process.argv.slice(2);
const PLIES_PER_GAME = 30;
const save = (games) => fs.writeFileSync(file, JSON.stringify(games));
const load = () => JSON.parse(fs.readFileSync(file, 'utf8'));

async function move(g) {
  const ply = g.acked;
  const r = await api('POST', `/api/games/${g.id}/move`, { secret: ply % 2 ? g.black : g.white, ply, move: OPERA[ply] });
  expectOk(r, `move ${ply} of ${g.id}`);
  g.acked = ply + 1;
}

async function playMore(games, n) {
  for (let i = 0; i < n; i++) {
    let g = games.find((x) => x.acked < PLIES_PER_GAME);
    if (!g) {
      g = { ...(await friendGame()), acked: 0 };
      games.push(g);
    }
    await move(g);
    save(games);
  }
}

if (cmd === 'play') {
  const games = [];
  save(games);
  await playMore(games, Number(count));
} else if (cmd === 'more') {
  const games = load();
  await playMore(games, Number(count));
} else if (cmd === 'check' || cmd === 'check-min') {
  for (const g of load()) {
    const state = await getState(g.id);
    if (cmd === 'check') assert.equal(state.ply, g.acked, `game ${g.id}: ply ${state.ply}, acknowledged ${g.acked}`);
    else assert.ok(state.ply >= g.acked, `game ${g.id}: ply ${state.ply}, acknowledged ${g.acked}`);
    assert.deepEqual(state.moves.map((m) => m.san), OPERA.slice(0, state.ply), `moves of ${g.id}`);
  }
} else if (cmd === 'refused') {
  const games = load();
  const g = games.find((x) => x.acked < PLIES_PER_GAME);
  const ply = g.acked;
  const r = await api('POST', `/api/games/${g.id}/move`, { secret: ply % 2 ? g.black : g.white, ply, move: OPERA[ply] });
  expectError(r, 503, 'storage', `move ${ply} of ${g.id} while the storage fails`);
  const c = await api('POST', '/api/games', { mode: 'friend', color: 'white', time: { type: 'none' } });
  expectError(c, 503, 'storage', 'a new game while the storage fails');
  // Reads go on, and the refused move changed nothing.
  const state = await getState(g.id);
  assert.equal(state.ply, ply, 'the refused move is not in the game');
} else {
  throw new Error(`unknown command ${cmd}`);
}
console.log(`ok   faults ${cmd}`);
