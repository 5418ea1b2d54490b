// Games over WebSocket: two players and a spectator on three connections; every move's state reaches
// all of them, every request is acknowledged to its sender.
import { api, assert, expectOk, friendGame, runTests, WsClient } from './lib.mjs';

let nextId = 1;

// Sends a change and waits for its ack (or error) on the sender's connection.
async function request(client, msg) {
  const id = nextId++;
  client.send({ ...msg, id });
  return client.reply(id, `${msg.type} ${msg.move || msg.action || ''}`);
}

await runTests({
  async 'two players and a spectator play to checkmate'() {
    const g = await friendGame();
    const white = await WsClient.open();
    const black = await WsClient.open();
    const spectator = await WsClient.open();
    for (const c of [white, black, spectator]) {
      c.send({ type: 'subscribe', game: g.id });
      const s = await c.state(g.id, 0, 'state after subscribe');
      assert.equal(s.state.id, g.id);
      assert.equal(s.state.turn, 'white');
    }
    const moves = ['e4', 'e5', 'Bc4', 'Nc6', 'Qh5', 'Nf6', 'Qxf7#'];
    for (let ply = 0; ply < moves.length; ply++) {
      const mover = ply % 2 === 0 ? white : black;
      const secret = ply % 2 === 0 ? g.white : g.black;
      const ack = await request(mover, { type: 'move', game: g.id, secret, ply, move: moves[ply] });
      assert.equal(ack.type, 'ack', `move ${moves[ply]}: ${JSON.stringify(ack)}`);
      assert.equal(ack.game, g.id);
      assert.equal(ack.ply, ply + 1);
      assert.equal(ack.duplicate, undefined);
      for (const c of [white, black, spectator]) {
        const s = await c.state(g.id, ply + 1, `state after ${moves[ply]}`);
        assert.equal(s.state.moves.at(-1).san, moves[ply]);
      }
    }
    const end = (await api('GET', `/api/games/${g.id}`)).json;
    assert.deepEqual(end.outcome, {
      result: '1-0', termination: 'checkmate', winner: 'white', reason: null,
      text: 'Checkmate – White wins 1-0', text_de: 'Schachmatt – Weiß gewinnt 1:0',
    });
    for (const c of [white, black, spectator]) c.close();
  },

  async 'draw offer and accept, resignation, duplicate and errors over WebSocket'() {
    const g = await friendGame();
    const white = await WsClient.open();
    const black = await WsClient.open();
    white.send({ type: 'subscribe', game: g.id });
    black.send({ type: 'subscribe', game: g.id });
    await white.state(g.id, 0);
    await black.state(g.id, 0);

    let a = await request(white, { type: 'move', game: g.id, secret: g.white, ply: 0, move: 'd4' });
    assert.equal(a.ply, 1);
    await black.state(g.id, 1);
    // The same move again with the same ply: acknowledged as a repeat, not played twice.
    a = await request(white, { type: 'move', game: g.id, secret: g.white, ply: 0, move: 'd4' });
    assert.equal(a.type, 'ack');
    assert.equal(a.duplicate, true);
    assert.equal(a.ply, 1);
    // Errors come back with the request's id and the HTTP error object.
    a = await request(black, { type: 'move', game: g.id, secret: g.white, ply: 1, move: 'd5' });
    assert.equal(a.type, 'error');
    assert.ok(['bad_secret', 'not_your_turn'].includes(a.error.code), JSON.stringify(a));
    a = await request(black, { type: 'move', game: g.id, secret: g.black, ply: 1, move: 'd4' });
    assert.equal(a.error.code, 'illegal_move');
    a = await request(black, { type: 'move', game: g.id, secret: g.black, ply: 0, move: 'd5' });
    assert.equal(a.error.code, 'stale_ply');

    a = await request(black, { type: 'draw', game: g.id, secret: g.black, action: 'offer' });
    assert.equal(a.type, 'ack', JSON.stringify(a));
    await white.next((m) => m.type === 'state' && m.game === g.id && m.state.draw_offer === 'black', 'offer seen');
    a = await request(white, { type: 'draw', game: g.id, secret: g.white, action: 'accept' });
    assert.equal(a.type, 'ack');
    const s = await black.next((m) => m.type === 'state' && m.state.outcome, 'the end seen');
    assert.deepEqual(s.state.outcome, {
      result: '1/2-1/2', termination: 'agreement', winner: null, reason: null,
      text: 'Draw by agreement', text_de: 'Remis durch Vereinbarung',
    });
    a = await request(white, { type: 'resign', game: g.id, secret: g.white });
    assert.equal(a.error.code, 'game_over');
    white.close();
    black.close();

    const h = await friendGame();
    const c = await WsClient.open();
    c.send({ type: 'subscribe', game: h.id });
    await c.state(h.id, 0);
    a = await request(c, { type: 'abort', game: h.id, secret: h.black });
    assert.equal(a.type, 'ack', JSON.stringify(a));
    const aborted = await c.next((m) => m.type === 'state' && m.game === h.id && m.state.outcome, 'abort seen');
    assert.equal(aborted.state.outcome.termination, 'aborted');
    const k = await friendGame();
    c.send({ type: 'subscribe', game: k.id });
    await c.state(k.id, 0);
    a = await request(c, { type: 'move', game: k.id, secret: k.white, ply: 0, move: 'e4' });
    a = await request(c, { type: 'move', game: k.id, secret: k.black, ply: 1, move: 'e5' });
    a = await request(c, { type: 'resign', game: k.id, secret: k.black });
    assert.equal(a.type, 'ack');
    assert.equal(a.ply, 2);
    const resigned = await c.next((m) => m.type === 'state' && m.game === k.id && m.state.outcome, 'resign seen');
    assert.equal(resigned.state.outcome.termination, 'resignation');
    assert.equal(resigned.state.ply, 2);
    c.close();
  },

  async 'a client without subprotocol, ping, unsubscribe'() {
    const g = await friendGame();
    const c = await WsClient.open('/ws', []);
    c.send({ type: 'ping', id: 'p1' });
    assert.deepEqual(await c.reply('p1'), { type: 'pong', id: 'p1' });
    c.send({ type: 'subscribe', game: g.id });
    await c.state(g.id, 0);
    c.send({ type: 'unsubscribe', game: g.id });
    const mover = await WsClient.open();
    const ack = await request(mover, { type: 'move', game: g.id, secret: g.white, ply: 0, move: 'e4' });
    assert.equal(ack.ply, 1);
    // The broadcast of that move was queued before the ack; a pong after it proves none came.
    c.send({ type: 'ping', id: 'p2' });
    await c.reply('p2');
    assert.equal(c.inbox.filter((m) => m.type === 'state').length, 0, 'no state after unsubscribe');
    // Subscribing again (as after a reconnect) brings the full state.
    c.send({ type: 'subscribe', game: g.id });
    assert.equal((await c.state(g.id, 1)).state.last_move, 'e2e4');
    c.close();
    mover.close();
  },

  async 'many games on one connection, one HTTP move seen on WebSocket'() {
    const games = await Promise.all([1, 2, 3, 4, 5].map(() => friendGame()));
    const c = await WsClient.open();
    for (const g of games) c.send({ type: 'subscribe', game: g.id });
    for (const g of games) await c.state(g.id, 0);
    const g = games[2];
    expectOk(await api('POST', `/api/games/${g.id}/move`, { secret: g.white, ply: 0, move: 'c4' }), 'HTTP move');
    assert.equal((await c.state(g.id, 1)).state.last_move, 'c2c4');
    c.close();
  },
});
