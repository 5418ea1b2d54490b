// A site strangers can trust, the HTTP side (issue 22, defects 5, 7 and 10):
// - 5: a body (or header) dripped a byte at a time is cut off by the request deadline, with 408 and a
//   closed connection, so drippers cannot hold the server's connections (MAX_CONNECTIONS of them);
// - 7: another site's page cannot change anything (Origin, Sec-Fetch-Site, the JSON content type),
//   and what it sends is refused before any limit is charged; a player's move in a running game has
//   an allowance of its own, over HTTP and WebSocket, so a flood of other requests cannot make it 429;
//   a WebSocket from another site's page is refused;
// - 10: every answer carries Content-Security-Policy, X-Content-Type-Options, Referrer-Policy and
//   Permissions-Policy.
// PART selects the tests: "main" (a server with --max-connections MAX_CONNECTIONS and a short request
// deadline) or "limits" (a server with a small request limit and a frozen limits clock).
// GAMES_FILE: the number of games the test created on purpose (the script compares the database).
import fs from 'node:fs';
import net from 'node:net';
import { api, assert, BASE, expectError, expectOk, friendGame, getState, runTests, WsClient } from './lib.mjs';

const PART = process.env.PART || 'main';
let created = 0;
async function game() {
  const g = await friendGame();
  created++;
  return g;
}

const url = new URL(BASE);
const EVIL = 'https://evil.example';

// A socket that sends head, then one byte of drip every periodMs until the server closes it.
// Resolves with what the server sent and whether it closed within waitMs (generous).
function drip(head, waitMs = 60000, periodMs = 200, byte = ' ') {
  return new Promise((resolve) => {
    const sock = net.connect(Number(url.port), url.hostname);
    let data = '';
    let done = false;
    let timer = null;
    const finish = (closed) => {
      if (done) return;
      done = true;
      clearInterval(timer);
      sock.destroy();
      resolve({ data, closed });
    };
    sock.on('connect', () => {
      sock.write(head);
      timer = setInterval(() => { if (!sock.destroyed) sock.write(byte); }, periodMs);
    });
    sock.on('data', (d) => { data += d.toString('latin1'); });
    sock.on('close', () => finish(true));
    sock.on('error', () => finish(true));
    setTimeout(() => finish(false), waitMs).unref();
  });
}

const statusOf = (data) => Number((/^HTTP\/1\.1 (\d{3})/.exec(data) || [])[1] || 0);
const bodyOf = (data) => data.slice(data.indexOf('\r\n\r\n') + 4);

