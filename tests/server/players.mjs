// All of a player's games as one PGN file (docs/api.md "Players"): GET /api/players/{name}/pgn?lang=…
// has every finished game of the account, oldest first, aborted ones left out, each exactly as the
// game's own PGN export writes it: as lichess writes it (issue 24, defect 9) with the game's URL in
// [Site] (the server runs with --public-url PUBLIC_URL, see server_players.sh), the PGN standard's
// [Termination] values with what ended the game in words in the comment after the last move (where the
// position stood for a repetition), [UTCDate]/[UTCTime], [TimeControl] "300+3", the rating changes and
// a [%clk] after every move; one blank line between games.
//
//   node players.mjs DIR   the tests; the two files (en, de) go to DIR/en.pgn and DIR/de.pgn for the
//                          shell's `schach pgn check`
import fs from 'node:fs';
import path from 'node:path';
import { api, as, assert, expectError, expectOk, getState, namer, runTests, signUp, CATEGORIES } from './lib.mjs';

const OUT = process.argv[2];
const PUBLIC = process.env.PUBLIC_URL;
const BLITZ = { type: 'live', minutes: 5, increment: 3 };
const fresh = namer('p');
const account = (prefix) => signUp(fresh(prefix));

// A game from a seek posted by poster (White) and accepted by accepter (an account or null for an
// anonymous visitor): {id, white, black} with each side's secret.
async function seekGame(poster, accepter, rated) {
  const seek = expectOk(await api('POST', '/api/seeks', { time: BLITZ, rated, color: 'white' }, as(poster)),
    'post seek', 201);
  const got = expectOk(await api('POST', `/api/seeks/${seek.id}/accept`, {}, as(accepter)), 'accept');
  assert.equal(got.color, 'black');
  const me = expectOk(await api('GET', '/api/me', undefined, as(poster)), 'me');
  const white = me.playing.find((g) => g.id === got.id);
  assert.ok(white, 'the poster plays the game');
  return { id: got.id, white: white.secret, black: got.secret };
}

async function play(g, moves) {
  for (let ply = 0; ply < moves.length; ply++)
    expectOk(await api('POST', `/api/games/${g.id}/move`,
      { secret: ply % 2 ? g.black : g.white, ply, move: moves[ply] }), `${g.id} ply ${ply}`);
}

// The games of a PGN file, split at their first tag.
const gamesOf = (text) => text.split(/\n(?=\[Event )/).map((s) => s.trim()).filter(Boolean);
const tag = (game, name) => (new RegExp(`^\\[${name} "([^"]*)"\\]$`, 'm').exec(game) || [])[1];
// The comment after the last move (the movetext on one line): its text.
const lastComment = (game) => {
  const moves = game.slice(game.indexOf('\n\n')).replace(/\s+/g, ' ');
  return (/\{([^}]*)\}\s*(1-0|0-1|1\/2-1\/2|\*)\s*$/.exec(moves) || [])[1];
};
// The clocks after each move as the page shows them in review (web/game-clock.js clocksAt): time runs
// once both sides have moved; each move after that costs its mover the time since the one before and
// gives back the increment. As [%clk H:MM:SS], whole seconds.
const clockTexts = (s) => {
  const c = [s.time.minutes * 60000, s.time.minutes * 60000];
  return s.moves.map((m, i) => {
    if (i >= 2) c[i % 2] += s.time.increment * 1000 - (m.at - s.moves[i - 1].at);
    const t = Math.max(0, Math.floor(c[i % 2] / 1000));
    return `[%clk ${Math.floor(t / 3600)}:${String(Math.floor(t / 60) % 60).padStart(2, '0')}:${String(t % 60).padStart(2, '0')}]`;
  });
};
const utc = (ms) => {
  const d = new Date(ms), p = (n) => String(n).padStart(2, '0');
  return [`${d.getUTCFullYear()}.${p(d.getUTCMonth() + 1)}.${p(d.getUTCDate())}`,
    `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`];
};

