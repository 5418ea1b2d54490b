// All of a player's games as one PGN file (docs/api.md "Players"): GET /api/players/{name}/pgn?lang=…
// has every finished game of the account, oldest first, aborted ones left out, each exactly as the
// game's own PGN export writes it (names, Elo in rated games, a Termination in words).
//
//   node players.mjs DIR   the tests; the two files (en, de) go to DIR/en.pgn and DIR/de.pgn for the
//                          shell's `schach pgn check`
import fs from 'node:fs';
import path from 'node:path';
import { api, as, assert, expectError, expectOk, getState, namer, runTests, signUp, CATEGORIES } from './lib.mjs';

const OUT = process.argv[2];
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

const tests = {
  async 'all games as one PGN: names, Elo, Termination, oldest first, aborted ones left out'() {
    const a = await account('Anna');
    const b = await account('Bert');
    const played = [];
    // 1. Fool's mate: Black (Bert) mates.
    const mate = await seekGame(a, b, true);
    await play(mate, ['f3', 'e5', 'g4', 'Qh4']);
    played.push({ id: mate.id, termination: /^Checkmate – Black wins 0-1$/, rated: true, black: b.name });
    // 2. Black resigns (once both sides have moved: before that a rated game is aborted).
    const resigned = await seekGame(a, b, true);
    await play(resigned, ['e4', 'e5']);
    expectOk(await api('POST', `/api/games/${resigned.id}/resign`, { secret: resigned.black }), 'resign');
    played.push({ id: resigned.id, termination: /resign/i, rated: true, black: b.name });
    // An aborted game: never in the file.
    const aborted = await seekGame(a, b, true);
    expectOk(await api('POST', `/api/games/${aborted.id}/abort`, { secret: aborted.white }), 'abort');
    // 3. A draw claimed: the start position for the third time.
    const claimed = await seekGame(a, b, true);
    await play(claimed, ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1', 'Ng8']);
    expectOk(await api('POST', `/api/games/${claimed.id}/claim`, { secret: claimed.white, kind: 'threefold' }),
      'claim');
    played.push({ id: claimed.id, termination: /repetition/i, rated: true, black: b.name });
    // 4. A draw agreed.
    const agreed = await seekGame(a, b, true);
    await play(agreed, ['d4', 'd5']);
    expectOk(await api('POST', `/api/games/${agreed.id}/draw`, { secret: agreed.white, action: 'offer' }), 'offer');
    expectOk(await api('POST', `/api/games/${agreed.id}/draw`, { secret: agreed.black, action: 'accept' }), 'accept');
    played.push({ id: agreed.id, termination: /agree/i, rated: true, black: b.name });
    // 5. Casual, against an anonymous visitor, who resigns.
    const casual = await seekGame(a, null, false);
    await play(casual, ['c4']);
    expectOk(await api('POST', `/api/games/${casual.id}/resign`, { secret: casual.black }), 'resign casual');
    played.push({ id: casual.id, termination: /resign/i, rated: false, black: '?' });
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
        if (lang === 'en') assert.match(tag(text, 'Termination'), g.termination, `game ${i + 1}`);
        else assert.notEqual(tag(text, 'Termination'), 'normal');
      }
      assert.ok(!r.text.includes('unterminated'), 'no aborted game');
      if (lang === 'de') assert.match(games[0], /Schachmatt/);
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
