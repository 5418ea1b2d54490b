// The engine in a Web Worker (docs/wasm.md): new Worker('/wasm/engine-worker.js', {type: 'module'}).
// Optional first message {type:'init', wasm?: URL or bytes}; otherwise schach.wasm beside this file
// is loaded. Then {type:'ready'} (or {type:'unavailable', error} when WebAssembly cannot run), and the
// protocol of engine.js: position, go, stop, newgame → info, bestmove, error.
import { loadSchach } from './schach-wasm.js';
import { createEngine } from './engine.js';

const scope = globalThis;
let engine = null;
let loading = null;

function load(source) {
    if (!loading) {
        const opts = typeof source === 'string' ? { url: source } : source ? { bytes: source } : { url: new URL('./schach.wasm', import.meta.url).href };
        loading = loadSchach(opts)
            .then((wasm) => {
                engine = createEngine(wasm, (m) => scope.postMessage(m));
                scope.postMessage({ type: 'ready' });
            })
            .catch((e) => {
                scope.postMessage({ type: 'unavailable', error: { en: String(e && e.message ? e.message : e), de: String(e && e.message ? e.message : e) } });
            });
    }
    return loading;
}

// Requests are handled one after the other, except 'stop', which must reach a running search.
let chain = Promise.resolve();
scope.onmessage = (event) => {
    const msg = event.data;
    if (msg && msg.type === 'init') {
        load(msg.wasm);
        return;
    }
    const ready = load(null);
    // Any request ends a running search first (its bestmove comes before the new request's replies).
    if (engine && engine.searching) engine.handle({ type: 'stop' });
    if (msg && msg.type === 'stop') return;
    chain = chain.then(() => ready).then(() => (engine ? engine.handle(msg) : undefined));
};
