// Dead positions over HTTP and WebSocket (FIDE 5.2.2): a move that locks the last pawn ends the game at
// once; a position only the full analysis settles (it runs on the computer's worker thread) ends a
// moment later for every subscriber; the PGN export and the game lists agree.
import { WsClient, api, assert, expectError, friendGame, getState, playMoves, runTests } from './lib.mjs';

// Polls the state until it has an outcome (the worker's verdict arrives after the move's answer).
async function waitForEnd(id) {
  for (let i = 0; i < 200; i++) {
    const state = await getState(id);
    if (state.outcome) return state;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`game ${id} did not end`);
}

await runTests({
  async 'the locking move ends the game: dead position, with its reason'() {
    const g = await friendGame({ fen: '8/8/k7/p1p1p1p1/P1P1P3/6P1/8/K7 w - - 0 1' });
    const state = await playMoves(g, ['g4']);
    assert.deepEqual(state.outcome,
      { result: '1/2-1/2', termination: 'dead_position', winner: null, reason: 'locked_pawns' });
    assert.deepEqual(state.legal, {});
    expectError(await api('POST', `/api/games/${g.id}/move`, { secret: g.black, ply: 1, move: 'Kb6' }), 409, 'game_over');
    const pgn = await api('GET', `/api/games/${g.id}/pgn?lang=en`);
    assert.match(pgn.text, /\[Result "1\/2-1\/2"\]/);
  },

  async 'a bishop that checks but never mates: the worker decides, every subscriber hears'() {
    const g = await friendGame({ fen: '8/8/k7/p1p1p1p1/P1P1P3/6P1/8/K1b5 w - - 0 1' });
    const ws = await WsClient.open();
    ws.send({ type: 'subscribe', game: g.id });
    await ws.state(g.id, 0, 'state after subscribe');
    await playMoves(g, ['g4']);
    const end = await ws.next((m) => m.type === 'state' && m.game === g.id && m.state.outcome, 'the end');
    assert.equal(end.state.outcome.termination, 'dead_position');
    assert.equal(end.state.outcome.reason, 'locked_pawns');
    assert.equal(end.state.ply, 1);
    assert.deepEqual((await waitForEnd(g.id)).outcome, end.state.outcome);
    ws.close();
  },

  async 'a position that only looks dead plays on'() {
    // White's dark-squared bishop can take a pawn and open the wall.
    const g = await friendGame({ fen: '8/8/k7/p1p1p1p1/P1P1P3/6P1/8/K1B5 w - - 0 1' });
    const state = await playMoves(g, ['g4', 'Kb6', 'Bd2']);
    assert.equal(state.outcome, null);
    assert.equal((await getState(g.id)).outcome, null);
  },
});