const tests = {
  async 'all games as one PGN: names, Elo, Termination, oldest first, aborted ones left out'() {
    const a = await account('Anna');
    const b = await account('Bert');
    const played = [];
    // 1. Fool's mate: Black (Bert) mates.
    const mate = await seekGame(a, b, true);
    await play(mate, ['f3', 'e5', 'g4', 'Qh4']);
    played.push({ id: mate.id, ending: /^Checkmate – Black wins 0-1$/, rated: true, black: b.name });
    // 2. Black resigns (once both sides have moved: before that a rated game is aborted).
    const resigned = await seekGame(a, b, true);
    await play(resigned, ['e4', 'e5']);
    expectOk(await api('POST', `/api/games/${resigned.id}/resign`, { secret: resigned.black }), 'resign');
    played.push({ id: resigned.id, ending: /resign/i, rated: true, black: b.name });
    // An aborted game: never in the file.
    const aborted = await seekGame(a, b, true);
    expectOk(await api('POST', `/api/games/${aborted.id}/abort`, { secret: aborted.white }), 'abort');
    // 3. A draw claimed: the start position for the third time.
    const claimed = await seekGame(a, b, true);
    await play(claimed, ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1', 'Ng8']);
    expectOk(await api('POST', `/api/games/${claimed.id}/claim`, { secret: claimed.white, kind: 'threefold' }),
      'claim');
    played.push({ id: claimed.id, rated: true, black: b.name,
      ending: /^Draw by threefold repetition \(claimed\): the starting position stood after 2…Ng8 and 4…Ng8$/ });
    // 4. A draw agreed.
    const agreed = await seekGame(a, b, true);
    await play(agreed, ['d4', 'd5']);
    expectOk(await api('POST', `/api/games/${agreed.id}/draw`, { secret: agreed.white, action: 'offer' }), 'offer');
    expectOk(await api('POST', `/api/games/${agreed.id}/draw`, { secret: agreed.black, action: 'accept' }), 'accept');
    played.push({ id: agreed.id, ending: /agree/i, rated: true, black: b.name });
    // 5. Casual, against an anonymous visitor, who resigns.
    const casual = await seekGame(a, null, false);
    await play(casual, ['c4']);
    expectOk(await api('POST', `/api/games/${casual.id}/resign`, { secret: casual.black }), 'resign casual');
    played.push({ id: casual.id, ending: /resign/i, rated: false, black: '?' });
    // A game still in play is no finished game either.
    const open = await seekGame(a, b, false);
    await play(open, ['e4']);
    for (const g of played) assert.ok((await getState(g.id)).outcome, `${g.id} is over`);
    for (const lang of ['en', 'de']) {
      // Any case of the name; the file is named by the account's name as shown.
      const r = await api('GET', `/api/players/${a.name.toLowerCase()}/pgn?lang=${lang}`);
      assert.equal(r.status, 200, `${lang}: ${r.status} ${r.text}`);
      assert.match(r.headers.get('content-type'), /^application\/x-chess-pgn/);
      assert.equal(r.headers.get('content-disposition'), `attachment; filename="schach-${a.name}-${lang}.pgn"`);
      assert.equal(r.headers.get('cache-control'), 'no-store');
      const games = gamesOf(r.text);
      // One blank line between games (the export format), none more.
      assert.ok(!/\n\n\n/.test(r.text), `${lang}: more than one blank line between games:\n${r.text}`);
      assert.equal(r.text.split('\n\n[Event ').length, played.length, `${lang}: games separated by a blank line`);
      assert.equal(games.length, played.length, `${lang}: ${games.length} games in the file:\n${r.text}`);
      for (let i = 0; i < played.length; i++) {
        const g = played[i], text = games[i];
        // Exactly the game's own export (the same code writes both).
        const own = (await api('GET', `/api/games/${g.id}/pgn?lang=${lang}`)).text.trim();
        assert.equal(text, own, `${lang}: game ${i + 1} (${g.id}) differs from its own PGN`);
        assert.equal(tag(text, 'White'), a.name);
        assert.equal(tag(text, 'Black'), g.black);
        assert.equal(tag(text, 'WhiteElo') !== undefined, g.rated, `${lang}: WhiteElo in game ${i + 1}`);
        assert.equal(tag(text, 'BlackElo') !== undefined, g.rated, `${lang}: BlackElo in game ${i + 1}`);
        // The standard's Termination; the ending in words after the last move.
        assert.equal(tag(text, 'Termination'), 'normal', `${lang}: game ${i + 1}`);
        if (lang === 'en') assert.match(lastComment(text).replace(/^\[%clk [0-9:]+\] /, ''), g.ending, `game ${i + 1}`);
        const s = await getState(g.id);
        assert.equal(tag(text, 'Event'), g.rated ? 'Rated blitz game' : 'Casual blitz game');
        assert.equal(tag(text, 'Site'), `${PUBLIC}/g/${g.id}`);
        assert.deepEqual([tag(text, 'UTCDate'), tag(text, 'UTCTime')], utc(s.created));
        assert.equal(tag(text, 'TimeControl'), '300+3');
        for (const side of ['white', 'black']) {
          const diff = tag(text, `${side === 'white' ? 'White' : 'Black'}RatingDiff`);
          const want = g.rated ? s.accounts[side].diff : null;
          assert.equal(diff, want === null ? undefined : `${want >= 0 ? '+' : ''}${want}`, `${lang}: ${side}'s diff`);
        }
        // A [%clk] after every move, as the page's review shows the clocks.
        const clocks = [...text.matchAll(/\[%clk [0-9:]+\]/g)].map((m) => m[0]);
        assert.deepEqual(clocks, clockTexts(s), `${lang}: game ${i + 1}'s clocks`);
      }
      assert.ok(!r.text.includes('unterminated'), 'no aborted game');
      if (lang === 'de') {
        assert.match(lastComment(games[0]), /Schachmatt – Schwarz gewinnt 0:1/);
        assert.match(lastComment(games[2]), /: dieselbe Stellung zu Beginn, nach 2\. … Sg8 und 4\. … Sg8$/);
      }
      if (OUT) fs.writeFileSync(path.join(OUT, `${lang}.pgn`), r.text);
    }
    // Bert's file: his four rated games against Anna (not the casual one, not the game in play).
    const rb = await api('GET', `/api/players/${b.name}/pgn`);
    assert.equal(rb.status, 200);
    assert.equal(rb.headers.get('content-disposition'), `attachment; filename="schach-${b.name}-en.pgn"`);
    assert.deepEqual(gamesOf(rb.text).map((t) => tag(t, 'Black')), [b.name, b.name, b.name, b.name]);
    // German by Accept-Language too.
    const rd = await api('GET', `/api/players/${b.name}/pgn`, undefined, { headers: { 'accept-language': 'de' } });
    assert.equal(rd.headers.get('content-disposition'), `attachment; filename="schach-${b.name}-de.pgn"`);
  },

  async 'the player page tells the rating categories'() {
    const c = await account('Cato');
    const page = expectOk(await api('GET', `/api/players/${c.name}`), 'player page');
    assert.deepEqual(page.categories, CATEGORIES);
  },

  async 'an account without games: an empty file'() {
    const c = await account('Cleo');
    const r = await api('GET', `/api/players/${c.name}/pgn`);
    assert.equal(r.status, 200);
    assert.equal(r.text, '');
  },

  async 'bad requests: unknown names, odd paths, other methods'() {
    expectError(await api('GET', '/api/players/nobody_here/pgn'), 404, 'not_found', 'unknown player');
    expectError(await api('GET', '/api/players/nobody_here/pgn?lang=de'), 404, 'not_found', 'unknown, German');
    expectError(await api('GET', '/api/players/no%20such/pgn'), 404, 'not_found', 'impossible name');
    const de = expectError(await api('GET', '/api/players/nobody_here/pgn?lang=de'), 404, 'not_found', 'de');
    assert.match(de.message, /Spieler/);
    assert.equal((await api('GET', '/api/players/nobody_here/pgnx')).status, 404);
    assert.equal((await api('GET', '/api/players/nobody_here/pgn/x')).status, 404);
    assert.equal((await api('GET', '/api/players//pgn')).status, 404);
    assert.equal((await api('POST', '/api/players/nobody_here/pgn', {})).status, 405);
    assert.equal((await api('DELETE', '/api/players/nobody_here/pgn')).status, 405);
  },
};

await runTests(tests);
