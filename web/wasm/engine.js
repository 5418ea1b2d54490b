// The engine's message protocol over schach.wasm (docs/wasm.md), independent of where it runs:
// engine-worker.js wires it to a Web Worker, the tests call it directly.
//
//   const engine = createEngine(wasm, post);   // wasm: loadSchach()'s API; post(message): the replies
//   engine.handle(message);                     // a request (below); never throws
//
// Requests: {type:'position', fen?, moves?, chess960?}, {type:'go', depth?, nodes?, movetime?,
// multipv?, infinite?, id?}, {type:'stop'}, {type:'newgame'}.
// Replies: {type:'info', id, depth, seldepth, multipv, score:{cp}|{mate}, nodes, nps, time, pv:[uci],
// san:[…], san_de:[…]} after each completed iteration (scores from the side to move's view), then
// {type:'bestmove', id, move, ponder, san} (move null: no legal move), and {type:'error', id?, error:
// {en, de}} for a request that cannot be done (a bad position: the old one stays).
//
// Stop while searching: a WebAssembly search cannot read messages, so the search runs in slices. A
// slice is one call into the module that deepens by one iteration (the search re-runs the shallower
// iterations from its transposition table, kept between slices) and stops at the slice's time budget;
// between slices the engine yields to the event loop, where a 'stop' or a new request is seen. A slice
// whose iteration did not finish in its budget is retried with twice the budget, so the search always
// progresses; the reaction to 'stop' waits at most for the slice in progress.

export const SLICE_MS = 100;

const yieldToEventLoop =
    typeof setImmediate === 'function'
        ? () => new Promise((resolve) => setImmediate(resolve))
        : () =>
              new Promise((resolve) => {
                  const ch = new MessageChannel();
                  ch.port1.onmessage = () => {
                      ch.port1.close();
                      resolve();
                  };
                  ch.port2.postMessage(0);
              });

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

export function createEngine(wasm, post) {
    let position = { fen: '', moves: [], chess960: false };
    let search = null; // the running search: {id, stop, done (a promise)}
    let sliceTarget = 0;
    let sliceBase = { nodes: 0, start: 0, id: undefined };
    wasm.engineInit(16);
    wasm.enginePosition('', '', false);

    wasm.setInfoHandler((json) => {
        let info;
        try {
            info = JSON.parse(json);
        } catch {
            return;
        }
        // Only the new iteration of a slice; its shallower ones repeat what was reported.
        if (info.depth !== sliceTarget || info.bound) return;
        const nodes = sliceBase.nodes + info.nodes;
        const time = Math.max(1, Math.round(now() - sliceBase.start));
        post({
            type: 'info',
            id: sliceBase.id,
            depth: info.depth,
            seldepth: info.seldepth,
            multipv: info.multipv,
            score: info.score,
            nodes,
            nps: Math.round((nodes * 1000) / time),
            time,
            hashfull: info.hashfull,
            pv: info.pv,
            san: info.san,
            san_de: info.san_de,
        });
    });

    async function stopSearch() {
        if (!search) return;
        search.stop = true;
        await search.done;
    }

    async function run(go) {
        const s = { id: go.id, stop: false };
        let finish;
        s.done = new Promise((resolve) => (finish = resolve));
        search = s;
        try {
            const start = now();
            const multipv = Math.min(Math.max(go.multipv | 0 || 1, 1), 3);
            const maxDepth = Math.min(go.depth > 0 ? go.depth | 0 : 127, 127);
            const nodeLimit = go.nodes > 0 ? Number(go.nodes) : 0;
            const timeLimit = go.movetime > 0 ? Number(go.movetime) : 0;
            const state = wasm.state(position.fen, position.moves, position.chess960);
            const legal = state.ok ? state.state.moves.length : 0;
            let best = null;
            let ponder = null;
            let bestSan = null;
            let completed = 0;
            let nodes = 0;
            let budget = SLICE_MS;
            while (legal > 0 && completed < maxDepth && !s.stop) {
                const left = timeLimit ? timeLimit - (now() - start) : Infinity;
                if (timeLimit && left <= 0 && best) break;
                if (nodeLimit && nodes >= nodeLimit && best) break;
                sliceTarget = completed + 1;
                sliceBase = { nodes, start, id: s.id };
                const ms = Math.max(1, Math.round(Math.min(budget, left)));
                const r = wasm.engineSlice(sliceTarget, multipv, nodeLimit ? Math.max(1, nodeLimit - nodes) : 0, ms);
                if (!r.ok) break;
                nodes += r.nodes;
                if (r.depth >= sliceTarget || !best) {
                    best = r.best;
                    ponder = r.ponder;
                    bestSan = r.best_san;
                }
                if (r.depth >= sliceTarget) {
                    completed = r.depth;
                    budget = SLICE_MS;
                } else {
                    budget *= 2;
                }
                await yieldToEventLoop();
            }
            // "go infinite" answers only after 'stop' (UCI), also when there is nothing left to search.
            while (go.infinite && !s.stop && legal > 0) await new Promise((resolve) => setTimeout(resolve, 20));
            post({ type: 'bestmove', id: s.id, move: best, ponder, san: bestSan });
        } catch (e) {
            post({ type: 'error', id: s.id, error: { en: String(e), de: String(e) } });
            post({ type: 'bestmove', id: s.id, move: null, ponder: null, san: null });
        } finally {
            search = null;
            finish();
        }
    }

    async function handle(msg) {
        try {
            if (!msg || typeof msg !== 'object') return;
            switch (msg.type) {
                case 'stop':
                    await stopSearch();
                    break;
                case 'newgame':
                    await stopSearch();
                    wasm.engineClear();
                    break;
                case 'position': {
                    await stopSearch();
                    const next = {
                        fen: typeof msg.fen === 'string' ? msg.fen : '',
                        moves: Array.isArray(msg.moves) ? msg.moves.map(String) : String(msg.moves || '').split(/\s+/).filter(Boolean),
                        chess960: !!msg.chess960,
                    };
                    const r = wasm.enginePosition(next.fen, next.moves, next.chess960);
                    if (r.ok) position = next;
                    else {
                        wasm.enginePosition(position.fen, position.moves, position.chess960);
                        post({ type: 'error', error: r.error });
                    }
                    break;
                }
                case 'go':
                    await stopSearch();
                    await run(msg);
                    break;
                default:
                    post({ type: 'error', error: { en: `unknown message type ${msg.type}`, de: `unbekannte Nachricht ${msg.type}` } });
            }
        } catch (e) {
            post({ type: 'error', error: { en: String(e), de: String(e) } });
        }
    }

    return {
        // Runs the request; the promise settles when it is done (for 'go': after its bestmove).
        handle,
        get searching() {
            return search !== null;
        },
    };
}
