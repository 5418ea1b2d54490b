// schach.wasm loader: libschach and the engine compiled to WebAssembly (docs/wasm.md).
//
//   const wasm = await loadSchach({ url, bytes, onInfo });
//
// url: where the module is (default: schach.wasm beside this file); bytes: the module itself (an
// ArrayBuffer or typed array, e.g. in Node.js); onInfo(json): receives the engine's info lines. The
// module imports a minimal WASI (clock_time_get, fd_write for debugging, fd_close, fd_seek,
// poll_oneoff, random_get, proc_exit) and env.sch_info. Each method passes strings through the
// module's memory and returns the parsed JSON answer.

const WASI_ESUCCESS = 0;
const WASI_EBADF = 8;
const WASI_ENOSYS = 52;

function wasiShim(getMemory) {
    const view = () => new DataView(getMemory().buffer);
    const lines = { 1: '', 2: '' };
    const started = typeof performance !== 'undefined' ? performance : { now: () => Date.now() };
    return {
        clock_time_get(id, _precision, out) {
            const ns = id === 0 ? BigInt(Date.now()) * 1000000n : BigInt(Math.round(started.now() * 1e6));
            view().setBigUint64(out, ns, true);
            return WASI_ESUCCESS;
        },
        fd_write(fd, iovs, iovsLen, nwritten) {
            const v = view();
            let total = 0;
            let text = '';
            const dec = new TextDecoder();
            for (let i = 0; i < iovsLen; i++) {
                const ptr = v.getUint32(iovs + 8 * i, true);
                const len = v.getUint32(iovs + 8 * i + 4, true);
                text += dec.decode(new Uint8Array(getMemory().buffer, ptr, len));
                total += len;
            }
            if (fd === 1 || fd === 2) {
                // Debugging output of the module, line by line on the console.
                const parts = (lines[fd] + text).split('\n');
                lines[fd] = parts.pop();
                for (const line of parts) (fd === 1 ? console.log : console.error)(line);
            } else {
                return WASI_EBADF;
            }
            v.setUint32(nwritten, total, true);
            return WASI_ESUCCESS;
        },
        fd_close: () => WASI_EBADF,
        fd_seek: () => WASI_EBADF,
        fd_fdstat_get: () => WASI_EBADF,
        poll_oneoff(_in, _out, nsubscriptions, nevents) {
            // Only nanosleep asks, and nothing may sleep on the page's thread: report the wait as done.
            view().setUint32(nevents, 0, true);
            return nsubscriptions ? WASI_ENOSYS : WASI_ESUCCESS;
        },
        random_get(buf, len) {
            const bytes = new Uint8Array(getMemory().buffer, buf, len);
            if (globalThis.crypto && globalThis.crypto.getRandomValues) globalThis.crypto.getRandomValues(bytes);
            else for (let i = 0; i < len; i++) bytes[i] = Math.floor(Math.random() * 256);
            return WASI_ESUCCESS;
        },
        proc_exit(code) {
            throw new Error(`schach.wasm exited with status ${code}`);
        },
    };
}

async function moduleBytes(url) {
    const u = new URL(url, import.meta.url);
    if (u.protocol === 'file:') {
        // Node.js: read the file (the name is built so that a bundler leaves the import alone).
        const fs = await import('node:' + 'fs/promises');
        return fs.readFile(u);
    }
    const res = await fetch(u);
    if (!res.ok) throw new Error(`${u}: HTTP ${res.status}`);
    return res.arrayBuffer();
}

/** Loads schach.wasm and returns its API (see the file's head). Rejects when it cannot. */
export async function loadSchach(options = {}) {
    if (typeof WebAssembly !== 'object') throw new Error('WebAssembly is not available');
    const bytes = options.bytes || (await moduleBytes(options.url || './schach.wasm'));
    let memory = null;
    let onInfo = options.onInfo || null;
    const decoder = new TextDecoder();
    const imports = {
        wasi_snapshot_preview1: wasiShim(() => memory),
        env: {
            sch_info(ptr, len) {
                if (onInfo) onInfo(decoder.decode(new Uint8Array(memory.buffer, ptr, len)));
            },
        },
    };
    const { instance } = await WebAssembly.instantiate(bytes, imports);
    const x = instance.exports;
    memory = x.memory;
    x._initialize();
    const encoder = new TextEncoder();

    // Each string argument in a block of its own, freed after the call.
    const call = (fn, ...args) => {
        const blocks = [];
        try {
            const conv = args.map((a) => {
                if (typeof a !== 'string') return a;
                const data = encoder.encode(a);
                const p = x.sch_wasm_alloc(data.length + 1);
                if (!p) throw new Error('schach.wasm: out of memory');
                blocks.push(p);
                const mem = new Uint8Array(memory.buffer);
                mem.set(data, p);
                mem[p + data.length] = 0;
                return p;
            });
            const ptr = fn(...conv);
            const mem = new Uint8Array(memory.buffer);
            let end = ptr;
            while (mem[end]) end++;
            return JSON.parse(decoder.decode(mem.subarray(ptr, end)));
        } finally {
            for (const p of blocks) x.sch_wasm_free(p);
        }
    };
    const movesText = (moves) => (Array.isArray(moves) ? moves.join(' ') : moves || '');
    return {
        setInfoHandler(fn) {
            onInfo = fn;
        },
        state: (fen, moves, chess960) => call(x.sch_wasm_state, fen || '', movesText(moves), chess960 ? 1 : 0),
        play: (fen, moves, move, chess960) =>
            call(x.sch_wasm_play, fen || '', movesText(moves), chess960 ? 1 : 0, String(move)),
        validate: (fen) => call(x.sch_wasm_validate, String(fen)),
        pgnParse(text) {
            const data = encoder.encode(String(text));
            const p = x.sch_wasm_alloc(data.length + 1);
            if (!p) throw new Error('schach.wasm: out of memory');
            try {
                new Uint8Array(memory.buffer).set(data, p);
                return call((q, n) => x.sch_wasm_pgn_parse(q, n), p, data.length);
            } finally {
                x.sch_wasm_free(p);
            }
        },
        pgnWrite: (ops, lang) => call(x.sch_wasm_pgn_write, ops, lang === 'de' ? 1 : 0),
        engineInit: (hashMb) => x.sch_wasm_engine_init(hashMb | 0) !== 0,
        enginePosition: (fen, moves, chess960) =>
            call(x.sch_wasm_engine_position, fen || '', movesText(moves), chess960 ? 1 : 0),
        engineClear: () => x.sch_wasm_engine_clear(),
        engineSlice: (depth, multipv, nodes, movetime) =>
            call(x.sch_wasm_engine_slice, depth | 0, multipv | 0, Number(nodes) || 0, movetime | 0),
        bench: (depth) => call(x.sch_wasm_bench, depth | 0),
        memoryBytes: () => memory.buffer.byteLength,
    };
}
