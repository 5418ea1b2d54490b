// Durability across kill -9 (driven by tests/cli/server_restart.sh):
//   play FILE         start a game, play the first plies of the Opera game, each acknowledged
//   finish FILE       (after kill -9 and a restart) every acknowledged move is there; play to mate
//   burst FILE PID    many games move at once; kill -9 PID while moves are in flight
//   check-burst FILE  every acknowledged move of every game survived; the games go on to the end
import fs from 'node:fs';
import { api, assert, expectOk, friendGame, getState, OPERA, playMoves } from './lib.mjs';

const [cmd, file, pid] = process.argv.slice(2);
const save = (obj) => fs.writeFileSync(file, JSON.stringify(obj));
const load = () => JSON.parse(fs.readFileSync(file, 'utf8'));

async function checkSurvived(g, acked) {
  const state = await getState(g.id);
  // A move in flight at the kill may have been committed without its answer arriving: one more.
  assert.ok(state.ply === acked || state.ply === acked + 1, `game ${g.id}: ply ${state.ply}, acknowledged ${acked}`);
  assert.deepEqual(state.moves.map((m) => m.san), OPERA.slice(0, state.ply), `moves of ${g.id}`);
  return state;
}

async function finish(g) {
  const state = await getState(g.id);
  const end = await playMoves(g, OPERA.slice(state.ply));
  assert.deepEqual(end.outcome, {
    result: '1-0', termination: 'checkmate', winner: 'white', reason: null,
    text: 'Checkmate – White wins 1-0', text_de: 'Schachmatt – Weiß gewinnt 1:0',
  });
}

if (cmd === 'play') {
  const g = await friendGame();
  save({ ...g, acked: 0 });
  for (let i = 0; i < 12; i++) {
    await playMoves(g, [OPERA[i]]);
    save({ ...g, acked: i + 1 });
  }
} else if (cmd === 'finish') {
  const g = load();
  const state = await checkSurvived(g, g.acked);
  assert.equal(state.ply, g.acked, 'nothing was in flight');
  await finish(g);
} else if (cmd === 'burst') {
  const games = await Promise.all(Array.from({ length: 20 }, () => friendGame()));
  const acked = Object.fromEntries(games.map((g) => [g.id, 0]));
  save({ games, acked });
  let total = 0;
  let killed = false;
  await Promise.all(games.map(async (g) => {
    for (let ply = 0; ply < OPERA.length; ply++) {
      let r;
      try {
        r = await api('POST', `/api/games/${g.id}/move`, { secret: ply % 2 ? g.black : g.white, ply, move: OPERA[ply] });
      } catch {
        return; // the server is gone
      }
      assert.equal(r.status, 200, `move ${ply} of ${g.id}: ${r.text}`);
      acked[g.id] = ply + 1;
      save({ games, acked });
      if (++total === 60 && !killed) {
        killed = true;
        process.kill(Number(pid), 'SIGKILL');
      }
    }
  }));
  assert.ok(killed, 'the server was killed mid-burst');
} else if (cmd === 'check-burst') {
  const { games, acked } = load();
  assert.ok(Object.values(acked).reduce((a, b) => a + b, 0) >= 60);
  for (const g of games) await checkSurvived(g, acked[g.id]);
  await Promise.all(games.map(finish));
} else {
  throw new Error(`unknown command ${cmd}`);
}
console.log(`ok   restart ${cmd}`);
