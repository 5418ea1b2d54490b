// Provisional ratings in a game (issue 24, defect 1): each side's rating as the game began, and whether
// it was provisional then (docs/api.md "Game state object": accounts[side].provisional), in the game's
// state, in the lists' summaries (GET /api/games?ids=…, GET /api/recent) and for "your turn" (GET /api/me
// playing[].opponent.provisional). server_provisional.sh runs it in two phases around a restart, with one
// account's blitz rating made established (a deviation of 60) in the database between them.
//
//   node provisional.mjs newcomers F    two new accounts play a rated blitz game: both provisional
//   node provisional.mjs established F  after the restart: the first game's flags kept; a new rated
//                                       game between them: the established side false, the other true
import fs from 'node:fs';
import { api, as, assert, expectOk, getState, namer, ratedGame, signUp } from './lib.mjs';

const BLITZ = { type: 'live', minutes: 3, increment: 2 };
const fresh = namer('p');
const [phase, file] = process.argv.slice(2);

const flags = (accounts) => ({ white: accounts.white.provisional, black: accounts.black.provisional });

async function summary(id, who) {
  const body = expectOk(await api('GET', `/api/games?ids=${id}`, undefined, as(who)), 'the summaries');
  const s = body.games.find((g) => g.id === id);
  assert.ok(s, `game ${id} in GET /api/games?ids=`);
  return s;
}

async function playing(who, id) {
  const me = expectOk(await api('GET', '/api/me', undefined, as(who)), 'me');
  const p = me.playing.find((g) => g.id === id);
  assert.ok(p, `game ${id} in ${who.name}'s playing`);
  return p;
}

async function until(what, fn, ms = 60000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function newcomers() {
  const white = await signUp(fresh('Neu'));
  const black = await signUp(fresh('Neo'));
  const g = await ratedGame(white, black, BLITZ);
  const state = await getState(g.id);
  assert.deepEqual(state.accounts.white, { name: white.name, rating: 1500, provisional: true, diff: null });
  assert.deepEqual(flags(state.accounts), { white: true, black: true }, 'two newcomers: both provisional');
  assert.deepEqual(flags((await summary(g.id, white)).accounts), { white: true, black: true }, 'the summary too');
  const opp = (await playing(white, g.id)).opponent;
  assert.deepEqual(opp, { name: black.name, rating: 1500, provisional: true, level: null },
    '"your turn": a rated game\'s opponent with the rating it began with, provisional');
  // A casual lobby game has no ratings: nothing to call provisional.
  const seek = expectOk(await api('POST', '/api/seeks', { time: BLITZ, rated: false, color: 'white' }, as(white)), 'casual seek', 201);
  const casual = expectOk(await api('POST', `/api/seeks/${seek.id}/accept`, {}, as(black)), 'accept casual');
  assert.deepEqual(casual.state.accounts.black, { name: black.name, rating: null, provisional: null, diff: null });
  // Fool's mate: Black wins; the game is rated, and the flags stay those it began with.
  let ply = 0;
  for (const [secret, move] of [[g.white, 'f3'], [g.black, 'e5'], [g.white, 'g4'], [g.black, 'Qh4']])
    expectOk(await api('POST', `/api/games/${g.id}/move`, { secret, ply: ply++, move }), `ply ${ply}`);
  const rated = await until('the game rated', async () => {
    const s = await getState(g.id);
    return s.accounts.white.diff !== null && s;
  });
  assert.deepEqual(flags(rated.accounts), { white: true, black: true }, 'rated: the flags as the game began');
  const recent = expectOk(await api('GET', '/api/recent'), 'recent').games.find((x) => x.id === g.id);
  assert.ok(recent, 'the game in GET /api/recent');
  assert.deepEqual(flags(recent.accounts), { white: true, black: true }, 'GET /api/recent');
  fs.writeFileSync(file, JSON.stringify({ white, black, game: g.id }));
  console.log('ok   newcomers: both sides provisional in the state, the summaries and "your turn"');
}

async function established() {
  const { white, black, game } = JSON.parse(fs.readFileSync(file, 'utf8'));
  const me = expectOk(await api('GET', '/api/me', undefined, as(white)), 'me');
  assert.equal(me.ratings.blitz.provisional, false, `${white.name}'s blitz rating is established now`);
  assert.deepEqual(flags((await getState(game)).accounts), { white: true, black: true },
    'after the restart: the first game still shows the flags it began with');
  // White (established) posts, Black (still provisional) accepts.
  const g = await ratedGame(white, black, BLITZ);
  const state = await getState(g.id);
  assert.equal(state.accounts.white.rating, me.ratings.blitz.rating);
  assert.deepEqual(flags(state.accounts), { white: false, black: true }, 'an established rating is not provisional');
  assert.deepEqual(flags((await summary(g.id, black)).accounts), { white: false, black: true }, 'the summary too');
  assert.equal((await playing(black, g.id)).opponent.provisional, false, '"your turn": the established opponent');
  assert.equal((await playing(white, g.id)).opponent.provisional, true, '"your turn": the provisional opponent');
  // A rematch: each player's flag goes with them to their new colour.
  let ply = 0;
  for (const [secret, move] of [[g.white, 'f3'], [g.black, 'e5'], [g.white, 'g4'], [g.black, 'Qh4']])
    expectOk(await api('POST', `/api/games/${g.id}/move`, { secret, ply: ply++, move }), `ply ${ply}`);
  const rematch = async (secret) => {
    for (;;) { // a 409 busy (the rating's change of the game is being saved) is tried again
      const r = await api('POST', `/api/games/${g.id}/rematch`, { secret });
      if (!(r.status === 409 && r.json?.error?.code === 'busy')) return r;
    }
  };
  expectOk(await rematch(g.white), 'White offers a rematch');
  const re = expectOk(await rematch(g.black), 'Black accepts');
  assert.equal(re.state.rated, true);
  assert.deepEqual(flags(re.state.accounts), { white: true, black: false }, 'the rematch: the colours swapped, each flag carried');
  console.log('ok   established: the established side false, the newcomer true, also in the rematch');
}

if (phase === 'newcomers') await newcomers();
else if (phase === 'established') await established();
else throw new Error(`unknown phase ${phase}`);
