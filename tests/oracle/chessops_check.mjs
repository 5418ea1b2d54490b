// Cross-checks `schach moves --json` against chessops (the rules library behind lichess) on every
// position of seeded random games: legal moves, SAN (English and German), FEN, check and outcome.
// Then replays every whole game as SAN and compares the end: FEN, outcome (fivefold repetition and
// the 75-move rule included) and the threefold claim.
//
//   node chessops_check.mjs path/to/schach [perft.epd]
// Exit status 0 when schach agrees everywhere, 1 on any mismatch (each printed as a diff), 2 on misuse.
import { existsSync } from 'node:fs';
import { STYLES, makeRng, parseJson, randomGame, readEpdFens, runSchachAll, runSchachBatch } from './lib.mjs';

const [schach, epdPath] = process.argv.slice(2);
if (!schach) {
  console.error('usage: node chessops_check.mjs path/to/schach [perft.epd]');
  process.exit(2);
}

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

// Hand-picked starts for the rules random play reaches too rarely. Each gets a few short games.
const HAND_PICKED = [
  '8/8/8/4k3/8/8/4P3/4K3 w - - 0 1', // K+P v K: promotion race
  '8/8/8/4k3/8/8/8/R3K3 w Q - 0 1', // K+R v K with castling right
  '8/8/2k5/8/8/8/8/3QK3 w - - 0 1', // K+Q v K: mates and stalemates
  '8/8/3k4/8/8/8/8/2B1K3 w - - 0 1', // K+B v K: dead at once
  '8/8/3k4/8/8/8/8/1N2K3 w - - 0 1', // K+N v K: dead at once
  '8/8/3k4/8/8/8/8/1NN1K3 w - - 0 1', // K+N+N v K: mate is possible, so not dead
  '8/8/3kb3/8/8/8/8/2B1K3 w - - 0 1', // K+B v K+B, bishops on both colours: not dead
  '8/8/3k1b2/8/8/8/8/2B1K3 w - - 0 1', // K+B v K+B, bishops on one colour: dead
  '1b6/8/3k4/8/8/4B3/8/2B1K3 w - - 0 1', // three bishops, all on dark squares: dead
  '8/8/3kn3/8/8/8/8/1N2K3 w - - 0 1', // K+N v K+N: not dead
  '8/8/3kb3/8/8/8/8/1N2K3 w - - 0 1', // K+N v K+B: not dead
  '8/5k2/8/8/8/8/6p1/4K3 b - - 0 1', // K v K+P: black promotes
  '4k3/P6P/8/8/8/8/p6p/4K3 w - - 0 1', // promotions with check on both sides
  '1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1', // promotion by capture and straight on
  '8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1', // en passant would expose the king along the rank: illegal
  '8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1', // en passant pinned along the rank
  '8/8/1k6/2pP4/8/8/8/6K1 w - c6 0 1', // en passant legal
  '8/5k2/8/2pP4/8/1B6/8/6K1 w - c6 0 1', // en passant capture gives a discovered check
  '4k3/8/8/3pP3/2K5/8/8/8 w - d6 0 1', // en passant captures the pawn that gives check
  '2b1k3/8/8/3pP3/6K1/8/8/8 w - d6 0 1', // discovered check by the double step: en passant does not help
  'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', // castling both ways for both sides
  'r3k2r/8/8/8/8/5q2/8/R3K2R w KQkq - 0 1', // f1 attacked: no O-O
  'r3k2r/8/8/8/8/8/6b1/R3K2R w KQkq - 0 1', // g2 bishop attacks f1 (no O-O) and the h1 rook
  'r3k2r/8/8/8/8/8/1q6/R3K2R w KQkq - 0 1', // c1 attacked: no O-O-O
  'r3k2r/8/8/8/8/8/b7/R3K2R w KQkq - 0 1', // only b1 attacked: O-O-O is legal
  'r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1', // black to move
  '4k3/8/8/8/8/8/8/R3K2r w Q - 0 1', // in check along the first rank: no castling
  '4rkr1/4p1p1/8/8/8/8/8/4K2R w K - 0 1', // O-O#
  '4k3/8/8/8/8/Q1Q5/8/Q1Q1K3 w - - 0 1', // four queens: file, rank and square disambiguation
  '4k3/8/8/8/8/8/2N1N3/4K2r w - - 0 1', // in check: only Ng1 blocks
  '4k3/4r3/8/8/8/8/2N1N3/4K3 w - - 0 1', // pinned knight does not count for disambiguation
  'R6R/8/8/8/8/8/4k3/R6K w - - 0 1', // rooks sharing a file and a rank
  '6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1', // back-rank mate in one
  '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1', // stalemate already
  'k7/8/1QK5/8/8/8/8/8 b - - 0 1', // stalemate already (black to move)
  '7k/6Q1/6K1/8/8/8/8/8 b - - 0 1', // checkmate already
  '8/8/8/8/8/5k2/8/4K2R w K - 99 80', // the 50-move claim after one more move; 75-move rule near
  '8/8/8/8/8/4k3/8/R3K3 w - - 148 120', // the 75-move rule on the next move or the one after
  '7k/8/5KQ1/8/8/8/8/8 w - - 149 120', // mate on the 150th half-move stands (9.6)
];

