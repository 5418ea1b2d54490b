// Takebacks and premoves (docs/api.md "Takebacks", "Premoves"). A takeback: asked for, accepted,
// declined, lapsing with a move; one ply or two; the position, the moves with their times, the clocks and
// the draw offer as they were before the move taken back; refused in rated games and against the
// computer (English and German), and nothing changes then. A premove: queued during the opponent's turn,
// played by the server right after the opponent's move, dropped (and the player told) when illegal then,
// cancelled, refused without a live clock.
import { api, assert, expectError, expectOk, friendGame, getState, namer, playMoves, ratedGame, runTests,
  signUp, WsClient } from './lib.mjs';

const LIVE = { type: 'live', minutes: 5, increment: 3 };
const fresh = namer('t');
const takeback = (id, secret, action, extra = {}) =>
  api('POST', `/api/games/${id}/takeback`, { secret, action, ...extra });
const premove = (id, body) => api('POST', `/api/games/${id}/premove`, body);
const move = (id, secret, ply, mv) => api('POST', `/api/games/${id}/move`, { secret, ply, move: mv });

// The state without what changes with the time of asking (the running clock, presence).
const still = (s) => ({ ...s, clock: undefined, online: undefined });

// A 409 busy (the other side's change is being saved) is tried again.
async function settled(call) {
  for (;;) {
    const r = await call();
    if (!(r.status === 409 && r.json?.error?.code === 'busy')) return r;
  }
}

