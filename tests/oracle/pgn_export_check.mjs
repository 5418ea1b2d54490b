// Reads a PGN file of the server's export (GET /api/players/{name}/pgn, English) with chessops, the
// library behind lichess: every game parses, every main-line move is legal, the result and the
// [%clk] of each move of a game with a clock are read as the export meant them.
//
//   node pgn_export_check.mjs FILE GAMES   exits 1 with FAIL lines when anything differs
import { readFileSync } from 'node:fs';
import { parseComment, parsePgn, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';

const [file, want] = process.argv.slice(2);
const games = parsePgn(readFileSync(file, 'utf8'));
const fails = [];
if (games.length !== Number(want)) fails.push(`${games.length} games read, want ${want}`);
games.forEach((game, i) => {
  const name = `game ${i + 1} (${game.headers.get('Site')})`;
  const start = startingPosition(game.headers);
  if (start.isErr) {
    fails.push(`${name}: no starting position: ${start.error}`);
    return;
  }
  const pos = start.value;
  const clocked = game.headers.get('TimeControl') !== '-';
  let plies = 0;
  for (const node of game.moves.mainline()) {
    const move = parseSan(pos, node.san);
    if (!move) {
      fails.push(`${name}: ${node.san} at ply ${plies} is not legal for chessops`);
      return;
    }
    pos.play(move);
    plies++;
    const clock = (node.comments || []).map(parseComment).find((c) => c.clock !== undefined);
    if (clocked && !clock) fails.push(`${name}: no [%clk] after ply ${plies} (${node.san})`);
  }
  if (plies === 0) fails.push(`${name}: no moves`);
  const result = game.headers.get('Result');
  if (!['1-0', '0-1', '1/2-1/2'].includes(result)) fails.push(`${name}: Result ${result}`);
});
for (const f of fails) console.log(`FAIL: ${f}`);
if (fails.length) process.exit(1);
console.log(`chessops read ${games.length} games`);
