// Seats that die with the account's access (issue 22, docs/api.md "Accounts"): the secret of a side an
// account plays, read from GET /api/me or the lobby before a password change or "log out everywhere"
// (DELETE /api/sessions), plays, resigns and asks for a rematch no more; the secret /api/me hands out
// afterwards does. The other player's secret is untouched. Names that differ only in look-alike
// characters (I, l, 1; O, 0; case) cannot both be registered. The server runs with --no-limits.
import { api, as, assert, expectError, expectOk, getState, namer, playMoves, ratedGame, runTests, signUp }
  from './lib.mjs';

const fresh = namer('z');
const PASSWORD = 'good password';

const login = async (name, password = PASSWORD) => {
  const r = await api('POST', '/api/session', { username: name, password });
  expectOk(r, `log in ${name}`);
  return { name, cookie: /schach_session=[^;]*/.exec(r.headers.get('set-cookie'))[0] };
};

// The secret GET /api/me gives WHO for game ID (null when the game is not listed).
async function seatOf(who, id) {
  const me = expectOk(await api('GET', '/api/me', undefined, as(who)), `/api/me of ${who.name}`);
  const g = me.playing.find((p) => p.id === id);
  return g ? g.secret : null;
}

const move = (id, secret, ply, mv) => api('POST', `/api/games/${id}/move`, { secret, ply, move: mv });

await runTests({
  async 'a password change revokes every seat secret read before it'() {
    const anna = await signUp(fresh('anna'));
    const bert = await signUp(fresh('bert'));
    const g = await ratedGame(anna, bert, { type: 'live', minutes: 10, increment: 0 });
    assert.equal(await seatOf(anna, g.id), g.white, '/api/me hands out the lobby secret');
    await playMoves(g, ['e4', 'e5']);
    expectOk(await api('POST', '/api/account/password', { password: PASSWORD, new_password: 'better password' },
      as(anna)), 'change the password');
    // The old secret is refused (and changes nothing); the one /api/me gives now plays.
    expectError(await move(g.id, g.white, 2, 'Nf3'), 403, 'bad_secret', 'the secret from before the change');
    expectError(await api('POST', `/api/games/${g.id}/resign`, { secret: g.white }), 403, 'bad_secret',
      'resigning with the secret from before');
    assert.equal((await getState(g.id)).ply, 2);
    const fresh1 = await seatOf(anna, g.id);
    assert.ok(fresh1 && fresh1 !== g.white, 'a new secret after the change');
    expectOk(await move(g.id, fresh1, 2, 'Nf3'), 'a move with the new secret');
    expectOk(await move(g.id, g.black, 3, 'Nc6'), 'the other player plays on with the same secret');
  },

  async 'log out everywhere ends every session of the account and revokes its seats'() {
    const name = fresh('cara');
    const cara = await signUp(name);
    const phone = await login(name);
    const dora = await signUp(fresh('dora'));
    const g = await ratedGame(dora, cara, { type: 'correspondence', days: 3 });
    assert.equal(await seatOf(phone, g.id), g.black);
    const r = await api('DELETE', '/api/sessions', undefined, as(cara));
    assert.equal(expectOk(r, 'log out everywhere').ended, 2, 'both sessions ended');
    assert.match(r.headers.get('set-cookie') || '', /schach_session=;/, 'the cookie is cleared');
    // GET /api/me answers a session that ended with nobody (200 {"username": null}, issue 24).
    assert.equal(expectOk(await api('GET', '/api/me', undefined, as(cara)), 'this session').username, null);
    assert.equal(expectOk(await api('GET', '/api/me', undefined, as(phone)), 'the other session').username, null);
    expectError(await api('DELETE', '/api/sessions', undefined, as(cara)), 401, 'not_logged_in', 'again');
    expectOk(await move(g.id, g.white, 0, 'd4'), 'the opponent moves');
    expectError(await move(g.id, g.black, 1, 'd5'), 403, 'bad_secret', 'the secret from before');
    const again = await login(name);
    const seat = await seatOf(again, g.id);
    assert.ok(seat && seat !== g.black, 'a new secret after logging in again');
    expectOk(await move(g.id, seat, 1, 'd5'), 'a move with it');
  },

  async 'a revoked secret asks for no rematch; the other player still can'() {
    const emil = await signUp(fresh('emil'));
    const finn = await signUp(fresh('finn'));
    const g = await ratedGame(emil, finn, { type: 'live', minutes: 5, increment: 3 });
    await playMoves(g, ['e4', 'e5']);
    expectOk(await api('POST', `/api/games/${g.id}/resign`, { secret: g.black }), 'finn resigns');
    expectOk(await api('DELETE', '/api/sessions', undefined, as(emil)), 'emil logs out everywhere');
    expectError(await api('POST', `/api/games/${g.id}/rematch`, { secret: g.white }), 403, 'bad_secret',
      'a rematch asked with the secret from before');
    assert.equal((await getState(g.id)).rematch, null, 'nothing changed');
    const offered = expectOk(await api('POST', `/api/games/${g.id}/rematch`, { secret: g.black }), 'finn offers');
    assert.equal(offered.state.rematch.offered_by, 'black');
  },

  async 'look-alike names are refused at sign-up, in English and German'() {
    const base = fresh('lol');
    await signUp(base);
    expectError(await api('POST', '/api/accounts', { username: base.toUpperCase(), password: PASSWORD }), 409,
      'username_taken', 'the same name in capitals');
    for (const like of [base.replace(/l/g, 'I'), base.replace(/o/g, '0'), base.replace(/l/, '1')]) {
      const r = await api('POST', '/api/accounts', { username: like, password: PASSWORD });
      expectError(r, 409, 'username_confusable', like);
      expectError(await api('POST', '/api/session', { username: like, password: PASSWORD }), 401, 'bad_login',
        `${like} was not made`);
    }
    const de = await api('POST', '/api/accounts', { username: base.replace(/l/g, 'I'), password: PASSWORD },
      { headers: { 'accept-language': 'de' } });
    expectError(de, 409, 'username_confusable', 'in German');
    assert.match(de.json.error.message, /Benutzername/);
    expectOk(await api('POST', '/api/accounts', { username: `${base}x`, password: PASSWORD }), 'another name', 201);
  },
});
