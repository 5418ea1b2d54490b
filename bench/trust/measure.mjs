// The accounts' reads under load, for bench/trust.sh: p50 and p99 of the player page, /api/me, the
// seek list and a 10,000-game PGN export, and a visitor's login while one other address holds 64
// heavy reads in flight. Plain HTTP from node's own client; the attacker and the visitor use two
// loopback source addresses (127.0.0.2 and 127.0.0.1), so per-address limits see two clients.
//
//   node measure.mjs PORT HEAVY_NAME VISITOR_NAME PASSWORD
import http from 'node:http';

const [port, heavy, visitor, password] = process.argv.slice(2);
const agentFor = (address) => new http.Agent({ keepAlive: false, localAddress: address, maxSockets: 1000 });
const visitorAgent = agentFor('127.0.0.1');
const attackerAgent = agentFor('127.0.0.2');

function request(agent, method, path, { body, cookie, timeoutMs = 60000 } = {}) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const data = body ? JSON.stringify(body) : null;
    const headers = { 'Content-Type': 'application/json' };
    if (data) headers['Content-Length'] = Buffer.byteLength(data);
    if (cookie) headers.Cookie = cookie;
    const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
      let size = 0;
      const chunks = [];
      res.on('data', (c) => { size += c.length; if (size < 65536) chunks.push(c); });
      res.on('end', () => resolve({
        status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6, size,
        headers: res.headers, text: Buffer.concat(chunks).toString(),
      }));
      res.on('error', () => resolve({ status: 0, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
    if (data) req.write(data);
    req.end();
  });
}

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const row = (what, rs) => {
  const ok = rs.filter((r) => r.status === 200).length;
  const ms = rs.map((r) => r.ms);
  console.log(`| ${what} | ${rs.length} | ${ok} | ${quantile(ms, 0.5).toFixed(1)} | ${quantile(ms, 0.99).toFixed(1)} | ${Math.max(...ms).toFixed(1)} |`);
};

async function series(n, fn) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await fn(i));
  return out;
}

const login = await request(visitorAgent, 'POST', '/api/session', { body: { username: visitor, password } });
if (login.status !== 200) {
  console.error(`measure.mjs: the visitor cannot log in: ${login.status} ${login.text}`);
  process.exit(1);
}
const cookie = String(login.headers['set-cookie']).split(';')[0];

console.log('| request (one at a time) | requests | 200 | p50 ms | p99 ms | max ms |');
console.log('|---|---|---|---|---|---|');
row(`GET /api/players/${heavy} (page 0)`, await series(200, () => request(visitorAgent, 'GET', `/api/players/${heavy}`)));
row(`GET /api/players/${heavy}?page=400`, await series(100, () => request(visitorAgent, 'GET', `/api/players/${heavy}?page=400`)));
row(`GET /api/players/${heavy}?page=100000`, await series(100, () => request(visitorAgent, 'GET', `/api/players/${heavy}?page=100000`)));
row('GET /api/me', await series(200, () => request(visitorAgent, 'GET', '/api/me', { cookie })));
row('GET /api/seeks', await series(200, () => request(visitorAgent, 'GET', '/api/seeks')));
const pgn = await series(5, () => request(visitorAgent, 'GET', `/api/players/${heavy}/pgn`));
row(`GET /api/players/${heavy}/pgn (${(pgn[0].size / 1048576).toFixed(1)} MiB)`, pgn);
// A login's own cost (Argon2id) without any load, each from an address and account of its own.
row('POST /api/session (login, no load)', await series(10, (i) => request(agentFor(`127.0.2.${i + 1}`), 'POST',
  '/api/session', { body: { username: `player${String(200 + i).padStart(5, '0')}`, password } })));

// One address holds 64 heavy reads in flight, again and again; the visitor logs in meanwhile.
let attacking = true;
const attackAnswers = new Map();
async function attacker() {
  while (attacking) {
    const r = await request(attackerAgent, 'GET', `/api/players/${heavy}?page=${99000 + Math.floor(Math.random() * 1000)}`);
    attackAnswers.set(r.status, (attackAnswers.get(r.status) || 0) + 1);
  }
}
const attackers = Array.from({ length: 64 }, attacker);
await new Promise((r) => setTimeout(r, 1000));
// Thirty visitors, each from an address of its own and with an account of its own (player00100 on),
// so that no per-address or per-name limit of logins is what they meet.
const logins = await series(30, (i) => request(agentFor(`127.0.1.${i + 1}`), 'POST', '/api/session',
  { body: { username: `player${String(100 + i).padStart(5, '0')}`, password } }));
const seeks = await series(30, () => request(visitorAgent, 'GET', '/api/seeks'));
attacking = false;
await Promise.all(attackers);
console.log('');
console.log('| while one address holds 64 player-page reads | requests | 200 | p50 ms | p99 ms | max ms |');
console.log('|---|---|---|---|---|---|');
row('POST /api/session (login, another address)', logins);
row('GET /api/seeks (another address)', seeks);
console.log('');
console.log(`the attacker's answers: ${[...attackAnswers].map(([s, n]) => `${n} × ${s}`).join(', ')}`);
const slow = logins.filter((r) => r.status !== 200 || r.ms > 1000).length;
console.log(`logins not answered 200 within 1 s: ${slow} of ${logins.length}`);
process.exit(slow ? 1 : 0);
