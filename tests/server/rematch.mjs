// Rematch and presence (docs/api.md "Rematch", WebSocket "subscribe"): after a game ended one player
// offers, the other accepts, and a new game begins with the colours swapped, the same time control and
// the accounts swapped; its secrets work, the old ones do not; a refusal and a withdrawal; both sides
// at once make exactly one game; the computer accepts at once; a local game needs one call; bad input
// changes nothing. Presence: a side is online while a WebSocket holding its secret is subscribed.
import { api, as, assert, expectError, expectOk, friendGame, getState, namer, runTests, signUp, WsClient } from './lib.mjs';

const fresh = namer('r');
const LIVE = { type: 'live', minutes: 5, increment: 3 };
const account = (prefix) => signUp(fresh(prefix));

const rematch = (id, body) => api('POST', `/api/games/${id}/rematch`, body);

// A rematch call; a 409 busy (the other side's change is being saved) is tried again.
async function rematchSettled(id, body) {
  for (;;) {
    const r = await rematch(id, body);
    if (!(r.status === 409 && r.json?.error?.code === 'busy')) return r;
  }
}

async function endedFriendGame(extra) {
  const g = await friendGame(extra);
  expectOk(await api('POST', `/api/games/${g.id}/resign`, { secret: g.black }), 'black resigns');
  return g;
}

const move = (id, secret, ply, mv) => api('POST', `/api/games/${id}/move`, { secret, ply, move: mv });

