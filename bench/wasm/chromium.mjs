// The engine's bench in schach.wasm in Chromium (Debian's, driven by playwright-core as the e2e tests
// do), from a page that schach serve sends with its real security headers:
//   node bench/wasm/chromium.mjs URL [DEPTH] [RUNS]      (URL: a schach serve with /wasm/ in its web folder)
// prints one JSON line {nodes, ms, nps} of the fastest run, in the page (one thread) and in the engine
// worker's module.
import { chromium } from '../../tests/e2e/node_modules/playwright-core/index.mjs';

const [url, depth = '0', runs = '3'] = process.argv.slice(2);
const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
    const page = await browser.newPage();
    const problems = [];
    page.on('console', (m) => problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(url);
    const result = await page.evaluate(
        async ([d, n]) => {
            const m = await import('/wasm/schach-wasm.js');
            let wasm;
            try {
                wasm = await m.loadSchach({ url: '/wasm/schach.wasm' });
            } catch (e) {
                return { error: String(e) };
            }
            wasm.bench(8);
            let best = null;
            for (let i = 0; i < n; i++) {
                const r = wasm.bench(d);
                if (!best || r.ms < best.ms) best = r;
            }
            return { nodes: best.nodes, ms: best.ms, nps: Math.round((best.nodes * 1000) / Math.max(1, best.ms)), ua: navigator.userAgent };
        },
        [Number(depth), Number(runs)],
    );
    if (result.error) {
        console.error(`chromium: ${result.error} ${problems.join(' | ')}`);
        process.exitCode = 1;
    }
    console.log(JSON.stringify(result));
} finally {
    await browser.close();
}
