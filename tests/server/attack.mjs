// Requests an attacker sends (issue 10, defects 2 and 8): a refused request changes nothing.
// - a duplicated or malformed Content-Length, chunked bodies, Content-Length with Transfer-Encoding:
//   400/411 and the connection closed, the game still in play, no game created;
// - text after a NUL byte in a body: 400 and nothing done;
// - HEAD: the headers of the GET answer, no body (a keep-alive client reads the next answer right);
// - PUT/DELETE/PATCH on static files: 405 with Allow; symlinks out of the web folder: 404.
// GAMES_FILE: the test writes the number of games it created on purpose there; server_attack.sh
// compares it with the database after the server stopped.
import fs from 'node:fs';
import net from 'node:net';
import { api, assert, BASE, expectOk, friendGame, getState, runTests } from './lib.mjs';

let created = 0;
async function game() {
  const g = await friendGame();
  created++;
  return g;
}

// Sends bytes on a fresh connection; resolves with everything received once the server closed it
// (or after timeoutMs, then closed: false; generous: a busy machine answers late).
function rawExchange(bytes, timeoutMs = 30000) {
  const url = new URL(BASE);
  return new Promise((resolve) => {
    const sock = net.connect(Number(url.port), url.hostname);
    let data = '';
    let done = false;
    const finish = (closed) => { if (!done) { done = true; sock.destroy(); resolve({ data, closed }); } };
    sock.on('data', (d) => { data += d.toString('latin1'); });
    sock.on('end', () => finish(true));
    sock.on('close', () => finish(true));
    sock.on('error', () => finish(true));
    setTimeout(() => finish(false), timeoutMs).unref(); // does not keep node alive once all is done
    sock.write(bytes);
  });
}

const statusOf = (data) => Number((/^HTTP\/1\.1 (\d{3})/.exec(data) || [])[1] || 0);

