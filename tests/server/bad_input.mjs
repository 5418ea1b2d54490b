// Every bad input of docs/api.md: the right status and JSON error, the game unchanged, the server alive.
import net from 'node:net';
import { api, assert, BASE, expectError, expectOk, friendGame, getState, playMoves, runTests, WsClient } from './lib.mjs';

// Sends raw bytes on a fresh TCP connection and collects what comes back until the server closes
// or the answer holds a complete response head and body of the given Content-Length.
function raw(bytes, { endAfterWrite = false } = {}) {
  const url = new URL(BASE);
  return new Promise((resolve) => {
    const sock = net.connect(Number(url.port), url.hostname);
    let data = '';
    const finish = () => { sock.destroy(); resolve(data); };
    sock.on('data', (d) => {
      data += d.toString('latin1');
      const m = /\r\n\r\n/.exec(data);
      const len = /content-length: *(\d+)/i.exec(data);
      if (m && len && data.length >= m.index + 4 + Number(len[1])) finish();
    });
    sock.on('close', finish);
    sock.on('error', finish);
    sock.setTimeout(15000, finish);
    sock.write(bytes, () => { if (endAfterWrite) sock.end(); });
  });
}

const alive = async () => expectOk(await api('GET', '/api/recent'), 'server still answers');

await runTests({
  async 'bad JSON, bad members, oversized bodies'() {
    expectError(await api('POST', '/api/games', '{"mode":'), 400, 'bad_json', 'truncated JSON');
    expectError(await api('POST', '/api/games', '[1,2]'), 400, 'bad_json', 'an array');
    expectError(await api('POST', '/api/games', ''), 400, 'bad_json', 'empty body');
    expectError(await api('POST', '/api/games', '\xff\xfe'), 400, 'bad_json', 'not UTF-8 JSON');
    expectError(await api('POST', '/api/games', { mode: 'chaos', color: 'white', time: { type: 'none' } }), 400,
      'bad_request', 'unknown mode');
    expectError(await api('POST', '/api/games', { mode: 'friend', color: 7, time: { type: 'none' } }), 400,
      'bad_request', 'color of the wrong type');
    const big = JSON.stringify({ mode: 'friend', color: 'white', time: { type: 'none' }, pad: 'x'.repeat(17000) });
    expectError(await api('POST', '/api/games', big), 413, 'too_large', 'body over 16 KiB');
    // A declared length far beyond the limit is refused without reading it.
    const head = await raw('POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      'Content-Length: 100000000\r\n\r\n{"mode":');
    assert.match(head, /^HTTP\/1\.1 413/, head);
    assert.match(head, /"too_large"/);
    await alive();
  },

  async 'unknown paths, games and methods'() {
    expectError(await api('GET', '/api/nothing'), 404, 'not_found', 'unknown API path');
    expectError(await api('GET', '/api/games/AAAAAAAAAAAA'), 404, 'not_found', 'unknown game');
    expectError(await api('GET', '/api/games/%2e%2e%2fetc'), 404, 'not_found', 'not a game id');
    expectError(await api('POST', '/api/games/AAAAAAAAAAAA/move', { secret: 'x', ply: 0, move: 'e4' }), 404,
      'not_found', 'move in an unknown game');
    const g = await friendGame();
    expectError(await api('GET', `/api/games/${g.id}/fly`), 404, 'not_found', 'unknown verb');
    expectError(await api('GET', `/api/games/${g.id}/move`), 405, 'method_not_allowed', 'GET of move');
    expectError(await api('POST', `/api/games/${g.id}`, {}), 405, 'method_not_allowed', 'POST of state');
    expectError(await api('DELETE', '/api/games'), 405, 'method_not_allowed', 'DELETE');
    expectError(await api('PUT', '/api/recent', {}), 405, 'method_not_allowed', 'PUT');
    await alive();
  },

  async 'secrets, turns, legality, ply, the end of the game'() {
    const g = await friendGame();
    await playMoves(g, ['e4', 'e5']);
    const before = await getState(g.id);
    const move = (body, q = '', headers = {}) => api('POST', `/api/games/${g.id}/move${q}`, body, { headers });

    expectError(await move({ ply: 2, move: 'Nf3' }), 403, 'bad_secret', 'missing secret');
    expectError(await move({ secret: 'A'.repeat(43), ply: 2, move: 'Nf3' }), 403, 'bad_secret', 'wrong secret');
    expectError(await move({ secret: g.black, ply: 2, move: 'Nc6' }), 409, 'not_your_turn', 'out of turn');
    expectError(await move({ secret: g.white, ply: 2 }), 400, 'bad_request', 'no move');
    expectError(await move({ secret: g.white, ply: 'two', move: 'Nf3' }), 400, 'bad_request', 'ply a string');
    expectError(await move({ secret: g.white, ply: 1, move: 'Nf3' }), 409, 'stale_ply', 'stale ply');
    expectError(await move({ secret: g.white, ply: 7, move: 'Nf3' }), 409, 'stale_ply', 'future ply');
    expectError(await api('POST', `/api/games/${g.id}/draw`, { secret: g.white, action: 'accept' }), 409, 'no_offer',
      'accept without an offer');
    expectError(await api('POST', `/api/games/${g.id}/claim`, { secret: g.white, kind: 'threefold' }), 409,
      'no_claim', 'claim without repetition');
    expectError(await api('POST', `/api/games/${g.id}/join`, { invite: g.invite }), 403, 'bad_invite', 'spent invite');
    expectError(await api('POST', `/api/games/${g.id}/join`, { invite: 'nope' }), 403, 'bad_invite', 'wrong invite');

    // Illegal moves are explained in the asked language: ?lang wins over the body and the header.
    const en = expectError(await move({ secret: g.white, ply: 2, move: 'Ke3' }), 422, 'illegal_move', 'illegal');
    const de = expectError(await move({ secret: g.white, ply: 2, move: 'Ke3' }, '?lang=de'), 422, 'illegal_move',
      'illegal, ?lang=de');
    assert.notEqual(de.message, en.message, 'German differs from English');
    const hdr = expectError(await move({ secret: g.white, ply: 2, move: 'Ke3' }, '', { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' }),
      422, 'illegal_move', 'illegal, Accept-Language de');
    assert.equal(hdr.message, de.message);
    const body = expectError(await move({ secret: g.white, ply: 2, move: 'Ke3', lang: 'de' }, '', { 'accept-language': 'en' }),
      422, 'illegal_move', 'illegal, body lang de');
    assert.equal(body.message, de.message, 'the body\'s lang beats Accept-Language');
    const query = expectError(await move({ secret: g.white, ply: 2, move: 'Ke3', lang: 'de' }, '?lang=en'),
      422, 'illegal_move', 'illegal, ?lang=en and body lang de');
    assert.equal(query.message, en.message, '?lang beats the body');
    expectError(await move({ secret: g.white, ply: 2, move: 'Qxf9' }, '?lang=de'), 422, 'illegal_move', 'no such square');

    assert.deepEqual(await getState(g.id), before, 'no error changed the game');

    // A repeated submission is acknowledged once more but not played twice.
    const first = expectOk(await move({ secret: g.white, ply: 2, move: 'Nf3' }), 'Nf3');
    const again = expectOk(await move({ secret: g.white, ply: 2, move: 'Nf3' }), 'Nf3 again');
    assert.equal(again.duplicate, true);
    assert.equal(again.state.ply, 3);
    assert.deepEqual(again.state.moves, first.state.moves);
    expectError(await move({ secret: g.white, ply: 2, move: 'Nc3' }), 409, 'stale_ply', 'another move at the old ply');

    expectOk(await api('POST', `/api/games/${g.id}/resign`, { secret: g.black }), 'resign');
    const ended = await getState(g.id);
    expectError(await move({ secret: g.black, ply: 3, move: 'Nc6' }), 409, 'game_over', 'move after the end');
    expectError(await api('POST', `/api/games/${g.id}/resign`, { secret: g.white }), 409, 'game_over', 'resign after the end');
    assert.deepEqual(await getState(g.id), ended);
    await alive();
  },

  async 'malformed HTTP'() {
    for (const bytes of ['GARBAGE\r\n\r\n', 'GET /api/recent HTTP/9.9\r\n\r\n', '\x00\x01\x02\x03\r\n\r\n',
      `GET /${'a'.repeat(20000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      'POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n',
      'POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n{"mode"']) {
      const answer = await raw(bytes, { endAfterWrite: true });
      assert.ok(!/^HTTP\/1\.1 2/.test(answer), `no success for ${JSON.stringify(bytes.slice(0, 40))}: ${answer.slice(0, 80)}`);
      await alive();
    }
  },

  async 'bad WebSocket messages'() {
    const g = await friendGame();
    const c = await WsClient.open();
    c.send('{"type":');
    assert.equal((await c.next((m) => m.type === 'error', 'bad JSON')).error.code, 'bad_json');
    c.send('[1]');
    assert.equal((await c.next((m) => m.type === 'error', 'array')).error.code, 'bad_json');
    c.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    assert.equal((await c.next((m) => m.type === 'error', 'binary')).error.code, 'bad_json');
    c.send({ type: 'fly', id: 1 });
    assert.equal((await c.reply(1)).error.code, 'bad_request');
    c.send({ id: 2 });
    assert.equal((await c.reply(2)).error.code, 'bad_request');
    c.send({ type: 'subscribe', game: 'AAAAAAAAAAAA', id: 3 });
    assert.equal((await c.reply(3)).error.code, 'not_found');
    c.send({ type: 'subscribe', id: 4 });
    assert.equal((await c.reply(4)).error.code, 'bad_request');
    c.send({ type: 'move', game: g.id, secret: 'nope', ply: 0, move: 'e4', id: 5 });
    assert.equal((await c.reply(5)).error.code, 'bad_secret');
    c.send({ type: 'move', game: g.id, secret: g.white, ply: 0, move: 'e5', id: 6 });
    assert.equal((await c.reply(6)).error.code, 'illegal_move');
    c.send({ type: 'move', game: g.id, secret: g.white, ply: 0, id: 7 });
    assert.equal((await c.reply(7)).error.code, 'bad_request');
    // A message in three fragments is put together again.
    const msg = Buffer.from(JSON.stringify({ type: 'ping', id: 'frag', pad: 'y'.repeat(9000) }));
    c.ws.send(msg.subarray(0, 10), { binary: false, fin: false });
    c.ws.send(msg.subarray(10, 5000), { binary: false, fin: false });
    c.ws.send(msg.subarray(5000), { binary: false, fin: true });
    assert.deepEqual(await c.reply('frag'), { type: 'pong', id: 'frag' });
    assert.deepEqual(await getState(g.id).then((s) => s.ply), 0, 'no error changed the game');

    // Over 16 KiB: an error, then the server closes the connection.
    c.send(JSON.stringify({ type: 'ping', id: 'big', pad: 'z'.repeat(17000) }));
    assert.equal((await c.next((m) => m.type === 'error', 'too large')).error.code, 'too_large');
    assert.equal(await c.closed('after too large'), 1009);
    // The same in fragments that only together exceed the limit.
    const d = await WsClient.open();
    const part = Buffer.from('x'.repeat(6000));
    d.ws.send(part, { binary: false, fin: false });
    d.ws.send(part, { binary: false, fin: false });
    d.ws.send(part, { binary: false, fin: false });
    d.ws.send(part, { binary: false, fin: true });
    assert.equal((await d.next((m) => m.type === 'error', 'fragments too large')).error.code, 'too_large');
    await d.closed('after fragments too large');
    // WebSocket only on /ws.
    await assert.rejects(WsClient.open('/elsewhere'), 'WebSocket on another path');
    // German errors when the connection asks for them.
    const e = await WsClient.open('/ws?lang=de');
    const f = await WsClient.open('/ws', ['schach'], { headers: { 'accept-language': 'de' } });
    e.send({ type: 'move', game: g.id, secret: g.white, ply: 0, move: 'e5', id: 8 });
    f.send({ type: 'move', game: g.id, secret: g.white, ply: 0, move: 'e5', id: 9 });
    const en = expectError(await api('POST', `/api/games/${g.id}/move`, { secret: g.white, ply: 0, move: 'e5' }), 422,
      'illegal_move', 'English');
    const m8 = await e.reply(8), m9 = await f.reply(9);
    assert.notEqual(m8.error.message, en.message);
    assert.equal(m9.error.message, m8.error.message);
    e.close();
    f.close();
    await alive();
  },
});
