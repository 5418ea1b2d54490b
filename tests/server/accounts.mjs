// Accounts over HTTP (docs/api.md "Accounts"): sign up, log in, who am I, log out, change the password,
// and every bad input answered with the right status and nothing changed.
//
//   node accounts.mjs            the API (the server runs with --no-limits: limits per name only)
//   node accounts.mjs limits     the limits per name and per address (a server with its limits on and
//                                their clock frozen, SCHACH_LIMITS_CLOCK=frozen: however long the
//                                Argon2id hashing of the attempts takes, no bucket refills meanwhile)
//   node accounts.mjs dump FILE  writes the names and passwords used, for the shell's look into the database
import fs from 'node:fs';
import { api, assert, BASE, expectError, expectOk, namer, runTests } from './lib.mjs';

const JSON_HEADERS = { 'content-type': 'application/json' };

// A request with a cookie jar of one session token.
async function call(method, path, body, { token, headers = {} } = {}) {
  const h = { ...headers };
  if (token) h.cookie = `schach_session=${token}`;
  return api(method, path, body, { headers: h });
}

// The session token and flags of a Set-Cookie answer.
function sessionCookie(r, what) {
  const c = r.headers.get('set-cookie');
  assert.ok(c, `${what}: no Set-Cookie`);
  const m = /^schach_session=([A-Za-z0-9_-]*);/.exec(c);
  assert.ok(m, `${what}: not the session cookie: ${c}`);
  const flags = c.split(';').map((s) => s.trim().toLowerCase());
  assert.ok(flags.includes('httponly'), `${what}: HttpOnly: ${c}`);
  assert.ok(flags.includes('samesite=lax'), `${what}: SameSite=Lax: ${c}`);
  assert.ok(flags.includes('path=/'), `${what}: Path=/: ${c}`);
  assert.ok(!flags.includes('secure'), `${what}: Secure over plain HTTP: ${c}`);
  return m[1];
}

const fresh = namer('x');

async function signup(username, password = 'correct horse battery') {
  const r = await api('POST', '/api/accounts', { username, password });
  const body = expectOk(r, `sign up ${username}`, 201);
  assert.deepEqual(body, { username });
  return sessionCookie(r, 'sign up');
}

async function login(username, password) {
  return api('POST', '/api/session', { username, password });
}

// GET /api/me without a (valid) session: 200 {"username": null} (issue 24: no 401 in every anonymous
// page's console); nothing else of an account.
function expectAnonymous(r, what) {
  const body = expectOk(r, what);
  assert.deepEqual(body, { username: null }, `${what}: ${JSON.stringify(body)}`);
}

async function me(token) {
  return call('GET', '/api/me', undefined, { token });
}

// Nothing of a refused sign-up: the name is free, logging in with it fails.
async function expectNoAccount(username, password) {
  expectError(await login(username, password), 401, 'bad_login', `no account ${username}`);
}

const used = [];

