// Dead positions over HTTP and WebSocket (FIDE 5.2.2), driven by tests/cli/server_dead_positions.sh:
//   play FILE   a move that locks the last pawn ends the game at once; a position only the full
//               analysis settles (it runs on the server's analysis thread) ends a moment later for
//               both players, who move and watch over WebSocket; the PGN export and the game lists
//               agree; a position that only looks dead plays on. The finished games go to FILE.
//   check FILE  (after a restart) the finished games still say why they are dead.
import fs from 'node:fs';
import { api, assert, expectError, expectOk, friendGame, getState, playMoves, runTests, WsClient } from './lib.mjs';

const [cmd, file] = process.argv.slice(2);

// The ending of a game made dead by locked pawns, as the state shows it (the words are libschach's).
const LOCKED = {
  result: '1/2-1/2', termination: 'dead_position', winner: null, reason: 'locked_pawns',
  text: 'Draw: dead position – the pawns are locked and no piece can break through, no checkmate is possible any more',
  text_de: 'Remis: tote Stellung – die Bauernketten sind blockiert, keine Figur kann durchbrechen, kein Matt ist mehr '
    + 'möglich',
};

// The wall of 8/8/k7/p1p1p1p1/P1P1P1P1/8/8/K7 with White's g-pawn one step behind: g3-g4 locks it.
const OPEN_WALL = '8/8/k7/p1p1p1p1/P1P1P3/6P1/8/K7 w - - 0 1';
// White's queen gives itself up with Qg7+ (Kxg7 is forced) behind a closed chain: no series of moves
// mates any more; only the full analysis (an exhaustive search) shows it.
const QUEEN_GIFT = '8/7k/7p/4Q1pP/1p1p1pP1/1PpPpP2/2P1P3/3K4 w - - 0 1';

const finished = [];

if (cmd === 'play') {
  await runTests({
    async 'the locking move ends the game: dead position, with its reason in both languages'() {
      const g = await friendGame({ fen: OPEN_WALL });
      const state = await playMoves(g, ['g4']);
      assert.deepEqual(state.outcome, LOCKED);
      assert.deepEqual(state.legal, {});
      expectError(await api('POST', `/api/games/${g.id}/move`, { secret: g.black, ply: 1, move: 'Kb6' }), 409,
        'game_over');
      const pgn = await api('GET', `/api/games/${g.id}/pgn?lang=en`);
      assert.match(pgn.text, /\[Result "1\/2-1\/2"\]/);
      const list = expectOk(await api('GET', `/api/games?ids=${g.id}`), 'list');
      assert.deepEqual(list.games[0].outcome, LOCKED);
      finished.push(g.id);
    },

    async 'a queen given up behind a closed chain: the analysis decides, both players hear it'() {
      const g = await friendGame({ fen: QUEEN_GIFT });
      const white = await WsClient.open();
      const black = await WsClient.open();
      for (const c of [white, black]) {
        c.send({ type: 'subscribe', game: g.id });
        await c.state(g.id, 0, 'state after subscribe');
      }
      white.send({ type: 'move', game: g.id, secret: g.white, ply: 0, move: 'Qg7+', id: 1 });
      const ack = await white.reply(1, 'the move Qg7+');
      assert.equal(ack.type, 'ack', JSON.stringify(ack));
      for (const c of [white, black]) {
        const end = await c.next((m) => m.type === 'state' && m.game === g.id && m.state.outcome, 'the end');
        assert.deepEqual(end.state.outcome, LOCKED);
        assert.equal(end.state.ply, 1);
        assert.deepEqual(end.state.legal, {});
      }
      // Too late: the game is over for the other player too.
      black.send({ type: 'move', game: g.id, secret: g.black, ply: 1, move: 'Kxg7', id: 2 });
      const refused = await black.reply(2, 'a move after the end');
      assert.equal(refused.type, 'error');
      assert.equal(refused.error.code, 'game_over');
      assert.deepEqual((await getState(g.id)).outcome, LOCKED);
      white.close();
      black.close();
      finished.push(g.id);
    },

    async 'a position that only looks dead plays on'() {
      // White's dark-squared bishop can take a pawn and open the wall.
      const g = await friendGame({ fen: '8/8/k7/p1p1p1p1/P1P1P3/6P1/8/K1B5 w - - 0 1' });
      const state = await playMoves(g, ['g4', 'Kb6', 'Bd2']);
      assert.equal(state.outcome, null);
      assert.equal((await getState(g.id)).outcome, null);
    },
  });
  fs.writeFileSync(file, JSON.stringify(finished));
} else if (cmd === 'check') {
  await runTests({
    async 'after a restart the dead positions still say why (the reason is stored)'() {
      const ids = JSON.parse(fs.readFileSync(file, 'utf8'));
      assert.equal(ids.length, 2);
      for (const id of ids) assert.deepEqual((await getState(id)).outcome, LOCKED, id);
      const list = expectOk(await api('GET', `/api/games?ids=${ids.join(',')}`), 'list');
      for (const s of list.games) assert.deepEqual(s.outcome, LOCKED, s.id);
    },
  });
} else {
  throw new Error(`usage: dead_positions.mjs play|check FILE, not ${cmd}`);
}
