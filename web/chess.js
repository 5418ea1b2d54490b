// Small readings of a FEN for display only; every rule is decided by the server.

const START_COUNT = { p: 8, n: 2, b: 2, r: 2, q: 1 };
const VALUE = { p: 1, n: 3, b: 3, r: 5, q: 9 };
const ORDER = ['q', 'r', 'b', 'n', 'p'];
const GLYPH = {
  white: { k: '♔', q: '♕', r: '♖', b: '♗', n: '♘', p: '♙' },
  black: { k: '♚', q: '♛', r: '♜', b: '♝', n: '♞', p: '♟' },
};

/** The pieces of a FEN's placement field: a Map from square ("e4") to {color, role letter}. */
export function boardOf(fen) {
  const map = new Map();
  const rows = fen.split(' ')[0].split('/');
  rows.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (ch >= '1' && ch <= '8') {
        file += Number(ch);
        continue;
      }
      const sq = 'abcdefgh'[file] + String(8 - i);
      map.set(sq, { color: ch === ch.toUpperCase() ? 'white' : 'black', role: ch.toLowerCase() });
      file++;
    }
  });
  return map;
}

/** The halfmove clock of a FEN (moves since the last capture or pawn move). */
export function halfmoveClock(fen) {
  return Number(fen.split(' ')[4] || 0);
}

/**
 * Material captured from each side, computed from the FEN against the starting set. A promoted
 * piece counts as its new kind, and the missing pawn is then counted as captured too.
 * Answers {white: [letters taken from white], black: [...], diff: white's material minus black's}.
 */
export function capturedMaterial(fen) {
  const count = { white: { p: 0, n: 0, b: 0, r: 0, q: 0 }, black: { p: 0, n: 0, b: 0, r: 0, q: 0 } };
  for (const { color, role } of boardOf(fen).values()) if (role !== 'k') count[color][role]++;
  const out = { white: [], black: [], diff: 0 };
  for (const color of ['white', 'black']) {
    // Promotions add pieces above the starting count; each must have been a pawn.
    let promoted = 0;
    for (const r of ['n', 'b', 'r', 'q']) promoted += Math.max(0, count[color][r] - START_COUNT[r]);
    for (const r of ORDER) {
      const start = r === 'p' ? START_COUNT.p - promoted : START_COUNT[r];
      for (let i = count[color][r]; i < start; i++) out[color].push(r);
    }
    for (const r of ORDER) out.diff += (color === 'white' ? 1 : -1) * VALUE[r] * count[color][r];
  }
  return out;
}

/** A piece letter as a Unicode chess glyph of COLOR. */
export function glyph(color, role) {
  return GLYPH[color][role];
}

const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const fileOf = (sq) => sq.charCodeAt(0) - 97;

/**
 * BOARD (a Map from boardOf) after the UCI move MOVE, for display only: castling (the king two
 * squares or onto its own rook), en passant and promotion are followed; legality is the server's.
 */
export function afterMove(board, move) {
  const b = new Map(board);
  const from = move.slice(0, 2);
  const to = move.slice(2, 4);
  const piece = b.get(from);
  if (!piece) return b;
  const target = b.get(to);
  b.delete(from);
  const ontoRook = target && target.color === piece.color && target.role === 'r';
  if (piece.role === 'k' && (ontoRook || Math.abs(fileOf(to) - fileOf(from)) === 2)) {
    const kingside = fileOf(to) > fileOf(from);
    const rank = from[1];
    b.delete(ontoRook ? to : (kingside ? 'h' : 'a') + rank);
    b.set((kingside ? 'g' : 'c') + rank, piece);
    b.set((kingside ? 'f' : 'd') + rank, { color: piece.color, role: 'r' });
    return b;
  }
  if (piece.role === 'p' && from[0] !== to[0] && !target) b.delete(to[0] + from[1]); // en passant
  b.set(to, move.length > 4 ? { color: piece.color, role: move[4] } : piece);
  return b;
}

function placementKey(board, turn) {
  return [...board.entries()]
    .map(([sq, p]) => sq + (p.color === 'white' ? p.role.toUpperCase() : p.role))
    .sort()
    .join('') + turn;
}

/**
 * Whether the side to move of STATE (the server's game state) could claim a draw with its next
 * move: a quiet move would complete fifty moves, or some legal move brings back a position that
 * stood on the board twice already (FIDE 9.2.1.1). Castling and en-passant rights are not
 * compared, so this may say yes where the server would refuse; it never says no where a claim holds.
 */
export function claimWithMovePossible(state) {
  if (!state || !state.fen) return false;
  const clock = halfmoveClock(state.fen);
  if (clock >= 99) return true;
  if (clock < 7) return false; // a position can come back a third time only after eight reversible plies
  const start = state.start_fen || START_FEN;
  let board = boardOf(start);
  let turn = start.split(' ')[1] === 'b' ? 'black' : 'white';
  const seen = new Map();
  const note = () => {
    const k = placementKey(board, turn);
    seen.set(k, (seen.get(k) || 0) + 1);
  };
  note();
  for (const m of state.moves || []) {
    board = afterMove(board, m.uci);
    turn = turn === 'white' ? 'black' : 'white';
    note();
  }
  const now = boardOf(state.fen);
  const next = state.turn === 'white' ? 'black' : 'white';
  for (const [from, tos] of Object.entries(state.legal || {}))
    for (const to of tos) if ((seen.get(placementKey(afterMove(now, from + to), next)) || 0) >= 2) return true;
  return false;
}
