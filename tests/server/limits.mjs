// Limits per client address (docs/api.md "Limits"). LIMITS=on: the server runs with
//   --max-games-per-minute 3 --max-requests-per-minute 40 --max-connections-per-address 5
//   --max-subscriptions 2 --trust-proxy 127.0.0.8
// and every client over a limit gets 429 (Retry-After, JSON error in its language) or a closed
// connection while other addresses (other loopback sources: 127.0.0.x) are still served.
// LIMITS=off: the server runs with --no-limits and nobody gets 429.
import http from 'node:http';
import net from 'node:net';
import { assert, BASE, runTests, WsClient } from './lib.mjs';

const url = new URL(BASE);
const GAME = { mode: 'friend', color: 'white', time: { type: 'none' } };

// One request from a chosen loopback source address, on a connection of its own.
function req(method, path, { body, from = '127.0.0.1', headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const r = http.request({ host: url.hostname, port: url.port, method, path, localAddress: from, agent: false,
      headers: { ...headers, ...(data ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } : {}) } },
    (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => {
        let json = null;
        try { json = JSON.parse(text); } catch { /* not JSON */ }
        resolve({ status: res.statusCode, headers: res.headers, json, text });
      });
    });
    r.on('error', reject);
    if (data) r.write(data);
    r.end();
  });
}

const create = (opts) => req('POST', '/api/games', { body: GAME, ...opts });

function expect429(r, what) {
  assert.equal(r.status, 429, `${what}: ${r.status} ${r.text}`);
  assert.match(r.headers['retry-after'] || '', /^[1-9]\d*$/, `${what}: Retry-After ${r.headers['retry-after']}`);
  assert.equal(r.json.error.code, 'rate_limited', what);
  assert.ok(r.json.error.message.length > 0, what);
  return r.json.error;
}

// A raw connection from `from` that answered one keep-alive request (so it was accepted and counted),
// or null when the server closed it without an answer.
function keptConnection(from) {
  return new Promise((resolve) => {
    const sock = net.connect({ host: url.hostname, port: Number(url.port), localAddress: from });
    let data = '';
    const timer = setTimeout(() => { sock.destroy(); resolve(null); }, 30000);
    sock.on('data', (d) => {
      data += d;
      if (/\r\n\r\n/.test(data)) { clearTimeout(timer); resolve(sock); }
    });
    sock.on('close', () => { clearTimeout(timer); resolve(null); });
    sock.on('error', () => {});
    sock.write('GET /api/levels HTTP/1.1\r\nHost: x\r\n\r\n');
  });
}

