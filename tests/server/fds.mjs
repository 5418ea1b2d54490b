// Out of file descriptors (issue 10, defect 1): the server runs with 256 descriptors; a flood of
// connections from several addresses must not make it spin or flood its log, the connection it
// already has keeps being answered, and once the flood ends new connections are served again.
import fs from 'node:fs';
import net from 'node:net';
import { api, assert, BASE, runTests } from './lib.mjs';

const url = new URL(BASE);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A keep-alive connection; ask() sends one GET and resolves with the answer's status line.
function keepAlive() {
  return new Promise((resolve, reject) => {
    const sock = net.connect(Number(url.port), url.hostname);
    let data = '';
    let waiter = null;
    sock.on('data', (d) => {
      data += d.toString('latin1'); // Content-Length counts bytes
      const m = /\r\n\r\n/.exec(data);
      const len = /content-length: *(\d+)/i.exec(data);
      if (waiter && m && len && data.length >= m.index + 4 + Number(len[1])) {
        const line = data.split('\r\n')[0];
        data = '';
        waiter(line);
        waiter = null;
      }
    });
    sock.on('error', () => {});
    sock.on('connect', () => resolve({
      sock,
      ask: (timeoutMs = 20000) => new Promise((res, rej) => {
        const t = setTimeout(() => rej(new Error('no answer on the kept connection')), timeoutMs);
        waiter = (line) => { clearTimeout(t); res(line); };
        sock.write('GET /api/levels HTTP/1.1\r\nHost: x\r\n\r\n');
      }),
    }));
    sock.on('error', reject);
  });
}

// Opens n connections from `from` and keeps them; resolves once each is connected or failed.
function flood(n, from) {
  return Promise.all(Array.from({ length: n }, () => new Promise((resolve) => {
    const sock = net.connect({ host: url.hostname, port: Number(url.port), localAddress: from });
    sock.on('connect', () => resolve(sock));
    sock.on('error', () => resolve(sock));
    sock.setTimeout(5000, () => resolve(sock));
  })));
}

await runTests({
  async 'a flood of connections: no spinning, no log flood, the kept connection served'() {
    const kept = await keepAlive();
    assert.match(await kept.ask(), /^HTTP\/1\.1 200/, 'before the flood');
    // The kept connection asks every half second while the flood goes on (an idle keep-alive
    // connection is closed after a few seconds anyway).
    let flooding = true;
    const asking = (async () => {
      let n = 0;
      while (flooding) {
        assert.match(await kept.ask(), /^HTTP\/1\.1 200/, `the kept connection during the flood (${n++})`);
        await sleep(500);
      }
      return n;
    })();
    const socks = [];
    for (let a = 2; a <= 7; a++) socks.push(...await flood(100, `127.0.0.${a}`));
    await sleep(2000);
    flooding = false;
    assert.ok(await asking >= 2, 'the kept connection was answered during the flood');
    const logBytes = fs.statSync(process.env.SERVER_ERR).size;
    assert.ok(logBytes < 20000, `the log grew to ${logBytes} bytes during the flood`);
    for (const s of socks) s.destroy();
    let served = null;
    for (let t = 0; t < 100 && !served; t++) {
      await sleep(100);
      served = await api('GET', '/api/levels').catch(() => null);
    }
    assert.ok(served && served.status === 200, 'a new connection after the flood is served');
    kept.sock.destroy();
    const after = fs.statSync(process.env.SERVER_ERR).size;
    assert.ok(after < 20000, `the log grew to ${after} bytes`);
  },
});