// Waits (generously) until GET /api/levels is answered 200 on a fresh connection.
async function servedWithin(ms) {
  const end = Date.now() + ms;
  let last = '';
  while (Date.now() < end) {
    try {
      const r = await raw('GET', '/api/levels', { timeoutMs: 10000 });
      if (r.status === 200) return true;
      last = `status ${r.status}`;
    } catch (e) {
      last = e.message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`not served within ${ms} ms: ${last}`);
}

// A raw request: the headers given, a body; resolves with status, headers and the parsed JSON body.
function raw(method, path, { headers = {}, body, timeoutMs = 60000 } = {}) {
  return new Promise((resolve, reject) => {
    const sock = net.connect(Number(url.port), url.hostname);
    let data = '';
    const b = body === undefined ? '' : body;
    const h = { host: url.host, connection: 'close', ...headers };
    if (body !== undefined) h['content-length'] = Buffer.byteLength(b);
    const head = `${method} ${path} HTTP/1.1\r\n${Object.entries(h).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
    sock.on('connect', () => sock.write(head + b));
    sock.on('data', (d) => { data += d.toString('latin1'); });
    sock.on('close', () => {
      const text = bodyOf(data);
      let json = null;
      try { json = JSON.parse(text); } catch { /* not JSON */ }
      const hdrs = {};
      for (const line of data.slice(0, data.indexOf('\r\n\r\n')).split('\r\n').slice(1)) {
        const i = line.indexOf(':');
        if (i > 0) hdrs[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({ status: statusOf(data), headers: hdrs, text, json, data });
    });
    sock.on('error', reject);
    setTimeout(() => { sock.destroy(); reject(new Error(`${method} ${path}: no answer`)); }, timeoutMs).unref();
  });
}

function refused403(r, what) {
  assert.equal(r.status, 403, `${what}: want 403, got ${r.status} ${r.text}`);
  assert.match(r.headers['content-type'] || '', /application\/json/, `${what}: content type`);
  assert.equal(r.json?.error?.code, 'bad_origin', `${what}: ${r.text}`);
}

const create = JSON.stringify({ mode: 'friend', color: 'white', time: { type: 'none' } });

const main = {
  async 'a body dripped a byte at a time is cut off by the request deadline (408, closed)'() {
    const head = `POST /api/games HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
      'Content-Length: 16000\r\n\r\n';
    const { data, closed } = await drip(head);
    assert.ok(closed, `still open after 60 s of dripping; got ${JSON.stringify(data.slice(0, 200))}`);
    assert.equal(statusOf(data), 408, `want 408, got ${JSON.stringify(data.slice(0, 200))}`);
    const err = JSON.parse(bodyOf(data)).error;
    assert.equal(err.code, 'request_timeout', JSON.stringify(err));
  },

  async 'headers dripped a byte at a time are cut off too'() {
    const { closed, data } = await drip(`GET /api/levels HTTP/1.1\r\nHost: ${url.host}\r\nX-Drip: `, 60000, 200, 'a');
    assert.ok(closed, `still open after 60 s of dripping; got ${JSON.stringify(data.slice(0, 200))}`);
  },

  async 'drippers cannot hold every connection of the server'() {
    const max = Number(process.env.MAX_CONNECTIONS);
    assert.ok(max > 0, 'MAX_CONNECTIONS');
    const head = `POST /api/games HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
      'Content-Length: 16000\r\n\r\n';
    // max + 10 drippers, one byte every second or so each: all the server's connections.
    // (A sure handle: node must not leave while every socket it has waits on the server.)
    const keep = setInterval(() => {}, 1000);
    const drippers = Array.from({ length: max + 10 }, () => drip(head, 90000, 1000));
    // Served again once the deadline cut the drippers off (they keep dripping until closed).
    try {
      await servedWithin(60000);
    } finally {
      clearInterval(keep);
    }
    const results = await Promise.all(drippers);
    assert.ok(results.every((r) => r.closed), 'a dripper was never cut off');
    assert.equal(created, 0);
  },

  async 'another site cannot create games: Origin, Sec-Fetch-Site and text/plain refused (403/415)'() {
    for (const [what, headers] of [
      ['foreign Origin, text/plain', { origin: EVIL, 'content-type': 'text/plain' }],
      ['foreign Origin, JSON', { origin: EVIL, 'content-type': 'application/json' }],
      ['Origin null', { origin: 'null', 'content-type': 'text/plain' }],
      ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site', 'content-type': 'text/plain' }],
      ['Sec-Fetch-Site same-site', { 'sec-fetch-site': 'same-site', 'content-type': 'application/json' }],
    ]) {
      refused403(await raw('POST', '/api/games', { headers, body: create }), what);
    }
    // A text/plain (or form) body from this site's own origin is not JSON either.
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const r = await raw('POST', '/api/games', { headers: { origin: `http://${url.host}`, 'content-type': type }, body: create });
      assert.equal(r.status, 415, `${type}: want 415, got ${r.status} ${r.text}`);
      assert.equal(r.json?.error?.code, 'content_type', `${type}: ${r.text}`);
    }
    const r = await raw('POST', '/api/games', { body: create });
    assert.equal(r.status, 415, `no content type: want 415, got ${r.status} ${r.text}`);
    // This site's pages (and clients that are no browser) still create games.
    for (const headers of [{ origin: `http://${url.host}`, 'sec-fetch-site': 'same-origin' }, {}]) {
      const ok = await raw('POST', '/api/games', { headers: { 'content-type': 'application/json', ...headers }, body: create });
      assert.equal(ok.status, 201, `same origin: ${ok.status} ${ok.text}`);
      created++;
    }
  },

  async 'another site cannot move, resign or offer in a running game'() {
    const g = await game();
    for (const [verb, body] of [['move', { secret: g.white, ply: 0, move: 'e4' }], ['resign', { secret: g.white }],
      ['draw', { secret: g.white }]]) {
      for (const headers of [{ origin: EVIL, 'content-type': 'text/plain' }, { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }]) {
        refused403(await raw('POST', `/api/games/${g.id}/${verb}`, { headers, body: JSON.stringify(body) }), `${verb} ${JSON.stringify(headers)}`);
      }
    }
    const s = await getState(g.id);
    assert.equal(s.ply, 0, 'a refused move was made');
    assert.equal(s.outcome, null, 'a refused resignation was carried out');
  },

  async 'a WebSocket from another site\'s page is refused; from this site it opens'() {
    await assert.rejects(WsClient.open('/ws', ['schach'], { origin: EVIL }), 'foreign origin WebSocket opened');
    await assert.rejects(WsClient.open('/ws', ['schach'], { headers: { 'sec-fetch-site': 'cross-site' } }),
      'cross-site WebSocket opened');
    const ws = await WsClient.open('/ws', ['schach'], { origin: `http://${url.host}` });
    ws.close();
  },

  async 'every answer carries the security headers'() {
    const g = await game();
    const answers = [
      ['GET /', await raw('GET', '/')],
      ['HEAD /', await raw('HEAD', '/')],
      ['GET /app.js', await raw('GET', '/app.js')],
      ['GET /g/ID', await raw('GET', `/g/${g.id}`)],
      ['GET /nope.txt (404)', await raw('GET', '/nope.txt')],
      ['GET /api/levels', await raw('GET', '/api/levels')],
      ['GET /api/games/ID', await raw('GET', `/api/games/${g.id}`)],
      ['GET /api/nope (404)', await raw('GET', '/api/nope')],
      ['POST cross-site (403)', await raw('POST', '/api/games', { headers: { origin: EVIL, 'content-type': 'application/json' }, body: create })],
      ['PUT / (405)', await raw('PUT', '/')],
      ['GET /healthz', await raw('GET', '/healthz')],
    ];
    const first = answers[0][1];
    if (first.headers.etag) {
      answers.push(['GET / (304)', await raw('GET', '/', { headers: { 'if-none-match': first.headers.etag } })]);
      assert.equal(answers.at(-1)[1].status, 304, 'revalidation');
    }
    for (const [what, r] of answers) {
      const csp = r.headers['content-security-policy'] || '';
      assert.match(csp, /(^|;)\s*default-src 'self'/, `${what}: Content-Security-Policy ${JSON.stringify(csp)}`);
      assert.match(csp, /(^|;)\s*frame-ancestors 'none'/, `${what}: Content-Security-Policy ${JSON.stringify(csp)}`);
      // 'wasm-unsafe-eval' compiles WebAssembly (schach.wasm, docs/wasm.md) and allows no eval() of text.
      assert.doesNotMatch(csp, /unsafe-inline|(?<!wasm-)unsafe-eval/, `${what}: ${csp}`);
      assert.equal(r.headers['x-content-type-options'], 'nosniff', `${what}: X-Content-Type-Options`);
      assert.match(r.headers['referrer-policy'] || '', /^(no-referrer|same-origin)$/, `${what}: Referrer-Policy`);
      assert.ok((r.headers['permissions-policy'] || '').includes('camera=()'), `${what}: Permissions-Policy ${r.headers['permissions-policy']}`);
    }
  },
};

const limits = {
  // LIMIT requests a minute, frozen clock (no bucket refills): the first test spends one request, the
  // second all the rest.
  async 'refused cross-site requests charge nothing'() {
    const limit = Number(process.env.LIMIT);
    // Cross-site requests of a foreign page: refused before they cost the visitor anything.
    for (let i = 0; i < 3 * limit; i++) {
      refused403(await raw('POST', '/api/games', { headers: { origin: EVIL, 'content-type': 'text/plain' }, body: create }), 'cross-site create');
      refused403(await raw('GET', '/api/levels', { headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' } }), 'cross-site GET');
    }
    expectOk(await api('GET', '/api/levels'), 'a same-site request after the cross-site flood');
  },

  async 'moves in a running game have their own allowance, over HTTP and WebSocket'() {
    const limit = Number(process.env.LIMIT);
    const g = await game();
    // Now spend the whole request allowance on other requests.
    let over = false;
    for (let i = 0; i < 3 * limit && !over; i++) over = (await api('GET', '/api/levels')).status === 429;
    assert.ok(over, 'the request limit never answered 429');
    expectError(await api('GET', `/api/games/${g.id}`), 429, 'rate_limited', 'over the request limit');
    // The moves of the running game still go through, over HTTP ...
    expectOk(await api('POST', `/api/games/${g.id}/move`, { secret: g.white, ply: 0, move: 'e4' }), 'HTTP move over the request limit');
    // ... and over WebSocket.
    const ws = await WsClient.open();
    ws.send({ type: 'move', id: 1, game: g.id, secret: g.black, ply: 1, move: 'e5' });
    const a = await ws.reply(1, 'WebSocket move over the request limit');
    assert.equal(a.type, 'ack', `WebSocket move: ${JSON.stringify(a)}`);
    // Other WebSocket messages are still limited.
    ws.send({ type: 'ping', id: 2 });
    const p = await ws.reply(2, 'ping over the limit');
    assert.equal(p.type, 'error', `ping over the limit: ${JSON.stringify(p)}`);
    ws.close();
  },
};

// ONLY (a regular expression): run only the tests whose names match (to see one defect alone).
const chosen = Object.entries(PART === 'limits' ? limits : main)
  .filter(([name]) => !process.env.ONLY || new RegExp(process.env.ONLY).test(name));
await runTests(Object.fromEntries(chosen));
if (process.env.GAMES_FILE) fs.appendFileSync(process.env.GAMES_FILE, `${created}\n`);