const on = {
  async 'game creations per address'() {
    for (let i = 0; i < 3; i++) assert.equal((await create()).status, 201, `game ${i + 1}`);
    expect429(await create(), 'fourth game');
    const de = expect429(await create({ headers: { 'accept-language': 'de' } }), 'German');
    const en = expect429(await create(), 'English');
    assert.notEqual(de.message, en.message, 'the message in the user\'s language');
    assert.equal((await create({ from: '127.0.0.2' })).status, 201, 'another address is served');
    assert.equal((await req('GET', '/api/levels')).status, 200, 'other requests still served');
  },

  async 'a rematch counts as a new game, over HTTP and WebSocket'() {
    // A local game (one creation) answered by rematch after rematch: each makes a game, so the third
    // rematch is over the limit of 3 a minute (and nothing is made: the old game names no rematch).
    const from = '127.0.0.21';
    const local = await req('POST', '/api/games', { body: { mode: 'local' }, from });
    assert.equal(local.status, 201, local.text);
    let game = { id: local.json.id, secrets: local.json.secrets };
    for (let i = 1; i <= 3; i++) {
      const resigned = await req('POST', `/api/games/${game.id}/resign`, { body: { secret: game.secrets.white }, from });
      assert.equal(resigned.status, 200, resigned.text);
      const r = await req('POST', `/api/games/${game.id}/rematch`, { body: { secret: game.secrets.white }, from });
      if (i < 3) {
        assert.equal(r.status, 200, `rematch ${i}: ${r.text}`);
        game = { id: r.json.id, secrets: r.json.secrets };
      } else {
        expect429(r, 'the third rematch');
        const old = await req('GET', `/api/games/${game.id}`, { from: '127.0.0.10' });
        assert.ok(!old.json.rematch || !old.json.rematch.game, `no game was made: ${old.text}`);
      }
    }
    const ws = await WsClient.open('/ws', ['schach'], { localAddress: from });
    ws.send({ type: 'rematch', game: game.id, secret: game.secrets.white, id: 1 });
    const err = await ws.next((m) => m.type === 'error' && m.id === 1, 'the rematch over WebSocket');
    assert.equal(err.error.code, 'rate_limited', JSON.stringify(err));
    ws.close();
  },

  async 'requests per address, HTTP and WebSocket'() {
    let limited = 0;
    for (let i = 0; i < 45; i++) if ((await req('GET', '/api/levels', { from: '127.0.0.3' })).status === 429) limited++;
    assert.ok(limited >= 5, `${limited} of 45 requests were limited`);
    assert.equal((await req('GET', '/api/levels', { from: '127.0.0.4' })).status, 200, 'another address is served');
    const ws = await WsClient.open('/ws', ['schach'], { localAddress: '127.0.0.5' });
    for (let i = 0; i < 45; i++) ws.send({ type: 'ping', id: i });
    const err = await ws.next((m) => m.type === 'error', 'a rate_limited error');
    assert.equal(err.error.code, 'rate_limited');
    assert.ok(err.error.retry_after >= 1, JSON.stringify(err));
    ws.close();
  },

  async 'the page\'s files have a bucket of their own, five times the requests\''() {
    // A visitor who loads page after page (each a few dozen module files) keeps the API: 60 file
    // requests leave the requests untouched ...
    const from = '127.0.0.6';
    for (let i = 0; i < 60; i++) {
      const r = await req('GET', i % 2 ? '/app.js' : '/', { from });
      assert.equal(r.status, 200, `file ${i + 1}: ${r.status}`);
    }
    assert.equal((await req('GET', '/api/levels', { from })).status, 200, 'the API after 60 files');
    // ... but a flood of files is limited too (200 per minute here), and does not spend the API's.
    let limited = 0;
    for (let i = 0; i < 160; i++) if ((await req('GET', '/style.css', { from })).status === 429) limited++;
    assert.ok(limited >= 10, `${limited} of 160 more file requests were limited`);
    assert.equal((await req('GET', '/api/levels', { from })).status, 200, 'the API after the file flood');
  },

  async 'connections per address'() {
    const kept = [];
    for (let i = 0; i < 5; i++) kept.push(await keptConnection('127.0.0.6'));
    assert.ok(kept.every(Boolean), 'five connections are accepted');
    assert.equal(await keptConnection('127.0.0.6'), null, 'the sixth is closed');
    const other = await keptConnection('127.0.0.7');
    assert.ok(other, 'another address is served');
    other.destroy();
    for (const s of kept) s.destroy();
    let again = null;
    for (let t = 0; t < 50 && !again; t++) {
      await new Promise((r) => setTimeout(r, 100));
      again = await keptConnection('127.0.0.6');
    }
    assert.ok(again, 'closed connections are given back');
    again.destroy();
    // WebSockets count as connections too, and give theirs back when they close.
    const openWs = () => WsClient.open('/ws', ['schach'], { localAddress: '127.0.0.10' });
    for (let round = 0; round < 2; round++) {
      let ws = [];
      // The server may take a moment to see the previous round's connections closed.
      for (let t = 0; t < 100 && ws.length < 5; t++) {
        try {
          ws.push(await openWs());
        } catch {
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      assert.equal(ws.length, 5, `round ${round}: five WebSockets`);
      await assert.rejects(openWs(), `round ${round}: a sixth`);
      for (const c of ws) c.close();
      for (const c of ws) await c.closed('closing');
      ws = [];
    }
  },

  async 'subscriptions per WebSocket'() {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await create({ from: '127.0.0.11' })).json.id);
    const ws = await WsClient.open('/ws', ['schach'], { localAddress: '127.0.0.11' });
    for (const [i, game] of ids.entries()) ws.send({ type: 'subscribe', game, id: i });
    await ws.state(ids[0], 0);
    await ws.state(ids[1], 0);
    const err = await ws.reply(2, 'the third subscription');
    assert.equal(err.type, 'error');
    assert.equal(err.error.code, 'bad_request');
    ws.close();
  },

  async 'X-Forwarded-For counts only from a trusted proxy'() {
    const via = (xff) => create({ from: '127.0.0.8', headers: { 'x-forwarded-for': xff } });
    for (let i = 0; i < 3; i++) assert.equal((await via('198.51.100.1')).status, 201, `proxied game ${i + 1}`);
    expect429(await via('198.51.100.1'), 'the proxied client is limited');
    // Everything left of the rightmost untrusted address was written by the client: ignored.
    expect429(await via('203.0.113.9, 198.51.100.1'), 'a forged left part');
    assert.equal((await via('198.51.100.2')).status, 201, 'another client of the proxy is served');
    assert.equal((await via('198.51.100.2, 127.0.0.8')).status, 201, 'trusted hops are skipped');
    // An untrusted peer's X-Forwarded-For means nothing: it is limited as itself.
    const direct = (xff) => create({ from: '127.0.0.9', headers: { 'x-forwarded-for': xff } });
    for (let i = 0; i < 3; i++) assert.equal((await direct(`192.0.2.${i}`)).status, 201, `direct game ${i + 1}`);
    expect429(await direct('192.0.2.77'), 'an untrusted X-Forwarded-For');
  },
};

const off = {
  async 'no limits: nobody gets 429'() {
    const statuses = await Promise.all(Array.from({ length: 100 }, () => create()));
    assert.deepEqual([...new Set(statuses.map((r) => r.status))], [201], 'every creation succeeded');
    for (let i = 0; i < 200; i++) assert.equal((await req('GET', '/api/levels')).status, 200, `request ${i}`);
    const kept = [];
    for (let i = 0; i < 150; i++) kept.push(await keptConnection('127.0.0.6'));
    assert.ok(kept.every(Boolean), '150 connections from one address');
    for (const s of kept) s.destroy();
  },
};

await runTests(process.env.LIMITS === 'off' ? off : on);