await runTests({
  async 'a duplicated or malformed Content-Length is refused and changes nothing'() {
    for (const variant of ['twice', 'comma', 'space', 'plus', 'minus', 'hex']) {
      const g = await game();
      const body = JSON.stringify({ secret: g.white });
      const n = Buffer.byteLength(body);
      const header = {
        twice: `Content-Length: ${n}\r\nContent-Length: ${n}`,
        comma: `Content-Length: ${n},${n}`,
        space: `Content-Length: ${n} `,
        plus: `Content-Length: +${n}`,
        minus: 'Content-Length: -1',
        hex: `Content-Length: 0x${n.toString(16)}`,
      }[variant];
      const head = `POST /api/games/${g.id}/resign HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${header}\r\n\r\n`;
      const { data } = await rawExchange(head + body);
      const status = statusOf(data);
      assert.ok(status >= 400 && status < 500, `${variant}: want a 4xx refusal, got ${JSON.stringify(data.slice(0, 120))}`);
      const s = await getState(g.id);
      assert.equal(s.outcome, null, `${variant}: the resignation was carried out: ${JSON.stringify(s.outcome)}`);
      // A game created by a refused request would be one the client never got the secret of.
      const create = JSON.stringify({ mode: 'friend', color: 'white', time: { type: 'none' } });
      const m = Buffer.byteLength(create);
      const ch = header.replaceAll(String(n), String(m)).replace(n.toString(16), m.toString(16));
      const r = await rawExchange(`POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${ch}\r\n\r\n${create}`);
      assert.ok(statusOf(r.data) >= 400 && statusOf(r.data) < 500, `${variant} create: ${r.data.slice(0, 120)}`);
    }
  },

  async 'chunked bodies are refused, never read as a request of their own'() {
    const g = await game();
    const body = JSON.stringify({ secret: g.white });
    const chunk = `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    // The "body" is itself a request: a server that ignores Transfer-Encoding would carry it out.
    const inner = `POST /api/games/${g.id}/resign HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    for (const [what, bytes] of [
      ['chunked', `POST /api/games/${g.id}/resign HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${chunk}`],
      ['smuggled', `POST /api/levels HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${inner}`],
      ['length and chunked', `POST /api/games/${g.id}/resign HTTP/1.1\r\nHost: x\r\nContent-Length: ${Buffer.byteLength(chunk)}\r\n` +
        `Transfer-Encoding: chunked\r\n\r\n${chunk}`],
    ]) {
      const { data, closed } = await rawExchange(bytes);
      const status = statusOf(data);
      assert.ok(status === 400 || status === 411, `${what}: want 400 or 411, got ${JSON.stringify(data.slice(0, 200))}`);
      assert.equal((data.match(/HTTP\/1\.1 /g) || []).length, 1, `${what}: one answer only: ${JSON.stringify(data)}`);
      assert.ok(closed, `${what}: the connection stays open`);
      assert.equal((await getState(g.id)).outcome, null, `${what}: the game changed`);
    }
  },

  async 'text after a NUL byte is refused'() {
    const g = await game();
    const r = await api('POST', `/api/games/${g.id}/resign`, `{"secret":"${g.white}"}\u0000garbage`);
    assert.equal(r.status, 400, `NUL: ${r.status} ${r.text}`);
    assert.equal(r.json.error.code, 'bad_json');
    assert.equal((await getState(g.id)).outcome, null, 'the game changed');
    const c = await api('POST', '/api/games', '{"mode":"friend","color":"white","time":{"type":"none"}}\u0000x');
    assert.equal(c.status, 400, `NUL in create: ${c.status}`);
  },

  async 'HEAD answers with headers only'() {
    const g = await game();
    for (const path of [`/api/games/${g.id}`, '/api/levels', '/', '/index.html', '/api/nothing']) {
      const get = await api('GET', path);
      // Two requests on one connection: a body after the HEAD answer would be read as the second answer.
      const { data } = await rawExchange(`HEAD ${path} HTTP/1.1\r\nHost: x\r\n\r\nGET /api/levels HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      const first = data.indexOf('\r\n\r\n');
      assert.ok(first > 0, `${path}: no answer`);
      assert.equal(statusOf(data), get.status, `${path}: HEAD status`);
      assert.match(data.slice(0, first), new RegExp(`content-length: ${Buffer.byteLength(get.text)}`, 'i'),
        `${path}: HEAD's Content-Length is the GET body's`);
      const rest = data.slice(first + 4);
      assert.ok(rest.startsWith('HTTP/1.1 200'), `${path}: a body followed the HEAD answer: ${JSON.stringify(rest.slice(0, 80))}`);
    }
  },

  async 'static files: GET and HEAD only'() {
    for (const method of ['PUT', 'DELETE', 'PATCH', 'POST']) {
      for (const path of ['/', '/index.html']) {
        const r = await api(method, path, method === 'DELETE' ? undefined : 'x');
        assert.equal(r.status, 405, `${method} ${path}: ${r.status}`);
        assert.match(r.headers.get('allow') || '', /GET/, `${method} ${path}: Allow`);
      }
    }
  },

  async 'symlinks out of the web folder are not followed'() {
    if (process.env.ATTACK_SYMLINKS === '1') {
      for (const path of ['/outside.txt', '/outdir/secret.txt', '/vendor/chessground/outside.txt']) {
        const r = await api('GET', path);
        assert.equal(r.status, 404, `${path}: ${r.status} ${r.text.slice(0, 60)}`);
        assert.ok(!r.text.includes('top secret'), `${path} leaked`);
      }
      const inside = await api('GET', '/inside-link.html');
      assert.equal(inside.status, 200, 'a symlink inside the folder is served');
    }
  },
});

if (process.env.GAMES_FILE) fs.writeFileSync(process.env.GAMES_FILE, String(created));
await expectOk(await api('GET', '/api/recent'), 'server still answers');