const rng = makeRng(20240601);
const games = [];
for (let i = 0; i < 8; i++) games.push(randomGame(rng, START, 250, STYLES[i % STYLES.length]));
const epd = epdPath && existsSync(epdPath) ? readEpdFens(epdPath) : [];
if (epdPath && !epd.length) {
  console.error(`FAIL: no positions read from ${epdPath}`);
  process.exit(1);
}
for (const fen of epd) games.push(randomGame(rng, fen, 30, STYLES[1]));
for (const fen of HAND_PICKED)
  for (let i = 0; i < 2; i++) games.push(randomGame(rng, fen, 30, STYLES[(i + 1) % STYLES.length]));

// Every position is given to schach twice when the en passant square differs between the canonical
// FEN and the FEN with the square after every double step: schach must write the canonical one back.
const queries = [];
for (const g of games)
  for (const p of g.positions) {
    queries.push({ p, input: p.fen });
    if (p.rawFen !== p.fen) queries.push({ p, input: p.rawFen });
  }

const started = Date.now();
// All positions through one `schach moves --batch`; a sample of them (and every game replay below)
// also through `schach moves --json` one process each, which must print the very same line.
const answers = await runSchachBatch(schach, queries.map(q => ({ fen: q.input })));
const SAMPLE_EVERY = 40;
const sample = queries.map((q, i) => i).filter(i => i % SAMPLE_EVERY === 0);
const single = await runSchachAll(schach, sample.map(i => ['moves', '--json', '--fen', queries[i].input]));
let failures = 0;
let movesChecked = 0;
const fail = (where, what, want, got) => {
  failures++;
  if (failures <= 40) {
    console.log(`MISMATCH ${what} at ${where}`);
    console.log(`  chessops: ${typeof want === 'string' ? want : JSON.stringify(want)}`);
    console.log(`  schach:   ${typeof got === 'string' ? got : JSON.stringify(got)}`);
  }
};
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

for (let k = 0; k < sample.length; k++)
  if (single[k].stdout.trimEnd() !== answers[sample[k]].stdout)
    fail(`--fen "${queries[sample[k]].input}"`, 'moves --json and moves --batch', single[k].stdout.trimEnd(), answers[sample[k]].stdout);

const counts = { checkmate: 0, stalemate: 0, insufficient_material: 0, dead_position: 0, seventyfive_moves: 0, fivefold_repetition: 0 };
const features = { castle: 0, enPassant: 0, promotion: 0, underpromotion: 0, mate: 0, check: 0, capture: 0 };
for (let i = 0; i < queries.length; i++) {
  const { p, input } = queries[i];
  const where = `--fen "${input}"`;
  let out;
  try {
    out = parseJson(answers[i], where);
  } catch (e) {
    fail(where, 'output', 'JSON', e.message);
    continue;
  }
  if (out.fen !== p.fen) {
    // Name the field that differs; the en passant field is the one with two conventions (see lib.mjs).
    const a = p.fen.split(' '), b = String(out.fen).split(' ');
    const names = ['placement', 'side to move', 'castling', 'en passant', 'halfmove clock', 'fullmove number'];
    const bad = names.filter((_, k) => a[k] !== b[k]).join(', ');
    fail(where, `FEN (${bad || 'field count'})`, p.fen, out.fen);
  }
  if (out.turn !== p.pos.turn) fail(where, 'turn', p.pos.turn, out.turn);
  if (out.check !== p.pos.isCheck()) fail(where, 'check', p.pos.isCheck(), out.check);
  if (!same(out.outcome, p.fenOutcome)) fail(where, 'outcome', p.fenOutcome, out.outcome);
  if (p.fenOutcome) counts[p.fenOutcome.termination]++;

  // Once the game is over schach lists no moves (the game record allows none); otherwise every
  // legal move, sorted by UCI text.
  const want = p.fenOutcome ? [] : p.moves.map(m => ({ uci: m.uci, san: m.san, san_de: m.sanDe, en_passant: m.enPassant }));
  want.sort((x, y) => (x.uci < y.uci ? -1 : x.uci > y.uci ? 1 : 0));
  const got = Array.isArray(out.moves) ? out.moves : [];
  const wantUci = want.map(m => m.uci), gotUci = got.map(m => m.uci);
  if (!same(wantUci, gotUci)) {
    const missing = wantUci.filter(u => !gotUci.includes(u));
    const extra = gotUci.filter(u => !wantUci.includes(u));
    fail(where, 'legal move set', `${want.length} moves, missing in schach: ${missing.join(' ') || '-'}`,
      `${got.length} moves, extra in schach: ${extra.join(' ') || '-'}`);
  }
  const byUci = new Map(got.map(m => [m.uci, m]));
  for (const m of want) {
    const g = byUci.get(m.uci);
    if (!g) continue;
    movesChecked++;
    if (g.san !== m.san) fail(where, `SAN of ${m.uci}`, m.san, g.san);
    // German SAN is the English one with German letters, 0-0 castling, and " e.p." after the
    // whole move including its check mark ("exd6+ e.p.").
    if (g.san_de !== m.san_de)
      fail(where, `German SAN of ${m.uci}`, m.san_de, g.san_de);
  }
  if (!p.fenOutcome)
    for (const m of p.moves) {
      if (m.castle) features.castle++;
      if (m.enPassant) features.enPassant++;
      if (m.promotion) features.promotion++;
      if (m.promotion && !m.uci.endsWith('q')) features.underpromotion++;
      if (m.mate) features.mate++;
      if (m.check) features.check++;
      if (m.capture) features.capture++;
    }

  // The 50-move claim is the one claim a FEN alone decides: 100 half-moves and the game not over.
  const wantClaims = !p.fenOutcome && p.pos.halfmoves >= 100 ? ['fifty_moves'] : [];
  if (!same(out.claims, wantClaims)) fail(where, 'claims', wantClaims, out.claims);
}

