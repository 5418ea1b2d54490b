// Helpers of the cluster tests (tests/cli/cluster_*.sh start the cluster with tests/cli/lib/cluster.bash):
// the nodes' and HAProxy's addresses, requests and WebSockets to a chosen one, PostgreSQL through psql,
// and positions computed independently of the server by `schach moves`.
import { execFileSync } from 'node:child_process';
import { api as keptAliveApi, assert, expectError, expectOk, WsClient } from './lib.mjs';

export const FRONT = process.env.SCHACH_URL;
export const NODES = (process.env.CLUSTER_NODE_URLS || '').split(' ').filter(Boolean);
const PG_URI = process.env.PG_URI;
const SCHACH = process.env.SCHACH;
if (NODES.length !== 3 || !PG_URI || !SCHACH) throw new Error('CLUSTER_NODE_URLS, PG_URI or SCHACH is not set');

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A request on a connection of its own (Connection: close). These tests run psql and schach
// synchronously (sql, positionAfter), which stops node's event loop: on a busy machine for longer than a
// node keeps an idle connection (about 5 s), and a kept-alive connection the node closed meanwhile would
// be reused before node noticed: "fetch failed", other side closed.
export const api = (method, path, body, { headers = {} } = {}) =>
  keptAliveApi(method, path, body, { headers: { connection: 'close', ...headers } });

// A request to one base URL (a node or HAProxy).
export const at = (base, method, path, body) => api(method, new URL(path, base).href, body);

// A WebSocket to base; query ("?game=ID", as the game page sends it) lets HAProxy route by game.
export async function wsAt(base, query = '') {
  const url = new URL(`/ws${query}`, base);
  return WsClient.open(url.href);
}

// A WebSocket subscribed to game id on base; resolves once the first state arrived (returned as .first).
export async function subscribed(base, id, what) {
  const c = await wsAt(base);
  c.send({ type: 'subscribe', game: id });
  c.first = (await c.next((m) => m.type === 'state' && m.game === id, `${what}: state after subscribe`)).state;
  return c;
}

// A friend game created on one base and joined on another: {id, white, black, state}.
export async function gameOn(createBase, joinBase, time = { type: 'none' }) {
  const created = expectOk(await at(createBase, 'POST', '/api/games', { mode: 'friend', color: 'white', time }), 'create', 201);
  const joined = expectOk(await at(joinBase, 'POST', `/api/games/${created.id}/join`, { invite: created.invite }), 'join');
  assert.equal(joined.color, 'black');
  return { id: created.id, white: created.secret, black: joined.secret, state: joined.state };
}

// One SQL query's rows (psql -A -t: fields separated by |).
export function sql(query) {
  const out = execFileSync('psql', ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', PG_URI, '-c', query],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return out.split('\n').filter((l) => l.length).map((l) => l.split('|'));
}

// The games row of id: {result, termination, rev, plies, moves (rows in moves), maxPly}.
export function gameRow(id) {
  const [row] = sql(`SELECT g.result, g.termination, g.rev, g.plies, count(m.ply), coalesce(max(m.ply), -1),
      count(DISTINCT m.ply) FROM games g LEFT JOIN moves m ON m.game_id = g.id WHERE g.id = '${id}'
      GROUP BY g.id`);
  assert.ok(row, `no row of game ${id} in PostgreSQL`);
  const [result, termination, rev, plies, moves, maxPly, distinct] = row;
  return { result, termination, rev: Number(rev), plies: Number(plies), moves: Number(moves),
    maxPly: Number(maxPly), distinctPlies: Number(distinct) };
}

// Every row of moves of game id and ply (more than one would be a fork).
export const moveRows = (id, ply) => Number(sql(`SELECT count(*) FROM moves WHERE game_id = '${id}' AND ply = ${ply}`)[0][0]);

// The position after moves, by the rules core on the command line (not the server): {fen, moves: [{san, uci}], outcome}.
export function positionAfter(moves) {
  const args = ['moves', '--json'];
  if (moves.length) args.push('--moves', moves.join(' '));
  return JSON.parse(execFileSync(SCHACH, args, { encoding: 'utf8' }));
}

// A Prometheus sample of base's /metrics (a node's; HAProxy refuses it).
export async function metric(base, name) {
  const r = await at(base, 'GET', '/metrics');
  assert.equal(r.status, 200, `/metrics of ${base}`);
  const m = r.text.match(new RegExp(`^${name} (\\S+)$`, 'm'));
  assert.ok(m, `${name} in /metrics of ${base}`);
  return Number(m[1]);
}

// Polls fn (async, returns a value or undefined/false) until it gives something, for up to ms.
export async function until(fn, what, ms = 30000, every = 100) {
  const end = Date.now() + ms;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
      last = v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms (last: ${last instanceof Error ? last.stack : JSON.stringify(last)})`);
    await sleep(every);
  }
}

// A move over HTTP on base; returns the response (status, json).
export const httpMove = (base, g, secret, ply, move) => at(base, 'POST', `/api/games/${g.id}/move`, { secret, ply, move });

let nextId = 1;
// A move over a WebSocket; resolves with the ack or error message.
export function wsMove(client, g, secret, ply, move) {
  const id = nextId++;
  client.send({ type: 'move', game: g.id, secret, ply, move, id });
  return client.reply(id, `move ${move} at ply ${ply} over WebSocket`);
}

export { assert, expectError, expectOk };
