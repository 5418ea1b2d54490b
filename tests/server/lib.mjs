// Helpers of the server integration tests: HTTP through fetch, WebSocket through ws, and the games
// the tests play. The server's URL comes from SCHACH_URL (tests/server/server.bash starts it).
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import WebSocket from 'ws';

export const BASE = process.env.SCHACH_URL;
if (!BASE) throw new Error('SCHACH_URL is not set');
export { assert };

// One HTTP request; body may be an object (sent as JSON) or a string (sent as is).
export async function api(method, path, body, { headers = {} } = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers['content-type'] = 'application/json';
  }
  let res;
  try {
    res = await fetch(new URL(path, BASE), init);
  } catch (e) {
    // fetch says only "fetch failed": the reason is in its cause (e.g. other side closed, ECONNREFUSED).
    throw new Error(`${method} ${path}: ${e.message} (${e.cause?.code ?? ''} ${e.cause?.message ?? ''})`, { cause: e });
  }
  const text = await res.text();
  let json = null;
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, json, text, headers: res.headers };
}

export function expectOk(r, what, status = 200) {
  assert.equal(r.status, status, `${what}: status ${r.status}, body ${r.text}`);
  assert.match(r.headers.get('content-type') || '', /application\/json/, `${what}: content type`);
  assert.equal(r.headers.get('cache-control'), 'no-store', `${what}: cache-control`);
  return r.json;
}

export function expectError(r, status, code, what) {
  assert.equal(r.status, status, `${what}: want ${status} ${code}, got ${r.status} ${r.text}`);
  assert.ok(r.json && r.json.error, `${what}: no error object: ${r.text}`);
  assert.equal(r.json.error.code, code, `${what}: code ${r.json.error.code}, message ${r.json.error.message}`);
  assert.equal(typeof r.json.error.message, 'string', `${what}: message`);
  assert.ok(r.json.error.message.length > 0, `${what}: empty message`);
  return r.json.error;
}

// A friend game: white created it, black joined with the invitation. Returns {id, white, black, state}.
export async function friendGame(extra = {}) {
  const created = expectOk(await api('POST', '/api/games',
    { mode: 'friend', color: 'white', time: { type: 'none' }, ...extra }), 'create', 201);
  assert.equal(created.color, 'white');
  assert.equal(typeof created.secret, 'string');
  assert.equal(created.secret.length, 43, 'secret length');
  assert.equal(typeof created.invite, 'string', 'invite');
  const joined = expectOk(await api('POST', `/api/games/${created.id}/join`, { invite: created.invite }), 'join');
  assert.equal(joined.color, 'black');
  assert.equal(joined.state.players.black, true);
  return { id: created.id, white: created.secret, black: joined.secret, invite: created.invite, state: joined.state };
}

/** Names unique to this run (a database may hold an earlier run's): fresh(prefix) is PREFIX, the
 *  process id, the test file's MARK and a counter. */
export function namer(mark) {
  let n = 0;
  return (prefix) => `${prefix}${process.pid % 10000}${mark}${++n}`;
}

/** A new account NAME: {name, cookie} with its session cookie ("schach_session=…"). */
export async function signUp(name, password = 'good password') {
  const r = await api('POST', '/api/accounts', { username: name, password });
  expectOk(r, `sign up ${name}`, 201);
  const token = /schach_session=([^;]*)/.exec(r.headers.get('set-cookie'))[1];
  return { name, cookie: `schach_session=${token}` };
}

/** api()'s options for a request as WHO (an account from signUp, or null: anonymous). */
// The headers of a request made by WHO: an account (its session cookie) and/or, behind a trusted proxy,
// a client address of its own ({forwarded: '192.0.2.7'}: the server must trust 127.0.0.1 as a proxy).
export const as = (who) => {
  if (!who) return {};
  const headers = {};
  if (who.cookie) headers.cookie = who.cookie;
  if (who.forwarded) headers['x-forwarded-for'] = who.forwarded;
  return { headers };
};

// A rated game from a seek WHITE posts (with TIME) and BLACK accepts, both accounts:
// {id, white, black} with the two sides' secrets (the poster's as /api/seeks/{id} hands it out).
export async function ratedGame(white, black, time) {
  const seek = expectOk(await api('POST', '/api/seeks', { time, rated: true, color: 'white' }, as(white)),
    'post seek', 201);
  const got = expectOk(await api('POST', `/api/seeks/${seek.id}/accept`, {}, as(black)), 'accept');
  assert.equal(got.state.rated, true);
  const look = expectOk(await api('GET', `/api/seeks/${seek.id}`, undefined, as(white)), 'the poster looks');
  return { id: got.id, white: look.secret, black: got.secret };
}

export const getState = async (id) => expectOk(await api('GET', `/api/games/${id}`), `state of ${id}`);

// Plays moves alternately with the right secret, each acknowledged, starting at the game's ply.
export async function playMoves(g, moves) {
  let state = await getState(g.id);
  for (const mv of moves) {
    const secret = state.turn === 'white' ? g.white : g.black;
    const r = await api('POST', `/api/games/${g.id}/move`, { secret, ply: state.ply, move: mv });
    const body = expectOk(r, `move ${mv} at ply ${state.ply}`);
    assert.equal(body.state.ply, state.ply + 1, `ply after ${mv}`);
    state = body.state;
  }
  return state;
}

// The bytes of a WebSocket handshake on /ws, for tests that speak the protocol on a raw socket.
export function rawHandshake() {
  return Buffer.from('GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
    `Sec-WebSocket-Key: ${crypto.randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n` +
    'Sec-WebSocket-Protocol: schach\r\n\r\n', 'latin1');
}

