// The lobby over HTTP (docs/api.md "Lobby"): seeks posted, listed, withdrawn and accepted; the game an
// accepted seek becomes, played with the poster's seek secret and the accepter's new one; every bad
// input answered with the right status and nothing changed.
//
//   node lobby.mjs          the tests
//   node lobby.mjs rated F  a rated game between two accounts; its id into F (the shell checks the row)
import fs from 'node:fs';
import { api, as, assert, expectError, expectOk, getState, namer, runTests, signUp, BASE, CATEGORIES, WsClient } from './lib.mjs';

const LIVE = { type: 'live', minutes: 5, increment: 3 };
// Anonymous visitors from addresses of their own (the server trusts 127.0.0.1 as a proxy): an
// anonymous seek is its poster's by address, so an accepter must come from elsewhere.
const stranger = { forwarded: '192.0.2.10' };
const another = { forwarded: '192.0.2.11' };
const fresh = namer('y');
const account = (prefix) => signUp(fresh(prefix));

// Lobby lists (WebSocket) that show, or do not show, the seek ID.
const has = (id) => (m) => m.type === 'lobby' && m.seeks.some((s) => s.id === id);
const hasNot = (id) => (m) => m.type === 'lobby' && !m.seeks.some((s) => s.id === id);

async function post(body, who) {
  return api('POST', '/api/seeks', body, as(who));
}

async function postOk(body, who) {
  const seek = expectOk(await post(body, who), 'post seek', 201);
  assert.equal(typeof seek.id, 'string');
  assert.equal(seek.id.length, 12);
  assert.equal(typeof seek.secret, 'string');
  assert.equal(seek.secret.length, 43);
  return seek;
}

async function listed() {
  const body = expectOk(await api('GET', '/api/seeks'), 'list');
  assert.ok(Array.isArray(body.seeks));
  for (const s of body.seeks) assert.equal(s.secret, undefined, 'a listed seek shows no secret');
  return body.seeks;
}

async function accept(id, who) {
  return api('POST', `/api/seeks/${id}/accept`, {}, as(who));
}

