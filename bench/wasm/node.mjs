// The engine's bench in schach.wasm under Node.js: node bench/wasm/node.mjs SCHACH.wasm [DEPTH] [RUNS]
// prints one JSON line {nodes, ms, nps} of the fastest run (after a warm-up run at depth 8).
import { readFileSync } from 'node:fs';
import { loadSchach } from '../../web/wasm/schach-wasm.js';

const [file, depth = '0', runs = '3'] = process.argv.slice(2);
const wasm = await loadSchach({ bytes: readFileSync(file) });
wasm.bench(8);
let best = null;
for (let i = 0; i < Number(runs); i++) {
    const r = wasm.bench(Number(depth));
    if (!best || r.ms < best.ms) best = r;
}
console.log(JSON.stringify({ nodes: best.nodes, ms: best.ms, nps: Math.round((best.nodes * 1000) / Math.max(1, best.ms)) }));
