// schach.wasm in Chromium from a page schach serve sends with its real security headers (its
// Content-Security-Policy must allow WebAssembly): rules.js loads and answers, and the engine worker
// (a module Web Worker) answers go with a legal bestmove.
//   node tests/wasm/browser.test.mjs URL   (a schach serve whose web folder has /wasm/)
import assert from 'node:assert/strict';
import { chromium } from '../e2e/node_modules/playwright-core/index.mjs';

const url = process.argv[2];
let failures = 0;
const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
    const page = await browser.newPage();
    await page.goto(url);
    const got = await page.evaluate(async () => {
        const rules = await import('/wasm/rules.js');
        const loaded = await rules.loadRules();
        const out = { loaded, available: rules.rulesAvailable() };
        if (loaded) {
            out.moves = rules.legalMoves('').length;
            out.why = rules.validateFen('k7/8/8/8/8/8/8/KK6 w - - 0 1').error.de;
        }
        const worker = new Worker('/wasm/engine-worker.js', { type: 'module' });
        out.worker = await new Promise((resolve) => {
            const infos = [];
            const timer = setTimeout(() => resolve({ timeout: true, infos }), 60000);
            worker.onmessage = (e) => {
                const m = e.data;
                if (m.type === 'unavailable') resolve({ unavailable: m.error.en });
                if (m.type === 'ready') {
                    worker.postMessage({ type: 'position', fen: '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1' });
                    worker.postMessage({ type: 'go', depth: 4 });
                }
                if (m.type === 'info') infos.push(m.score);
                if (m.type === 'bestmove') {
                    clearTimeout(timer);
                    resolve({ move: m.move, last: infos[infos.length - 1] });
                }
            };
            worker.postMessage({ type: 'init' });
        });
        worker.terminate();
        return out;
    });
    try {
        assert.deepEqual(got, {
            loaded: true,
            available: true,
            moves: 20,
            why: 'Feld 1 (Brett): Weiß hat mehr als einen König',
            worker: { move: 'a1a8', last: { mate: 1 } },
        });
        console.log('ok rules.js and the engine worker in Chromium under the site\'s headers');
    } catch (e) {
        failures++;
        console.log(`FAIL ${e.message}`);
    }
} finally {
    await browser.close();
}
process.exit(failures ? 1 : 0);