const tests = {
  async 'offer and accept: a new game, colours swapped, same time control; its secrets work, the old do not'() {
    const g = await friendGame({ time: LIVE });
    expectError(await rematch(g.id, { secret: g.white }), 409, 'not_over', 'before the end');
    expectOk(await api('POST', `/api/games/${g.id}/resign`, { secret: g.black }), 'resign');
    assert.equal((await getState(g.id)).rematch, null, 'no rematch yet');
    const offered = expectOk(await rematch(g.id, { secret: g.white }), 'white offers');
    assert.deepEqual(offered.state.rematch, { offered_by: 'white', declined_by: null, game: null });
    const again = expectOk(await rematch(g.id, { secret: g.white, action: 'offer' }), 'white offers again');
    assert.deepEqual(again.state.rematch, offered.state.rematch, 'nothing changed');
    const accepted = expectOk(await rematch(g.id, { secret: g.black }), 'black accepts');
    assert.equal(accepted.color, 'white', 'black of the old game plays white');
    assert.equal(accepted.secret.length, 43);
    assert.equal(accepted.state.id, accepted.id);
    assert.notEqual(accepted.id, g.id);
    assert.deepEqual(accepted.state.time, (await getState(g.id)).time, 'same time control');
    assert.equal(accepted.state.mode, 'friend');
    assert.deepEqual(accepted.state.players, { white: true, black: true });
    const old = await getState(g.id);
    assert.deepEqual(old.rematch, { offered_by: 'white', declined_by: null, game: accepted.id });
    const offerer = expectOk(await rematch(g.id, { secret: g.white }), 'the offerer asks again');
    assert.equal(offerer.id, accepted.id);
    assert.equal(offerer.color, 'black');
    assert.notEqual(offerer.secret, accepted.secret);
    const twice = expectOk(await rematch(g.id, { secret: g.black }), 'the accepter asks again');
    assert.equal(twice.secret, accepted.secret, 'the same secret at every call');
    // The old secrets play nothing in the new game; the new ones play their sides.
    expectError(await move(accepted.id, g.white, 0, 'e4'), 403, 'bad_secret', 'old white secret');
    expectError(await move(accepted.id, g.black, 0, 'e4'), 403, 'bad_secret', 'old black secret');
    expectOk(await move(accepted.id, accepted.secret, 0, 'e4'), 'new white');
    expectOk(await move(accepted.id, offerer.secret, 1, 'e5'), 'new black');
    expectError(await rematch(g.id, { secret: g.black, action: 'decline' }), 409, 'rematch_made', 'decline after');
    assert.equal((await getState(accepted.id)).ply, 2);
  },

  async 'spectators, wrong secrets and bad bodies are refused and change nothing'() {
    const running = await friendGame();
    expectError(await rematch(running.id, { secret: 'x'.repeat(43) }), 403, 'bad_secret', 'wrong secret, running');
    const g = await endedFriendGame();
    expectError(await rematch(g.id, { secret: 'x'.repeat(43) }), 403, 'bad_secret', 'wrong secret');
    expectError(await rematch(g.id, {}), 403, 'bad_secret', 'no secret (a spectator)');
    expectError(await rematch(g.id, { secret: g.invite }), 403, 'bad_secret', 'the invitation is no secret');
    expectError(await rematch(g.id, { secret: g.white, action: 'yes' }), 400, 'bad_request', 'bad action');
    expectError(await rematch(g.id, { secret: g.white, colour: 'white' }), 400, 'bad_request', 'unknown member');
    expectError(await rematch(g.id, { secret: 7 }), 400, 'bad_request', 'secret not a string');
    expectError(await rematch(g.id, '[1]'), 400, 'bad_json', 'not an object');
    expectError(await rematch('nosuchgame00', { secret: g.white }), 404, 'not_found', 'no such game');
    expectError(await api('GET', `/api/games/${g.id}/rematch`), 405, 'method_not_allowed', 'GET');
    const de = await api('POST', `/api/games/${g.id}/rematch?lang=de`, { secret: 'x'.repeat(43) });
    expectError(de, 403, 'bad_secret', 'German');
    assert.match(de.json.error.message, /Geheimnis/);
    expectError(await rematch(g.id, { secret: g.white, action: 'decline' }), 409, 'no_rematch', 'nothing to decline');
    assert.equal((await getState(g.id)).rematch, null, 'nothing changed');
  },

  async 'declined, withdrawn: the state shows it and the offer is gone'() {
    const g = await endedFriendGame();
    expectOk(await rematch(g.id, { secret: g.white }), 'white offers');
    const declined = expectOk(await rematch(g.id, { secret: g.black, action: 'decline' }), 'black declines');
    assert.deepEqual(declined.state.rematch, { offered_by: null, declined_by: 'black', game: null });
    expectError(await rematch(g.id, { secret: g.black, action: 'decline' }), 409, 'no_rematch', 'twice');
    // An offer does not survive a refusal: black's next call is an offer of its own, not an accept.
    const own = expectOk(await rematch(g.id, { secret: g.black }), 'black offers');
    assert.deepEqual(own.state.rematch, { offered_by: 'black', declined_by: null, game: null });
    const withdrawn = expectOk(await rematch(g.id, { secret: g.black, action: 'decline' }), 'black withdraws');
    assert.deepEqual(withdrawn.state.rematch, { offered_by: null, declined_by: 'black', game: null });
    const late = expectOk(await rematch(g.id, { secret: g.white }), 'white offers again');
    assert.equal(late.state.rematch.offered_by, 'white');
    assert.equal(late.id, undefined, 'an offer, no game');
  },

  async 'both sides at once, many rounds: exactly one new game'() {
    for (let round = 0; round < 12; round++) {
      const g = await endedFriendGame();
      const [w, b] = await Promise.all([rematchSettled(g.id, { secret: g.white }), rematchSettled(g.id, { secret: g.black })]);
      const wj = expectOk(w, 'white'), bj = expectOk(b, 'black');
      // Whoever came second made the game; the first may have heard only of its offer: it asks again.
      const wa = wj.id ? wj : expectOk(await rematch(g.id, { secret: g.white }), 'white again');
      const ba = bj.id ? bj : expectOk(await rematch(g.id, { secret: g.black }), 'black again');
      assert.ok(wa.id && ba.id, `round ${round}: both learn of the game`);
      assert.equal(wa.id, ba.id, `round ${round}: one game`);
      assert.equal((await getState(g.id)).rematch.game, wa.id);
      assert.deepEqual([wa.color, ba.color], ['black', 'white']);
    }
  },

  async 'accounts: swapped, rated again, and /api/me lists the new game with the same secret'() {
    const a = await account('rma');
    const b = await account('rmb');
    const seek = expectOk(await api('POST', '/api/seeks', { time: LIVE, rated: true, color: 'white' }, as(a)), 'seek', 201);
    const got = expectOk(await api('POST', `/api/seeks/${seek.id}/accept`, {}, as(b)), 'accept');
    const look = expectOk(await api('GET', `/api/seeks/${seek.id}`, undefined, as(a)), 'poster looks');
    const aSecret = look.secret, bSecret = got.secret;
    assert.equal(got.state.rated, true);
    expectOk(await api('POST', `/api/games/${got.id}/resign`, { secret: bSecret }), 'b resigns');
    expectOk(await rematch(got.id, { secret: bSecret }), 'b offers');
    const acc = expectOk(await rematch(got.id, { secret: aSecret }), 'a accepts');
    assert.equal(acc.color, 'black');
    assert.equal(acc.state.rated, true, 'rated again');
    assert.equal(acc.state.accounts.white.name, b.name, 'b plays white now');
    assert.equal(acc.state.accounts.black.name, a.name, 'a plays black now');
    assert.deepEqual(acc.state.time, LIVE);
    const bNew = expectOk(await rematch(got.id, { secret: bSecret }), 'b asks');
    for (const [who, answer] of [[a, acc], [b, bNew]]) {
      const me = expectOk(await api('GET', '/api/me', undefined, as(who)), `/api/me of ${who.name}`);
      const listed = me.playing.find((p) => p.id === acc.id);
      assert.ok(listed, `${who.name} sees the rematch in /api/me`);
      assert.equal(listed.secret, answer.secret, 'the same secret');
      assert.equal(listed.color, answer.color);
    }
    expectOk(await move(acc.id, bNew.secret, 0, 'd4'), 'b moves as white');
  },

  async 'a casual game between an account and an anonymous player stays casual'() {
    const a = await account('rmc');
    const seek = expectOk(await api('POST', '/api/seeks', { time: LIVE, color: 'black' }, as(a)), 'seek', 201);
    const got = expectOk(await api('POST', `/api/seeks/${seek.id}/accept`, {}), 'anonymous accepts');
    const look = expectOk(await api('GET', `/api/seeks/${seek.id}`, undefined, as(a)), 'poster looks');
    expectOk(await api('POST', `/api/games/${got.id}/resign`, { secret: got.secret }), 'resign');
    expectOk(await rematch(got.id, { secret: got.secret }), 'anonymous offers');
    const acc = expectOk(await rematch(got.id, { secret: look.secret }), 'account accepts');
    assert.equal(acc.color, 'white');
    assert.equal(acc.state.rated, false);
    assert.equal(acc.state.accounts.white.name, a.name);
    assert.equal(acc.state.accounts.black, null);
  },

  async 'the computer accepts at once: same level, colours swapped'() {
    const c = expectOk(await api('POST', '/api/games', { mode: 'computer', level: 'club', color: 'black',
      time: { type: 'correspondence', days: 2 } }), 'computer game', 201);
    // The computer (White) moves at once; while its move is being saved a change is answered 409 busy,
    // which a client repeats (docs/api.md).
    let resigned;
    for (;;) {
      resigned = await api('POST', `/api/games/${c.id}/resign`, { secret: c.secret });
      if (resigned.status !== 409 || resigned.json?.error?.code !== 'busy') break;
      await new Promise((done) => setTimeout(done, 20));
    }
    expectOk(resigned, 'resign');
    const r = expectOk(await rematch(c.id, { secret: c.secret }), 'rematch');
    assert.equal(r.color, 'white');
    assert.equal(r.state.mode, 'computer');
    assert.equal(r.state.computer.color, 'black');
    assert.equal(r.state.computer.level, 'club');
    assert.deepEqual(r.state.time, { type: 'correspondence', days: 2 });
    assert.deepEqual(r.state.online, { white: false, black: true }, 'the computer is always there');
    expectOk(await move(r.id, r.secret, 0, 'e4'), 'the human moves first now');
  },

  async 'a local game: one call, both new secrets'() {
    const l = expectOk(await api('POST', '/api/games', { mode: 'local' }), 'local', 201);
    expectOk(await api('POST', `/api/games/${l.id}/resign`, { secret: l.secrets.black }), 'resign');
    const r = expectOk(await rematch(l.id, { secret: l.secrets.white }), 'rematch');
    assert.equal(r.color, 'black');
    assert.equal(r.secrets.black, r.secret);
    expectOk(await move(r.id, r.secrets.white, 0, 'e4'), 'white');
    expectOk(await move(r.id, r.secrets.black, 1, 'e5'), 'black');
  },

  async 'a rematch over WebSocket: the ack names the new game'() {
    const g = await endedFriendGame();
    const w = await WsClient.open();
    w.send({ type: 'rematch', game: g.id, secret: g.white, id: 1 });
    const ack1 = await w.reply(1, 'offer');
    assert.equal(ack1.type, 'ack', JSON.stringify(ack1));
    assert.equal(ack1.new_game, undefined);
    w.send({ type: 'rematch', game: g.id, secret: g.black, id: 2 });
    const ack2 = await w.reply(2, 'accept');
    assert.equal(ack2.type, 'ack', JSON.stringify(ack2));
    assert.equal(ack2.color, 'white');
    assert.equal((await getState(g.id)).rematch.game, ack2.new_game);
    w.send({ type: 'rematch', game: g.id, secret: 'x'.repeat(43), id: 3 });
    const err = await w.reply(3, 'wrong secret');
    assert.equal(err.type, 'error');
    assert.equal(err.error.code, 'bad_secret');
    w.close();
  },

  async 'presence: online while a socket with the side\'s secret watches; a wrong secret is refused'() {
    const g = await friendGame();
    const watcher = await WsClient.open();
    watcher.send({ type: 'subscribe', game: g.id });
    const first = await watcher.state(g.id, 0, 'spectator state');
    assert.deepEqual(first.state.online, { white: false, black: false });
    const online = (w, b) => (m) => m.type === 'state' && m.game === g.id && m.state.online.white === w &&
      m.state.online.black === b;
    const white = await WsClient.open();
    white.send({ type: 'subscribe', game: g.id, secret: g.white });
    await watcher.next(online(true, false), 'white comes');
    const black = await WsClient.open();
    black.send({ type: 'subscribe', game: g.id, secret: g.black });
    await watcher.next(online(true, true), 'black comes');
    await white.next(online(true, true), 'white sees black come');
    const black2 = await WsClient.open(); // a second tab of black
    black2.send({ type: 'subscribe', game: g.id, secret: g.black });
    await black2.next(online(true, true), 'the second tab');
    black.close();
    await black.closed('the first tab closes');
    assert.deepEqual((await getState(g.id)).online, { white: true, black: true }, 'the second tab still holds it');
    black2.close();
    await watcher.next(online(true, false), 'black gone once both tabs closed');
    const bad = await WsClient.open();
    bad.send({ type: 'subscribe', game: g.id, secret: 'x'.repeat(43), id: 9 });
    const err = await bad.reply(9, 'wrong secret');
    assert.equal(err.type, 'error');
    assert.equal(err.error.code, 'bad_secret');
    assert.deepEqual((await getState(g.id)).online, { white: true, black: false });
    white.close();
    await watcher.next(online(false, false), 'white gone');
    bad.close();
    watcher.close();
  },
};

await runTests(tests);
