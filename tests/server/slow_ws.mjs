// WebSocket clients that stop reading (issue 10, defect 3): once the server's queue for one is over
// its limit, the server closes it within seconds, whatever the socket's state, and keeps serving the
// others. A slow client is made by pausing its socket (nothing more is read from the kernel) while it
// asks for the full state again and again; its server-side connection must leave ESTABLISHED.
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { api, assert, BASE, clientFrame, friendGame, rawHandshake, runTests, WsClient } from './lib.mjs';

const port = new URL(BASE).port;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The server's end of the connection from localPort still ESTABLISHED?
function established(localPort) {
  const out = execFileSync('ss', ['-Htn', 'state', 'established', `( sport = :${port} and dport = :${localPort} )`],
    { encoding: 'utf8' });
  return out.trim().length > 0;
}

// A WebSocket client on a raw socket (ws resumes a paused socket by itself): after the handshake it
// reads nothing more, ever, but keeps sending.
function stubbornClient() {
  const url = new URL(BASE);
  return new Promise((resolve, reject) => {
    const sock = net.connect(Number(url.port), url.hostname);
    let head = '';
    const onData = (d) => {
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      sock.off('data', onData);
      if (!/^HTTP\/1\.1 101/.test(head)) { reject(new Error(`no upgrade: ${head}`)); return; }
      sock.pause();
      resolve(sock);
    };
    sock.on('data', onData);
    sock.on('error', () => {});
    sock.write(rawHandshake());
  });
}

// The bytes waiting in the kernel on the server's side of that connection (0 when it is gone).
function sendQueue(localPort) {
  const out = execFileSync('ss', ['-Htn', 'state', 'established', `( sport = :${port} and dport = :${localPort} )`],
    { encoding: 'utf8' }).trim();
  return out ? Number(out.split(/\s+/)[1]) : 0;
}

await runTests({
  async 'clients that stop reading are closed, the others served'() {
    const g = await friendGame();
    const good = await WsClient.open();
    good.send({ type: 'subscribe', game: g.id });
    await good.state(g.id, 0, 'the reading client subscribed');

    const slow = [];
    try {
    for (let i = 0; i < 3; i++) {
      const sock = await stubbornClient();
      slow.push({ sock, localPort: sock.localPort });
    }
    for (const { localPort } of slow) assert.ok(established(localPort), 'the slow client is connected');
    // Each subscribe sends the whole state again. First a trickle, so the server's queue drains into
    // the kernel until the socket's buffers are full (its Send-Q stops growing) and it is no longer
    // writeable; then a burst over the queue's limit: the case the old server never closed.
    const subscribe = clientFrame(JSON.stringify({ type: 'subscribe', game: g.id }));
    const trickle = Buffer.concat(Array(4).fill(subscribe));
    let last = -1, still = 0;
    for (let i = 0; i < 4000 && still < 5 && slow.some(({ localPort }) => established(localPort)); i++) {
      for (const { sock } of slow) sock.write(trickle);
      await sleep(5);
      if (i % 20 === 19) {
        const q = Math.min(...slow.map(({ localPort }) => sendQueue(localPort)));
        still = q > 0 && q <= last ? still + 1 : 0;
        last = Math.max(last, q);
      }
    }
    const burst = Buffer.concat(Array(600).fill(subscribe));
    for (const { sock } of slow) sock.write(burst);

    let open = slow.length;
    for (let t = 0; t < 300 && open > 0; t++) {
      await sleep(100);
      open = slow.filter(({ localPort }) => established(localPort)).length;
    }
    assert.equal(open, 0, `${open} client(s) that stopped reading are still connected after 30 s`);

    // The reading client still gets every state, HTTP still answers.
    const r = await api('POST', `/api/games/${g.id}/move`, { secret: g.white, ply: 0, move: 'e4' });
    assert.equal(r.status, 200, r.text);
    await good.state(g.id, 1, 'the reading client sees the move');
    } finally {
      good.close();
      for (const { sock } of slow) sock.destroy();
    }
  },
});
