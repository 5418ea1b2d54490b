// The rules in schach.wasm against the native schach: legal moves, SAN in both languages, state,
// perft counts, moves in any notation, FEN validation reasons, PGN read and write.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { check, finish, load, native, nativeMoves, schachPath, wasmBytes } from './lib.mjs';
import * as rules from '../../web/wasm/rules.js';

const wasm = await load();

// Positions with every kind of move: castling both ways (standard and Chess960), en passant,
// promotions and under-promotions, checks, mate, stalemate, German letters.
const POSITIONS = [
    { fen: '' },
    { fen: 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1' },
    { fen: '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1' },
    { fen: 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1' },
    { fen: 'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8' },
    { fen: '4k3/P7/8/3pP3/8/8/8/R3K2R w KQ d6 0 2' },
    { fen: '8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1' },
    { fen: 'n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1' },
    { fen: '', moves: 'f3 e5 g4 Qh4' },
    { fen: '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1' },
    { fen: '', moves: 'e4 e5 Sf3 Sc6 Lb5 a6 Lxc6 dxc6 0-0' },
    { fen: '', moves: 'Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8' },
    { chess960: 100 },
    { chess960: 0, moves: 'a2a3 a7a6' },
    { fen: 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9', chess960: true },
    { fen: '2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1', chess960: true },
];

// The query as schach moves --batch takes it, and the same for the module (Chess960 by number: its FEN).
function wasmState(q) {
    let fen = q.fen || '';
    if (typeof q.chess960 === 'number') fen = nativeMoves([{ chess960: q.chess960 }])[0].fen;
    return wasm.state(fen, q.moves || '', q.chess960 !== undefined && q.chess960 !== false);
}

await check('legal moves, SAN (English and German), state equal the native schach moves', () => {
    const want = nativeMoves(POSITIONS.map((q) => ({ ...q, fen: q.fen || undefined })));
    POSITIONS.forEach((q, i) => {
        const got = wasmState(q);
        assert.ok(got.ok, JSON.stringify(got));
        const s = got.state;
        const w = want[i];
        assert.equal(s.fen, w.fen, `position ${i}`);
        assert.equal(s.turn, w.turn);
        assert.equal(s.check, w.check);
        assert.deepEqual(s.moves.map((m) => ({ uci: m.uci, san: m.san, san_de: m.san_de })), w.moves, `moves of position ${i}`);
        assert.deepEqual(s.outcome && { result: s.outcome.result, termination: s.outcome.termination, ...(s.outcome.reason ? { reason: s.outcome.reason } : {}) }, w.outcome);
        assert.deepEqual(s.claims, w.claims);
    });
});

await check('checkmate, stalemate, claims, en passant, promotions in the state', () => {
    const mate = wasm.state('', 'f3 e5 g4 Qh4').state;
    assert.equal(mate.checkmate, true);
    assert.equal(mate.outcome.termination, 'checkmate');
    assert.match(mate.outcome.de, /Schachmatt|matt/i);
    const stale = wasm.state('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1').state;
    assert.equal(stale.stalemate, true);
    assert.equal(stale.moves.length, 0);
    const rep = wasm.state('', 'Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8').state;
    assert.deepEqual(rep.claims, ['threefold_repetition']);
    const ep = wasm.state('4k3/P7/8/3pP3/8/8/8/R3K2R w KQ d6 0 2').state.moves;
    const exd6 = ep.find((m) => m.uci === 'e5d6');
    assert.deepEqual([exd6.san, exd6.san_de, exd6.from, exd6.to], ['exd6', 'exd6 e.p.', 'e5', 'd6']);
    const promos = ep.filter((m) => m.from === 'a7').map((m) => m.promotion).sort();
    assert.deepEqual(promos, ['b', 'n', 'q', 'r']);
    assert.equal(ep.find((m) => m.uci === 'e1g1').castling, true);
    assert.equal(wasm.state('8/8/8/8/8/8/8/K1k5 w - - 0 1').state.insufficient_material, true);
});

await check('perft 2 and 3 through the module equal schach perft', () => {
    const cases = [
        ['r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', 2],
        ['8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', 3],
        ['rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8', 2],
    ];
    for (const [fen, depth] of cases) {
        const perft = (f, d) => {
            const moves = wasm.state(f, '').state.moves;
            if (d === 1) return moves.length;
            let n = 0;
            for (const m of moves) n += perft(wasm.play(f, '', m.uci).state.fen, d - 1);
            return n;
        };
        const want = JSON.parse(native(['perft', '--json', '--fen', fen, String(depth)])).nodes;
        assert.equal(perft(fen, depth), want, fen);
    }
});

await check('a move in UCI, SAN, German SAN and long algebraic notation', () => {
    for (const text of ['g1f3', 'Nf3', 'Sf3', 'Ng1-f3', 'Sg1-f3']) {
        const r = wasm.play('', 'e4 e5', text);
        assert.ok(r.ok, text);
        assert.deepEqual([r.move.uci, r.move.san, r.move.san_de], ['g1f3', 'Nf3', 'Sf3']);
        assert.equal(r.state.fen, 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2');
    }
    const castle = wasm.play('4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1', '', '0-0-0', true);
    assert.ok(castle.ok, JSON.stringify(castle));
    assert.deepEqual([castle.move.uci, castle.move.san, castle.move.san_de], ['e1b1', 'O-O-O', '0-0-0']);
    assert.equal(castle.state.fen, '4k3/8/8/8/8/8/8/2KR2R1 b - - 1 1');
    assert.equal(wasm.play('2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1', '', 'O-O', true).error.code, 219);
    const bad = wasm.play('', '', 'e5');
    assert.equal(bad.ok, false);
    assert.ok(bad.error.en && bad.error.de && bad.error.en !== bad.error.de);
    assert.equal(wasm.play('', 'e4 e4', 'e5').ok, false);
});

// Illegal positions: the reason's name, and its text in both languages as the native schach says it.
const ILLEGAL = [
    ['k7/8/8/8/8/8/8/KK6 w - - 0 1', 'two_kings'],
    ['8/8/8/8/8/8/8/K7 w - - 0 1', 'no_king'],
    ['k6P/8/8/8/8/8/8/K7 w - - 0 1', 'pawn_rank'],
    ['k7/8/8/8/8/8/8/K5p1 w - - 0 1', 'pawn_rank'],
    ['k6R/8/8/8/8/8/8/K7 w - - 0 1', 'opponent_in_check'],
    ['r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1', 'castling_pieces'],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1', 'ep_rank'],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1', 'ep_pawn'],
    ['k7/pppppppp/p7/8/8/8/8/K7 w - - 0 1', 'too_many_pawns'],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1', 'turn'],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1', 'ranks'],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1', 'piece'],
    ['4k3/8/8/8/8/8/8/4K2R w Q - 0 1', 'castling_pieces'],
    ['k7/8/8/8/8/1n6/1q6/K1r5 w - - 0 1', 'too_many_checkers'],
    ['', 'empty'],
];

await check('FEN validation: the reason of a dozen illegal positions in English and German', () => {
    const want = { en: nativeMoves(ILLEGAL.map(([fen]) => ({ fen }))), de: nativeMoves(ILLEGAL.map(([fen]) => ({ fen })), 'de') };
    ILLEGAL.forEach(([fen, name], i) => {
        const r = wasm.validate(fen);
        assert.equal(r.ok, false, fen);
        assert.equal(r.error.name, name, `${fen}: ${JSON.stringify(r.error)}`);
        for (const lang of ['en', 'de']) {
            assert.ok(want[lang][i].error, `native accepts ${fen}`);
            assert.ok(want[lang][i].error.endsWith(r.error[lang]), `${lang}: ${want[lang][i].error} / ${r.error[lang]}`);
        }
        assert.notEqual(r.error.en, r.error.de);
    });
    const ok = wasm.validate('4k3/8/8/8/8/8/8/4K3 w - - 0 1');
    assert.deepEqual(ok, { ok: true, fen: '4k3/8/8/8/8/8/8/4K3 w - - 0 1' });
});

const PGN = `[Event "Round trip"]
[Site "?"]
[Date "2024.01.01"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "1-0"]

{Before the first move} 1. e4 {[%clk 0:05:00] [%eval 0.25] best by test} e5 (1... c5 $2 {Sicilian} 2. Nf3 (2. c3 d5) 2... d6) (1... e6) 2. Nf3 $1 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0
`;

await check('PGN with variations, comments, NAGs and clocks: read, written, read again the same; schach pgn check reads it', () => {
    const tree = wasm.pgnParse(PGN);
    assert.ok(tree.ok, JSON.stringify(tree.error));
    assert.equal(tree.moves.length, 33);
    assert.equal(tree.comment, 'Before the first move');
    assert.equal(tree.moves[0].comment, 'best by test');
    assert.equal(tree.moves[0].commands, '[%clk 0:05:00] [%eval 0.25]');
    assert.equal(tree.moves[1].variations.length, 2);
    assert.deepEqual(tree.moves[1].variations[0].map((n) => n.san), ['c5', 'Nf3', 'd6']);
    assert.deepEqual(tree.moves[1].variations[0][0].nags, [2]);
    assert.deepEqual(tree.moves[1].variations[0][1].variations[0].map((n) => n.san), ['c3', 'd5']);
    assert.equal(tree.result, '1-0');
    assert.ok(rules.treeToOps(tree).includes('M\te2e4'));

    for (const lang of ['en', 'de']) {
        const written = wasm.pgnWrite(rules.treeToOps(tree), lang);
        assert.ok(written.ok, JSON.stringify(written.error));
        const again = wasm.pgnParse(written.pgn);
        assert.ok(again.ok);
        assert.deepEqual(again.moves, tree.moves, lang);
        assert.equal(again.comment, tree.comment);
        assert.equal(again.result, '1-0');
        const dir = mkdtempSync(join(tmpdir(), 'schach-wasm-'));
        try {
            const file = join(dir, 'g.pgn');
            writeFileSync(file, written.pgn);
            const report = JSON.parse(execFileSync(schachPath, ['pgn', 'check', '--json', file], { encoding: 'utf8' }).trim().split('\n')[0]);
            assert.equal(report.plies ?? report.games?.[0]?.plies, 33, JSON.stringify(report));
        } finally {
            rmSync(dir, { recursive: true });
        }
    }
    // From a FEN, with a null move kept.
    const fenGame = '[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]\n[SetUp "1"]\n\n1. e4 Kd7 (1... Ke7 2. e5) 2. e5 *\n';
    const t2 = wasm.pgnParse(fenGame);
    assert.ok(t2.ok);
    assert.equal(t2.fen, '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1');
    const w2 = wasm.pgnWrite(rules.treeToOps(t2), 'en');
    assert.ok(w2.ok, JSON.stringify(w2));
    assert.deepEqual(wasm.pgnParse(w2.pgn).moves, t2.moves);
    // Bad input is refused, never a crash.
    assert.equal(wasm.pgnParse('1. e4 e5 2. Ke3 *').ok, false);
    assert.equal(wasm.pgnWrite('M\te5\n', 'en').ok, false);
    assert.equal(wasm.pgnWrite('M\te4\n(\n', 'en').ok, false);
    assert.equal(wasm.pgnWrite('(\n', 'en').ok, false);
    assert.equal(wasm.pgnWrite('M\te4\n)\n', 'en').ok, false);
});

await check('rules.js: loads, says so, never throws; null before loading', async () => {
    assert.equal(rules.rulesAvailable(), false);
    assert.equal(rules.legalMoves(''), null);
    assert.equal(await rules.loadRules({ bytes: wasmBytes }), true);
    assert.equal(rules.rulesAvailable(), true);
    assert.equal(rules.legalMoves('').length, 20);
    assert.equal(rules.playMove('', 'Sf3').move.uci, 'g1f3');
    assert.equal(rules.validateFen('garbage').ok, false);
    assert.equal(rules.gameState(undefined, ['e4']).state.turn, 'black');
    const tree = rules.parsePgn(PGN);
    assert.ok(rules.writePgn(tree, { lang: 'de' }).pgn.includes('Lxb5+'));
    assert.equal(rules.writePgn({ moves: [{ san: 'e5' }] }).ok, false);
    assert.equal(rules.writePgn(null), null); // a broken argument: null, no exception
});

await check('a module that cannot load: loadRules resolves false', async () => {
    const mod = await import('../../web/wasm/rules.js?broken');
    assert.equal(await mod.loadRules({ bytes: new Uint8Array([0, 1, 2, 3]) }), false);
    assert.equal(mod.rulesAvailable(), false);
    assert.equal(mod.validateFen(''), null);
});

finish();
