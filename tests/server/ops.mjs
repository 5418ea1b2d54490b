// GET /healthz and GET /metrics (docs/api.md "Health and metrics"), driven by tests/cli/server_ops.sh:
//   ops.mjs limited   the server runs with --max-requests-per-minute 10: the balancer's checks and the
//                     scraper are not rate-limited, everything else is; the format; HEAD; 405
//   ops.mjs values    the values move when games are played over HTTP and WebSocket
import net from 'node:net';
import { api, assert, BASE, friendGame, getState, OPERA, playMoves, runTests, WsClient } from './lib.mjs';

const url = new URL(BASE);

// One raw request on a connection of its own (fetch hides HEAD's Content-Length and some headers).
function raw(request) {
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(url.port), url.hostname, () => s.write(request));
    let text = '';
    s.on('data', (d) => { text += d.toString('latin1'); });
    // Only if the server never closes (generous: a busy machine answers late); unref'd, so that it
    // does not keep the test waiting once everything else is done.
    setTimeout(() => { s.destroy(); resolve(text); }, 30000).unref();
    s.on('end', () => resolve(text));
    s.on('error', reject);
  });
}

// The metrics as {name: value} for lines without labels and {"name{labels}": value} for the others;
// checks the text format on the way: every line that is not a comment is `name{labels} value`, every
// family has HELP and TYPE before its samples, histograms are cumulative and end in +Inf = _count.
export function parseMetrics(text) {
  const values = {};
  const types = {};
  const helps = new Set();
  const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[a-zA-Z_][a-zA-Z0-9_]*="[^"\\\n]*"(,[a-zA-Z_][a-zA-Z0-9_]*="[^"\\\n]*")*\})? (-?(\d+(\.\d+)?([eE][-+]?\d+)?|\+Inf|NaN))$/;
  assert.ok(text.endsWith('\n'), 'the text ends with a newline');
  for (const line of text.slice(0, -1).split('\n')) {
    if (line.startsWith('# HELP ')) {
      helps.add(line.split(' ')[2]);
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      assert.ok(['counter', 'gauge', 'histogram'].includes(type), `type of ${name}: ${type}`);
      assert.ok(helps.has(name), `HELP before TYPE for ${name}`);
      assert.equal(types[name], undefined, `one TYPE line for ${name}`);
      types[name] = type;
      continue;
    }
    const m = line.match(sample);
    assert.ok(m, `not a sample line: ${JSON.stringify(line)}`);
    const family = Object.keys(types).find((f) => m[1] === f || (types[f] === 'histogram' &&
      [`${f}_bucket`, `${f}_sum`, `${f}_count`].includes(m[1])));
    assert.ok(family, `sample ${m[1]} before its TYPE`);
    if (types[family] === 'counter') assert.ok(m[1].endsWith('_total'), `counter ${m[1]} ends in _total`);
    values[m[1] + (m[2] || '')] = Number(m[4] === '+Inf' ? Infinity : m[4]);
  }
  for (const [f, type] of Object.entries(types)) {
    if (type !== 'histogram') continue;
    const buckets = Object.entries(values).filter(([k]) => k.startsWith(`${f}_bucket{`));
    assert.ok(buckets.length >= 2, `${f}: buckets`);
    let last = -1;
    let lastLe = -Infinity;
    for (const [k, v] of buckets) {
      const le = k.match(/le="([^"]+)"/)[1];
      const bound = le === '+Inf' ? Infinity : Number(le);
      assert.ok(bound > lastLe, `${f}: le in increasing order`);
      assert.ok(v >= last, `${f}: buckets are cumulative`);
      last = v;
      lastLe = bound;
    }
    assert.equal(lastLe, Infinity, `${f}: the last bucket is +Inf`);
    assert.equal(last, values[`${f}_count`], `${f}: +Inf = _count`);
    assert.ok(values[`${f}_sum`] >= 0, `${f}: _sum`);
  }
  return { values, types };
}

async function metrics() {
  const res = await fetch(new URL('/metrics', BASE));
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
  assert.equal(res.headers.get('cache-control'), 'no-store');
  return parseMetrics(await res.text());
}

const FAMILIES = {
  counter: ['moves_committed_total', 'changes_committed_total', 'conflicts_total', 'refreshes_total', 'notices_total',
    'store_batches_total', 'store_ops_committed_total', 'store_ops_failed_total', 'store_conflicts_total',
    'store_notices_total', 'store_reconnects_total'],
  gauge: ['pending_changes', 'games_in_memory', 'games_in_play', 'subscriptions', 'http_connections', 'websockets',
    'draining', 'store_info', 'store_up', 'store_queue_depth'],
  histogram: ['move_latency_seconds', 'store_commit_seconds', 'notify_lag_seconds'],
};

