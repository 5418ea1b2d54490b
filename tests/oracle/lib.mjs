// Shared helpers of the oracle tests: a seeded PRNG, chessops move lists in schach's conventions,
// seeded random games, and a small pool that runs the schach program.
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { Chess } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { makeSan } from 'chessops/san';
import { makeSquare, squareFile, squareRank } from 'chessops/util';

// mulberry32: tiny, fast, and the same sequence on every machine, so every run plays the same games.
export function makeRng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    chance: p => next() < p,
    pick: list => list[Math.floor(next() * list.length)],
  };
}

export function positionFromFen(fen) {
  const setup = parseFen(fen);
  if (setup.isErr) throw new Error(`chessops rejects the FEN "${fen}": ${setup.error.message}`);
  const pos = Chess.fromSetup(setup.value);
  if (pos.isErr) throw new Error(`chessops rejects the position "${fen}": ${pos.error.message}`);
  return pos.value;
}

// The FEN as chessops writes it. chessops.toSetup() keeps the en passant square only when an en passant
// capture is legal (legalEpSquare), which is schach's convention too, and caps the halfmove clock at 150.
export function fenOf(pos) {
  return makeFen(pos.toSetup());
}

// The same position with the en passant square after every double step, legal capture or not (the
// older convention of many FEN writers). schach must read it and write the canonical FEN back.
export function rawFenOf(pos) {
  return makeFen({ ...pos.toSetup(), epSquare: pos.epSquare });
}

// The key of a position for repetitions (FIDE 9.2.2): placement, side to move, castling rights and
// whether en passant is possible — exactly the first four fields of the canonical FEN.
export function repetitionKey(pos) {
  return fenOf(pos).split(' ').slice(0, 4).join(' ');
}

const PROMOTIONS = ['queen', 'rook', 'bishop', 'knight'];
const GERMAN_LETTERS = { N: 'S', B: 'L', R: 'T', Q: 'D', K: 'K' };

// The German SAN schach should print for an English SAN: piece letters S L T D (K stays), castling
// with zeros, and " e.p." after an en passant capture (Duden/DSB style).
export function germanSan(san, isEnPassant) {
  let de = san.replace(/^O-O-O/, '0-0-0').replace(/^O-O/, '0-0').replace(/[NBRQK]/g, c => GERMAN_LETTERS[c]);
  if (isEnPassant) de += ' e.p.';
  return de;
}

