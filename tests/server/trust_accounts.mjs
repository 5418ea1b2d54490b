// The accounts room under one greedy address (issue 22, docs/api.md "Accounts", "Limits"): player pages
// and PGN exports (the heavy reads) are capped per address, answered 429 with a JSON error beyond the
// cap; while one address's heavy reads are held under way, another address still logs in, reads and
// posts seeks and asks who it is (they run on lanes of their own); the cap is freed when the client of
// a held read goes away. Open seeks are capped per anonymous address and per account (answered 409
// too_many_seeks), so a flood from a few addresses hides no real seek and breaks no quick pairing.
//
//   node trust_accounts.mjs HOLD   HOLD: the file whose existence holds the heavy reads' lane
//                                  (SCHACH_ACCOUNTS_HOLD, tests only); the server runs with
//                                  --trust-proxy 127.0.0.1, its limits' clock frozen.
import fs from 'node:fs';
import { api, assert, BASE, expectError, expectOk, namer, runTests } from './lib.mjs';

const HOLD = process.argv[2];
const fresh = namer('t');
const from = (address, extra = {}) => ({ headers: { 'x-forwarded-for': address, ...extra } });

// Waits for cond() to be true (polled), failing after a generous deadline.
async function until(cond, what, ms = 60000) {
  const end = Date.now() + ms;
  for (;;) {
    if (await cond()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// A request that may be aborted: settles with {status, json} or {aborted: true}.
function pending(path, address) {
  const ac = new AbortController();
  const p = fetch(new URL(path, BASE), { headers: { 'x-forwarded-for': address }, signal: ac.signal })
    .then(async (res) => {
      const text = await res.text();
      let json = null;
      try { json = JSON.parse(text); } catch { /* not JSON */ }
      return { status: res.status, json, text, retry: res.headers.get('retry-after') };
    })
    .catch((e) => (ac.signal.aborted ? { aborted: true } : { error: String(e) }));
  const r = { done: null, abort: () => ac.abort() };
  r.promise = p.then((v) => { r.done = v; return v; });
  return r;
}

await runTests({
  async 'heavy reads are capped per address; other addresses go on meanwhile'() {
    const name = fresh();
    const password = 'correct horse battery';
    expectOk(await api('POST', '/api/accounts', { username: name, password }, from('10.9.0.1')), 'sign up', 201);

    fs.writeFileSync(HOLD, 'hold');
    const greedy = '10.9.1.1';
    const reads = [];
    for (let i = 0; i < 10; i++)
      reads.push(pending(`/api/players/${name}${i % 2 ? '/pgn' : '?page=100000'}`, greedy));
    // Four are held under way; the other six are refused at once.
    await until(() => reads.filter((r) => r.done).length >= 6, 'six refusals');
    const refused = reads.filter((r) => r.done);
    assert.equal(refused.length, 6, `answers while four are held: ${JSON.stringify(refused.map((r) => r.done))}`);
    for (const r of refused) {
      assert.equal(r.done.status, 429, `refused: ${JSON.stringify(r.done)}`);
      assert.equal(r.done.json?.error?.code, 'rate_limited', `refused: ${r.done.text}`);
      assert.ok(Number(r.done.retry) >= 1, `Retry-After: ${r.done.retry}`);
    }

    // Another address meanwhile: log in, the lobby, a seek, who am I.
    const other = '10.9.2.2';
    const login = await api('POST', '/api/session', { username: name, password }, from(other));
    expectOk(login, 'login while heavy reads are held');
    const cookie = /schach_session=[^;]*/.exec(login.headers.get('set-cookie'))[0];
    expectOk(await api('GET', '/api/seeks', undefined, from(other)), 'the lobby while heavy reads are held');
    const me = expectOk(await api('GET', '/api/me', undefined, from(other, { cookie })), 'who am I');
    assert.equal(me.username, name);
    const seek = await api('POST', '/api/seeks', { time: { type: 'live', minutes: 5, increment: 0 }, color: 'random' },
      from(other));
    expectOk(seek, 'a seek while heavy reads are held', 201);
    await api('DELETE', `/api/seeks/${seek.json.id}`, { secret: seek.json.secret }, from(other));

    // The greedy client gives up on the held ones: once they are dropped, its share is free again.
    for (const r of reads.filter((x) => !x.done)) r.abort();
    await Promise.all(reads.map((r) => r.promise));
    fs.rmSync(HOLD);
    await until(async () => (await api('GET', `/api/players/${name}`, undefined, from(greedy))).status === 200,
      'a page for the greedy address once its reads are gone');
    for (let i = 0; i < 4; i++)
      expectOk(await api('GET', `/api/players/${name}?page=100000`, undefined, from(greedy)), `page ${i}`);
  },

  async 'a seek flood hides no real seek: open seeks are capped per address and per account'() {
    const flood = { time: { type: 'live', minutes: 1, increment: 0 }, color: 'white' };
    // Four addresses post 55 seeks each (under the 60 creations a minute): three each stay open.
    for (let f = 1; f <= 4; f++) {
      let open = 0;
      for (let i = 0; i < 55; i++) {
        const r = await api('POST', '/api/seeks', flood, from(`10.8.0.${f}`));
        if (r.status === 201) open++;
        else expectError(r, 409, 'too_many_seeks', `flood ${f}.${i}`);
      }
      assert.equal(open, 3, `open seeks of flooder ${f}`);
    }
    // A real seek from another address is listed, and quick pairing finds its partner.
    const real = expectOk(await api('POST', '/api/seeks', { time: { type: 'live', minutes: 3, increment: 2 } },
      from('10.8.1.1')), 'a real seek', 201);
    const list = expectOk(await api('GET', '/api/seeks', undefined, from('10.8.1.2')), 'the lobby');
    assert.ok(list.seeks.some((s) => s.id === real.id), 'the real seek is listed');
    const quick = { time: { type: 'live', minutes: 4, increment: 4 }, color: 'random', pool: true };
    expectOk(await api('POST', '/api/seeks', quick, from('10.8.2.1')), 'the first quick pairing waits', 201);
    const paired = await api('POST', '/api/seeks', quick, from('10.8.2.2'));
    expectOk(paired, 'the second quick pairing is paired');
    assert.equal(paired.status, 200);
    // An account: three open seeks, wherever it posts from; one withdrawn makes room for another.
    const who = fresh();
    const signed = await api('POST', '/api/accounts', { username: who, password: 'good password' }, from('10.8.3.1'));
    expectOk(signed, 'sign up', 201);
    const cookie = /schach_session=[^;]*/.exec(signed.headers.get('set-cookie'))[0];
    const mine = [];
    for (let i = 0; i < 3; i++)
      mine.push(expectOk(await api('POST', '/api/seeks', flood, from(`10.8.3.${i + 2}`, { cookie })), `mine ${i}`, 201));
    expectError(await api('POST', '/api/seeks', flood, from('10.8.3.9', { cookie })), 409, 'too_many_seeks',
      'a fourth seek of the account');
    expectOk(await api('DELETE', `/api/seeks/${mine[0].id}`, { secret: mine[0].secret }, from('10.8.3.2')), 'withdraw');
    expectOk(await api('POST', '/api/seeks', flood, from('10.8.3.9', { cookie })), 'room again', 201);
  },
});