// One client frame (FIN set), for raw sockets: text unless opcode says otherwise, masked unless masked
// is false; payload is bytes, a string or an object sent as JSON.
export function clientFrame(payload, { masked = true, opcode = 1 } = {}) {
  const data = Buffer.isBuffer(payload) ? payload : Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload));
  const head = [0x80 | opcode];
  const m = masked ? 0x80 : 0;
  if (data.length < 126) head.push(m | data.length);
  else if (data.length < 65536) head.push(m | 126, data.length >> 8, data.length & 0xff);
  else throw new Error('frame too long for this test');
  const key = masked ? crypto.randomBytes(4) : Buffer.alloc(0);
  const body = masked ? Buffer.from(data.map((b, i) => b ^ key[i % 4])) : data;
  return Buffer.concat([Buffer.from(head), key, body]);
}

// A WebSocket client that keeps every message and lets a test wait for one that matches.
export class WsClient {
  static open(path = '/ws', protocols = ['schach'], options = {}) {
    const url = new URL(path, BASE);
    url.protocol = 'ws:';
    const ws = new WebSocket(url, protocols, options);
    const c = new WsClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(c));
      ws.once('error', reject);
    });
  }

  constructor(ws) {
    this.ws = ws;
    this.inbox = [];
    this.waiters = [];
    this.closeCode = null;
    ws.on('message', (data, isBinary) => {
      assert.equal(isBinary, false, 'the server sends text frames');
      this.inbox.push(JSON.parse(data.toString('utf8')));
      this.wake();
    });
    ws.on('close', (code) => { this.closeCode = code; this.wake(); });
    ws.on('error', () => {});
  }

  wake() { for (const w of [...this.waiters]) w(); }

  send(obj) { this.ws.send(typeof obj === 'string' ? obj : JSON.stringify(obj)); }

  // The first message (in arrival order) that pred accepts; removed from the inbox. The deadline is
  // generous (a busy machine answers late); a message that came returns at once.
  next(pred, what, timeoutMs = 60000) {
    return new Promise((resolve, reject) => {
      const check = () => {
        const i = this.inbox.findIndex(pred);
        if (i >= 0) {
          const [m] = this.inbox.splice(i, 1);
          done();
          resolve(m);
        } else if (this.closeCode !== null) {
          done();
          reject(new Error(`${what}: connection closed (${this.closeCode}); inbox ${JSON.stringify(this.inbox)}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${what}: nothing within ${timeoutMs} ms; inbox ${JSON.stringify(this.inbox)}`));
      }, timeoutMs);
      const done = () => { clearTimeout(timer); this.waiters = this.waiters.filter((w) => w !== check); };
      this.waiters.push(check);
      check();
    });
  }

  state(game, ply, what) {
    return this.next((m) => m.type === 'state' && m.game === game && (ply === undefined || m.state.ply === ply),
      what || `state of ${game} at ply ${ply}`);
  }

  reply(id, what) {
    return this.next((m) => (m.type === 'ack' || m.type === 'error' || m.type === 'pong') && m.id === id,
      what || `reply to ${id}`);
  }

  closed(what, timeoutMs = 60000) {
    return new Promise((resolve, reject) => {
      const check = () => { if (this.closeCode !== null) { done(); resolve(this.closeCode); } };
      const timer = setTimeout(() => { done(); reject(new Error(`${what}: still open`)); }, timeoutMs);
      const done = () => { clearTimeout(timer); this.waiters = this.waiters.filter((w) => w !== check); };
      this.waiters.push(check);
      check();
    });
  }

  close() { this.ws.close(); }
}

// Runs the named async tests in order; prints each failure and exits 1 when any failed.
export async function runTests(tests) {
  let failed = 0;
  for (const [name, fn] of Object.entries(tests)) {
    try {
      await fn();
      console.log(`ok   ${name}`);
    } catch (e) {
      failed++;
      console.error(`FAIL ${name}: ${e.stack || e}`);
    }
  }
  // A failed test may leave a socket open that would keep node (and the CTest run) waiting: leave now.
  if (failed) process.exit(1);
  process.exitCode = 0;
}

// The Opera game (Morphy, Paris 1858): 33 plies, queenside castling, ends in mate.
export const OPERA = ['e4', 'e5', 'Nf3', 'd6', 'd4', 'Bg4', 'dxe5', 'Bxf3', 'Qxf3', 'dxe5', 'Bc4', 'Nf6',
  'Qb3', 'Qe7', 'Nc3', 'c6', 'Bg5', 'b5', 'Nxb5', 'cxb5', 'Bxb5+', 'Nbd7', 'O-O-O', 'Rd8', 'Rxd7', 'Rxd7',
  'Rd1', 'Qe6', 'Bxd7+', 'Nxd7', 'Qb8+', 'Nxb8', 'Rd8#'];

// The rating categories with their rule, as GET /api/seeks and GET /api/players/{name} tell the page
// (docs/api.md "Rating categories").
export const CATEGORIES = {
  seconds: { minute: 60, increment: 40 },
  list: [
    { name: 'bullet', time: 'live', below: 180, variant: 'standard' },
    { name: 'blitz', time: 'live', below: 480, variant: 'standard' },
    { name: 'rapid', time: 'live', below: 1500, variant: 'standard' },
    { name: 'classical', time: 'live', below: null, variant: 'standard' },
    { name: 'correspondence', time: 'correspondence', below: null, variant: 'standard' },
    // Every rated Chess960 game, whatever its time control (issue 24).
    { name: 'chess960', time: null, below: null, variant: 'chess960' },
  ],
};
