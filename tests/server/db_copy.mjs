// schach db copy's games: `make FILE` plays them on the original site and writes what it knows to
// FILE; `check FILE` reads them back from the copied site (tests/cli/db_copy.sh).
import fs from 'node:fs';
import { api, assert, expectOk, friendGame, getState, playMoves } from './lib.mjs';

const [mode, file] = process.argv.slice(2);

if (mode === 'make') {
  const done = await friendGame();
  await playMoves(done, ['f3', 'e5', 'g4', 'Qh4#']);
  const live = await friendGame({ time: { type: 'live', minutes: 5, increment: 2 } });
  await playMoves(live, ['e4', 'c5', 'Nf3']);
  const open = expectOk(await api('POST', '/api/games', { mode: 'friend', color: 'black' }), 'create', 201);
  const games = [done, live, { id: open.id, black: open.secret, invite: open.invite }];
  const states = {}, pgns = {};
  for (const g of games) {
    states[g.id] = await getState(g.id);
    pgns[g.id] = (await api('GET', `/api/games/${g.id}/pgn`)).text;
  }
  fs.writeFileSync(file, JSON.stringify({ games, states, pgns }));
} else if (mode === 'check') {
  const { games, states, pgns } = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (const g of games) {
    const s = await getState(g.id);
    const before = states[g.id];
    assert.deepEqual(s.moves, before.moves, `${g.id}: moves`);
    assert.equal(s.ply, before.ply, `${g.id}: ply`);
    assert.deepEqual(s.outcome, before.outcome, `${g.id}: outcome`);
    assert.equal((await api('GET', `/api/games/${g.id}/pgn`)).text, pgns[g.id], `${g.id}: PGN`);
  }
  // The game in play goes on with the old secrets; the invitation of the open game still works.
  const live = games[1];
  expectOk(await api('POST', `/api/games/${live.id}/move`, { secret: live.black, ply: 3, move: 'd6' }), 'move');
  const open = games[2];
  expectOk(await api('POST', `/api/games/${open.id}/join`, { invite: open.invite }), 'join');
} else {
  throw new Error(`unknown mode ${mode}`);
}
