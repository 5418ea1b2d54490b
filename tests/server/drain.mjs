// The graceful stop on SIGTERM (docs/api.md "Draining"), driven by tests/cli/server_drain.sh:
//   hold FILE PID   the server holds every commit SCHACH_STORE_COMMIT_DELAY_MS (3000): a move over
//                   WebSocket and one over HTTP are in the store when SIGTERM arrives. New connections
//                   are refused while both are still unanswered, /healthz on an open connection says
//                   "draining" (and closes it), both moves are answered, then the WebSocket gets Close
//                   1001; FILE keeps what was acknowledged
//   check FILE      (after a restart on the same database) every acknowledged move is there
//   idle PID        a server with nothing in flight: SIGTERM closes an idle WebSocket with 1001 (that
//                   the drain ran into none of its bounds, the script reads in the server's log)
//   page PID        the browser's connection (web/live.js, on the ws package): after 1001 it tries
//                   again at once (the delay its own timer is given, not the wall clock's), and once a
//                   server is back (the script starts one on the same port and database) it subscribes
//                   again and shows the game as it was, then follows it
// Nothing is timed by the wall clock: a busy machine answers late, not differently.
import fs from 'node:fs';
import net from 'node:net';
import { api, assert, BASE, expectOk, friendGame, getState, OPERA, playMoves, WsClient } from './lib.mjs';

const [cmd, arg1, arg2] = process.argv.slice(2);
const url = new URL(BASE);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A kept-alive connection for requests written by hand: answers are read one at a time.
class RawConn {
  static open() {
    return new Promise((resolve, reject) => {
      const s = net.connect(Number(url.port), url.hostname, () => resolve(new RawConn(s)));
      s.once('error', reject);
    });
  }

  constructor(s) {
    this.s = s;
    this.buf = '';
    this.ended = false;
    this.waiter = null;
    s.on('data', (d) => { this.buf += d.toString('latin1'); this.waiter?.(); });
    s.on('close', () => { this.ended = true; this.waiter?.(); });
    s.on('error', () => {});
  }

