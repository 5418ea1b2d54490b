// The game service's defects of issue 10 (item 8), each seen failing on the server from before:
//   - a negative (or otherwise out-of-range) time member was accepted: time_parse took -1 for "absent";
//   - joining with a bad invitation while a change of the game was being committed answered 409 busy
//     instead of 403 bad_invite (the invitation is checked first now);
//   - a finished game could still be joined (now 409 game_over, and nothing is stored).
import { api, assert, expectError, expectOk, friendGame, getState, OPERA, runTests, WsClient } from './lib.mjs';

const create = (body) => api('POST', '/api/games', body);

await runTests({
  async 'every negative or out-of-range time member is refused, naming it'() {
    const bad = [
      [{ type: 'live', minutes: 5, increment: -1 }, 'time.increment'],
      [{ type: 'live', minutes: 5, increment: -5 }, 'time.increment'],
      [{ type: 'live', minutes: 5, increment: 181 }, 'time.increment'],
      [{ type: 'live', minutes: -1 }, 'time.minutes'],
      [{ type: 'live', minutes: 0 }, 'time.minutes'],
      [{ type: 'live', minutes: 181 }, 'time.minutes'],
      [{ type: 'live', minutes: 5, days: -1 }, 'time.days'],
      [{ type: 'none', increment: -1 }, 'time.increment'],
      [{ type: 'none', minutes: -1 }, 'time.minutes'],
      [{ type: 'none', days: -1 }, 'time.days'],
      [{ type: 'correspondence', days: 3, minutes: -1 }, 'time.minutes'],
      [{ type: 'correspondence', days: 3, increment: -1 }, 'time.increment'],
      [{ type: 'correspondence', days: -3 }, 'time.days'],
      [{ type: 'correspondence', days: 31 }, 'time.days'],
    ];
    for (const [time, member] of bad) {
      const err = expectError(await create({ mode: 'local', time }), 400, 'bad_request', JSON.stringify(time));
      assert.ok(err.message.includes(member), `${JSON.stringify(time)}: message names ${member}: ${err.message}`);
    }
    // The lower and upper ends of each range are fine.
    for (const time of [{ type: 'live', minutes: 1, increment: 0 }, { type: 'live', minutes: 180, increment: 180 },
      { type: 'correspondence', days: 1 }, { type: 'correspondence', days: 30 }]) {
      const state = expectOk(await create({ mode: 'local', time }), JSON.stringify(time), 201).state;
      assert.equal(state.time.type, time.type);
    }
  },

  async 'a bad invitation is refused with 403 also while a change is being committed'() {
    // A local game has no invitation at all: every join is a bad one. Moves over the WebSocket keep a
    // change in flight while joins arrive over HTTP; not one of them may hear "busy".
    const created = expectOk(await create({ mode: 'local' }), 'create', 201);
    const g = { id: created.id, white: created.secrets.white, black: created.secrets.black };
    const ws = await WsClient.open();
    const statuses = {};
    for (let ply = 0; ply < 24; ply++) {
      const secret = ply % 2 ? g.black : g.white;
      ws.send({ type: 'move', game: g.id, secret, ply, move: OPERA[ply], id: ply });
      const joins = await Promise.all(Array.from({ length: 4 },
        () => api('POST', `/api/games/${g.id}/join`, { invite: 'x'.repeat(43) })));
      for (const r of joins) {
        const key = `${r.status} ${r.json && r.json.error && r.json.error.code}`;
        statuses[key] = (statuses[key] || 0) + 1;
      }
      const ack = await ws.reply(ply, `ack of ply ${ply}`);
      assert.equal(ack.type, 'ack', JSON.stringify(ack));
    }
    ws.close();
    assert.deepEqual(statuses, { '403 bad_invite': 96 }, `answers to bad joins: ${JSON.stringify(statuses)}`);
  },

  async 'a finished game cannot be joined, and the refusal changes nothing'() {
    const created = expectOk(await create({ mode: 'friend', color: 'white' }), 'create', 201);
    expectOk(await api('POST', `/api/games/${created.id}/abort`, { secret: created.secret }), 'abort');
    const before = await getState(created.id);
    expectError(await api('POST', `/api/games/${created.id}/join`, { invite: created.invite }), 409, 'game_over',
      'join of an aborted game');
    const after = await getState(created.id);
    assert.deepEqual(after, before, 'the refused join changed the game');
    assert.equal(after.players.black, false);
    // A game that ended by resignation before anybody joined: the same.
    const g = expectOk(await create({ mode: 'friend', color: 'black' }), 'create', 201);
    expectOk(await api('POST', `/api/games/${g.id}/resign`, { secret: g.secret }), 'resign');
    expectError(await api('POST', `/api/games/${g.id}/join`, { invite: g.invite, lang: 'de' }), 409, 'game_over',
      'join of a resigned game');
    assert.equal((await getState(g.id)).players.white, false);
    // A bad invitation for a finished game is still just a bad invitation.
    expectError(await api('POST', `/api/games/${g.id}/join`, { invite: 'y'.repeat(43) }), 403, 'bad_invite',
      'bad join of a finished game');
  },

  async 'joining a game in play still works'() {
    const g = await friendGame();
    expectError(await api('POST', `/api/games/${g.id}/join`, { invite: g.invite }), 403, 'bad_invite', 'spent invite');
  },
});
