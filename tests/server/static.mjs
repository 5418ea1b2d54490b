// Static files: the index, the single-page app's routes (/g/<id>, /@/<name>, /account), MIME types, chessground's folder.
// STATIC_MARK is a text the index.html of the served folder contains; STATIC_FULL=1 checks the
// test folder's extra files (app.mjs, app.js.map, style.css, vendor file).
import http from 'node:http';
import zlib from 'node:zlib';
import { api, assert, BASE, runTests } from './lib.mjs';

// A GET through node's http module: the body as it came over the wire (fetch would decompress it).
function raw(path, headers = {}) {
  return new Promise((resolve, reject) => {
    http.get(new URL(path, BASE), { headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

const mark = process.env.STATIC_MARK;
const full = process.env.STATIC_FULL === '1';

await runTests({
  async 'index and app routes'() {
    for (const path of ['/', '/index.html', '/g/AbCdEfGhIjKl', '/g/AbCdEfGhIjKl?x=1', '/@/Some_Player', '/account']) {
      const r = await api('GET', path);
      assert.equal(r.status, 200, `${path}: ${r.status}`);
      assert.match(r.headers.get('content-type'), /^text\/html/, `${path}: content type`);
      assert.ok(r.text.includes(mark), `${path} is the index`);
    }
    const missing = await api('GET', '/no-such-file.html');
    assert.equal(missing.status, 404);
  },

  async 'MIME types and the chessground folder'() {
    if (!full) return;
    const types = { '/app.mjs': /^application\/javascript/, '/app.js': /^application\/javascript/,
      '/app.js.map': /^application\/json/, '/style.css': /^text\/css/, '/icon.svg': /^image\/svg\+xml/,
      '/font.woff2': /^font\/woff2/, '/vendor/chessground/dist/chessground.min.js': /^application\/javascript/ };
    for (const [path, re] of Object.entries(types)) {
      const r = await api('GET', path);
      assert.equal(r.status, 200, `${path}: ${r.status}`);
      assert.match(r.headers.get('content-type'), re, `${path}: ${r.headers.get('content-type')}`);
    }
    assert.equal((await api('GET', '/vendor/chessground/dist/chessground.min.js')).text, 'export const cg = 1;\n');
    assert.equal((await api('GET', '/../../etc/passwd')).status === 200 &&
      (await api('GET', '/../../etc/passwd')).text.includes('root:'), false, 'no escape from the web folder');
  },

  async 'files are revalidated by their tag and sent compressed to who accepts it'() {
    const paths = full ? ['/', '/app.js', '/style.css'] : ['/', '/game.js', '/i18n.js', '/style.css', '/favicon.ico'];
    let plain = 0, first = 0, again = 0;
    for (const path of paths) {
      const a = await raw(path);
      assert.equal(a.status, 200, `${path}: ${a.status}`);
      assert.equal(a.headers['cache-control'], 'no-cache', `${path}: kept, but asked for again`);
      assert.match(a.headers.etag || '', /^"[0-9a-f]{32}"$/, `${path}: a strong tag`);
      assert.equal(a.headers['content-encoding'], undefined, `${path}: not compressed when not accepted`);
      assert.match(a.headers.vary || '', /accept-encoding/i);
      plain += a.body.length;
      const z = await raw(path, { 'accept-encoding': 'gzip, deflate, br' });
      assert.equal(z.headers.etag, a.headers.etag, `${path}: one tag for both forms`);
      if (a.body.length >= 1024 && !path.endsWith('.ico')) {
        assert.equal(z.headers['content-encoding'], 'gzip', `${path}: compressed`);
        assert.ok(z.body.length < a.body.length / 2, `${path}: ${z.body.length} of ${a.body.length} bytes`);
        assert.ok(zlib.gunzipSync(z.body).equals(a.body), `${path}: the same file`);
      }
      first += z.body.length;
      const no = await raw(path, { 'accept-encoding': 'gzip;q=0' });
      assert.equal(no.headers['content-encoding'], undefined, `${path}: q=0 refuses gzip`);
      const again304 = await raw(path, { 'if-none-match': a.headers.etag, 'accept-encoding': 'gzip' });
      assert.equal(again304.status, 304, `${path}: unchanged`);
      assert.equal(again304.body.length, 0, `${path}: no body`);
      assert.equal(again304.headers.etag, a.headers.etag);
      again += again304.body.length;
      const other = await raw(path, { 'if-none-match': '"0123456789abcdef0123456789abcdef"' });
      assert.equal(other.status, 200, `${path}: another tag gets the file`);
    }
    console.log(`     a visit: ${plain} bytes plain, ${first} compressed, ${again} on the next visit`);
    // The API is never cached.
    const api1 = await raw('/api/levels');
    assert.equal(api1.headers['cache-control'], 'no-store');
    assert.equal(api1.headers.etag, undefined);
  },
});