const tests = {
  async 'sign up: 201, the session cookie, and who am I'() {
    const name = fresh('Magnus');
    const token = await signup(name);
    assert.equal(token.length, 43);
    const body = expectOk(await me(token), 'me');
    assert.deepEqual(body, { username: name, ratings: {}, playing: [] });
    used.push({ name, password: 'correct horse battery', token });
  },

  async 'a name is taken whatever its case; the first account is untouched'() {
    const name = fresh('Anna');
    await signup(name, 'first password');
    for (const other of [name, name.toUpperCase(), name.toLowerCase()]) {
      const r = await api('POST', '/api/accounts', { username: other, password: 'second password' });
      expectError(r, 409, 'username_taken', `sign up ${other}`);
      assert.equal(r.headers.get('set-cookie'), null, 'no cookie for a refusal');
    }
    expectOk(await login(name.toLowerCase(), 'first password'), 'login in other case');
    expectError(await login(name, 'second password'), 401, 'bad_login', 'the second password');
  },

  async 'two sign-ups of one name at once: exactly one account'() {
    const name = fresh('Race');
    const rs = await Promise.all([
      api('POST', '/api/accounts', { username: name, password: 'password one' }),
      api('POST', '/api/accounts', { username: name.toUpperCase(), password: 'password two' }),
    ]);
    const codes = rs.map((r) => r.status).sort();
    assert.deepEqual(codes, [201, 409], rs.map((r) => r.text).join(' | '));
    const winner = rs[0].status === 201 ? 'password one' : 'password two';
    const loser = rs[0].status === 201 ? 'password two' : 'password one';
    expectOk(await login(name, winner), 'the winner logs in');
    expectError(await login(name, loser), 401, 'bad_login', 'the loser does not');
  },

  async 'bad names are refused and nothing is created'() {
    const cases = ['ab', 'a'.repeat(21), 'with space', 'Jürgen', 'a.b', '<script>', "bob'--", '_abc', 'abc-', 'a__b', ''];
    for (const username of cases) {
      const r = await api('POST', '/api/accounts', { username, password: 'good password' });
      expectError(r, 400, 'bad_username', `name ${JSON.stringify(username)}`);
    }
    await expectNoAccount('abc_', 'good password');
    const de = await api('POST', '/api/accounts?lang=de', { username: 'x', password: 'good password', lang: 'de' });
    expectError(de, 400, 'bad_username', 'German');
    assert.match(de.json.error.message, /Benutzername/);
  },

  async 'bad passwords are refused and nothing is created'() {
    const name = fresh('Pw');
    for (const password of ['short', '1234567', name, name.toUpperCase(), 'x'.repeat(257)]) {
      const r = await api('POST', '/api/accounts', { username: name, password });
      expectError(r, 400, 'bad_password', `password of ${password.length}`);
    }
    // A NUL byte is not JSON text the server reads (as everywhere in the API).
    expectError(await api('POST', '/api/accounts', { username: name, password: 'pass\u0000word' }), 400, 'bad_json', 'NUL');
    await expectNoAccount(name, 'short');
    // Eight characters of German are enough, whatever their bytes.
    await signup(fresh('Umlaut'), 'äöüßäöüß');
  },

  async 'malformed requests: 400 and nothing changed'() {
    const name = fresh('Json');
    const bodies = [
      'not json', '[]', '{}', JSON.stringify({ username: name }), JSON.stringify({ password: 'good password' }),
      JSON.stringify({ username: name, password: 'good password', admin: true }),
      JSON.stringify({ username: 5, password: 'good password' }),
      JSON.stringify({ username: name, password: ['good password'] }),
      `{"username":"${name}","username":"${name}x","password":"good password"}`,
    ];
    for (const body of bodies) {
      const r = await api('POST', '/api/accounts', body);
      assert.equal(r.status, 400, `${body}: ${r.status} ${r.text}`);
      assert.ok(['bad_json', 'bad_request'].includes(r.json.error.code), r.text);
      const l = await api('POST', '/api/session', body);
      assert.equal(l.status, 400, `login ${body}: ${l.status} ${l.text}`);
    }
    await expectNoAccount(name, 'good password');
  },

  async 'wrong password and unknown name: the same 401'() {
    const name = fresh('Login');
    await signup(name, 'the right one');
    const wrong = expectError(await login(name, 'the wrong one'), 401, 'bad_login', 'wrong password');
    const unknown = expectError(await login(fresh('Nobody'), 'the right one'), 401, 'bad_login', 'unknown name');
    const impossible = expectError(await login('no such name!', 'the right one'), 401, 'bad_login', 'impossible name');
    assert.equal(wrong.message, unknown.message);
    assert.equal(wrong.message, impossible.message);
    expectError(await login(name, 'x'.repeat(5000)), 401, 'bad_login', 'a very long password');
    const ok = await login(name, 'the right one');
    expectOk(ok, 'login');
    assert.deepEqual(ok.json, { username: name });
    const token = sessionCookie(ok, 'login');
    assert.equal(expectOk(await me(token), 'me').username, name);
  },

  async 'requests from another site and without JSON are refused and change nothing'() {
    const name = fresh('Csrf');
    const evil = { origin: 'http://evil.example', 'content-type': 'application/json' };
    const body = JSON.stringify({ username: name, password: 'good password' });
    let r = await api('POST', '/api/accounts', body, { headers: evil });
    expectError(r, 403, 'bad_origin', 'sign up from another origin');
    await expectNoAccount(name, 'good password');
    r = await api('POST', '/api/accounts', body, { headers: { origin: 'null' } });
    expectError(r, 403, 'bad_origin', 'opaque origin');
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx']) {
      const res = await fetch(new URL('/api/accounts', BASE), { method: 'POST', body, headers: { 'content-type': type } });
      assert.equal(res.status, 415, `${type}: ${res.status}`);
      assert.equal((await res.json()).error.code, 'content_type');
    }
    await expectNoAccount(name, 'good password');
    // Our own pages: the Origin names the host the request went to.
    const own = new URL(BASE).origin;
    r = await api('POST', '/api/accounts', body, { headers: { origin: own } });
    expectOk(r, 'sign up from our own page', 201);
    const token = sessionCookie(r, 'own page');
    // A logged-in visitor lured to another site: the logout and the password change are refused.
    r = await call('DELETE', '/api/session', undefined, { token, headers: { origin: 'https://evil.example' } });
    expectError(r, 403, 'bad_origin', 'logout from another origin');
    r = await call('POST', '/api/account/password', { password: 'good password', new_password: 'evil password' },
      { token, headers: { origin: 'https://evil.example' } });
    expectError(r, 403, 'bad_origin', 'password change from another origin');
    expectOk(await me(token), 'still logged in');
    expectOk(await login(name, 'good password'), 'old password still valid');
  },

  async "every game a logged-in player starts or joins is theirs: the computer, a friend, Chess960"() {
    // Issue 24, defect 3: only lobby games had accounts on their sides.
    const annaName = fresh('Own');
    const bodoName = fresh('Joins');
    const anna = await signup(annaName);
    const bodo = await signup(bodoName);
    const level = expectOk(await api('GET', '/api/levels'), 'levels').levels[0].id;
    const comp = expectOk(await call('POST', '/api/games',
      { mode: 'computer', color: 'white', level, time: { type: 'none' } }, { token: anna }), 'computer game', 201);
    assert.equal(comp.state.accounts && comp.state.accounts.white && comp.state.accounts.white.name, annaName,
      `the computer game's White is the account: ${JSON.stringify(comp.state.accounts)}`);
    assert.equal(comp.state.accounts.black, null, 'the computer has no account');
    assert.equal(comp.state.rated, false, 'casual');
    // A Chess960 game with a friend: Anna creates it as Black, Bodo joins by the link as White.
    const f = expectOk(await call('POST', '/api/games', { mode: 'friend', color: 'black', variant: 'chess960',
      time: { type: 'correspondence', days: 3 } }, { token: anna }), 'Chess960 friend game', 201);
    assert.equal(f.state.accounts && f.state.accounts.black && f.state.accounts.black.name, annaName, 'the creator');
    assert.equal(f.state.accounts.white, null, 'nobody joined yet');
    const j = expectOk(await call('POST', `/api/games/${f.id}/join`, { invite: f.invite }, { token: bodo }), 'join');
    assert.equal(j.color, 'white');
    assert.equal(j.state.accounts.white && j.state.accounts.white.name, bodoName, 'the joiner by the link');
    assert.equal(j.state.accounts.black.name, annaName);
    assert.equal(j.state.rated, false, 'casual');
    // "Your turn" (GET /api/me) has them, with the secrets the answers gave.
    const playingA = expectOk(await me(anna), 'me: Anna').playing;
    const playingB = expectOk(await me(bodo), 'me: Bodo').playing;
    const pc = playingA.find((g) => g.id === comp.id);
    const pfA = playingA.find((g) => g.id === f.id);
    const pfB = playingB.find((g) => g.id === f.id);
    assert.ok(pc && pc.secret === comp.secret && pc.color === 'white' && pc.my_turn, `computer game: ${JSON.stringify(pc)}`);
    assert.ok(pfA && pfA.secret === f.secret && pfA.color === 'black' && !pfA.my_turn, `Anna's 960: ${JSON.stringify(pfA)}`);
    assert.ok(pfB && pfB.secret === j.secret && pfB.color === 'white' && pfB.my_turn, `Bodo's 960: ${JSON.stringify(pfB)}`);
    // The secrets play; the games end (Bodo moves, Anna resigns both).
    const from = Object.keys(j.state.legal)[0];
    expectOk(await api('POST', `/api/games/${f.id}/move`, { secret: j.secret, ply: 0, move: from + j.state.legal[from][0] }),
      'Bodo moves');
    expectOk(await api('POST', `/api/games/${f.id}/resign`, { secret: f.secret }), 'Anna resigns the 960 game');
    expectOk(await api('POST', `/api/games/${comp.id}/resign`, { secret: comp.secret }), 'Anna resigns to the computer');
    // Both on the player pages, casual: no rating, no rating change.
    const pageA = expectOk(await api('GET', `/api/players/${annaName}`), "Anna's page");
    const pageB = expectOk(await api('GET', `/api/players/${bodoName}`), "Bodo's page");
    for (const id of [comp.id, f.id]) {
      const g = pageA.games.find((x) => x.id === id);
      assert.ok(g, `Anna's page lists ${id}: ${JSON.stringify(pageA.games)}`);
      assert.equal(g.rated, false);
    }
    assert.ok(pageB.games.some((x) => x.id === f.id), "Bodo's page lists the 960 game");
    assert.deepEqual(pageA.ratings, {}, 'no rating from casual games');
    // Anonymous, or with a session that ended: the game has no account, as before.
    const anon = expectOk(await call('POST', '/api/games', { mode: 'friend', time: { type: 'none' } }), 'anonymous', 201);
    assert.equal(anon.state.accounts, null, 'an anonymous game');
    const stale = expectOk(await call('POST', '/api/games', { mode: 'friend', time: { type: 'none' } },
      { token: 'A'.repeat(43) }), 'an unknown session', 201);
    assert.equal(stale.state.accounts, null, 'an unknown session creates anonymously');
    const anonJoin = expectOk(await call('POST', `/api/games/${stale.id}/join`, { invite: stale.invite },
      { token: 'B'.repeat(43) }), 'joined with an unknown session');
    assert.equal(anonJoin.state.accounts, null);
    // Joining one's own game by its link: the other side stays without the account (no game against oneself).
    const own = expectOk(await call('POST', '/api/games', { mode: 'friend', time: { type: 'none' } }, { token: anna }),
      'own game', 201);
    const self = expectOk(await call('POST', `/api/games/${own.id}/join`, { invite: own.invite }, { token: anna }),
      'joins it too');
    assert.equal(self.state.accounts.white.name, annaName);
    assert.equal(self.state.accounts.black, null);
    // Refusals change nothing and say why, as for anyone.
    expectError(await call('POST', `/api/games/${own.id}/join`, { invite: own.invite }, { token: bodo }), 403,
      'bad_invite', 'a used invitation');
    expectError(await call('POST', '/api/games', { mode: 'nonsense' }, { token: anna }), 400, 'bad_request', 'a bad mode');
    expectError(await call('POST', '/api/games/nosuchgame/join', { invite: 'x' }, { token: anna }), 404, 'not_found',
      'no such game');
  },

  async 'the lists and "your turn" name who plays: accounts, ratings, the computer'() {
    // Issue 24, defect 5 and "your turn": the lists said "Friend" with no names; "your turn" named no one.
    const whiteName = fresh('Lw');
    const blackName = fresh('Lb');
    const w = { name: whiteName, cookie: `schach_session=${await signup(whiteName)}` };
    const b = { name: blackName, cookie: `schach_session=${await signup(blackName)}` };
    const token = (who) => who.cookie.split('=')[1];
    const seek = expectOk(await api('POST', '/api/seeks', { time: { type: 'correspondence', days: 3 }, rated: true,
      color: 'white' }, { headers: { cookie: w.cookie } }), 'post a rated seek', 201);
    const got = expectOk(await api('POST', `/api/seeks/${seek.id}/accept`, {}, { headers: { cookie: b.cookie } }), 'accept');
    const look = expectOk(await api('GET', `/api/seeks/${seek.id}`, undefined, { headers: { cookie: w.cookie } }), 'look');
    const level = expectOk(await api('GET', '/api/levels'), 'levels').levels[0].id;
    const comp = expectOk(await call('POST', '/api/games', { mode: 'computer', color: 'black', level,
      time: { type: 'none' } }, { token: token(b) }), 'computer game', 201);
    // "Your turn": the opponent by name with the rating the rated game began with; the computer by level.
    const pw = expectOk(await me(token(w)), 'me: White').playing.find((g) => g.id === got.id);
    assert.deepEqual(pw && pw.opponent, { name: blackName, rating: 1500, provisional: true, level: null },
      `White's opponent: ${JSON.stringify(pw)}`);
    const pb = expectOk(await me(token(b)), 'me: Black').playing;
    assert.deepEqual(pb.find((g) => g.id === got.id).opponent.name, whiteName);
    assert.deepEqual(pb.find((g) => g.id === comp.id).opponent, { name: null, rating: null, provisional: null, level },
      'the computer by its level');
    // A casual game: the opponent's current rating in the category, and whether it is provisional.
    const casual = expectOk(await call('POST', '/api/games', { mode: 'friend', time: { type: 'correspondence', days: 3 } },
      { token: token(w) }), 'casual game', 201);
    expectOk(await call('POST', `/api/games/${casual.id}/join`, { invite: casual.invite }, { token: token(b) }), 'join');
    // The rated game ends: Black resigns after a move each.
    expectOk(await api('POST', `/api/games/${got.id}/move`, { secret: look.secret, ply: 0, move: 'e4' }), 'e4');
    expectOk(await api('POST', `/api/games/${got.id}/move`, { secret: got.secret, ply: 1, move: 'e5' }), 'e5');
    expectOk(await api('POST', `/api/games/${got.id}/resign`, { secret: got.secret }), 'Black resigns');
    // Rated once: both sides' ratings changed (the worker rates it; wait for that, no fixed time).
    let listed;
    for (let i = 0; i < 600; i++) {
      listed = expectOk(await api('GET', `/api/games?ids=${got.id},${comp.id}`), 'list').games;
      const r = listed.find((g) => g.id === got.id);
      if (r && r.accounts && r.accounts.white && r.accounts.white.diff !== null) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    const rated = listed.find((g) => g.id === got.id);
    assert.equal(rated.accounts.white.name, whiteName, `the list names White: ${JSON.stringify(rated)}`);
    assert.equal(rated.accounts.black.name, blackName);
    assert.equal(rated.accounts.white.rating, 1500);
    assert.ok(rated.accounts.white.diff > 0 && rated.accounts.black.diff < 0, `the changes: ${JSON.stringify(rated.accounts)}`);
    const c = listed.find((g) => g.id === comp.id);
    assert.deepEqual([c.accounts.black.name, c.accounts.white, c.level], [blackName, null, level]);
    const recent = expectOk(await api('GET', '/api/recent'), 'recent').games.find((g) => g.id === got.id);
    assert.ok(recent && recent.accounts.black.name === blackName, `recent names the players: ${JSON.stringify(recent)}`);
    const pc = expectOk(await me(token(b)), 'me again').playing.find((g) => g.id === casual.id);
    assert.equal(pc.opponent.name, whiteName);
    assert.ok(pc.opponent.rating > 1500 && pc.opponent.provisional === true,
      `a casual opponent's current rating, provisional: ${JSON.stringify(pc.opponent)}`);
  },

  async 'missing and bad sessions: /api/me says nobody (200), the rest 401'() {
    expectAnonymous(await me(undefined), 'no cookie');
    expectAnonymous(await me('A'.repeat(43)), 'an unknown token');
    expectAnonymous(await me('short'), 'a malformed token');
    expectAnonymous(await call('GET', '/api/me', undefined, { headers: { cookie: 'other=1; schach_session=' } }),
      'an empty token');
    const head = await call('HEAD', '/api/me');
    assert.equal(head.status, 200, `HEAD /api/me anonymous: ${head.status}`);
    expectError(await call('POST', '/api/account/password', { password: 'a password', new_password: 'b password' }),
      401, 'not_logged_in', 'password change without a session');
    const r = await call('DELETE', '/api/session');
    expectOk(r, 'logout without a session');
    assert.match(r.headers.get('set-cookie'), /schach_session=;.*Max-Age=0/i);
  },

  async 'the cookie among others, and the methods'() {
    const name = fresh('Cookie');
    const token = await signup(name);
    const r = await call('GET', '/api/me', undefined, { headers: { cookie: `a=b; schach_session=${token}; c=d` } });
    assert.equal(expectOk(r, 'me among cookies').username, name);
    for (const [method, path] of [['GET', '/api/accounts'], ['PUT', '/api/session'], ['GET', '/api/session'],
      ['POST', '/api/me'], ['DELETE', '/api/me'], ['GET', '/api/account/password']]) {
      const res = await call(method, path, method === 'GET' ? undefined : {}, { token });
      assert.equal(res.status, 405, `${method} ${path}: ${res.status}`);
    }
  },

  async 'logout ends the session, and only it'() {
    const name = fresh('Logout');
    const a = await signup(name, 'good password');
    const second = await login(name, 'good password');
    expectOk(second, 'second login');
    const b = sessionCookie(second, 'second');
    const r = await call('DELETE', '/api/session', undefined, { token: a });
    expectOk(r, 'logout');
    assert.match(r.headers.get('set-cookie'), /schach_session=;.*Max-Age=0/i);
    expectAnonymous(await me(a), 'after logout');
    expectOk(await me(b), 'the other browser stays logged in');
    expectOk(await call('DELETE', '/api/session', undefined, { token: a }), 'logout twice');
  },

  async 'password change: the current one is checked, the other sessions end'() {
    const name = fresh('Change');
    const a = await signup(name, 'old password');
    const b = sessionCookie(await login(name, 'old password'), 'second');
    let r = await call('POST', '/api/account/password', { password: 'not the password', new_password: 'new password' },
      { token: a });
    expectError(r, 403, 'bad_password', 'wrong current password');
    r = await call('POST', '/api/account/password', { password: 'old password', new_password: 'short' }, { token: a });
    expectError(r, 400, 'bad_password', 'new password too short');
    r = await call('POST', '/api/account/password', { password: 'old password', new_password: name }, { token: a });
    expectError(r, 400, 'bad_password', 'new password is the name');
    expectOk(await me(b), 'nothing changed yet');
    r = await call('POST', '/api/account/password', { password: 'old password', new_password: 'new password' },
      { token: a });
    expectOk(r, 'change');
    expectOk(await me(a), 'this session stays');
    expectAnonymous(await me(b), 'the other session ended');
    expectError(await login(name, 'old password'), 401, 'bad_login', 'old password');
    expectOk(await login(name, 'new password'), 'new password');
  },
};

