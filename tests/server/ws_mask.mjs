// Unmasked client frames (issue 10, defect 8): RFC 6455 5.1 says the server MUST close the connection
// upon a client frame that is not masked (and MAY send Close 1002 first). The clients here speak
// WebSocket on a raw socket, so they can send what a browser never would: unmasked frames, frames in
// the same write as the handshake, frames split across writes. Masked frames must still work in every
// one of these shapes, and nothing of an unmasked frame may reach the game.
import net from 'node:net';
import { api, assert, BASE, clientFrame, friendGame, getState, rawHandshake, runTests, WsClient } from './lib.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A WebSocket client on a raw socket. It reads the server's answer to the handshake and then its
// frames (unmasked, as a server sends them): text messages as JSON into inbox, a Close frame's code
// into closeCode; ended is true once the server closed the TCP connection.
class RawClient {
  // before: bytes sent ahead of the handshake in the same write (a request of its own).
  static open(extra = Buffer.alloc(0), before = Buffer.alloc(0)) {
    const url = new URL(BASE);
    const c = new RawClient();
    return new Promise((resolve, reject) => {
      c.sock = net.connect(Number(url.port), url.hostname, () => {
        c.sock.write(Buffer.concat([before, rawHandshake(), extra]));
      });
      c.sock.on('data', (d) => c.receive(d));
      c.sock.on('error', () => {});
      c.sock.on('close', () => { c.ended = true; c.wake(); });
      c.ready = { resolve, reject };
      setTimeout(() => reject(new Error('no answer to the handshake within 60 s')), 60000).unref();
    });
  }

  constructor() {
    this.buf = Buffer.alloc(0);
    this.upgraded = false;
    this.inbox = [];
    this.closeCode = null;
    this.ended = false;
    this.waiters = [];
  }

  receive(d) {
    this.buf = Buffer.concat([this.buf, d]);
    if (!this.upgraded) {
      const end = this.buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = this.buf.subarray(0, end).toString('latin1');
      this.buf = this.buf.subarray(end + 4);
      const length = /content-length: *(\d+)/i.exec(head);
      if (!/^HTTP\/1\.1 101/.test(head) && length && /^HTTP\/1\.1 200/.test(head)) {
        // The answer to a request sent ahead of the handshake: skip its body, read on.
        if (this.buf.length < Number(length[1])) { this.buf = Buffer.concat([Buffer.from(head + '\r\n\r\n', 'latin1'), this.buf]); return; }
        this.buf = this.buf.subarray(Number(length[1]));
        this.receive(Buffer.alloc(0));
        return;
      }
      if (!/^HTTP\/1\.1 101/.test(head)) { this.ready.reject(new Error(`no upgrade: ${head}`)); return; }
      this.upgraded = true;
      this.ready.resolve(this);
    }
    for (;;) {
      if (this.buf.length < 2) break;
      let len = this.buf[1] & 0x7f, off = 2;
      if (len === 126) { if (this.buf.length < 4) break; len = this.buf.readUInt16BE(2); off = 4; }
      else if (len === 127) { if (this.buf.length < 10) break; len = Number(this.buf.readBigUInt64BE(2)); off = 10; }
      if (this.buf.length < off + len) break;
      const opcode = this.buf[0] & 0x0f, payload = this.buf.subarray(off, off + len);
      this.buf = this.buf.subarray(off + len);
      if (opcode === 1) this.inbox.push(JSON.parse(payload.toString('utf8')));
      else if (opcode === 8) this.closeCode = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
    }
    this.wake();
  }

  wake() { for (const w of [...this.waiters]) w(); }

