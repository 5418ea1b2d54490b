// Static files: the index, the single-page app's /g/<id> route, MIME types, chessground's folder.
// STATIC_MARK is a text the index.html of the served folder contains; STATIC_FULL=1 checks the
// test folder's extra files (app.mjs, app.js.map, style.css, vendor file).
import { api, assert, runTests } from './lib.mjs';

const mark = process.env.STATIC_MARK;
const full = process.env.STATIC_FULL === '1';

await runTests({
  async 'index and app routes'() {
    for (const path of ['/', '/index.html', '/g/AbCdEfGhIjKl', '/g/AbCdEfGhIjKl?x=1']) {
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
});