const limits = {
  async 'a guesser cannot lock the owner out: failures count per name and address'() {
    const name = fresh('Victim');
    const from = (address) => ({ headers: { 'x-forwarded-for': address } });
    expectOk(await api('POST', '/api/accounts', { username: name, password: 'good password' }, from('10.5.0.1')),
      'sign up', 201);
    // One guesser, one address: ten wrong guesses, then that address is refused for that name (even with
    // the right password: it cannot tell).
    const guesser = '10.5.1.1';
    for (let i = 0; i < 10; i++)
      expectError(await api('POST', '/api/session', { username: name, password: `guess ${i}` }, from(guesser)), 401,
        'bad_login', `guess ${i}`);
    const refused = expectError(await api('POST', '/api/session', { username: name, password: 'guess 10' },
      from(guesser)), 429, 'rate_limited', 'the eleventh guess');
    assert.ok(refused, 'limited');
    const again = await api('POST', '/api/session', { username: name, password: 'good password' }, from(guesser));
    expectError(again, 429, 'rate_limited', 'right password from the guessing address');
    assert.ok(Number(again.headers.get('retry-after')) >= 1, 'Retry-After');
    // The owner, from an address that has not failed, logs in with the right password.
    expectOk(await api('POST', '/api/session', { username: name, password: 'good password' }, from('10.5.2.2')),
      'the owner from a clean address');
    // Guesses spread over many addresses: each is answered 401 (later ones slowed down, never refused),
    // and the right password from a clean address still logs in.
    for (let i = 0; i < 12; i++)
      expectError(await api('POST', '/api/session', { username: name, password: `spread ${i}` },
        from(`10.5.3.${i}`)), 401, 'bad_login', `spread guess ${i}`);
    expectOk(await api('POST', '/api/session', { username: name, password: 'good password' }, from('10.5.4.4')),
      'the owner after guesses from many addresses');
  },

  async 'sign-ups per address: the sixth in a minute is refused, and creates nothing'() {
    let refused = -1;
    const names = [];
    for (let i = 0; i < 6; i++) {
      const name = fresh('Many');
      names.push(name);
      const r = await api('POST', '/api/accounts', { username: name, password: 'good password' });
      if (r.status === 429) {
        refused = i;
        expectError(r, 429, 'rate_limited', 'sign-up limited');
        break;
      }
      expectOk(r, `sign-up ${i}`, 201);
    }
    // Five a minute: the account the test before made counts too.
    assert.ok(refused === 4 || refused === 5, `sign-ups limited at ${refused}`);
    await expectNoAccount(names[refused], 'good password');
  },

  async 'seeks per address: posting them counts as creating games'() {
    let refused = -1;
    for (let i = 0; i < 70 && refused < 0; i++) {
      const r = await api('POST', '/api/seeks', { time: { type: 'live', minutes: 5 } },
        { headers: { 'x-forwarded-for': '10.7.7.7' } });
      if (r.status === 429) refused = i;
      else {
        // Withdrawn at once: an address may have only three open seeks.
        const seek = expectOk(r, `seek ${i}`, 201);
        expectOk(await api('DELETE', `/api/seeks/${seek.id}`, { secret: seek.secret },
          { headers: { 'x-forwarded-for': '10.7.7.7' } }), `withdraw ${i}`);
      }
    }
    assert.ok(refused >= 55 && refused <= 61, `limited at ${refused}`);
    // Reading the lobby is no creation.
    for (let i = 0; i < 5; i++)
      expectOk(await api('GET', '/api/seeks', undefined, { headers: { 'x-forwarded-for': '10.7.7.7' } }), 'list');
  },

  async 'logins per address: the eleventh attempt from one address is refused, whatever the names'() {
    let refused = -1;
    for (let i = 0; i < 11 && refused < 0; i++) {
      const r = await api('POST', '/api/session', { username: fresh('Spray'), password: 'good password' },
        { headers: { 'x-forwarded-for': '10.9.9.9' } });
      if (r.status === 429) refused = i;
      else expectError(r, 401, 'bad_login', `attempt ${i}`);
    }
    assert.equal(refused, 10, `limited at ${refused}`);
  },
};

const mode = process.argv[2];
if (mode === 'dump') {
  await runTests({ async 'an account for the database check'() {
    const name = fresh('Stored');
    const token = await signup(name, 'Sizilianisch-Najdorf');
    fs.writeFileSync(process.argv[3], JSON.stringify({ name, password: 'Sizilianisch-Najdorf', token }));
  } });
} else {
  await runTests(mode === 'limits' ? limits : tests);
}
