// The game actions' one table (ServiceVerb in src/server/service/service.h, the rows read here from
// service_verbs.c): every verb is reached over HTTP with its method and refused with the other, and
// over the WebSocket when the table says so (an unknown message type when not). One body reaches the
// service the same way over both: the same answer, to the error's words, whether it came as an HTTP
// body or as a WebSocket message. Wrong-typed members of a WebSocket message are refused as always.
import fs from 'node:fs';
import { api, assert, expectError, expectOk, friendGame, getState, runTests, WsClient } from './lib.mjs';

const source = fs.readFileSync(new URL('../../src/server/service/service_verbs.c', import.meta.url), 'utf8');
const VERBS = [...source.matchAll(/\{"(\w+)",\s*ACTION_(\w+),\s*(true|false),\s*(true|false)\}/g)]
  .map(([, name, action, change, websocket]) => ({ name, action, change: change === 'true', websocket: websocket === 'true' }));

let nextId = 1;

// Sends msg (with a fresh id) and waits for its ack or error.
async function request(client, msg) {
  const id = `v${nextId++}`;
  client.send({ ...msg, id });
  const reply = await client.reply(id, `${msg.type} ${JSON.stringify(msg)}`);
  delete reply.id;
  return reply;
}

// The error of an HTTP POST of body to the verb, as a WebSocket error message would carry it.
async function httpError(id, verb, body) {
  const r = await api('POST', `/api/games/${id}/${verb}`, body);
  assert.ok(r.status >= 400 && r.json && r.json.error, `${verb} ${JSON.stringify(body)}: ${r.status} ${r.text}`);
  return { type: 'error', error: r.json.error };
}

