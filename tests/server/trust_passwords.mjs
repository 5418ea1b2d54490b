// Passwords strangers can trust (issue 22, docs/api.md "Accounts"): NIST SP 800-63B's rules — at
// least 8 characters counted in Unicode NFC, not on the list of common passwords (compared without
// case), not only white space nor one character repeated, no composition rules — on sign-up and on a
// password change; a password is compared in NFC, so one typed decomposed (NFD) logs in to an account
// made with the precomposed letters. A refused request changes nothing. The server runs with
// --no-limits (many sign-ups from one address).
import { api, assert, expectError, expectOk, namer, runTests } from './lib.mjs';

const fresh = namer('p');
const NFC = 'caf\u00e9caf\u00e9';
const NFD = 'cafe\u0301cafe\u0301';

function cookieOf(r) {
  return /schach_session=[^;]*/.exec(r.headers.get('set-cookie'))[0];
}

async function signup(name, password, status = 201) {
  const r = await api('POST', '/api/accounts', { username: name, password });
  expectOk(r, `sign up ${name}`, status);
  return cookieOf(r);
}

const login = (name, password) => api('POST', '/api/session', { username: name, password });

async function expectNoAccount(name) {
  expectError(await login(name, 'any password at all'), 401, 'bad_login', `${name} was not created`);
}

await runTests({
  async 'common passwords are refused, whatever their case, in English and German'() {
    const name = fresh('Common');
    for (const password of ['password', '12345678', 'PASSWORD', 'Password1', 'qwertyuiop']) {
      const r = await api('POST', '/api/accounts', { username: name, password });
      expectError(r, 400, 'common_password', `sign-up with ${password}`);
      assert.match(r.json.error.message, /common/, password);
    }
    const de = await api('POST', '/api/accounts?lang=de', { username: name, password: 'password' },
      { headers: { 'accept-language': 'de' } });
    expectError(de, 400, 'common_password', 'German');
    assert.match(de.json.error.message, /verbreitet/);
    await expectNoAccount(name);
  },

  async 'white space alone, or one character repeated, is too weak'() {
    const name = fresh('Blank');
    for (const password of ['        ', '\t\t\t\t\t\t\t\t', ' \u00a0 \u2003 \u00a0  ', 'aaaaaaaa', '\u00e9'.repeat(9)]) {
      const r = await api('POST', '/api/accounts', { username: name, password });
      expectError(r, 400, 'weak_password', `sign-up with ${JSON.stringify(password)}`);
    }
    await expectNoAccount(name);
    // Spaces inside a password are fine, and so is any mix of characters (no composition rules).
    await signup(fresh('Spaces'), 'my   cat   sleeps');
    await signup(fresh('Lower'), 'zebrahorsetable');
  },

  async 'characters are counted in NFC: seven precomposed letters typed decomposed are too few'() {
    const name = fresh('Short');
    // 7 characters in NFC, 8 code points as typed (e + combining acute).
    const r = await api('POST', '/api/accounts', { username: name, password: 'cafe\u0301123' });
    expectError(r, 400, 'bad_password', 'seven characters in NFC');
    await expectNoAccount(name);
  },

  async 'a password signed up in NFC logs in typed in NFD, and the other way round'() {
    const a = fresh('Nfc');
    await signup(a, NFC);
    expectOk(await login(a, NFD), 'NFC sign-up, NFD login');
    expectOk(await login(a, NFC), 'NFC sign-up, NFC login');
    const b = fresh('Nfd');
    await signup(b, NFD);
    expectOk(await login(b, NFC), 'NFD sign-up, NFC login');
    expectError(await login(b, 'cafecafe'), 401, 'bad_login', 'without the accents');
  },

  async 'a password change follows the same rules, and compares in NFC'() {
    const name = fresh('Change');
    const cookie = await signup(name, 'first long password');
    const change = (password, new_password) =>
      api('POST', '/api/account/password', { password, new_password }, { headers: { cookie } });
    expectError(await change('first long password', 'password1'), 400, 'common_password', 'common new one');
    expectError(await change('first long password', '         '), 400, 'weak_password', 'blank new one');
    expectError(await login(name, 'password1'), 401, 'bad_login', 'refused changes changed nothing');
    expectOk(await change('first long password', NFD), 'change to an NFD password');
    expectOk(await login(name, NFC), 'log in with it in NFC');
    // The current password is compared in NFC too.
    expectOk(await change(NFC, 'third long password'), 'current one typed in NFC');
    expectOk(await login(name, 'third long password'), 'the third one');
  },
});
