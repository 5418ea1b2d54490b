// Games against the computer (driven by tests/cli/server_computer.sh):
//   (no command)  levels, create errors, a game played over WebSocket with the computer's replies,
//                 a spectator, the PGN's names, and the computer's first move when the person is black
//   hold FILE     (server with SCHACH_COMPUTER_DELAY_MS: the computer holds back) a move by the person
//                 is acknowledged, the computer is to move; the game is saved to FILE
//   resume FILE   (after kill -9 and a restart without the delay) the computer moves in that game
import fs from 'node:fs';
import { api, assert, expectError, expectOk, getState, runTests, WsClient } from './lib.mjs';

let nextId = 1;

async function request(client, msg) {
  const id = nextId++;
  client.send({ ...msg, id });
  return client.reply(id, `${msg.type} ${msg.move || ''}`);
}

// The first legal move of a state as UCI (a queen for a promotion): the person's moves must not
// depend on what the engine played.
function firstLegal(state) {
  const [from, targets] = Object.entries(state.legal)[0];
  const uci = from + targets[0];
  return state.promotions.includes(uci) ? uci + 'q' : uci;
}

async function createComputerGame(body) {
  const created = expectOk(await api('POST', '/api/games', { mode: 'computer', ...body }), 'create', 201);
  assert.equal(created.invite, null, 'no invitation against the computer');
  assert.equal(created.secrets, undefined);
  assert.equal(created.state.mode, 'computer');
  return created;
}

const [cmd, file] = process.argv.slice(2);

if (cmd === 'hold') {
  const created = await createComputerGame({ level: 'club', color: 'white' });
  const r = expectOk(await api('POST', `/api/games/${created.id}/move`, { secret: created.secret, ply: 0, move: 'e4' }),
    'move');
  assert.equal(r.state.ply, 1);
  assert.equal(r.state.turn, 'black');
  fs.writeFileSync(file, JSON.stringify({ id: created.id, secret: created.secret }));
  console.log('ok   computer hold');
} else if (cmd === 'resume') {
  const g = JSON.parse(fs.readFileSync(file, 'utf8'));
  const ws = await WsClient.open();
  ws.send({ type: 'subscribe', game: g.id });
  const s = await ws.state(g.id, 2, 'the computer moves after the restart');
  assert.equal(s.state.turn, 'white');
  assert.equal(s.state.moves[0].uci, 'e2e4');
  ws.close();
  console.log('ok   computer resume');
} else {
  await runTests({
    async 'levels with English and German names'() {
      const r = expectOk(await api('GET', '/api/levels'), 'levels');
      const ids = r.levels.map((l) => l.id);
      assert.ok(ids.includes('beginner') && ids.includes('max'), `levels ${ids}`);
      for (const l of r.levels) {
        assert.equal(typeof l.name, 'string');
        assert.equal(typeof l.name_de, 'string');
        assert.equal(typeof l.elo, 'number');
      }
      expectError(await api('POST', '/api/levels', {}), 405, 'method_not_allowed', 'POST levels');
    },

    async 'bad levels are refused in the user language'() {
      let e = expectError(await api('POST', '/api/games', { mode: 'computer', level: 'godlike' }), 422, 'unknown_level',
        'unknown level');
      assert.match(e.message, /godlike/);
      e = expectError(await api('POST', '/api/games?lang=de', { mode: 'computer', level: 'godlike' }), 422,
        'unknown_level', 'unknown level, German');
      assert.match(e.message, /Computerstufe/);
      expectError(await api('POST', '/api/games', { mode: 'computer' }), 400, 'bad_request', 'no level');
      expectError(await api('POST', '/api/games', { mode: 'friend', level: 'club' }), 400, 'bad_request',
        'level in a friend game');
    },

    async 'the computer answers moves over WebSocket; a spectator sees them'() {
      const g = await createComputerGame({ level: 'beginner', color: 'white', time: { type: 'none' } });
      assert.deepEqual(g.state.players, { white: true, black: false });
      assert.equal(g.state.computer.color, 'black');
      assert.equal(g.state.computer.level, 'beginner');
      const me = await WsClient.open();
      const spectator = await WsClient.open();
      for (const c of [me, spectator]) {
        c.send({ type: 'subscribe', game: g.id });
        await c.state(g.id, 0);
      }
      let state = g.state;
      for (let ply = 0; ply < 6; ply += 2) {
        const move = firstLegal(state);
        const ack = await request(me, { type: 'move', game: g.id, secret: g.secret, ply, move });
        assert.equal(ack.type, 'ack', `move ${move}: ${JSON.stringify(ack)}`);
        await me.state(g.id, ply + 1);
        const reply = await me.state(g.id, ply + 2, `the computer's reply at ply ${ply + 1}`);
        state = reply.state;
        if (state.outcome) break;
        assert.equal(state.turn, 'white');
        await spectator.state(g.id, ply + 2, 'the spectator sees the reply');
      }
      const pgn = await api('GET', `/api/games/${g.id}/pgn?lang=en`);
      assert.equal(pgn.status, 200);
      assert.match(pgn.text, /\[Black "schach \(Beginner\)"\]/);
      assert.match(pgn.text, /\[ComputerLevel "beginner"\]/);
      const pgnDe = await api('GET', `/api/games/${g.id}/pgn?lang=de`);
      assert.match(pgnDe.text, /\[Black "schach \(Anfänger\)"\]/);
      if (!state.outcome) {
        const resigned = await request(me, { type: 'resign', game: g.id, secret: g.secret });
        assert.equal(resigned.type, 'ack');
        const end = await getState(g.id);
        assert.deepEqual(end.outcome, {
          result: '0-1', termination: 'resignation', winner: 'black', reason: null,
          text: 'White resigns – Black wins 0-1', text_de: 'Weiß gibt auf – Schwarz gewinnt 0:1',
        });
      }
      me.close();
      spectator.close();
    },

    async 'playing black against a live clock: the computer opens, the person may abort'() {
      const g = await createComputerGame({ level: 'novice', color: 'black', time: { type: 'live', minutes: 3, increment: 2 } });
      assert.equal(g.color, 'black');
      const ws = await WsClient.open();
      ws.send({ type: 'subscribe', game: g.id });
      const s = await ws.state(g.id, 1, 'the computer opens');
      assert.equal(s.state.turn, 'black');
      assert.equal(s.state.can_abort, true);
      assert.equal(s.state.clock.running, null, 'the clock starts once both have moved');
      const ack = await request(ws, { type: 'abort', game: g.id, secret: g.secret });
      assert.equal(ack.type, 'ack');
      const end = await getState(g.id);
      assert.equal(end.outcome.termination, 'aborted');
      const list = expectOk(await api('GET', `/api/games?ids=${g.id}`), 'list');
      assert.equal(list.games[0].mode, 'computer');
      assert.equal(list.games[0].level, 'novice');
      ws.close();
    },
  });
}
