// Ratings cannot be farmed (issue 22, defect 4b; docs/api.md "Ratings"): of the rated games between
// the same two accounts, at most 3 in 24 hours (by when they ended) count for the rating; later ones
// are recorded (rated, their result kept) but change neither rating. Games against someone else
// still count.
import { api, as, assert, expectOk, namer, runTests, signUp, ratedGame as ratedGameOf } from './lib.mjs';

const fresh = namer('f');
const BLITZ = { type: 'live', minutes: 3, increment: 2 };
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

const ratedGame = (white, black) => ratedGameOf(white, black, BLITZ);

// White wins: both sides move, then black resigns.
async function whiteWins(white, black) {
  const g = await ratedGame(white, black);
  expectOk(await api('POST', `/api/games/${g.id}/move`, { secret: g.white, ply: 0, move: 'e4' }), 'e4');
  expectOk(await api('POST', `/api/games/${g.id}/move`, { secret: g.black, ply: 1, move: 'e5' }), 'e5');
  const r = expectOk(await api('POST', `/api/games/${g.id}/resign`, { secret: g.black }), 'resign');
  assert.equal(r.state.outcome.result, '1-0');
  return g;
}

const blitzOf = async (who) => expectOk(await api('GET', '/api/me', undefined, as(who)), 'me').ratings.blitz;

async function until(get, cond, what) {
  let v;
  for (let i = 0; i < 1200; i++) {
    v = await get();
    if (cond(v)) return v;
    await sleep(50);
  }
  assert.fail(`${what}: not reached in a minute; last ${JSON.stringify(v)}`);
}

await runTests({
  async 'only 3 rated games a day between the same two accounts count'() {
    const a = await signUp(fresh('Farmer'));
    const b = await signUp(fresh('Feeder'));
    const c = await signUp(fresh('Other'));
    for (let n = 1; n <= 3; n++) {
      await whiteWins(a, b);
      await until(() => blitzOf(a), (v) => v && v.games === n, `game ${n} rated`);
    }
    const after3 = [await blitzOf(a), await blitzOf(b)];
    const extra = [await whiteWins(a, b), await whiteWins(a, b)];
    // A game against someone else counts; rated after the two above (one queue, in order).
    await whiteWins(a, c);
    const cRated = await until(() => blitzOf(c), (v) => v && v.games === 1, 'the game against another account');
    assert.ok(cRated.rating < 1500, `the other account lost points: ${JSON.stringify(cRated)}`);
    const now = [await blitzOf(a), await blitzOf(b)];
    assert.equal(now[1].games, 3, `the feeder's games counted: ${JSON.stringify(now[1])}`);
    assert.equal(now[1].rating, after3[1].rating, 'the feeder lost nothing more');
    assert.equal(now[0].games, 4, `the farmer's games counted: ${JSON.stringify(now[0])}`);
    assert.ok(now[0].rating > after3[0].rating, 'the game against the other account counted');
    // The games beyond the limit are kept: finished, rated, in the player page, with no change.
    for (const g of extra) {
      const state = expectOk(await api('GET', `/api/games/${g.id}`), 'state');
      assert.equal(state.outcome.result, '1-0');
      assert.equal(state.rated, true);
      assert.ok(!state.accounts.white.diff, `no change: ${JSON.stringify(state.accounts)}`);
    }
    const page = expectOk(await api('GET', `/api/players/${b.name}`), 'the feeder\'s page');
    assert.equal(page.games.length, 5, 'all five games are listed');
  },
});
