// Part of bench/analysis-server.sh: every game of IDS asked for at once, then polled until done, while
// a live game between two visitors goes on (a move every 250 ms, its latency measured).
//   node queue.mjs URL IDS WORKERS
import fs from 'node:fs';

const [url, idsFile, workersArg] = process.argv.slice(2);
const ids = fs.readFileSync(idsFile, 'utf8').split('\n').filter(Boolean);
const workers = Number(workersArg);
const post = (path, body) => fetch(new URL(path, url), { method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body) });
const get = (path) => fetch(new URL(path, url));
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };

// A live game: two sides moving knights back and forth (a new game when a repetition ends one).
async function newGame() {
  const created = await (await post('/api/games', { mode: 'friend', color: 'white', time: { type: 'none' } })).json();
  const joined = await (await post(`/api/games/${created.id}/join`, { invite: created.invite })).json();
  return { id: created.id, white: created.secret, black: joined.secret };
}
const shuffle = ['g1f3', 'g8f6', 'f3g1', 'f6g8'];
let latencies = [];
let playing = true;
const live = (async () => {
  let g = await newGame();
  let ply = 0;
  while (playing) {
    const secret = ply % 2 === 0 ? g.white : g.black;
    const t = performance.now();
    const r = await post(`/api/games/${g.id}/move`, { secret, ply, move: shuffle[ply % 4] });
    const body = await r.json();
    latencies.push(performance.now() - t);
    if (r.status !== 200) throw new Error(`live move: ${r.status} ${JSON.stringify(body)}`);
    ply++;
    if (body.state.outcome) {
      g = await newGame();
      ply = 0;
    }
    await new Promise((res) => setTimeout(res, 250));
  }
})();

// Ten seconds of the live game alone: the latency without analyses, for comparison.
await new Promise((res) => setTimeout(res, 10000));
const alone = latencies;
latencies = [];
const t0 = performance.now();
const answers = await Promise.all(ids.map(async (id) => {
  const r = await post(`/api/games/${id}/analysis`, {});
  return { id, status: r.status, body: await r.json() };
}));
const askMs = performance.now() - t0;
const queued = answers.filter((a) => a.status === 202);
const places = queued.map((a) => a.body.position).filter((p) => p !== undefined);
let positions = 0;
for (const a of queued) positions += a.body.progress.total;
const pending = new Set(queued.map((a) => a.id));
const doneAt = [];
while (pending.size) {
  await new Promise((res) => setTimeout(res, 1000));
  for (const id of [...pending]) {
    const r = await get(`/api/games/${id}/analysis`);
    const b = await r.json();
    if (b.status === 'done') {
      pending.delete(id);
      doneAt.push(performance.now() - t0);
    }
  }
}
const totalS = (performance.now() - t0) / 1000;
playing = false;
await live;
const by = {};
for (const a of answers) by[a.status] = (by[a.status] || 0) + 1;
console.log('| Figure | Value |');
console.log('|---|---|');
console.log(`| analyses asked at once | ${ids.length} (answered in ${askMs.toFixed(0)} ms: ${Object.entries(by).map(([s, n]) => `${n}× ${s}`).join(', ')}) |`);
console.log(`| places in the queue given | ${places.length ? `${Math.min(...places)}–${Math.max(...places)}` : '–'} |`);
console.log(`| positions analysed | ${positions} |`);
console.log(`| all done after | ${totalS.toFixed(1)} s (first ${(doneAt[0] / 1000).toFixed(1)} s) |`);
console.log(`| positions per second per worker | ${(positions / totalS / workers).toFixed(1)} |`);
console.log(`| an analysis of ${Math.round(positions / queued.length)} positions, one worker | ${(totalS * workers / queued.length).toFixed(2)} s |`);
console.log(`| analyses a day per worker at that rate | ${Math.round(86400 / (totalS * workers / queued.length)).toLocaleString('en')} |`);
console.log(`| a live game's move before, p50 / p99 | ${pct(alone, 0.5).toFixed(1)} / ${pct(alone, 0.99).toFixed(1)} ms (${alone.length} moves) |`);
console.log(`| a live game's move meanwhile, p50 / p99 | ${pct(latencies, 0.5).toFixed(1)} / ${pct(latencies, 0.99).toFixed(1)} ms (${latencies.length} moves) |`);
