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
