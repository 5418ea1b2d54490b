// The rules of chess for pages, from libschach in schach.wasm (docs/wasm.md): legal moves, playing a
// move, FEN validation, PGN read and write. Runs in the page or in a worker. Nothing here throws: when
// WebAssembly is not available (or the module cannot be fetched) loadRules() resolves to false,
// rulesAvailable() says false and every other function returns null, so a page can fall back to the
// server.
import { loadSchach } from './schach-wasm.js';

let wasm = null;
let loading = null;

/** Loads schach.wasm once (options: {url} or {bytes}); resolves to whether it loaded. Never rejects. */
export function loadRules(options = {}) {
    if (!loading) {
        loading = loadSchach(options.url || options.bytes ? options : { url: new URL('./schach.wasm', import.meta.url).href })
            .then((w) => {
                wasm = w;
                return true;
            })
            .catch(() => false);
    }
    return loading;
}

/** Whether the rules are loaded. */
export function rulesAvailable() {
    return wasm !== null;
}

function guarded(fn) {
    if (!wasm) return null;
    try {
        return fn();
    } catch {
        return null;
    }
}

/** The state after fen (''/undefined: the start) and moves (array or space-separated, any notation):
 * {ok:true, state:{fen, turn, check, checkmate, stalemate, insufficient_material, chess960, ply,
 * moves:[{uci, san, san_de, from, to, promotion, castling}], outcome:null|{result, termination, reason?,
 * en, de}, claims:[…]}} or {ok:false, error:{code, name?, ply?, en, de}}. */
export function gameState(fen, moves, options = {}) {
    return guarded(() => wasm.state(fen, moves, options.chess960));
}

/** The legal moves of that position (the state's moves), or null. */
export function legalMoves(fen, moves, options = {}) {
    const r = gameState(fen, moves, options);
    return r && r.ok ? r.state.moves : null;
}

/** Plays move (UCI, SAN in English or German, long algebraic) after fen and moves: {ok:true, move:
 * {uci, san, san_de, from, to, promotion, castling}, state:{…}} or {ok:false, error:{…}}. */
export function playMove(fen, move, moves, options = {}) {
    return guarded(() => wasm.play(fen, moves, move, options.chess960));
}

/** Whether fen is a legal position: {ok:true, fen} (normalised) or {ok:false, error:{code, name,
 * en, de}} with the reason in English and German (name: "two_kings", "pawn_rank",
 * "opponent_in_check", "castling_pieces", "ep_pawn", …; docs/wasm.md lists them). */
export function validateFen(fen) {
    return guarded(() => wasm.validate(fen));
}

/** The first game of a PGN text as a tree: {ok:true, tags:[[name, value]], fen, chess960, result,
 * comment, moves:[node]} with node {uci, san, san_de, fen, comment, commands, comment_before, nags:[n],
 * variations:[[node…]…]}, or {ok:false, error:{…, line, column}}. */
export function parsePgn(text) {
    return guarded(() => wasm.pgnParse(text));
}

function esc(text) {
    return String(text).replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
}

/** A tree (as parsePgn gives it; a node needs only uci or san) in the line format of sch_wasm_pgn_write. */
export function treeToOps(tree) {
    const out = [];
    for (const [name, value] of tree.tags || []) out.push(`T\t${esc(name)}\t${esc(value)}`);
    if (tree.fen) out.push(`F\t${esc(tree.fen)}`);
    if (tree.chess960) out.push('X');
    if (tree.comment) out.push(`C\t${esc(tree.comment)}`);
    const line = (nodes) => {
        for (const n of nodes) {
            out.push(`M\t${esc(n.uci || n.san)}`);
            if (n.comment_before) out.push(`b\t${esc(n.comment_before)}`);
            const comment = [n.commands, n.comment].filter(Boolean).join(' ');
            if (comment) out.push(`c\t${esc(comment)}`);
            for (const nag of n.nags || []) out.push(`n\t${nag | 0}`);
            for (const v of n.variations || []) {
                if (!v.length) continue;
                out.push('(');
                line(v);
                out.push(')');
            }
        }
    };
    line(tree.moves || []);
    out.push(`R\t${tree.result || '*'}`);
    return out.join('\n') + '\n';
}

/** The tree written as PGN by libschach (options.lang 'de': German piece letters): {ok:true, pgn} or
 * {ok:false, error}. */
export function writePgn(tree, options = {}) {
    return guarded(() => wasm.pgnWrite(treeToOps(tree), options.lang));
}
