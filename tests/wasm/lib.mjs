// Shared by the WebAssembly tests: the paths of schach.wasm and the native schach (argv or env),
// and the native program's answers to compare with.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadSchach } from '../../web/wasm/schach-wasm.js';

export const wasmPath = process.argv[2] || process.env.SCHACH_WASM;
export const schachPath = process.argv[3] || process.env.SCHACH;
if (!wasmPath || !schachPath) {
    console.error('usage: node TEST.mjs BUILD/wasm/schach.wasm BUILD/schach');
    process.exit(2);
}
export const wasmBytes = readFileSync(wasmPath);
export const load = (opts = {}) => loadSchach({ bytes: wasmBytes, ...opts });

/** `schach moves --batch` over queries: one answer object per query. */
export function nativeMoves(queries, lang = 'en') {
    const input = queries.map((q) => JSON.stringify(q)).join('\n') + '\n';
    let out;
    try {
        out = execFileSync(schachPath, ['moves', '--batch', '--lang', lang], { input, encoding: 'utf8' });
    } catch (e) {
        out = e.stdout; // exit status 1 when any query failed: the answers are still there
    }
    return out.trim().split('\n').map((l) => JSON.parse(l));
}

export function native(args, input) {
    return execFileSync(schachPath, args, { input, encoding: 'utf8' });
}

let failures = 0;
let passed = 0;
/** Runs one named check; a failure is reported and counted, the others still run. */
export async function check(name, fn) {
    try {
        await fn();
        passed++;
        console.log(`ok ${name}`);
    } catch (e) {
        failures++;
        console.log(`FAIL ${name}\n  ${e && e.stack ? e.stack.split('\n').slice(0, 4).join('\n  ') : e}`);
    }
}
export function finish() {
    console.log(`${passed} passed, ${failures} failed`);
    process.exit(failures ? 1 : 0);
}