// Whole games as SAN: the same end position, the same outcome (fivefold repetition now visible) and
// the same claims. Besides each whole game, the game up to the first third and fourth occurrence
// of a position, where the threefold claim must be offered and the game must go on.
const replays = [];
for (const g of games) {
  replays.push({ g, n: g.plies.length, outcome: g.outcome });
  for (const times of [3, 4]) {
    const n = g.positions.findIndex(p => p.repetitions === times);
    if (n >= 0 && n < g.plies.length) replays.push({ g, n, outcome: g.positions[n].fenOutcome });
  }
}
const replayed = await runSchachAll(schach, replays.map(r => ['moves', '--json', '--fen', r.g.startFen, '--moves', ...r.g.plies.slice(0, r.n)]));
const replayedBatch = await runSchachBatch(schach, replays.map(r => ({ fen: r.g.startFen, moves: r.g.plies.slice(0, r.n) })));
let threefoldClaims = 0;
for (let i = 0; i < replays.length; i++) {
  const { g, n, outcome } = replays[i];
  const last = g.positions[n];
  const where = `--fen "${g.startFen}" --moves ${g.plies.slice(0, n).join(' ')}`;
  let out;
  try {
    out = parseJson(replayed[i], 'game replay');
  } catch (e) {
    fail(where, 'game replay', 'JSON', e.message);
    continue;
  }
  if (replayedBatch[i].stdout !== replayed[i].stdout.trimEnd())
    fail(where, 'moves --json and moves --batch', replayed[i].stdout.trimEnd(), replayedBatch[i].stdout);
  if (out.fen !== last.fen) fail(where, 'final FEN of the game', last.fen, out.fen);
  if (!same(out.outcome, outcome)) fail(where, 'outcome of the game', outcome, out.outcome);
  if (n === g.plies.length && g.outcome?.termination === 'fivefold_repetition') counts.fivefold_repetition++;
  const wantClaims = [];
  if (!outcome && last.repetitions >= 3) wantClaims.push('threefold_repetition');
  if (!outcome && last.pos.halfmoves >= 100) wantClaims.push('fifty_moves');
  if (wantClaims[0] === 'threefold_repetition') threefoldClaims++;
  if (!same(out.claims, wantClaims)) fail(where, 'claims after the moves', wantClaims, out.claims);
}

const plies = games.reduce((n, g) => n + g.plies.length, 0);
const epConvention = queries.filter(q => q.input !== q.p.fen).length;
console.log(`${queries.length} positions (${epConvention} of them with an en passant square no capture can use), ` +
  `${movesChecked} moves checked; ${games.length} games (${plies} plies) replayed as SAN, ${replays.length - games.length} prefixes; ` +
  `${((Date.now() - started) / 1000).toFixed(1)} s in schach`);
counts.threefold_claim = threefoldClaims;
console.log(`  endings seen: ${Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ')}`);
console.log(`  moves seen:   ${Object.entries(features).map(([k, v]) => `${k} ${v}`).join(', ')}`);
if (failures) {
  console.log(`FAIL: ${failures} mismatches between schach and chessops${failures > 40 ? ' (first 40 shown)' : ''}`);
  process.exit(1);
}
// A generator that stopped reaching a rule would quietly weaken the test; make that loud.
const thin = Object.entries({ ...counts, ...features }).filter(([, v]) => v === 0).map(([k]) => k);
if (thin.length) {
  console.log(`FAIL: the random games no longer reach: ${thin.join(', ')}`);
  process.exit(1);
}
console.log('OK: schach agrees with chessops');