  // Resolves once pred() holds, rejects after timeoutMs.
  until(pred, what, timeoutMs = 60000) {
    return new Promise((resolve, reject) => {
      const check = () => { if (pred()) { done(); resolve(); } };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${what}: not within ${timeoutMs} ms (inbox ${JSON.stringify(this.inbox)}, ` +
          `close ${this.closeCode}, ended ${this.ended})`));
      }, timeoutMs);
      const done = () => { clearTimeout(timer); this.waiters = this.waiters.filter((w) => w !== check); };
      this.waiters.push(check);
      check();
    });
  }

  pong(id) { return this.until(() => this.inbox.some((m) => m.type === 'pong' && m.id === id), `pong ${id}`); }

  // The server closed the connection: the TCP connection ended, after a Close 1002 if one came.
  async refused(what) {
    await this.until(() => this.ended, `${what}: the server closes the connection`);
    if (this.closeCode !== null) assert.equal(this.closeCode, 1002, `${what}: close code`);
  }

  write(b) { this.sock.write(b); }
  destroy() { this.sock.destroy(); }
}

const ping = (id) => ({ type: 'ping', id });

// The server still serves everybody else.
async function othersServed() {
  const r = await api('GET', '/api/games?ids=');
  assert.ok(r.status < 500, `HTTP still answers: ${r.status}`);
  const ws = await WsClient.open();
  try {
    ws.send(ping(99));
    await ws.reply(99, 'a regular client still gets its pong');
  } finally {
    ws.close();
  }
}

await runTests({
  async 'masked frames are answered (short, 16-bit length, split across writes)'() {
    const c = await RawClient.open();
    try {
      c.write(clientFrame(ping(1)));
      await c.pong(1);
      const long = 'x'.repeat(300);
      c.write(clientFrame(ping(long)));
      await c.pong(long);
      const f = clientFrame(ping(3));
      for (const part of [f.subarray(0, 1), f.subarray(1, 3), f.subarray(3, 7), f.subarray(7)]) {
        c.write(part);
        await sleep(30);
      }
      await c.pong(3);
      assert.equal(c.ended, false, 'the connection stays open');
    } finally {
      c.destroy();
    }
  },

  async 'masked frames in the same write as the handshake are answered'() {
    const c = await RawClient.open(Buffer.concat([clientFrame(ping(1)), clientFrame(ping(2))]));
    try {
      await c.pong(1);
      await c.pong(2);
    } finally {
      c.destroy();
    }
  },

  async 'an unmasked frame closes the connection'() {
    const c = await RawClient.open();
    try {
      c.write(clientFrame(ping(1)));
      await c.pong(1);
      c.write(clientFrame(ping(2), { masked: false }));
      await c.refused('unmasked ping');
      assert.ok(!c.inbox.some((m) => m.id === 2), 'no pong to the unmasked ping');
    } finally {
      c.destroy();
    }
    await othersServed();
  },

  async 'an unmasked frame in the same write as the handshake closes the connection'() {
    const c = await RawClient.open(clientFrame(ping(1), { masked: false }));
    try {
      await c.refused('unmasked ping with the handshake');
      assert.ok(!c.inbox.some((m) => m.id === 1), 'no pong to the unmasked ping');
    } finally {
      c.destroy();
    }
  },

  async 'after a request on the same connection: masked frames answered, an unmasked one refused'() {
    const before = Buffer.from('GET /api/levels HTTP/1.1\r\nHost: x\r\n\r\n', 'latin1');
    const good = await RawClient.open(clientFrame(ping(1)), before);
    try {
      await good.pong(1);
    } finally {
      good.destroy();
    }
    const bad = await RawClient.open(Buffer.concat([clientFrame(ping(2), { masked: false }), clientFrame(ping(3))]), before);
    try {
      await bad.refused('unmasked ping after a request');
      for (const id of [2, 3]) assert.ok(!bad.inbox.some((m) => m.id === id), `no pong ${id}`);
    } finally {
      bad.destroy();
    }
  },

  async 'an unmasked frame after masked ones in one write closes the connection'() {
    const c = await RawClient.open();
    try {
      c.write(Buffer.concat([clientFrame(ping(1)), clientFrame(ping(2)), clientFrame(ping(3), { masked: false }), clientFrame(ping(4))]));
      await c.refused('unmasked ping after masked ones');
      for (const id of [3, 4]) assert.ok(!c.inbox.some((m) => m.id === id), `no pong ${id}`);
    } finally {
      c.destroy();
    }
  },

  async 'an unmasked frame whose header arrives in pieces closes the connection'() {
    const c = await RawClient.open();
    try {
      const f = clientFrame(ping(1), { masked: false });
      c.write(f.subarray(0, 1));
      await sleep(50);
      c.write(f.subarray(1));
      await c.refused('unmasked ping in pieces');
      assert.ok(!c.inbox.some((m) => m.id === 1), 'no pong');
    } finally {
      c.destroy();
    }
  },

  async 'an unmasked move changes nothing'() {
    const g = await friendGame();
    const c = await RawClient.open();
    try {
      c.write(clientFrame({ type: 'move', game: g.id, secret: g.white, ply: 0, move: 'e4', id: 7 }, { masked: false }));
      await c.refused('unmasked move');
      assert.ok(!c.inbox.some((m) => m.id === 7), 'no answer to the unmasked move');
    } finally {
      c.destroy();
    }
    assert.equal((await getState(g.id)).ply, 0, 'the unmasked move was not played');
    // The same move, masked, is played.
    const ok = await RawClient.open(clientFrame({ type: 'move', game: g.id, secret: g.white, ply: 0, move: 'e4', id: 8 }));
    try {
      await ok.until(() => ok.inbox.some((m) => m.type === 'ack' && m.id === 8), 'ack of the masked move');
    } finally {
      ok.destroy();
    }
    assert.equal((await getState(g.id)).ply, 1, 'the masked move was played');
  },

  async 'other protocol errors close the connection: reserved bits, reserved opcode, long or fragmented ping'() {
    const bad = {
      'RSV1 without an extension': (() => { const f = clientFrame(ping(1)); f[0] |= 0x40; return f; })(),
      'opcode 3': clientFrame(ping(1), { opcode: 3 }),
      'ping with 126 bytes': clientFrame(Buffer.alloc(126, 0x61), { opcode: 9 }),
      'fragmented ping': (() => { const f = clientFrame(Buffer.from('ab'), { opcode: 9 }); f[0] &= 0x7f; return f; })(),
      'continuation without a start': clientFrame(ping(1), { opcode: 0 }),
    };
    for (const [what, bytes] of Object.entries(bad)) {
      const c = await RawClient.open();
      try {
        c.write(Buffer.concat([bytes, clientFrame(ping(2))]));
        await c.refused(what);
        assert.ok(!c.inbox.some((m) => m.id === 2), `${what}: nothing after it is answered`);
      } finally {
        c.destroy();
      }
    }
    await othersServed();
  },
});