const tests = {
  async 'one ply: the asker moved last; position, moves with their times, clocks and draw offer restored'() {
    const g = await friendGame({ time: LIVE });
    await playMoves(g, ['e4', 'e5']);
    const before = await getState(g.id); // white to move: the state the takeback must bring back
    await playMoves(g, ['Nf3']);
    expectOk(await api('POST', `/api/games/${g.id}/draw`, { secret: g.black, action: 'offer' }), 'black offers a draw');
    const asked = expectOk(await takeback(g.id, g.white, 'offer'), 'white asks');
    assert.equal(asked.state.takeback_offer, 'white');
    assert.equal(asked.state.draw_offer, 'black');
    assert.equal(asked.state.ply, 3, 'nothing taken back yet');
    const again = expectOk(await takeback(g.id, g.white, 'offer'), 'white asks again');
    assert.equal(again.state.takeback_offer, 'white');
    expectError(await takeback(g.id, g.white, 'accept'), 409, 'no_takeback_offer', 'the asker cannot accept');
    const done = expectOk(await takeback(g.id, g.black, 'accept'), 'black accepts');
    const s = done.state;
    assert.equal(s.ply, 2);
    assert.equal(s.takeback_offer, null);
    assert.equal(s.draw_offer, null, 'the draw offer is cleared');
    assert.deepEqual(still(s), still(before), 'the state as before Nf3 (moves with their "at" times included)');
    // Black's clock stands and is exactly what it was; white's runs from what it had.
    assert.equal(s.clock.black, before.clock.black, 'black clock restored');
    assert.ok(s.clock.white <= before.clock.white, 'white clock restored (and running)');
    assert.equal(s.turn, 'white');
    // The game goes on from there, and its PGN has the moves as played now.
    await playMoves(g, ['Nc3', 'Nf6']);
    const pgn = await api('GET', `/api/games/${g.id}/pgn`);
    const sans = pgn.text.split('\n\n')[1].replace(/\{[^}]*\}/g, ' ').replace(/\d+\.+/g, ' ').trim().split(/\s+/);
    assert.deepEqual(sans, ['e4', 'e5', 'Nc3', 'Nf6', '*'], 'the PGN\'s moves');
  },

  async 'two plies: the opponent replied; the asker is to move again'() {
    const g = await friendGame({ time: LIVE });
    await playMoves(g, ['d4', 'd5']);
    const before = await getState(g.id);
    await playMoves(g, ['c4', 'e6']);
    expectOk(await takeback(g.id, g.white, 'offer'), 'white asks to take back c4');
    const s = expectOk(await takeback(g.id, g.black, 'accept'), 'black accepts').state;
    assert.equal(s.ply, 2);
    assert.deepEqual(still(s), still(before), 'c4 and e6 taken back');
    assert.equal(s.clock.black, before.clock.black);
    // Twice in a row: black now asks for d5 (white has not replied: one ply).
    expectOk(await takeback(g.id, g.black, 'offer'), 'black asks');
    const t = expectOk(await takeback(g.id, g.white, 'accept'), 'white accepts').state;
    assert.equal(t.ply, 1);
    assert.equal(t.turn, 'black');
    assert.equal(t.moves.length, 1);
    assert.equal(t.moves[0].at, s.moves[0].at, 'the remaining move keeps its time');
  },

  async 'declined, and lapsing with a move; nothing to take back'() {
    const g = await friendGame();
    expectError(await takeback(g.id, g.white, 'offer'), 409, 'no_takeback', 'white before any move');
    await playMoves(g, ['e4']);
    expectError(await takeback(g.id, g.black, 'offer'), 409, 'no_takeback', 'black before any move');
    expectError(await takeback(g.id, g.black, 'accept'), 409, 'no_takeback_offer', 'no request stands');
    expectOk(await takeback(g.id, g.white, 'offer'), 'white asks');
    const declined = expectOk(await takeback(g.id, g.black, 'decline'), 'black declines').state;
    assert.equal(declined.takeback_offer, null);
    assert.equal(declined.ply, 1);
    expectOk(await takeback(g.id, g.white, 'offer'), 'white asks again');
    const moved = await playMoves(g, ['e5']);
    assert.equal(moved.takeback_offer, null, 'a move lets the request lapse');
    expectError(await takeback(g.id, g.black, 'accept'), 409, 'no_takeback_offer', 'lapsed');
    expectError(await takeback(g.id, g.white, 'maybe'), 400, 'bad_request', 'unknown action');
    expectError(await takeback(g.id, 'x'.repeat(43), 'offer'), 403, 'bad_secret', 'a wrong secret');
    assert.equal((await getState(g.id)).ply, 2, 'nothing changed');
  },

  async 'never in a rated game, nor against the computer: refused in English and German, nothing changed'() {
    const a = await signUp(fresh('ta')), b = await signUp(fresh('tb'));
    const g = await ratedGame(a, b, { type: 'live', minutes: 10, increment: 0 });
    await playMoves(g, ['e4', 'e5']);
    const before = await getState(g.id);
    const en = expectError(await takeback(g.id, g.black, 'offer'), 409, 'takeback_rated', 'rated');
    assert.match(en.message, /rated game/);
    const de = expectError(await takeback(g.id, g.black, 'offer', { lang: 'de' }), 409, 'takeback_rated', 'rated, de');
    assert.match(de.message, /gewerteten Partie/);
    assert.deepEqual(still(await getState(g.id)), still(before), 'nothing changed');
    const c = expectOk(await api('POST', '/api/games', { mode: 'computer', level: 'club', color: 'white' }), 'vs computer',
      201);
    expectOk(await move(c.id, c.secret, 0, 'e4'), 'e4');
    // The computer's reply may be being saved meanwhile (409 busy): asked again then.
    expectError(await settled(() => takeback(c.id, c.secret, 'offer')), 409, 'takeback_computer', 'computer');
  },

  async 'over the WebSocket: both sides hear of the request and of the moves taken back'() {
    const g = await friendGame({ time: LIVE });
    await playMoves(g, ['e4', 'c5', 'Nf3']);
    const w = await WsClient.open(), b = await WsClient.open();
    try {
      w.send({ type: 'subscribe', game: g.id, secret: g.white });
      b.send({ type: 'subscribe', game: g.id, secret: g.black });
      await w.state(g.id, 3);
      await b.state(g.id, 3);
      w.send({ type: 'takeback', id: 1, game: g.id, secret: g.white, action: 'offer' });
      assert.equal((await w.reply(1)).type, 'ack');
      const heard = await b.next((m) => m.type === 'state' && m.state.takeback_offer === 'white', 'black hears');
      assert.equal(heard.state.ply, 3);
      b.send({ type: 'takeback', id: 2, game: g.id, secret: g.black, action: 'accept' });
      assert.equal((await b.reply(2)).type, 'ack');
      const back = await w.state(g.id, 2, 'white sees ply 2');
      assert.equal(back.state.takeback_offer, null);
      assert.equal(back.state.last_move, 'c7c5');
    } finally {
      w.close();
      b.close();
    }
  },

  async 'premove: queued in the opponent\'s turn, played at once after the opponent\'s move'() {
    const g = await friendGame({ time: LIVE });
    await playMoves(g, ['e4']);
    const w = await WsClient.open();
    try {
      w.send({ type: 'subscribe', game: g.id, secret: g.white });
      await w.state(g.id, 1);
      w.send({ type: 'premove', id: 1, game: g.id, secret: g.white, ply: 2, move: 'g1f3' });
      assert.equal((await w.reply(1)).type, 'ack', 'queued over the WebSocket');
      const answer = expectOk(await move(g.id, g.black, 1, 'e5'), 'black moves');
      assert.equal(answer.state.ply, 2);
      const played = await w.state(g.id, 3, 'the premove played');
      assert.equal(played.state.last_move, 'g1f3');
      assert.equal(played.state.moves[2].san, 'Nf3');
      // The premover was charged from the opponent's move to its own: the moves' times say how much.
      const charged = played.state.moves[2].at - played.state.moves[1].at;
      assert.equal(played.state.clock.white, 5 * 60000 + 3000 - charged, 'white charged only the server\'s time');
    } finally {
      w.close();
    }
  },

  async 'premove: dropped when illegal after the opponent\'s move, and the player told'() {
    const g = await friendGame({ time: LIVE });
    await playMoves(g, ['e4', 'e5']);
    const b = await WsClient.open();
    try {
      b.send({ type: 'subscribe', game: g.id, secret: g.black });
      await b.state(g.id, 2);
      // Black queues exd4 (for d2-d4), but white plays Nf3: there is nothing on d4 to take.
      const queued = expectOk(await premove(g.id, { secret: g.black, ply: 3, move: 'e5d4' }), 'black queues exd4');
      assert.deepEqual(queued.premove, { move: 'e5d4', ply: 3 });
      assert.equal(queued.state.premove, undefined, 'a premove is in no state');
      expectOk(await move(g.id, g.white, 2, 'Nf3'), 'white');
      const told = await b.next((m) => m.type === 'premove', 'black hears the premove was dropped');
      assert.deepEqual(told, { type: 'premove', game: g.id, premove: null, dropped: 'e5d4', ply: 3 });
      const s = await getState(g.id);
      assert.equal(s.ply, 3);
      assert.equal(s.turn, 'black', 'nothing played for black');
      expectOk(await move(g.id, g.black, 3, 'Nc6'), 'black moves by hand');
    } finally {
      b.close();
    }
  },

  async 'premove: cancelled; refused without a live clock; bad input; at one\'s own turn a move'() {
    const g = await friendGame({ time: LIVE });
    await playMoves(g, ['d4']);
    expectOk(await premove(g.id, { secret: g.white, ply: 2, move: 'c2c4' }), 'queued');
    const cancelled = expectOk(await premove(g.id, { secret: g.white }), 'cancelled');
    assert.equal(cancelled.premove, null);
    expectOk(await move(g.id, g.black, 1, 'd5'), 'black');
    expectOk(await settled(() => move(g.id, g.white, 2, 'Nf3')), 'white moves by hand: nothing was played for it');
    expectError(await premove(g.id, { secret: g.white, ply: 4, move: 'x' }), 400, 'bad_request', 'not UCI');
    expectError(await premove(g.id, { secret: g.white, move: 'c2c4' }), 400, 'bad_request', 'no ply');
    expectError(await premove(g.id, { secret: g.white, ply: 9, move: 'c2c4' }), 409, 'stale_ply', 'a later ply');
    expectError(await premove(g.id, { secret: g.black, ply: 9 }), 400, 'bad_request', 'ply without move');
    const now = expectOk(await premove(g.id, { secret: g.black, ply: 3, move: 'c7c5' }), 'black at its own turn');
    assert.equal(now.state.ply, 4, 'played as a move');
    const untimed = await friendGame();
    await playMoves(untimed, ['e4']);
    const e = expectError(await premove(untimed.id, { secret: untimed.white, ply: 2, move: 'g1f3', lang: 'de' }), 409,
      'no_premove', 'no clock');
    assert.match(e.message, /Uhr/);
  },
};

await runTests(tests);
