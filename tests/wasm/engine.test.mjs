// The engine worker's protocol (web/wasm/engine-worker.js in a worker thread): info lines and a legal
// bestmove, stop during go infinite, MultiPV, mate in one, node and time limits, a bad position; and
// the module's bench node count equal to the native one (the same search).
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { check, finish, load, native, wasmBytes } from './lib.mjs';

const wasm = await load();
const worker = new Worker(new URL('./worker-shim.mjs', import.meta.url));
const inbox = [];
let waiter = null;
worker.on('message', (m) => {
    inbox.push(m);
    if (waiter) waiter();
});
worker.on('error', (e) => {
    console.log(`FAIL worker error ${e.stack}`);
    process.exit(1);
});

// The next message that satisfies pred (earlier ones are dropped); a generous deadline, no timing.
async function next(pred, what) {
    const deadline = Date.now() + 120000;
    for (;;) {
        while (inbox.length) {
            const m = inbox.shift();
            if (pred(m)) return m;
            if (m.type === 'info' || m.type === 'ready') continue;
            if (!pred(m) && m.type === 'bestmove' && what !== 'any') throw new Error(`unexpected ${JSON.stringify(m)} waiting for ${what}`);
        }
        if (Date.now() > deadline) throw new Error(`no ${what} within 120 s`);
        await new Promise((resolve) => {
            waiter = resolve;
            setTimeout(resolve, 1000);
        });
        waiter = null;
    }
}

// Everything up to and including the bestmove.
async function untilBestmove() {
    const seen = [];
    await next((m) => {
        seen.push(m);
        return m.type === 'bestmove';
    }, 'bestmove');
    return { infos: seen.filter((m) => m.type === 'info'), best: seen[seen.length - 1], errors: seen.filter((m) => m.type === 'error') };
}

const legal = (fen, moves, uci) => wasm.state(fen, moves).state.moves.some((m) => m.uci === uci);

worker.postMessage({ type: 'init', wasm: wasmBytes });
await check('the worker loads the module', async () => {
    await next((m) => m.type === 'ready' || m.type === 'unavailable', 'ready');
});

await check('go depth 6: info lines for depths 1..6, then a legal bestmove', async () => {
    worker.postMessage({ type: 'position', fen: '', moves: ['e4', 'e5', 'Nf3'] });
    worker.postMessage({ type: 'go', depth: 6, id: 7 });
    const { infos, best } = await untilBestmove();
    assert.deepEqual([...new Set(infos.map((i) => i.depth))], [1, 2, 3, 4, 5, 6]);
    for (const i of infos) {
        assert.equal(i.id, 7);
        assert.equal(i.multipv, 1);
        assert.ok('cp' in i.score || 'mate' in i.score);
        assert.ok(i.nodes > 0 && i.nps > 0 && i.pv.length > 0 && i.san.length === i.pv.length);
        assert.ok(legal('', 'e4 e5 Nf3', i.pv[0]));
    }
    assert.ok(infos[5].nodes >= infos[0].nodes);
    assert.equal(best.id, 7);
    assert.ok(legal('', 'e4 e5 Nf3', best.move), best.move);
    assert.equal(best.move, infos[infos.length - 1].pv[0]);
    assert.ok(best.san);
});

await check('go infinite, then stop: a bestmove', async () => {
    worker.postMessage({ type: 'position', fen: 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1' });
    worker.postMessage({ type: 'go', infinite: true });
    await next((m) => m.type === 'info' && m.depth >= 4, 'info depth 4');
    worker.postMessage({ type: 'stop' });
    const { best } = await untilBestmove();
    assert.ok(legal('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', '', best.move));
});

await check('a new go while one searches ends the first with its bestmove', async () => {
    worker.postMessage({ type: 'position', fen: '' });
    worker.postMessage({ type: 'go', infinite: true, id: 1 });
    await next((m) => m.type === 'info' && m.depth >= 2, 'info');
    worker.postMessage({ type: 'go', depth: 3, id: 2 });
    const first = await next((m) => m.type === 'bestmove', 'bestmove');
    assert.equal(first.id, 1);
    const second = await untilBestmove();
    assert.equal(second.best.id, 2);
    assert.ok(legal('', '', second.best.move));
});

await check('multipv 3: three lines per depth, best first', async () => {
    worker.postMessage({ type: 'position', fen: '' });
    worker.postMessage({ type: 'go', depth: 5, multipv: 3 });
    const { infos, best } = await untilBestmove();
    const last = infos.filter((i) => i.depth === 5);
    assert.deepEqual(last.map((i) => i.multipv), [1, 2, 3]);
    assert.equal(new Set(last.map((i) => i.pv[0])).size, 3);
    assert.ok(last[0].score.cp >= last[1].score.cp && last[1].score.cp >= last[2].score.cp);
    assert.equal(best.move, last[0].pv[0]);
});

await check('mate in one: score mate 1 and the mating move', async () => {
    worker.postMessage({ type: 'position', fen: '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1' });
    worker.postMessage({ type: 'go', depth: 5 });
    const { infos, best } = await untilBestmove();
    assert.deepEqual(infos[infos.length - 1].score, { mate: 1 });
    assert.equal(best.move, 'a1a8');
    assert.equal(best.san, 'Ra8#');
});

await check('go nodes and go movetime end with a bestmove; no legal move: move null', async () => {
    worker.postMessage({ type: 'position', fen: '' });
    worker.postMessage({ type: 'go', nodes: 20000 });
    let r = await untilBestmove();
    assert.ok(legal('', '', r.best.move));
    worker.postMessage({ type: 'go', movetime: 300 });
    r = await untilBestmove();
    assert.ok(legal('', '', r.best.move));
    worker.postMessage({ type: 'position', fen: '', moves: 'f3 e5 g4 Qh4' });
    worker.postMessage({ type: 'go', depth: 3 });
    r = await untilBestmove();
    assert.equal(r.best.move, null);
});

await check('a bad position is refused with the reason; the old one stays', async () => {
    worker.postMessage({ type: 'position', fen: '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1' });
    worker.postMessage({ type: 'position', fen: 'k7/8/8/8/8/8/8/KK6 w - - 0 1' });
    const err = await next((m) => m.type === 'error', 'error');
    assert.match(err.error.en, /more than one king/);
    assert.match(err.error.de, /mehr als einen König/);
    worker.postMessage({ type: 'position', fen: '', moves: ['e4', 'Ke2'] });
    await next((m) => m.type === 'error', 'error');
    worker.postMessage({ type: 'go', depth: 3 });
    const { best } = await untilBestmove();
    assert.equal(best.move, 'a1a8');
    worker.postMessage({ type: 'bogus' });
    await next((m) => m.type === 'error', 'error');
});

await check('bench: the module searches the same tree as the native engine (node count of schach bench 9)', () => {
    const want = Number(/Total: (\d+) nodes/.exec(native(['bench', '9']))[1]);
    assert.equal(wasm.bench(9).nodes, want);
});

await worker.terminate();
finish();