async function until(what, fn, ms = 60000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const RAPID = { type: 'live', minutes: 15, increment: 10 };

/** Two newcomers, one rated rapid game (the second resigns): 1662? and 1338?, 324 apart (issue 24). */
async function apart() {
  const high = await account('High');
  const low = await account('Low');
  // Fool's mate: the accepter (Black) wins.
  const seek = await postOk({ time: RAPID, rated: true, color: 'white' }, low);
  const got = expectOk(await accept(seek.id, high), 'accept');
  const white = expectOk(await api('GET', `/api/seeks/${seek.id}`, undefined, as(low)), 'the poster looks').secret;
  const moves = [[white, 'f3'], [got.secret, 'e5'], [white, 'g4'], [got.secret, 'Qh4']];
  for (let ply = 0; ply < moves.length; ply++)
    expectOk(await api('POST', `/api/games/${got.id}/move`, { secret: moves[ply][0], ply, move: moves[ply][1] }), `ply ${ply}`);
  const rating = async (who) => (expectOk(await api('GET', '/api/me', undefined, as(who)), 'me').ratings.rapid || {}).rating;
  high.rating = await until('the game rated', () => rating(high));
  low.rating = await rating(low);
  assert.ok(high.rating - low.rating > 300, `${high.rating} - ${low.rating}`);
  return { high, low };
}

const tests = {
  async 'quick pairing widens the rating window while a seek waits (issue 24)'() {
    // This server widens every SCHACH_LOBBY_WINDOW_STEP_MS (server_lobby.sh) instead of every 10 s.
    const { high, low } = await apart();
    const quick = { time: RAPID, color: 'random', pool: true, rated: true };
    const first = await postOk(quick, high);
    // The window the server reports grows until it holds the other's rating; then quick pairing pairs.
    const widened = await until('the window widens', async () => {
      const s = (await listed()).find((x) => x.id === first.id);
      return s && (s.window === null || (s.window && s.window.min <= low.rating)) && s;
    });
    assert.equal(widened.provisional, true, 'a rating after one game is provisional');
    assert.equal(widened.rating, high.rating);
    const r = await post(quick, low);
    const game = expectOk(r, 'paired across 324 points once the window has widened');
    assert.equal(r.status, 200);
    assert.deepEqual(Object.values(game.state.accounts).map((a) => a.name).sort(), [high.name, low.name].sort());
  },

  async 'two waiting seeks meet once their windows widen; accepting withdraws one\'s own (issue 24)'() {
    const { high, low } = await apart();
    const quick = { time: { type: 'live', minutes: 12, increment: 10 }, color: 'random', pool: true, rated: true };
    const first = await postOk(quick, high);
    const second = await post(quick, low);
    let game;
    if (second.status === 201) {
      // Both wait: the server names the match to the waiting one (GET /api/seeks/{id} "match").
      const mine = second.json;
      const look = await until('the match is named', async () => {
        const l = expectOk(await api('GET', `/api/seeks/${mine.id}`, undefined, as(low)), 'look');
        return l.match && l;
      });
      assert.equal(look.match, first.id);
      expectError(await api('POST', `/api/seeks/${first.id}/accept`, { withdraw: { seek: mine.id, secret: 'wrong' } }, as(low)),
        404, 'no_seek', 'a wrong secret withdraws nothing and accepts nothing');
      assert.ok((await listed()).some((s) => s.id === first.id), 'the match is still open');
      game = expectOk(await api('POST', `/api/seeks/${first.id}/accept`, { withdraw: { seek: mine.id, secret: mine.secret } }, as(low)),
        'accept, withdrawing one\'s own');
      expectError(await api('GET', `/api/seeks/${mine.id}`), 404, 'no_seek', 'one\'s own seek is withdrawn');
    } else {
      game = expectOk(second, 'paired at once');
    }
    assert.deepEqual(Object.values(game.state.accounts).map((a) => a.name).sort(), [high.name, low.name].sort());
  },

  async 'a waiting player may accept another seek: their own is withdrawn with it (issue 24)'() {
    const a = await account('Waiting');
    const b = await account('Posting');
    const mine = await postOk({ time: { type: 'live', minutes: 17, increment: 0 }, color: 'random', pool: true }, a);
    const theirs = await postOk({ time: LIVE, color: 'white' }, b);
    for (const bad of [{ seek: mine.id }, { seek: 'bad', secret: mine.secret }, 'x', { seek: mine.id, secret: mine.secret, more: 1 }])
      expectError(await api('POST', `/api/seeks/${theirs.id}/accept`, { withdraw: bad }, as(a)), 400, 'bad_request', JSON.stringify(bad));
    const got = expectOk(await api('POST', `/api/seeks/${theirs.id}/accept`, { withdraw: { seek: mine.id, secret: mine.secret } }, as(a)),
      'accept while waiting');
    assert.equal(got.color, 'black');
    const seeks = await listed();
    assert.ok(!seeks.some((s) => s.id === mine.id), 'one\'s own seek left the lobby');
    assert.ok(!seeks.some((s) => s.id === theirs.id), 'the accepted one too');
  },

  async 'post, list, look: an open seek is listed without its secret'() {
    const seek = await postOk({ time: LIVE, color: 'white' });
    assert.deepEqual(seek.time, LIVE);
    assert.equal(seek.color, 'white');
    assert.equal(seek.rated, false);
    assert.equal(seek.name, null);
    const mine = (await listed()).find((s) => s.id === seek.id);
    assert.ok(mine, 'listed');
    assert.deepEqual(mine.time, LIVE);
    const look = expectOk(await api('GET', `/api/seeks/${seek.id}`), 'get');
    assert.equal(look.game, null);
    assert.equal(look.color, null);
    assert.equal(look.seek.id, seek.id);
  },

  async 'accept: the game, with the poster\'s seek secret and the accepter\'s new one'() {
    const seek = await postOk({ time: { type: 'correspondence', days: 3 }, color: 'black' });
    const got = expectOk(await accept(seek.id, stranger), 'accept');
    assert.equal(got.color, 'white', 'the accepter takes the other side');
    assert.equal(got.secret.length, 43);
    assert.equal(got.state.id, got.id);
    assert.equal(got.state.ply, 0);
    assert.deepEqual(got.state.players, { white: true, black: true });
    assert.equal(got.state.time.type, 'correspondence');
    const look = expectOk(await api('GET', `/api/seeks/${seek.id}`), 'the poster looks');
    assert.equal(look.game, got.id);
    assert.equal(look.color, 'black');
    assert.ok(!(await listed()).some((s) => s.id === seek.id), 'gone from the lobby');
    // Both play: the accepter (White) with the new secret, the poster with the seek's secret.
    expectOk(await api('POST', `/api/games/${got.id}/move`, { secret: got.secret, ply: 0, move: 'e4' }), 'white');
    expectError(await api('POST', `/api/games/${got.id}/move`, { secret: got.secret, ply: 1, move: 'e5' }), 409,
      'not_your_turn', 'white for black');
    expectOk(await api('POST', `/api/games/${got.id}/move`, { secret: seek.secret, ply: 1, move: 'e5' }), 'black');
    assert.equal((await getState(got.id)).ply, 2);
  },

  async 'a random colour is decided at the accept, one side each'() {
    const colors = new Set();
    for (let i = 0; i < 12 && colors.size < 2; i++) {
      const seek = await postOk({ time: LIVE, color: 'random' });
      const got = expectOk(await accept(seek.id, stranger), 'accept random');
      const look = expectOk(await api('GET', `/api/seeks/${seek.id}`), 'look');
      assert.notEqual(look.color, got.color);
      colors.add(got.color);
    }
    assert.equal(colors.size, 2, 'twelve random seeks all gave one colour');
  },

  async 'two accept at once: exactly one game'() {
    for (let round = 0; round < 5; round++) {
      const seek = await postOk({ time: LIVE });
      const rs = await Promise.all([accept(seek.id, stranger), accept(seek.id, another), accept(seek.id, stranger)]);
      const ok = rs.filter((r) => r.status === 200);
      assert.equal(ok.length, 1, rs.map((r) => `${r.status} ${r.text.slice(0, 80)}`).join(' | '));
      for (const r of rs.filter((x) => x.status !== 200)) expectError(r, 404, 'no_seek', 'the other accepters');
      const look = expectOk(await api('GET', `/api/seeks/${seek.id}`), 'look');
      assert.equal(look.game, ok[0].json.id);
    }
  },

  async 'withdrawn only with the secret; a vanished seek cannot be accepted'() {
    const seek = await postOk({ time: LIVE });
    expectError(await api('DELETE', `/api/seeks/${seek.id}`, { secret: 'x'.repeat(43) }), 403, 'bad_secret', 'wrong');
    expectError(await api('DELETE', `/api/seeks/${seek.id}`, {}), 400, 'bad_request', 'no secret');
    assert.ok((await listed()).some((s) => s.id === seek.id), 'still there');
    expectOk(await api('DELETE', `/api/seeks/${seek.id}`, { secret: seek.secret }), 'withdraw');
    assert.ok(!(await listed()).some((s) => s.id === seek.id), 'gone');
    expectError(await api('DELETE', `/api/seeks/${seek.id}`, { secret: seek.secret }), 404, 'no_seek', 'twice');
    expectError(await accept(seek.id, stranger), 404, 'no_seek', 'accept a withdrawn seek');
    expectError(await api('GET', `/api/seeks/${seek.id}`), 404, 'no_seek', 'look at it');
    // An accepted seek cannot be withdrawn: the game stands.
    const other = await postOk({ time: LIVE });
    expectOk(await accept(other.id, stranger), 'accept');
    expectError(await api('DELETE', `/api/seeks/${other.id}`, { secret: other.secret }), 404, 'no_seek', 'after');
  },

  async 'the lobby live over WebSocket: seeks appear and go, and a poster who leaves takes theirs along'() {
    const watcher = await WsClient.open();
    watcher.send({ type: 'lobby' });
    await watcher.next((m) => m.type === 'lobby' && Array.isArray(m.seeks), 'the list at once');
    // Posted over HTTP: it appears.
    const seek = await postOk({ time: LIVE });
    const shown = await watcher.next(has(seek.id), 'the new seek');
    assert.equal(shown.seeks.find((s) => s.id === seek.id).secret, undefined, 'no secret in the lobby');
    // Its poster holds it on a connection of their own; when that connection goes, so does the seek.
    const poster = await WsClient.open();
    poster.send({ type: 'lobby', hold: { seek: seek.id, secret: seek.secret } });
    await poster.next(has(seek.id), 'the poster sees it too');
    poster.close();
    await watcher.next(hasNot(seek.id), 'the seek leaves with its poster');
    expectError(await accept(seek.id, stranger), 404, 'no_seek', 'accepting a seek whose poster left');
    // Withdrawn and accepted ones leave the list too.
    const a = await postOk({ time: LIVE });
    await watcher.next(has(a.id), 'seek a');
    expectOk(await accept(a.id, stranger), 'accept a');
    await watcher.next(hasNot(a.id), 'an accepted seek leaves');
    const b = await postOk({ time: LIVE });
    await watcher.next(has(b.id), 'seek b');
    expectOk(await api('DELETE', `/api/seeks/${b.id}`, { secret: b.secret }), 'withdraw b');
    await watcher.next(hasNot(b.id), 'a withdrawn seek leaves');
    // A bad hold is refused; a wrong secret withdraws nothing when the connection goes.
    const c = await postOk({ time: LIVE });
    const liar = await WsClient.open();
    liar.send({ type: 'lobby', id: 1, hold: { seek: c.id } });
    const err = await liar.next((m) => m.type === 'error', 'a hold without a secret');
    assert.equal(err.error.code, 'bad_request');
    liar.send({ type: 'lobby', hold: { seek: c.id, secret: 'not the secret' } });
    await liar.next(has(c.id), 'the liar watches');
    liar.close();
    await liar.closed('the liar left');
    // Nothing of c's changes: it is still there on the next read.
    const after = await postOk({ time: LIVE });
    const list = await watcher.next(has(after.id), 'the next seek');
    assert.ok(list.seeks.some((s) => s.id === c.id), 'a wrong secret withdrew nothing');
    watcher.send({ type: 'unlobby' });
    watcher.close();
  },

  async 'a seek posted with "hold" leaves after a short grace unless its poster holds it'() {
    // The web page posts with "hold" and then holds the seek over its socket; a page that went between
    // the two takes its seek along: nobody is left to play it (server_lobby.sh: a grace of 4 s).
    const watcher = await WsClient.open();
    watcher.send({ type: 'lobby' });
    // The first list after the last one read that PRED accepts: the lists before it are older news.
    const list = async (pred, what) => {
      const older = new Set();
      const m = await watcher.next((x) => pred(x) || (older.add(x), false), what);
      for (const x of older) watcher.inbox.splice(watcher.inbox.indexOf(x), 1);
      return m;
    };
    await list((m) => m.type === 'lobby' && Array.isArray(m.seeks), 'the list at once');
    const orphan = await postOk({ time: LIVE, hold: true });
    await list(has(orphan.id), 'the seek whose page went');
    const held = await postOk({ time: LIVE, hold: true }, stranger);
    const poster = await WsClient.open();
    poster.send({ type: 'lobby', hold: { seek: held.id, secret: held.secret } });
    await poster.next(has(held.id), 'the poster sees its seek');
    // The orphan leaves when its grace is over; the held seek, posted later, is still there then.
    await list(has(held.id), 'the held seek');
    const after = await list(hasNot(orphan.id), 'the unheld seek leaves after its grace');
    assert.ok(after.seeks.some((s) => s.id === held.id), 'the held seek stays');
    expectError(await accept(orphan.id, another), 404, 'no_seek', 'accepting the seek whose page went');
    // Without "hold" (a client of the API that never holds) a seek waits its ten minutes: one posted
    // before the second orphan is still listed when that one leaves.
    const plain = await postOk({ time: LIVE }, another);
    const orphan2 = await postOk({ time: LIVE, hold: true });
    await list(has(orphan2.id), 'the second seek whose page went');
    const later = await list(hasNot(orphan2.id), 'a second unheld seek leaves');
    assert.ok(later.seeks.some((s) => s.id === plain.id), 'a seek posted without "hold" stays');
    assert.ok(later.seeks.some((s) => s.id === held.id), 'the held seek still stays');
    // The held one goes with its poster's connection, as before.
    poster.close();
    await list(hasNot(held.id), 'the held seek leaves with its poster');
    expectOk(await api('DELETE', `/api/seeks/${plain.id}`, { secret: plain.secret }), 'withdraw the plain seek');
    watcher.send({ type: 'unlobby' });
    watcher.close();
  },

  async 'quick pairing: a matching waiting seek starts a game at once, else the request waits as a seek'() {
    const quick = { time: { type: 'live', minutes: 7, increment: 7 }, color: 'random', pool: true };
    const first = await post(quick);
    expectOk(first, 'the first one waits', 201);
    assert.equal(first.json.color, 'random');
    const second = await post(quick, stranger);
    const game = expectOk(second, 'the second one is paired');
    assert.equal(second.status, 200);
    assert.equal(typeof game.secret, 'string');
    assert.equal(game.state.time.minutes, 7);
    const look = expectOk(await api('GET', `/api/seeks/${first.json.id}`), 'the first one looks');
    assert.equal(look.game, game.id, 'paired with the waiting one');
    assert.notEqual(look.color, game.color);
    // Another control is no match; a colour of one's choice is no quick pairing.
    const other = await post({ ...quick, time: { type: 'live', minutes: 7, increment: 6 } });
    expectOk(other, 'another control waits', 201);
    expectError(await post({ ...quick, color: 'white' }), 400, 'bad_request', 'pool with a colour');
    expectError(await post({ ...quick, pool: 'yes' }), 400, 'bad_request', 'pool not a boolean');
    // Rated quick pairing: only accounts, not oneself, ratings near each other.
    const p = await account('Pool');
    const q = await account('Paired');
    const rated = { ...quick, time: { type: 'live', minutes: 9, increment: 9 }, rated: true };
    expectError(await post(rated), 401, 'not_logged_in', 'rated quick pairing without an account');
    const mine = await post(rated, p);
    expectOk(mine, 'the first rated one waits', 201);
    const again = await post(rated, p);
    expectOk(again, 'not paired with oneself', 201);
    const paired = expectOk(await post(rated, q), 'rated pairing');
    assert.equal(paired.state.rated, true);
    assert.deepEqual(Object.values(paired.state.accounts).map((s) => s.name).sort(), [p.name, q.name].sort());
  },

  async 'the list tells the rating categories; the WebSocket updates do not'() {
    const body = expectOk(await api('GET', '/api/seeks'), 'list');
    assert.deepEqual(body.categories, CATEGORIES);
    const ws = await WsClient.open();
    try {
      ws.send({ type: 'lobby' });
      const update = await ws.next((m) => m.type === 'lobby', 'the list at once');
      assert.ok(Array.isArray(update.seeks));
      assert.equal(update.categories, undefined);
    } finally {
      ws.close();
    }
  },

  async 'unknown and malformed ids'() {
    expectError(await accept('AAAAAAAAAAAA'), 404, 'no_seek', 'unknown');
    expectError(await api('GET', '/api/seeks/short'), 404, 'no_seek', 'short');
    expectError(await accept('bad*id*bad*x'), 404, 'no_seek', 'odd characters');
    for (const path of ['/api/seeks/AAAAAAAAAAAA/other', '/api/seeks/', '/api/seeks/AAAAAAAAAAAAA']) {
      const r = await api('POST', path, {});
      assert.equal(r.status, 404, `${path}: ${r.status}`);
    }
    const r = await api('PUT', '/api/seeks', {});
    assert.equal(r.status, 405);
    assert.equal((await api('GET', '/api/seeks/AAAAAAAAAAAA/accept')).status, 405);
  },

  async 'bad seeks are refused and nothing is listed'() {
    const before = (await listed()).length;
    const bodies = [
      [{}, 'time'], [{ time: { type: 'blitz' } }, 'time.type'], [{ time: { type: 'none' } }, 'time.type'],
      [{ time: { type: 'live' } }, 'time.minutes'], [{ time: { type: 'live', minutes: 0 } }, 'time.minutes'],
      [{ time: { type: 'live', minutes: 181 } }, 'time.minutes'],
      [{ time: { type: 'live', minutes: 5, increment: -1 } }, 'time.increment'],
      [{ time: { type: 'live', minutes: 5, days: 2 } }, 'time.days'],
      [{ time: { type: 'correspondence' } }, 'time.days'], [{ time: { type: 'correspondence', days: 31 } }, 'time.days'],
      [{ time: { type: 'live', minutes: 5, extra: 1 } }, 'time'], [{ time: LIVE, color: 'green' }, 'color'],
      [{ time: LIVE, color: 1 }, 'color'], [{ time: LIVE, rated: 'yes' }, 'rated'], [{ time: LIVE, admin: true }, 'admin'],
      [{ time: 'live' }, 'time'], [{ time: LIVE, variant: 'crazyhouse' }, 'variant'],
      [{ time: LIVE, variant: 'Chess960' }, 'variant'], [{ time: LIVE, variant: 960 }, 'variant'],
      [{ time: LIVE, variant: null }, 'variant'], [{ time: LIVE, hold: 1 }, 'hold'], [{ time: LIVE, hold: 'yes' }, 'hold'],
    ];
    for (const [body, member] of bodies) {
      const e = expectError(await post(body), 400, 'bad_request', JSON.stringify(body));
      assert.ok(e.message.includes(member), `${JSON.stringify(body)}: ${e.message}`);
    }
    for (const raw of ['not json', '[]', '{"time":{"type":"live","minutes":5},"time":{}}']) {
      const r = await api('POST', '/api/seeks', raw);
      assert.equal(r.status, 400, raw);
    }
    assert.equal((await listed()).length, before, 'nothing new listed');
  },

  async 'an anonymous poster can neither accept nor be quick-paired with their own seek'() {
    // The poster's address makes an anonymous seek theirs: from there it cannot be accepted (409
    // own_seek), and quick pairing from there never pairs with it; from another address both work.
    const mine = await postOk({ time: LIVE, color: 'white' });
    expectError(await accept(mine.id), 409, 'own_seek', 'the anonymous poster accepts their own seek');
    const looked = expectOk(await api('GET', `/api/seeks/${mine.id}`), 'the seek is still open');
    assert.equal(looked.game, null);
    expectOk(await accept(mine.id, stranger), 'another address accepts it');
    const quick = { time: { type: 'live', minutes: 13, increment: 13 }, color: 'random', pool: true };
    const first = await post(quick);
    expectOk(first, 'the first quick request waits', 201);
    const again = await post(quick);
    expectOk(again, 'the same address asking again is not paired with itself', 201);
    const other = await post(quick, stranger);
    const game = expectOk(other, 'another address is paired');
    assert.equal(other.status, 200);
    const look = expectOk(await api('GET', `/api/seeks/${first.json.id}`), 'the first one looks');
    assert.equal(look.game, game.id, 'paired with the oldest waiting one');
    expectOk(await api('DELETE', `/api/seeks/${again.json.id}`, { secret: again.json.secret }), 'withdraw');
  },

  async 'quick pairing finds its match among all open seeks, however many are older'() {
    // Over 200 older open seeks (this server has no per-address cap: --no-limits).
    const older = [];
    for (let i = 0; i < 210; i++)
      older.push(await postOk({ time: { type: 'live', minutes: 1, increment: 1 }, color: 'black' }));
    const quick = { time: { type: 'live', minutes: 11, increment: 11 }, color: 'random', pool: true };
    const first = await post(quick);
    expectOk(first, 'the first one waits', 201);
    const second = await post(quick, await account('Late'));
    const game = expectOk(second, 'the second one is paired');
    assert.equal(second.status, 200);
    const look = expectOk(await api('GET', `/api/seeks/${first.json.id}`), 'the first one looks');
    assert.equal(look.game, game.id, 'paired with the waiting one');
    for (const s of older)
      expectOk(await api('DELETE', `/api/seeks/${s.id}`, { secret: s.secret }), 'withdraw');
  },

  async 'rated seeks need accounts; one\'s own seek cannot be accepted'() {
    expectError(await post({ time: LIVE, rated: true }), 401, 'not_logged_in', 'rated, anonymous');
    const magnus = await account('Magnus');
    const seek = await postOk({ time: LIVE, rated: true, color: 'white' }, magnus);
    assert.equal(seek.name, magnus.name);
    assert.equal(seek.rating, 1500);
    assert.equal(seek.rated, true);
    expectError(await accept(seek.id, magnus), 409, 'own_seek', 'own seek');
    expectError(await accept(seek.id), 401, 'not_logged_in', 'rated, anonymous accepter');
    assert.ok((await listed()).some((s) => s.id === seek.id), 'still open');
    const hikaru = await account('Hikaru');
    const got = expectOk(await accept(seek.id, hikaru), 'accept rated');
    assert.equal(got.color, 'black');
    // A casual seek of an account: anyone may accept, also without an account.
    const casual = await postOk({ time: LIVE }, magnus);
    assert.equal(casual.name, magnus.name);
    expectOk(await accept(casual.id), 'anonymous accepts a casual seek of an account');
  },

  async 'Chess960 seeks: quick pairing pairs the same variant only, the game starts from a Chess960 array (issue 24)'() {
    const a = await account('Fischer');
    const b = await account('Spassky');
    const time = { type: 'live', minutes: 9, increment: 6 };
    const standard = await postOk({ time, color: 'random', pool: true, rated: true }, a);
    assert.equal(standard.variant, 'standard', 'a seek without a variant is standard chess');
    // A Chess960 seek of the same time control is not paired with the standard one: it waits.
    const r = await post({ time, color: 'random', pool: true, rated: true, variant: 'chess960' }, b);
    const waiting = expectOk(r, 'a Chess960 seek beside a standard one', 201);
    assert.equal(waiting.variant, 'chess960');
    const list = await listed();
    assert.equal(list.find((s) => s.id === standard.id).variant, 'standard');
    assert.equal(list.find((s) => s.id === waiting.id).variant, 'chess960');
    assert.equal(expectOk(await api('GET', `/api/seeks/${waiting.id}`, undefined, as(b)), 'look').match, null,
      'no match across variants');
    expectOk(await api('DELETE', `/api/seeks/${standard.id}`, { secret: standard.secret }), 'withdraw');
    // A second Chess960 seek pairs with the waiting one: a Chess960 game, rated.
    const got = expectOk(await post({ time, color: 'random', pool: true, rated: true, variant: 'chess960' }, a),
      'two Chess960 seeks pair');
    assert.equal(got.state.variant, 'chess960');
    assert.equal(typeof got.state.chess960, 'number');
    assert.notEqual(got.state.chess960, 518, 'never the standard array');
    assert.equal(got.state.rated, true);
    assert.deepEqual(Object.values(got.state.accounts).map((x) => x.name).sort(), [a.name, b.name].sort());
    // A move each (a game resigned before is aborted), then the accepter (a) resigns: the rating
    // changes land in the category chess960 only.
    const other = expectOk(await api('GET', `/api/seeks/${waiting.id}`, undefined, as(b)), 'the poster looks').secret;
    const bySide = got.color === 'white' ? [got.secret, other] : [other, got.secret];
    expectOk(await api('POST', `/api/games/${got.id}/move`, { secret: bySide[0], ply: 0, move: 'a3' }), 'ply 0');
    expectOk(await api('POST', `/api/games/${got.id}/move`, { secret: bySide[1], ply: 1, move: 'a6' }), 'ply 1');
    expectOk(await api('POST', `/api/games/${got.id}/resign`, { secret: got.secret }), 'resign');
    const ratings = async (who) => expectOk(await api('GET', '/api/me', undefined, as(who)), 'me').ratings;
    const ra = await until('the game rated', async () => { const x = await ratings(a); return x.chess960 && x; });
    const rb = await ratings(b);
    assert.deepEqual(Object.keys(ra), ['chess960'], 'no other category changed');
    assert.deepEqual(Object.keys(rb), ['chess960']);
    assert.ok(ra.chess960.rating < 1500 && rb.chess960.rating > 1500, `${ra.chess960.rating} ${rb.chess960.rating}`);
    assert.equal(ra.chess960.games, 1);
    const page = expectOk(await api('GET', `/api/players/${b.name}`), 'player page');
    assert.equal(page.ratings.chess960.rating, rb.chess960.rating);
    assert.equal(page.history.chess960.length, 1);
    // The next Chess960 seek shows the Chess960 rating; a standard one the newcomer's.
    const next960 = await postOk({ time: { type: 'correspondence', days: 3 }, rated: true, variant: 'chess960' }, b);
    assert.equal(next960.rating, rb.chess960.rating, 'one Chess960 rating for every time control');
    const nextStd = await postOk({ time, rated: true }, b);
    assert.equal(nextStd.rating, 1500);
    // A bad variant changes nothing.
    const before = (await listed()).length;
    expectError(await post({ time, variant: 'atomic' }, a), 400, 'bad_request', 'unknown variant');
    assert.equal((await listed()).length, before);
  },

  async 'a rated game changes both ratings once; the game and /api/me show it'() {
    const a = await account('Carlsen');
    const b = await account('Caruana');
    const before = expectOk(await api('GET', '/api/me', undefined, as(a)), 'me before');
    assert.deepEqual(before.ratings, {});
    const seek = await postOk({ time: { type: 'live', minutes: 3, increment: 2 }, rated: true, color: 'white' }, a);
    const got = expectOk(await accept(seek.id, b), 'accept');
    assert.equal(got.state.rated, true);
    assert.deepEqual(got.state.accounts, {
      white: { name: a.name, rating: 1500, provisional: true, diff: null },
      black: { name: b.name, rating: 1500, provisional: true, diff: null },
    });
    // An account's side has a secret any of its browsers can get again: from /api/me, and for the
    // poster from the seek with their session; the seek's own secret is not it.
    const meA = expectOk(await api('GET', '/api/me', undefined, as(a)), 'me of the poster');
    const meB = expectOk(await api('GET', '/api/me', undefined, as(b)), 'me of the accepter');
    const gameA = meA.playing.find((g) => g.id === got.id);
    const gameB = meB.playing.find((g) => g.id === got.id);
    assert.deepEqual(gameA && { color: gameA.color, my_turn: gameA.my_turn }, { color: 'white', my_turn: true });
    assert.deepEqual(gameB && { color: gameB.color, my_turn: gameB.my_turn }, { color: 'black', my_turn: false });
    assert.equal(gameB.secret, got.secret, 'the accepter\'s secret is the one the accept answered');
    const look = expectOk(await api('GET', `/api/seeks/${seek.id}`, undefined, as(a)), 'the poster looks');
    assert.equal(look.secret, gameA.secret);
    assert.equal(expectOk(await api('GET', `/api/seeks/${seek.id}`, undefined, as(b)), 'another looks').secret,
      undefined, 'nobody else gets it');
    expectError(await api('POST', `/api/games/${got.id}/move`, { secret: seek.secret, ply: 0, move: 'f3' }), 403,
      'bad_secret', 'the seek secret of an account is no game secret');
    // Fool's mate: Black wins.
    const moves = [[gameA.secret, 'f3'], [got.secret, 'e5'], [gameA.secret, 'g4'], [got.secret, 'Qh4']];
    for (let ply = 0; ply < moves.length; ply++)
      expectOk(await api('POST', `/api/games/${got.id}/move`, { secret: moves[ply][0], ply, move: moves[ply][1] }), `ply ${ply}`);
    let state;
    // The rating runs on the accounts' worker after the mate is answered: poll (up to a minute).
    for (let i = 0; i < 1200; i++) {
      state = await getState(got.id);
      if (state.accounts.white.diff !== null) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(state.outcome.result, '0-1');
    assert.ok(state.accounts.white.diff < 0, `white's change ${state.accounts.white.diff}`);
    assert.ok(state.accounts.black.diff > 0, `black's change ${state.accounts.black.diff}`);
    assert.equal(state.accounts.white.diff, -state.accounts.black.diff, 'equal newcomers: what one wins the other loses');
    const ma = expectOk(await api('GET', '/api/me', undefined, as(a)), 'me after');
    const mb = expectOk(await api('GET', '/api/me', undefined, as(b)), 'me after');
    assert.deepEqual(Object.keys(ma.ratings), ['blitz'], '3+2 is blitz');
    assert.equal(ma.ratings.blitz.rating, 1500 + state.accounts.white.diff);
    assert.equal(mb.ratings.blitz.rating, 1500 + state.accounts.black.diff);
    assert.equal(ma.ratings.blitz.games, 1);
    assert.equal(ma.ratings.blitz.provisional, true);
    assert.ok(!ma.playing.some((g) => g.id === got.id), 'a finished game is no longer in play');
    // The player pages: ratings, their history, the games (filtered by result), in any case of the name.
    const pa = expectOk(await api('GET', `/api/players/${a.name.toUpperCase()}`), 'player page');
    assert.equal(pa.username, a.name);
    assert.equal(pa.ratings.blitz.rating, ma.ratings.blitz.rating);
    assert.equal(pa.history.blitz.length, 1);
    assert.equal(pa.history.blitz[0][1], ma.ratings.blitz.rating);
    assert.equal(pa.games.length, 1);
    assert.equal(pa.more, false);
    const listedGame = pa.games[0];
    assert.deepEqual([listedGame.id, listedGame.white, listedGame.black, listedGame.result, listedGame.termination,
      listedGame.rated, listedGame.moves], [got.id, a.name, b.name, '0-1', 'checkmate', true, 4]);
    assert.equal(listedGame.ratings.white.diff, state.accounts.white.diff);
    assert.equal(expectOk(await api('GET', `/api/players/${a.name}?result=lost`), 'lost').games.length, 1);
    assert.equal(expectOk(await api('GET', `/api/players/${a.name}?result=won`), 'won').games.length, 0);
    assert.equal(expectOk(await api('GET', `/api/players/${b.name}?result=won`), 'won').games.length, 1);
    assert.equal(expectOk(await api('GET', `/api/players/${a.name}?page=1`), 'page 1').games.length, 0);
    expectError(await api('GET', `/api/players/${a.name}?result=maybe`), 400, 'bad_request', 'bad filter');
    expectError(await api('GET', `/api/players/${a.name}?page=-1`), 400, 'bad_request', 'bad page');
    expectError(await api('GET', `/api/players/${a.name}?page=x`), 400, 'bad_request', 'bad page');
    expectError(await api('GET', '/api/players/nobody_here'), 404, 'not_found', 'unknown player');
    expectError(await api('GET', '/api/players/no%20such'), 404, 'not_found', 'impossible name');
    assert.equal((await api('POST', `/api/players/${a.name}`, {})).status, 405);
    // The game's PGN names the players, their ratings and what ended it.
    const pgn = (await api('GET', `/api/games/${got.id}/pgn`)).text;
    assert.match(pgn, new RegExp(`\\[White "${a.name}"\\]`));
    assert.match(pgn, new RegExp(`\\[Black "${b.name}"\\]`));
    assert.match(pgn, /\[WhiteElo "1500"\]/);
    // The PGN standard's Termination, the ending in words after the last move, the game's address
    // (by default this server on localhost: no --public-url here), rated and the category.
    assert.match(pgn, /\[Termination "normal"\]/);
    assert.match(pgn, /\{[^}]*Checkmate – Black wins 0-1\} 0-1/);
    assert.match(pgn, new RegExp(`\\[Site "http://localhost:${new URL(BASE).port}/g/${got.id}"\\]`));
    assert.match(pgn, /\[Event "Rated (bullet|blitz|rapid|classical) game"\]/);
    // The next rated seek and game start from the new ratings.
    const next = await postOk({ time: { type: 'live', minutes: 3, increment: 2 }, rated: true, color: 'white' }, a);
    assert.equal(next.rating, ma.ratings.blitz.rating);
    const nextGame = expectOk(await accept(next.id, b), 'accept the second rated seek');
    assert.equal(nextGame.state.accounts.white.rating, ma.ratings.blitz.rating);
    assert.equal(nextGame.state.accounts.black.rating, mb.ratings.blitz.rating);
    // A casual game between the same accounts changes nothing.
    const casual = await postOk({ time: { type: 'live', minutes: 3, increment: 2 }, color: 'white' }, a);
    const c = expectOk(await accept(casual.id, b), 'accept casual');
    const mine = expectOk(await api('GET', '/api/me', undefined, as(a)), 'me').playing.find((g) => g.id === c.id);
    expectOk(await api('POST', `/api/games/${c.id}/resign`, { secret: mine.secret }), 'resign');
    const later = expectOk(await api('GET', '/api/me', undefined, as(a)), 'me later');
    assert.equal(later.ratings.blitz.games, 1);
    assert.equal(later.ratings.blitz.rating, ma.ratings.blitz.rating);
  },
};

if (process.argv[2] === 'rated') {
  await runTests({ async 'a rated game for the database check'() {
    const a = await account('White');
    const b = await account('Black');
    const seek = await postOk({ time: LIVE, rated: true, color: 'white' }, a);
    const got = expectOk(await accept(seek.id, b), 'accept');
    fs.writeFileSync(process.argv[3], JSON.stringify({ game: got.id, white: a.name, black: b.name }));
  } });
} else {
  await runTests(tests);
}