await runTests({
  async 'the table is read'() {
    assert.ok(VERBS.length >= 9, `verbs found in service_verbs.c: ${JSON.stringify(VERBS)}`);
    const names = VERBS.map((v) => v.name);
    assert.equal(new Set(names).size, names.length, 'each verb once');
    for (const name of ['join', 'move', 'draw', 'claim', 'resign', 'abort', 'rematch', 'pgn', 'positions'])
      assert.ok(names.includes(name), `${name} is a verb`);
    for (const v of VERBS) assert.ok(v.change || !v.websocket, `${v.name}: only changes go over the WebSocket`);
  },

  async 'every verb over HTTP with its method, refused with the other'() {
    const g = await friendGame();
    for (const v of VERBS) {
      const path = `/api/games/${g.id}/${v.name}`;
      if (v.change) {
        // The service answers: it is not a JSON object (a refusal of the route would be 404 or 405).
        expectError(await api('POST', path, '[1]'), 400, 'bad_json', `POST ${v.name}`);
        for (const method of ['GET', 'HEAD']) {
          const r = await api(method, path);
          assert.equal(r.status, 405, `${method} ${v.name}`);
          assert.equal(r.headers.get('allow'), 'GET, HEAD, POST', `${method} ${v.name}: allow`);
        }
        if (v.name !== 'join')
          expectError(await api('GET', path), 405, 'method_not_allowed', `GET ${v.name}`);
      } else {
        assert.equal((await api('GET', path)).status, 200, `GET ${v.name}`);
        assert.equal((await api('HEAD', path)).status, 200, `HEAD ${v.name}`);
        expectError(await api('POST', path, {}), 405, 'method_not_allowed', `POST ${v.name}`);
      }
    }
    expectError(await api('POST', `/api/games/${g.id}/fly`, {}), 404, 'not_found', 'no such verb');
    expectError(await api('GET', `/api/games/${g.id}/fly`), 404, 'not_found', 'no such verb');
    expectError(await api('POST', `/api/games/${g.id}/Move`, {}), 404, 'not_found', 'verbs are lower case');
    assert.equal((await getState(g.id)).ply, 0, 'nothing changed the game');
  },

  async 'every WebSocket verb is a message type, the others are not'() {
    const g = await friendGame();
    const c = await WsClient.open();
    const unknownType = await request(c, { type: 'fly', game: g.id });
    assert.equal(unknownType.error.code, 'bad_request');
    for (const v of VERBS) {
      const got = await request(c, { type: v.name, game: g.id, bogus: 1 });
      if (v.websocket)
        assert.deepEqual(got, await httpError(g.id, v.name, { bogus: 1 }), `${v.name}: the service's answer`);
      else
        assert.deepEqual(got, unknownType, `${v.name}: no message type`);
    }
    assert.equal((await getState(g.id)).ply, 0, 'nothing changed the game');
    c.close();
  },

  async 'one body, the same answer over HTTP and WebSocket'() {
    const g = await friendGame();
    const c = await WsClient.open();
    const s = g.white;
    const bodies = {
      move: [
        { secret: 5, ply: 0, move: 'e4' }, { secret: s, ply: '0', move: 'e4' }, { secret: s, ply: 0.5, move: 'e4' },
        { secret: s, ply: 0, move: ['e4'] }, { secret: s, ply: 0, move: null }, { secret: s, ply: 0, move: 'e4', claim: 'x' },
        { secret: s, ply: 0, move: 'e4', claim: 5 }, { secret: s, ply: 0, move: 'e4', lang: 5 },
        { secret: s, ply: 0, move: 'e4', lang: 'fr' }, { lang: 'de', secret: s, ply: '0', move: 'e4' },
        { secret: s, ply: 0, move: 'e4', colour: 'white' }, { secret: s, ply: 0 }, { secret: s, move: 'e4' },
        { secret: s, ply: 0, move: 'e5' }, { secret: s, ply: 0, move: 'e5', lang: 'de' },
        { secret: g.black, ply: 0, move: 'e5' }, { secret: 'x'.repeat(43), ply: 0, move: 'e4' },
        { secret: s, ply: 7, move: 'e4' }, { secret: s, ply: 0, move: 'e4', nested: { a: [1, { b: 2.5 }] } },
        { secret: s, ply: 0, move: 'é'.repeat(100) },
      ],
      draw: [{ secret: s, action: 5 }, { secret: s, action: 'maybe' }, { secret: s }, { secret: s, action: 'accept' }],
      claim: [{ secret: s, kind: 5 }, { secret: s, kind: 'yes' }, { secret: s }, { secret: s, kind: 'any', lang: 'de' }],
      resign: [{ secret: [s] }, { secret: s, extra: true }, {}],
      abort: [{ secret: {} }, { secret: s, ply: 0 }],
      rematch: [{ secret: s }, { secret: s, action: 7 }, { secret: s, action: 'yes' }],
    };
    for (const [verb, list] of Object.entries(bodies)) {
      assert.ok(VERBS.find((v) => v.name === verb)?.websocket, `${verb} is a WebSocket verb`);
      for (const body of list) {
        const overHttp = await httpError(g.id, verb, body);
        const overWs = await request(c, { type: verb, game: g.id, ...body });
        assert.deepEqual(overWs, overHttp, `${verb} ${JSON.stringify(body)}`);
      }
    }
    // As text: numbers JavaScript would write otherwise (a whole number as a real, an exponent).
    for (const members of ['"ply":0.0,"move":"e4"', '"ply":1e0,"move":"e4"', '"ply":0,"move":"e4","x":1E+2',
      '"move":"e4","ply":-0,"claim":"no"', '"ply":0,"move":"\\u0065\\u0034","lang":"d\\u0065","x":0']) {
      const body = `{"secret":"${s}",${members}}`;
      const overHttp = await httpError(g.id, 'move', body);
      const id = `v${nextId++}`;
      c.send(`{"type":"move","game":"${g.id}","id":"${id}",${body.slice(1)}`);
      const overWs = await c.reply(id, body);
      delete overWs.id;
      assert.deepEqual(overWs, overHttp, body);
    }
    assert.equal((await getState(g.id)).ply, 0, 'no error changed the game');
    c.close();
  },

  async 'a move over WebSocket and over HTTP'() {
    const a = await friendGame();
    const b = await friendGame();
    const c = await WsClient.open();
    const overHttp = expectOk(await api('POST', `/api/games/${a.id}/move`, { secret: a.white, ply: 0, move: 'e4' }), 'HTTP move');
    const ack = await request(c, { type: 'move', game: b.id, secret: b.white, ply: 0, move: 'e4' });
    assert.deepEqual(ack, { type: 'ack', game: b.id, ply: 1 });
    assert.equal(overHttp.state.ply, 1);
    // The same entries but "at" (when each game's move was played: two games, two times).
    const entries = (moves) => moves.map(({ at, ...rest }) => (assert.equal(typeof at, 'number'), rest));
    assert.deepEqual(entries((await getState(b.id)).moves), entries(overHttp.state.moves));
    // The same move again: a repeat over both.
    const again = expectOk(await api('POST', `/api/games/${a.id}/move`, { secret: a.white, ply: 0, move: 'e4' }), 'again');
    assert.equal(again.duplicate, true);
    assert.deepEqual(await request(c, { type: 'move', game: b.id, secret: b.white, ply: 0, move: 'e4' }),
      { type: 'ack', game: b.id, ply: 1, duplicate: true });
    c.close();
  },

  async 'wrong-typed members of a WebSocket message are refused as before'() {
    const g = await friendGame();
    const c = await WsClient.open();
    const move = { type: 'move', game: g.id, secret: g.white, ply: 0, move: 'e4' };
    const refused = (message, code = 'bad_request') => ({ type: 'error', error: { code, message } });
    assert.deepEqual(await request(c, { ...move, ply: '0' }), refused("The member 'ply' must be a whole number."));
    c.send(`{"type":"move","game":"${g.id}","secret":"${g.white}","ply":0.0,"move":"e4","id":"real"}`);
    assert.deepEqual(await c.reply('real'), { ...refused("The member 'ply' must be a whole number."), id: 'real' });
    assert.deepEqual(await request(c, { ...move, secret: 5 }), refused("The member 'secret' must be a string."));
    assert.deepEqual(await request(c, { ...move, move: ['e4'] }), refused("The member 'move' must be a string."));
    assert.deepEqual(await request(c, { ...move, claim: true }), refused("The member 'claim' must be a string."));
    assert.deepEqual(await request(c, { ...move, lang: 5 }), refused("The member 'lang' must be a string."));
    assert.deepEqual(await request(c, { ...move, lang: 'de', ply: '0' }),
      refused('Das Feld „ply“ muss eine ganze Zahl sein.'));
    assert.deepEqual(await request(c, { type: 'draw', game: g.id, secret: g.white, action: 1 }),
      refused("The member 'action' must be a string."));
    assert.deepEqual(await request(c, { type: 'resign', game: g.id, secret: null }),
      refused("The member 'secret' must be a string."));
    assert.deepEqual(await request(c, { type: 'rematch', game: g.id, secret: g.white, action: [] }),
      refused("The member 'action' must be a string."));
    // The envelope: a game that is no string is missing, a type that is no string is unknown.
    const noGame = await request(c, { ...move, game: 5 });
    assert.deepEqual(noGame, await request(c, { ...move, game: undefined }));
    assert.equal(noGame.error.code, 'bad_request');
    const noType = await request(c, { ...move, type: 5 });
    assert.deepEqual(noType, await request(c, { ...move, type: 'fly' }));
    // Numbers that are longer as JSON text than as sent (1e9 is 1000000000.0): the body without the
    // envelope is over 16 KiB as text, and that is refused; the connection stays open.
    const numbers = [];
    while (JSON.stringify({ ...move, id: 'v00000', n: numbers }).length < 15000) numbers.push(1e9);
    const text = JSON.stringify({ ...move, id: 'big', n: numbers }).replaceAll('1000000000', '1e9');
    assert.ok(text.length < 16 * 1024, 'the message itself is within the limit');
    c.send(text);
    assert.deepEqual(await c.reply('big'),
      { type: 'error', id: 'big', error: { code: 'too_large', message: 'The request is larger than 16 KiB.' } });
    // Under the limit as text: the numbers are an unknown member.
    c.send(text.replace(/(1e9,){1000}/, ''));
    assert.deepEqual(await c.reply('big'), { ...refused("The member 'n' is not known here."), id: 'big' });
    assert.equal((await getState(g.id)).ply, 0, 'no error changed the game');
    c.close();
  },

  async "an HTTP body's lang under ?lang= is refused as before"() {
    const g = await friendGame();
    const path = `/api/games/${g.id}/move?lang=de`;
    const refused = (message, code = 'bad_request') => ({ code, message });
    // The query's language replaces the body's, whatever the body said.
    for (const lang of ['fr', 5, null, 'en'])
      assert.deepEqual(expectError(await api('POST', path, { lang, secret: 5, ply: 0, move: 'e4' }), 400, 'bad_request'),
        refused('Das Feld „secret“ muss eine Zeichenkette sein.'), `lang ${lang}`);
    // Without "lang" in the body the body is taken as it came: a repeated member is refused...
    const twice = `{"secret":"${g.white}","secret":5,"ply":0,"move":"e4"}`;
    expectError(await api('POST', path, twice), 400, 'bad_json', 'a member twice');
    // ... with "lang" it is read as the query's language asks, the last of the two members counting.
    assert.deepEqual(expectError(await api('POST', path, twice.replace('{', '{"lang":"en",')), 400, 'bad_request'),
      refused('Das Feld „secret“ muss eine Zeichenkette sein.'), 'a member twice, with lang');
    // Numbers longer as JSON text than as sent: over 16 KiB as the service reads the body.
    const numbers = [];
    while (JSON.stringify({ lang: 'en', secret: g.white, ply: 0, move: 'e4', n: numbers }).length < 15000) numbers.push(1e9);
    const big = JSON.stringify({ lang: 'en', secret: g.white, ply: 0, move: 'e4', n: numbers }).replaceAll('1000000000', '1e9');
    assert.deepEqual(expectError(await api('POST', path, big), 413, 'too_large'),
      refused('Die Anfrage ist größer als 16 KiB.', 'too_large'), 'too large as read');
    expectError(await api('POST', path, big.replace('"lang":"en",', '')), 400, 'bad_request', 'as sent');
    assert.equal((await getState(g.id)).ply, 0, 'no error changed the game');
  },
});
