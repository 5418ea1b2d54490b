// Cross-checks `schach perft --divide --json` against Stockfish's `go perft` (the divide per root move
// and the total) on positions from seeded random games plus hand-picked tricky ones.
//
//   node stockfish_check.mjs path/to/schach path/to/stockfish [depth]
// Exit status 0 when every count agrees, 1 on any mismatch (printed as a diff), 2 on misuse.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { STYLES, makeRng, parseJson, randomGame, runSchachAll } from './lib.mjs';

const [schach, stockfishPath, depthArg] = process.argv.slice(2);
if (!schach || !stockfishPath) {
  console.error('usage: node stockfish_check.mjs path/to/schach path/to/stockfish [depth]');
  process.exit(2);
}
const depth = Number(depthArg || 3);

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const HAND_PICKED = [
  '8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1', // en passant would expose the king along the rank
  '8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1', // the same for black
  'b3k3/8/8/2pP4/8/5K2/8/8 w - c6 0 1', // pinned on a diagonal: en passant stays on the pin line
  '2b1k3/8/8/3pP3/6K1/8/8/8 w - d6 0 1', // discovered check by the double step: en passant does not help
  '4k3/8/8/3pP3/2K5/8/8/8 w - d6 0 1', // en passant captures the checking pawn
  '8/5k2/8/2pP4/8/1B6/8/6K1 w - c6 0 1', // en passant uncovers a check
  'r3k2r/8/8/8/8/8/6b1/R3K2R w KQkq - 0 1', // f1 attacked: no O-O
  'r3k2r/8/8/8/8/8/1q6/R3K2R w KQkq - 0 1', // c1 attacked: no O-O-O
  'r3k2r/8/8/8/8/8/b7/R3K2R w KQkq - 0 1', // only b1 attacked: O-O-O legal
  '4k3/8/8/8/8/8/8/R3K2r w Q - 0 1', // in check: no castling
  'r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1', // castling with sliders aimed at both kings
  '4k3/P6P/8/8/8/8/p6p/4K3 w - - 0 1', // promotions with check
  'n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1', // promotions by capture, all four pieces
  '4rkr1/4p1p1/8/8/8/8/8/4K2R w K - 0 1', // O-O#
  '7k/6Q1/6K1/8/8/8/8/8 b - - 0 1', // checkmate: nothing below it
];

// Positions from random games: every 17th position of each game, so the openings, middlegames and
// endgames of all four move styles are represented.
const rng = makeRng(777);
const fens = [...HAND_PICKED];
for (let i = 0; i < 8; i++) {
  const game = randomGame(rng, START, 200, STYLES[i % STYLES.length]);
  for (let k = 5; k < game.positions.length && fens.length < HAND_PICKED.length + 4 * (i + 1); k += 17)
    // Half of them keep the en passant square after any double step (the convention Stockfish reads too).
    fens.push(k % 2 ? game.positions[k].rawFen : game.positions[k].fen);
}

// One Stockfish process for all positions; one position at a time, since `go perft` answers
// asynchronously and ends with "Nodes searched: N".
const sf = spawn(stockfishPath, [], { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = createInterface({ input: sf.stdout });
const waiting = [];
const buffered = [];
let closed = false;
lines.on('line', line => (waiting.length ? waiting.shift()(line) : buffered.push(line)));
lines.on('close', () => {
  closed = true;
  while (waiting.length) waiting.shift()(null);
});
// The next line Stockfish prints, or null once its output has ended.
const nextLine = () =>
  new Promise(resolve => {
    if (buffered.length) resolve(buffered.shift());
    else if (closed) resolve(null);
    else waiting.push(resolve);
  });
sf.on('error', e => {
  console.error(`FAIL: cannot run ${stockfishPath}: ${e.message}`);
  process.exit(1);
});

async function stockfishDivide(fen) {
  sf.stdin.write(`position fen ${fen}\ngo perft ${depth}\n`);
  const moves = {};
  for (;;) {
    const raw = await nextLine();
    if (raw === null) throw new Error(`Stockfish stopped answering at ${fen}`);
    const line = raw.trim();
    let m = /^([a-h][1-8][a-h][1-8][qrbn]?): (\d+)$/.exec(line);
    if (m) moves[m[1]] = Number(m[2]);
    else if ((m = /^Nodes searched: (\d+)$/.exec(line))) return { nodes: Number(m[1]), moves };
  }
}

const started = Date.now();
const schachOut = runSchachAll(schach, fens.map(f => ['perft', '--divide', '--json', '--fen', f, String(depth)]));
const sfResults = [];
for (const fen of fens) sfResults.push(await stockfishDivide(fen));
sf.stdin.end('quit\n');
const answers = await schachOut;

let failures = 0;
let total = 0;
for (let i = 0; i < fens.length; i++) {
  const where = `perft --divide --fen "${fens[i]}" ${depth}`;
  const want = sfResults[i];
  let got;
  try {
    got = parseJson(answers[i], where);
  } catch (e) {
    failures++;
    console.log(`MISMATCH ${where}: ${e.message}`);
    continue;
  }
  total += want.nodes;
  const gotMoves = got.moves || {};
  const keys = [...new Set([...Object.keys(want.moves), ...Object.keys(gotMoves)])].sort();
  const diff = keys.filter(k => want.moves[k] !== gotMoves[k]);
  if (got.nodes !== want.nodes || diff.length) {
    failures++;
    console.log(`MISMATCH ${where}`);
    console.log(`  nodes: stockfish ${want.nodes}, schach ${got.nodes}`);
    for (const k of diff) console.log(`  ${k}: stockfish ${want.moves[k] ?? '(no such move)'}, schach ${gotMoves[k] ?? '(no such move)'}`);
  }
}
console.log(`${fens.length} positions, perft ${depth} with divide, ${total} nodes compared with Stockfish; ` +
  `${((Date.now() - started) / 1000).toFixed(1)} s`);
if (failures) {
  console.log(`FAIL: ${failures} positions where schach and Stockfish disagree`);
  process.exit(1);
}
console.log('OK: schach agrees with Stockfish');
