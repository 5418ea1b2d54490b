// The annotated PGN of an analysed game made in the page (game-analysis.js), for a server answer
// without its "pgn" member: the game's PGN read and written by libschach in WebAssembly (rules.js).
// No imports, so that Node.js can run it against the real module too.

const NAGS = { inaccuracy: 6, mistake: 2, blunder: 4 };

/** The annotated PGN made in the page from the game's PGN text and the analysis A (used when the
 *  server's answer has no "pgn"): [%eval] after every move, the judged moves' NAG, a comment naming
 *  the judgement and the better move, and the engine's line as a variation. */
export function annotatePgn(rules, plain, a, l) {
  const tree = rules.parsePgn(plain);
  if (!tree || tree.ok === false || !Array.isArray(tree.moves)) return null;
  const evalCmd = (ev) => {
    if (!ev) return null;
    if (typeof ev.mate === 'number') return `[%eval #${ev.mate}]`;
    return `[%eval ${((ev.cp || 0) / 100).toFixed(2)}]`;
  };
  const words = { en: { inaccuracy: 'Inaccuracy', mistake: 'Mistake', blunder: 'Blunder', best: 'was best' }, de: { inaccuracy: 'Ungenauigkeit', mistake: 'Fehler', blunder: 'Grober Fehler', best: 'war der beste Zug' } }[l];
  tree.moves.forEach((node, i) => {
    const m = a.moves[i];
    if (!m) return;
    const cmd = evalCmd(m.eval);
    node.commands = [node.commands, cmd].filter(Boolean).join(' ') || null;
    if (m.judgement) {
      node.nags = [...(node.nags || []), NAGS[m.judgement]];
      const note = `${words[m.judgement]}. ${m.best_san} ${words.best}.`;
      node.comment = node.comment ? `${node.comment} ${note}` : note;
      if (Array.isArray(m.line) && m.line.length) {
        const line = m.line.slice(0, 10).map((san) => ({ san }));
        node.variations = [...(node.variations || []), line];
      }
    }
  });
  const out = rules.writePgn(tree, { lang: l });
  return out && out.ok ? out.pgn : null;
}