// Every legal move of pos with what schach must print for it. chessops writes castling as king takes
// own rook (e1h1); schach, like UCI, writes the king's two-square step (e1g1), so that is normalised.
export function legalMoves(pos) {
  const out = [];
  const ctx = pos.ctx();
  for (const [from, dests] of pos.allDests(ctx)) {
    const role = pos.board.getRole(from);
    for (const to of dests) {
      const castle = role === 'king' && pos.board[pos.turn].has(to);
      const toRank = squareRank(to);
      const promos = role === 'pawn' && (toRank === 0 || toRank === 7) ? PROMOTIONS : [undefined];
      for (const promotion of promos) {
        const move = { from, to, promotion };
        const kingTo = castle ? (to > from ? from + 2 : from - 2) : to;
        const uci = makeSquare(from) + makeSquare(kingTo) + (promotion ? promotion === 'knight' ? 'n' : promotion[0] : '');
        const san = makeSan(pos, move);
        const enPassant = role === 'pawn' && squareFile(from) !== squareFile(to) && !pos.board.occupied.has(to);
        out.push({
          move,
          uci,
          san,
          sanDe: germanSan(san, enPassant),
          capture: (pos.board.occupied.has(to) && !castle) || enPassant,
          enPassant,
          castle,
          promotion: !!promotion,
          check: /[+#]$/.test(san),
          mate: san.endsWith('#'),
          pawn: role === 'pawn',
        });
      }
    }
  }
  return out;
}

// A dead position that the material count does not show, as far as one move shows it (5.2.2): every
// legal move leaves insufficient material or stalemate, as in a check whose only answer captures the
// checking queen into K+B v K. chessops calls such a position open; schach decides it (and deeper ones,
// which random play hardly reaches).
function deadAfterEveryMove(pos, moves) {
  if (!moves.length) return false;
  for (const m of moves) {
    const next = pos.clone();
    next.play(m.move);
    if (!next.isInsufficientMaterial() && !next.isStalemate()) return false;
  }
  return true;
}

// What schach must report as the outcome of pos when given only its FEN (no history): mate and
// stalemate first (9.6 lets a mate on the 75th move stand), then a dead position (by material, or by
// every move: above), then the 75-move rule. Fivefold repetition needs the history and is checked on
// whole games.
export function expectedOutcome(pos, moves, insufficient) {
  if (moves.length === 0) {
    if (pos.isCheck()) return { result: pos.turn === 'white' ? '0-1' : '1-0', termination: 'checkmate' };
    return { result: '1/2-1/2', termination: 'stalemate' };
  }
  if (insufficient) return { result: '1/2-1/2', termination: 'insufficient_material' };
  if (deadAfterEveryMove(pos, moves)) return { result: '1/2-1/2', termination: 'dead_position', reason: 'no_mate_reachable' };
  if (pos.halfmoves >= 150) return { result: '1/2-1/2', termination: 'seventyfive_moves' };
  return null;
}

// Chooses a move, biased so that games reach the rare rules often: mates, promotions (all four
// pieces), en passant, castling, captures (down to bare endgames) and checks.
function chooseMove(rng, moves, style, undo) {
  const some = pred => moves.filter(pred);
  const tries = [
    [style.repeat || 0, some(m => m.uci === undo)],
    [style.mate, some(m => m.mate)],
    [style.promotion, some(m => m.promotion)],
    [style.enPassant, some(m => m.enPassant)],
    [style.castle, some(m => m.castle)],
    [style.capture, some(m => m.capture)],
    [style.check, some(m => m.check)],
    [style.pawn, some(m => m.pawn)],
  ];
  for (const [p, list] of tries)
    if (list.length && rng.chance(p)) return rng.pick(list);
  return rng.pick(moves);
}

export const STYLES = [
  // Mostly uniform: long wandering games, repetitions, the 75-move rule.
  { mate: 0.5, promotion: 0.3, enPassant: 0.5, castle: 0.3, capture: 0.1, check: 0.05, pawn: 0.05 },
  // Aggressive: material comes off fast, so games reach bare endgames and dead positions.
  { mate: 0.9, promotion: 0.6, enPassant: 0.8, castle: 0.5, capture: 0.7, check: 0.2, pawn: 0.3 },
  // Pawn races: promotions and en passant.
  { mate: 0.9, promotion: 0.9, enPassant: 0.9, castle: 0.6, capture: 0.3, check: 0.1, pawn: 0.5 },
  // Shuffling: often takes back its own last move, so positions repeat (threefold, fivefold).
  { repeat: 0.85, mate: 0.5, promotion: 0.3, enPassant: 0.3, castle: 0.1, capture: 0.1, check: 0.05, pawn: 0.05 },
];

// Plays one seeded random game from fen. Returns every position on the way (the last one included)
// with its legal moves, and how the game ended under the FIDE rules, fivefold repetition included.
export function randomGame(rng, fen, maxPlies, style) {
  const pos = positionFromFen(fen);
  const seen = new Map();
  const plies = [];
  const positions = [];
  for (;;) {
    const key = repetitionKey(pos);
    const count = (seen.get(key) || 0) + 1;
    seen.set(key, count);
    const moves = legalMoves(pos);
    const insufficient = pos.isInsufficientMaterial();
    const fenOutcome = expectedOutcome(pos, moves, insufficient);
    // Fivefold repetition comes after mate, stalemate and dead positions (a repeated position with a
    // move left is neither), and before the 75-move rule only in order of checking: both are draws.
    let gameOutcome = fenOutcome;
    if (!gameOutcome && count >= 5) gameOutcome = { result: '1/2-1/2', termination: 'fivefold_repetition' };
    positions.push({ fen: fenOf(pos), rawFen: rawFenOf(pos), pos: pos.clone(), moves, insufficient, fenOutcome, repetitions: count });
    if (gameOutcome || plies.length >= maxPlies)
      return { startFen: fen, plies: plies.map(m => m.san), positions, outcome: gameOutcome, repetitions: count };
    // The move that takes back this side's last move (from and to swapped), when it was one.
    const own = plies.length >= 2 ? plies[plies.length - 2] : undefined;
    const m = chooseMove(rng, moves, style, own && own.uci.slice(2, 4) + own.uci.slice(0, 2));
    plies.push(m);
    pos.play(m.move);
  }
}

// The start positions of tests/data/perft.epd (first field group of each line).
export function readEpdFens(path) {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map(line => line.split(';')[0].trim())
    .filter(Boolean)
    .map(f => (f.split(/\s+/).length === 4 ? f + ' 0 1' : f));
}

// Runs `schach args…` for every entry of argLists, a few at a time, and returns the outputs in order.
export async function runSchachAll(schach, argLists) {
  const results = new Array(argLists.length);
  let nextIndex = 0;
  const worker = async () => {
    while (nextIndex < argLists.length) {
      const i = nextIndex++;
      results[i] = await new Promise(resolve => {
        execFile(schach, argLists[i], { maxBuffer: 64 << 20, env: { ...process.env, LC_ALL: 'C', LANG: 'C' } },
          (error, stdout, stderr) => resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr }));
      });
    }
  };
  const jobs = Math.max(2, Math.min(4, cpus().length));
  await Promise.all(Array.from({ length: jobs }, worker));
  return results;
}

// Asks one `schach moves --batch` every query (objects {fen, moves, chess960}) and resolves to one
// result per query, like runSchachAll's: {code, stdout, stderr}, code 1 for an answer that is an error.
// One process instead of one per query: the start-up of thousands of processes was most of the time.
export function runSchachBatch(schach, queries) {
  return new Promise((resolve, reject) => {
    const child = spawn(schach, ['moves', '--batch'], { env: { ...process.env, LC_ALL: 'C', LANG: 'C' } });
    const chunks = [];
    let stderr = '';
    child.stdout.on('data', c => chunks.push(c));
    child.stderr.on('data', c => { stderr += c; });
    child.on('error', reject);
    child.on('close', () => {
      const lines = Buffer.concat(chunks).toString('utf8').split('\n');
      if (lines.length && lines[lines.length - 1] === '') lines.pop();
      if (lines.length !== queries.length) {
        reject(new Error(`schach moves --batch answered ${lines.length} of ${queries.length} queries: ${stderr.slice(0, 300)}`));
        return;
      }
      resolve(lines.map(line => ({ code: line.startsWith('{"line":') ? 1 : 0, stdout: line, stderr: '' })));
    });
    child.stdin.end(queries.map(q => JSON.stringify(q)).join('\n') + '\n');
  });
}

export function parseJson(result, what) {
  try {
    return JSON.parse(result.stdout);
  } catch {
    throw new Error(`${what}: exit ${result.code}, no JSON on stdout: ${result.stdout.slice(0, 300)} ${result.stderr.slice(0, 300)}`);
  }
}