const limited = {
  async 'healthz: 200 ok while the store answers, no-store'() {
    const r = await api('GET', '/healthz');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, { status: 'ok' });
    assert.match(r.headers.get('content-type'), /^application\/json/);
    assert.equal(r.headers.get('cache-control'), 'no-store');
  },

  async 'healthz and metrics: HEAD has the headers and no body'() {
    for (const path of ['/healthz', '/metrics']) {
      const text = await raw(`HEAD ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      const [head, body] = text.split('\r\n\r\n');
      assert.match(head, /^HTTP\/1\.1 200 /, `HEAD ${path}: ${head}`);
      assert.match(head, /\r\ncontent-length: [1-9]\d*\r\n/i, `HEAD ${path}: Content-Length`);
      assert.equal(body, '', `HEAD ${path}: no body`);
    }
  },

  async 'healthz and metrics: other methods are 405 with Allow: GET, HEAD'() {
    for (const path of ['/healthz', '/metrics']) {
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const r = await api(method, path, method === 'DELETE' ? undefined : { x: 1 });
        assert.equal(r.status, 405, `${method} ${path}: ${r.status}`);
        assert.equal(r.headers.get('allow'), 'GET, HEAD', `${method} ${path}: Allow`);
      }
    }
  },

  async 'healthz and metrics: not rate-limited, while the API is'() {
    for (let i = 0; i < 30; i++) {
      assert.equal((await api('GET', '/healthz')).status, 200, `healthz ${i}`);
      assert.equal((await fetch(new URL('/metrics', BASE)).then((r) => r.text().then(() => r.status))), 200, `metrics ${i}`);
    }
    let limited = false;
    for (let i = 0; i < 30 && !limited; i++) limited = (await api('GET', '/api/levels')).status === 429;
    assert.ok(limited, 'the API is still rate-limited (--max-requests-per-minute 10)');
  },

  async 'metrics: the format parses and every family is there'() {
    const { types, values } = await metrics();
    for (const [type, names] of Object.entries(FAMILIES)) {
      for (const n of names) assert.equal(types[`schach_${n}`], type, `schach_${n} is a ${type}`);
    }
    for (const name of Object.keys(types)) assert.ok(name.startsWith('schach_'), `${name}: prefix`);
    assert.equal(values.schach_draining, 0);
    assert.equal(values.schach_store_up, 1);
    // The backend the test runs against (tests/server/server.bash, SCHACH_TEST_BACKEND).
    const backend = process.env.SCHACH_TEST_BACKEND === 'postgresql' ? 'postgresql' : 'sqlite';
    assert.equal(values[`schach_store_info{backend="${backend}"}`] ?? values['schach_store_info{backend="unknown"}'], 1,
      'store_info names the backend');
  },
};

// What a counter, gauge or histogram count moved by between two readings.
const delta = (a, b, name) => b.values[name] - a.values[name];

const played = {
  async 'metrics: the values move when moves are played'() {
    const before = await metrics();
    const g = await friendGame();
    const ws = await WsClient.open();
    ws.send({ type: 'subscribe', game: g.id });
    await ws.state(g.id, 0);
    await playMoves(g, OPERA.slice(0, 3));
    ws.send({ type: 'move', game: g.id, secret: g.black, ply: 3, move: OPERA[3], id: 1 });
    assert.equal((await ws.reply(1)).type, 'ack');
    assert.equal((await getState(g.id)).ply, 4);
    const after = await metrics();
    assert.equal(delta(before, after, 'schach_moves_committed_total'), 4, 'moves committed');
    assert.equal(delta(before, after, 'schach_changes_committed_total'), 6, 'changes: create, join, 4 moves');
    assert.equal(delta(before, after, 'schach_move_latency_seconds_count'), 4, 'move latencies');
    assert.ok(delta(before, after, 'schach_move_latency_seconds_sum') > 0, 'latency sum');
    // In the buckets (how long they took is the machine's business: a busy one is slow).
    assert.equal(delta(before, after, 'schach_move_latency_seconds_bucket{le="+Inf"}'), 4, 'latencies in the buckets');
    assert.equal(delta(before, after, 'schach_games_in_play'), 1, 'games in play');
    assert.equal(after.values.schach_websockets, 1, 'one WebSocket open');
    assert.equal(after.values.schach_subscriptions, 1, 'one subscription');
    assert.ok(after.values.schach_http_connections >= 1, 'the scraper itself is an HTTP connection');
    assert.equal(after.values.schach_pending_changes, 0, 'nothing pending');
    if (after.values['schach_store_info{backend="unknown"}'] === undefined) {
      // A backend with statistics: six writes, in at least one transaction each (no overlap here).
      assert.equal(delta(before, after, 'schach_store_ops_committed_total'), 6, 'store ops committed');
      assert.ok(delta(before, after, 'schach_store_batches_total') >= 1, 'store batches');
      assert.ok(delta(before, after, 'schach_store_commit_seconds_count') >= 1, 'commit times');
    }
    ws.close();
    await ws.closed('websocket');
    let open = 1;
    for (let i = 0; i < 1000 && open; i++) {
      open = (await metrics()).values.schach_websockets;
      if (open) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(open, 0, 'the WebSocket is no longer counted');
  },
};

const mode = process.argv[2];
if (mode !== 'limited' && mode !== 'values') throw new Error('usage: ops.mjs limited|values');
await runTests(mode === 'limited' ? limited : played);
