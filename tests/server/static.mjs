// Static files: the index, the single-page app's routes (/g/<id>, /@/<name>, /account), MIME types, chessground's folder.
// STATIC_MARK is a text the index.html of the served folder contains; STATIC_FULL=1 checks the
// test folder's extra files (app.mjs, app.js.map, style.css, vendor file). STATIC_SERVED says what the
// folder is: "bundle" (scripts/web-bundle's: one script and one stylesheet, with their source maps) or
// "sources" (web/ as it is, module by module).
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
const served = process.env.STATIC_SERVED || '';

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

  async 'the bundle: the page loads one script and one stylesheet, and their source maps are served'() {
    if (served !== 'bundle') return;
    const page = (await api('GET', '/')).text;
    const scripts = page.match(/<script\b[^>]*>/g) || [];
    assert.deepEqual(scripts, ['<script type="module" src="/app.js">'], 'exactly one script, the bundle');
    const sheets = page.match(/<link rel="stylesheet"[^>]*>/g) || [];
    assert.deepEqual(sheets, ['<link rel="stylesheet" href="/app.css">'], 'exactly one stylesheet, the bundle');
    for (const [file, comment, sources] of [
      ['/app.js', /\n\/\/# sourceMappingURL=(\S+)\n?$/, ['web/app.js', 'web/game-ctrl.js', 'web/player.js', '@lichess-org/chessground/']],
      ['/app.css', /\/\*# sourceMappingURL=(\S+) \*\/\n?$/, ['web/style.css', 'web/player.css', '@lichess-org/chessground/assets/chessground.base.css']],
    ]) {
      const bundle = await api('GET', file);
      assert.equal(bundle.status, 200, `${file}: ${bundle.status}`);
      const m = bundle.text.match(comment);
      assert.ok(m, `${file} names its source map`);
      const map = await api('GET', new URL(m[1], new URL(file, BASE)).pathname);
      assert.equal(map.status, 200, `${file}'s map ${m[1]}: ${map.status}`);
      assert.match(map.headers.get('content-type'), /^application\/json/, `${m[1]}: content type`);
      assert.equal(map.json.version, 3, `${m[1]}: a version 3 source map`);
      for (const src of sources)
        assert.ok(map.json.sources.some((p) => p.includes(src)), `${m[1]} maps ${src}: ${map.json.sources.join(' ')}`);
      assert.equal(map.json.sourcesContent.length, map.json.sources.length, `${m[1]}: the sources are inside it`);
    }
    // Only the bundle: the modules and chessground's folder are not served one by one.
    for (const path of ['/game-ctrl.js', '/i18n.js', '/style.css', '/vendor/chessground/dist/chessground.js'])
      assert.equal((await api('GET', path)).status, 404, `${path} is not served beside the bundle`);
  },

  async 'files are revalidated by their tag and sent compressed to who accepts it'() {
    const paths = full ? ['/', '/app.js', '/style.css']
      : served === 'bundle' ? ['/', '/app.js', '/app.js.map', '/app.css', '/app.css.map', '/favicon.ico']
      : ['/', '/game-ctrl.js', '/i18n.js', '/style.css', '/favicon.ico'];
    let plain = 0, first = 0, again = 0;
    for (const path of paths) {
      const a = await raw(path);
      assert.equal(a.status, 200, `${path}: ${a.status}`);
      assert.equal(a.headers['cache-control'], 'no-cache', `${path}: kept, but asked for again`);
      assert.match(a.headers.etag || '', /^"[0-9a-f]{32}"$/, `${path}: a strong tag`);
      assert.equal(a.headers['content-encoding'], undefined, `${path}: not compressed when not accepted`);
      assert.match(a.headers.vary || '', /accept-encoding/i);
      const visit = !path.endsWith('.map'); // a source map is fetched only by the developer tools
      if (visit) plain += a.body.length;
      const z = await raw(path, { 'accept-encoding': 'gzip, deflate, br' });
      assert.equal(z.headers.etag, a.headers.etag, `${path}: one tag for both forms`);
      if (a.body.length >= 1024 && !path.endsWith('.ico')) {
        assert.equal(z.headers['content-encoding'], 'gzip', `${path}: compressed`);
        assert.ok(z.body.length < a.body.length / 2, `${path}: ${z.body.length} of ${a.body.length} bytes`);
        assert.ok(zlib.gunzipSync(z.body).equals(a.body), `${path}: the same file`);
      }
      if (visit) first += z.body.length;
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
