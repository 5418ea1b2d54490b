// The analysis board's tree of moves (analysis.js): every node is a position reached by one move, its
// children the moves tried from there, the first child the main line and the others its variations.
// Legal moves, SAN and FEN come from libschach in WebAssembly (wasm/rules.js); this file only keeps
// the tree, converts it to and from rules.js's PGN tree, and writes engine scores for people.
import { parsePgn, playMove, validateFen } from './analysis-rules.js';

let nextId = 1;

/** A new node: the root (no move) or the position after MOVE ({uci, san, san_de}) with FEN. */
function node(parent, move, fen) {
  return {
    id: nextId++,
    parent,
    uci: move ? move.uci : null,
    san: move ? move.san : null,
    san_de: move ? move.san_de : null,
    fen,
    ply: parent ? parent.ply + 1 : 0,
    comment: '',
    children: [],
  };
}

export class Tree {
  /** A tree whose root is FEN (normalised by the caller), Chess960 when CHESS960. */
  constructor(fen, chess960 = false) {
    this.root = node(null, null, fen);
    this.chess960 = chess960;
    this.tags = [];
  }

  /** The node with ID, or null. */
  find(id, from = this.root) {
    if (from.id === id) return from;
    for (const c of from.children) {
      const f = this.find(id, c);
      if (f) return f;
    }
    return null;
  }

  /** Plays MOVE (any notation) at NODE: the child that has it already, or a new child (a new
   *  variation when NODE has a continuation). Answers {node, added, variation} or {error}. */
  play(at, move) {
    const r = playMove(at.fen, move, [], { chess960: this.chess960 });
    if (!r) return { error: null };
    if (!r.ok) return { error: r.error };
    const existing = at.children.find((c) => c.uci === r.move.uci);
    if (existing) return { node: existing, added: false, variation: false };
    const n = node(at, r.move, r.state.fen);
    at.children.push(n);
    return { node: n, added: true, variation: at.children.length > 1 };
  }

  /** The main line's last node from NODE on (following first children). */
  lineEnd(n) {
    let p = n;
    while (p.children.length) p = p.children[0];
    return p;
  }

  /** The nodes from the root to N (without the root). */
  path(n) {
    const out = [];
    for (let p = n; p && p.parent; p = p.parent) out.unshift(p);
    return out;
  }

  /** The variation N lies in moved up one place: the nearest node on the way to the root that is not
   *  its parent's first child changes places with the sibling before it. Answers whether it moved. */
  promote(n) {
    let p = n;
    while (p.parent && p.parent.children[0] === p) p = p.parent;
    if (!p.parent) return false;
    const sibs = p.parent.children;
    const i = sibs.indexOf(p);
    [sibs[i - 1], sibs[i]] = [sibs[i], sibs[i - 1]];
    return true;
  }

  /** Removes N and everything after it; answers its parent (null for the root, which stays). */
  remove(n) {
    if (!n.parent) return null;
    const sibs = n.parent.children;
    sibs.splice(sibs.indexOf(n), 1);
    return n.parent;
  }

  /** Whether N is on the main line. */
  onMainLine(n) {
    for (let p = n; p.parent; p = p.parent) if (p.parent.children[0] !== p) return false;
    return true;
  }

  /** The tree in rules.js's PGN form (writePgn): a node's variations are the alternatives to it. */
  toPgnTree(result = '*') {
    const line = (from) => {
      const out = [];
      for (let p = from; p.children.length; p = p.children[0]) {
        const [main, ...alts] = p.children;
        out.push({
          uci: main.uci,
          comment: main.comment || null,
          variations: alts.map((a) => [{ uci: a.uci, comment: a.comment || null, variations: [] }, ...line(a)]),
        });
      }
      return out;
    };
    const standard = this.root.fen === START_FEN;
    return {
      tags: this.tags,
      fen: standard && !this.chess960 ? undefined : this.root.fen,
      chess960: this.chess960,
      comment: this.root.comment || null,
      moves: line(this.root),
      result,
    };
  }
}

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** A tree from a FEN (''/undefined: the start): {tree} or {error} (null error: no WebAssembly). */
export function treeFromFen(fen, chess960 = false) {
  const r = validateFen(fen && fen.trim() ? fen.trim() : START_FEN);
  if (!r) return { error: null };
  if (!r.ok) return { error: r.error };
  return { tree: new Tree(r.fen, chess960) };
}

/** A tree from a PGN text (its first game): {tree} or {error}. Comments and variations are kept. */
export function treeFromPgn(text) {
  const g = parsePgn(text);
  if (!g) return { error: null };
  if (!g.ok) return { error: g.error };
  const tree = new Tree(g.fen || START_FEN, !!g.chess960);
  tree.tags = (g.tags || []).filter(([k]) => !['FEN', 'SetUp', 'Variant', 'Result'].includes(k));
  tree.root.comment = g.comment || '';
  const add = (parent, nodes) => {
    let at = parent;
    for (const n of nodes) {
      const child = tree_child(at, n);
      for (const v of n.variations || []) add(at, v);
      at = child;
    }
  };
  add(tree.root, g.moves || []);
  return { tree };
}

function tree_child(at, n) {
  const c = node(at, n, n.fen);
  c.comment = [n.comment_before, n.comment].filter(Boolean).join(' ');
  at.children.push(c);
  return c;
}

/** The move number and whether white moved, for node N of a tree whose root is ROOT_FEN. */
export function moveNumber(rootFen, n) {
  const f = rootFen.split(' ');
  const full = Number(f[5]) || 1;
  const offset = f[1] === 'b' ? 1 : 0;
  const k = offset + n.ply - 1;
  return { number: full + Math.floor(k / 2), white: k % 2 === 0 };
}

/** An engine score for people, from White's view: +1.2, −0.8 (a real minus sign), 0.0, #3, #−2; with
 *  a decimal comma in German. SCORE {cp}|{mate} is from the side to move's view, TURN that side. */
export function formatScore(score, turn, language) {
  if (!score) return '';
  const sign = turn === 'black' ? -1 : 1;
  if (typeof score.mate === 'number') {
    const m = score.mate * sign;
    return m < 0 ? `#\u2212${-m}` : `#${m}`;
  }
  const cp = (score.cp || 0) * sign;
  let text = (Math.abs(cp) / 100).toFixed(1);
  if (language === 'de') text = text.replace('.', ',');
  if (text === '0.0' || text === '0,0') return text;
  return (cp < 0 ? '\u2212' : '+') + text;
}

/** White's share of the evaluation bar (0..1) for SCORE from TURN's view: lichess's winning chances. */
export function whiteShare(score, turn) {
  if (!score) return 0.5;
  const sign = turn === 'black' ? -1 : 1;
  if (typeof score.mate === 'number') return score.mate * sign > 0 ? 1 : 0;
  const cp = Math.max(-1000, Math.min(1000, (score.cp || 0) * sign));
  const chances = 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
  return 0.5 + chances / 2;
}