  // Sends a GET and returns {status, headers, body} (Content-Length framed).
  async get(path) {
    this.s.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
    const deadline = Date.now() + 10000;
    for (;;) {
      const end = this.buf.indexOf('\r\n\r\n');
      if (end >= 0) {
        const head = this.buf.slice(0, end);
        const length = Number((head.match(/\r\ncontent-length: *(\d+)/i) || [])[1] || 0);
        if (this.buf.length >= end + 4 + length) {
          const body = this.buf.slice(end + 4, end + 4 + length);
          this.buf = this.buf.slice(end + 4 + length);
          const headers = Object.fromEntries(head.split('\r\n').slice(1)
            .map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
          return { status: Number(head.split(' ')[1]), headers, body };
        }
      }
      if (this.ended) throw new Error(`GET ${path}: connection closed; got ${JSON.stringify(this.buf)}`);
      if (Date.now() > deadline) throw new Error(`GET ${path}: no answer`);
      await new Promise((r) => { this.waiter = r; setTimeout(r, 100); });
      this.waiter = null;
    }
  }

  async closed(timeoutMs = 5000) {
    for (const end = Date.now() + timeoutMs; !this.ended && Date.now() < end;) await sleep(20);
    return this.ended;
  }
}

// Whether a new connection is refused (the listening socket is closed).
function refused() {
  return new Promise((resolve) => {
    const s = net.connect(Number(url.port), url.hostname);
    s.once('connect', () => { s.destroy(); resolve(false); });
    s.once('error', (e) => resolve(e.code === 'ECONNREFUSED'));
  });
}

async function pendingChanges(conn) {
  const r = await conn.get('/metrics');
  assert.equal(r.status, 200);
  return Number(r.body.match(/^schach_pending_changes (\d+)$/m)[1]);
}

if (cmd === 'hold') {
  const [file, pid] = [arg1, Number(arg2)];
  const [a, b] = await Promise.all([friendGame(), friendGame()]);
  const ws = await WsClient.open();
  ws.send({ type: 'subscribe', game: a.id });
  await ws.state(a.id, 0);
  const conn = await RawConn.open();
  assert.equal((await conn.get('/healthz')).status, 200, 'healthz before the drain');

  // A move over WebSocket and one over HTTP, both held in the store, then SIGTERM.
  ws.send({ type: 'move', game: a.id, secret: a.white, ply: 0, move: OPERA[0], id: 1 });
  const httpMove = api('POST', `/api/games/${b.id}/move`, { secret: b.white, ply: 0, move: OPERA[0] });
  let httpAnswered = false;
  httpMove.then(() => { httpAnswered = true; }, () => { httpAnswered = true; });
  const unanswered = () => !httpAnswered && !ws.inbox.some((m) => m.id === 1);
  for (let i = 0; (await pendingChanges(conn)) < 2; i++) {
    assert.ok(i < 100, 'both moves reach the store');
    await sleep(10);
  }
  process.kill(pid, 'SIGTERM');

  // New connections are refused from the moment the signal is handled.
  let isRefused = false;
  for (let i = 0; i < 100 && !isRefused; i++) {
    isRefused = await refused();
    if (!isRefused) await sleep(10);
  }
  assert.ok(isRefused, 'new connections are refused while draining');
  // A connection that was open already is served, says "draining" and is closed after the answer.
  const health = await conn.get('/healthz');
  assert.equal(health.status, 503, `healthz while draining: ${health.status} ${health.body}`);
  assert.deepEqual(JSON.parse(health.body), { status: 'draining' });
  assert.equal(health.headers.connection, 'close', 'Connection: close while draining');
  assert.ok(await conn.closed(), 'the connection is closed after the answer');
  assert.ok(unanswered(), 'all that while the moves were still held in the store (neither was answered yet)');

  // Both moves are answered, the WebSocket one before its Close 1001.
  const ack = await ws.reply(1, 'ack of the move in flight');
  assert.equal(ack.type, 'ack', JSON.stringify(ack));
  assert.equal(ack.ply, 1);
  await ws.state(a.id, 1, 'the state after the move in flight');
  assert.equal(await ws.closed('close after the ack'), 1001, 'Close 1001 (going away)');
  const r = await httpMove;
  const body = expectOk(r, 'the HTTP move in flight');
  assert.equal(body.state.ply, 1);
  fs.writeFileSync(file, JSON.stringify({ a: a.id, b: b.id, plies: 1 }));
} else if (cmd === 'check') {
  const saved = JSON.parse(fs.readFileSync(arg1, 'utf8'));
  for (const id of [saved.a, saved.b]) {
    const state = await getState(id);
    assert.equal(state.ply, saved.plies, `game ${id} after the restart`);
    assert.deepEqual(state.moves.map((m) => m.san), OPERA.slice(0, saved.plies));
  }
} else if (cmd === 'idle') {
  const ws = await WsClient.open();
  process.kill(Number(arg1), 'SIGTERM');
  assert.equal(await ws.closed('close of an idle WebSocket'), 1001);
} else if (cmd === 'page') {
  const { default: WebSocket } = await import('ws');
  // What web/live.js needs of a browser. ws throws on an 'error' nobody listens to; a browser does not.
  globalThis.WebSocket = class extends WebSocket {
    constructor(...args) {
      super(...args);
      this.on('error', () => {});
    }
  };
  globalThis.location = { protocol: 'http:', host: url.host };
  globalThis.document = { documentElement: {} };
  globalThis.localStorage = { getItem: () => 'en', setItem() {} };
  const { Live } = await import('../../web/live.js');
  const g = await friendGame();
  await playMoves(g, OPERA.slice(0, 1));
  const events = [];
  let state = null;
  const live = new Live(g.id, (s) => { state = s; events.push({ at: Date.now(), what: `state ${s.ply}` }); },
    (st) => events.push({ at: Date.now(), what: st }));
  // The wait the page gives its timer before each new attempt (web/socket.js reconnect): what it asks
  // for, not what a busy machine makes of it.
  const waits = [];
  const reconnect = live.reconnect.bind(live);
  live.reconnect = (goingAway) => {
    const realSetTimeout = globalThis.setTimeout;
    globalThis.setTimeout = (fn, ms, ...rest) => {
      waits.push({ at: Date.now(), goingAway, ms });
      return realSetTimeout(fn, ms, ...rest);
    };
    try {
      reconnect(goingAway);
    } finally {
      globalThis.setTimeout = realSetTimeout;
    }
  };
  const until = async (pred, what, ms = 20000) => {
    for (const end = Date.now() + ms; !pred();) {
      assert.ok(Date.now() < end, `${what}: ${JSON.stringify(events)}`);
      await sleep(10);
    }
  };
  await until(() => state && state.ply === 1, 'the page shows the game');
  const sent = Date.now();
  process.kill(Number(arg1), 'SIGTERM');
  await until(() => events.some((e) => e.what === 'disconnected' && e.at >= sent), 'the server closes');
  const closedAt = events.find((e) => e.what === 'disconnected' && e.at >= sent).at;
  await until(() => events.some((e) => e.what === 'connecting' && e.at >= closedAt), 'a new attempt');
  const first = waits.find((w) => w.at >= closedAt);
  assert.ok(first && first.goingAway, `the page saw the close as 1001 (going away): ${JSON.stringify(waits)}`);
  // At once: within the spread of 250 ms, where any other close backs off for 375 ms and more.
  assert.ok(first.ms < 300, `after 1001 the page tries again at once, not after a backoff of ${first.ms} ms`);
  const back = () => events.some((e) => e.what.startsWith('state') && e.at > closedAt);
  await until(back, 'the page is back with the state (the script restarts the server)', 30000);
  assert.equal(state.ply, 1, 'the state after the reconnection');
  assert.deepEqual(state.moves.map((m) => m.san), OPERA.slice(0, 1));
  await playMoves(g, OPERA.slice(1, 2));
  await until(() => state.ply === 2, 'the page follows the game again');
  live.close();
} else {
  throw new Error(`unknown command ${cmd}`);
}
console.log(`ok   drain ${cmd}`);
