// Whole games over HTTP: checkmate with castling and promotion, draw by agreement, resignation,
// threefold repetition claimed, a local game, the PGN download, the game lists.
import { api, assert, expectError, expectOk, friendGame, getState, playMoves, runTests } from './lib.mjs';

const finished = [];

await runTests({
  async 'checkmate with castling on both sides and a promotion'() {
    const g = await friendGame();
    assert.equal(g.state.ply, 0);
    assert.equal(g.state.turn, 'white');
    assert.deepEqual(g.state.legal.e2, ['e3', 'e4']);
    // UCI, SAN, king-takes-rook castling and a German SAN move are all accepted.
    const moves = ['e2e4', 'd5', 'exd5', 'c6', 'dxc6', 'e5', 'cxb7', 'Ld6', 'b7a8q', 'Ne7', 'Nf3', 'O-O',
      'Bc4', 'Nbc6', 'e1h1', 'Bh3', 'Qxd8', 'Re8', 'Qxe8#'];
    const state = await playMoves(g, moves);
    assert.equal(state.ply, moves.length);
    assert.deepEqual(state.outcome, {
      result: '1-0', termination: 'checkmate', winner: 'white', reason: null,
      text: 'Checkmate – White wins 1-0', text_de: 'Schachmatt – Weiß gewinnt 1:0',
    });
    assert.deepEqual(state.legal, {});
    assert.equal(state.check, true);
    const sans = state.moves.map((m) => m.san);
    assert.ok(sans.includes('bxa8=Q'), `promotion in ${sans}`);
    assert.equal(state.moves[8].san_de, 'bxa8=D');
    assert.equal(state.moves[8].uci, 'b7a8q');
    assert.equal(sans.filter((s) => s === 'O-O').length, 2, `two castlings in ${sans}`);
    assert.equal(state.moves[14].uci, 'e1g1', 'castling stored as king move');
    assert.equal(state.last_move, state.moves.at(-1).uci);
    assert.deepEqual(await getState(g.id), state, 'GET returns the same state');

    const pgn = await api('GET', `/api/games/${g.id}/pgn?lang=en`);
    assert.equal(pgn.status, 200);
    assert.match(pgn.headers.get('content-type'), /^text\/plain/);
    assert.equal(pgn.headers.get('content-disposition'), `attachment; filename="schach-${g.id}.pgn"`);
    assert.match(pgn.text, /1-0\s*$/);
    assert.match(pgn.text, /bxa8=Q/);
    assert.match(pgn.text, /O-O/);
    const pgnDe = await api('GET', `/api/games/${g.id}/pgn?lang=de`);
    assert.equal(pgnDe.headers.get('content-disposition'), `attachment; filename="schach-${g.id}-de.pgn"`);
    assert.equal(pgnDe.status, 200);
    assert.match(pgnDe.text, /bxa8=D/, 'German piece letters');

    // Every position, for the game page's review: the start, then one FEN after each ply.
    const pos = expectOk(await api('GET', `/api/games/${g.id}/positions`), 'positions');
    assert.equal(pos.fens.length, moves.length + 1);
    assert.equal(pos.fens[0], 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    assert.equal(pos.fens[9].split(' ')[0], 'Qnbqk1nr/p4ppp/3b4/4p3/8/8/PPPP1PPP/RNBQKBNR', 'promotion');
    assert.equal(pos.fens[12].split(' ')[0], 'Qnbq1rk1/p3nppp/3b4/4p3/8/5N2/PPPP1PPP/RNBQKB1R', 'black castled');
    assert.equal(pos.fens[15].split(' ').slice(0, 3).join(' '),
      'Q1bq1rk1/p3nppp/2nb4/4p3/2B5/5N2/PPPP1PPP/RNBQ1RK1 b -', 'white castled onto its rook');
    assert.equal(pos.fens.at(-1), state.fen);
    expectError(await api('POST', `/api/games/${g.id}/positions`, {}), 405, 'method_not_allowed', 'POST positions');
    expectError(await api('GET', '/api/games/AAAAAAAAAAAA/positions'), 404, 'not_found', 'positions of no game');
    finished.push(g.id);
  },

  async 'positions follow en passant'() {
    const g = await friendGame();
    const state = await playMoves(g, ['e4', 'a6', 'e5', 'd5', 'exd6']);
    const pos = expectOk(await api('GET', `/api/games/${g.id}/positions`), 'positions');
    assert.equal(pos.fens.length, 6);
    assert.equal(pos.fens[4], 'rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3');
    assert.equal(pos.fens[5].split(' ')[0], 'rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR', 'the d5 pawn is gone');
    assert.equal(pos.fens[5], state.fen);
  },

  async 'draw offered, declined, offered again and accepted'() {
    const g = await friendGame();
    await playMoves(g, ['e4', 'e5', 'Nf3']);
    let r = expectOk(await api('POST', `/api/games/${g.id}/draw`, { secret: g.black, action: 'offer' }), 'offer');
    assert.equal(r.state.draw_offer, 'black');
    r = expectOk(await api('POST', `/api/games/${g.id}/draw`, { secret: g.white, action: 'decline' }), 'decline');
    assert.equal(r.state.draw_offer, null);
    assert.equal(r.state.outcome, null);
    r = expectOk(await api('POST', `/api/games/${g.id}/draw`, { secret: g.white, action: 'offer' }), 'offer 2');
    assert.equal(r.state.draw_offer, 'white');
    r = expectOk(await api('POST', `/api/games/${g.id}/draw`, { secret: g.black, action: 'accept' }), 'accept');
    assert.deepEqual(r.state.outcome, {
      result: '1/2-1/2', termination: 'agreement', winner: null, reason: null,
      text: 'Draw by agreement', text_de: 'Remis durch Vereinbarung',
    });
    finished.push(g.id);
  },

  async 'resignation'() {
    const g = await friendGame();
    await playMoves(g, ['d4', 'd5', 'c4']);
    const r = expectOk(await api('POST', `/api/games/${g.id}/resign`, { secret: g.black }), 'resign');
    assert.deepEqual(r.state.outcome, {
      result: '1-0', termination: 'resignation', winner: 'white', reason: null,
      text: 'Black resigns – White wins 1-0', text_de: 'Schwarz gibt auf – Weiß gewinnt 1:0',
    });
    finished.push(g.id);
  },

  async 'threefold repetition claimed, alone and with a move'() {
    const g = await friendGame();
    let state = await playMoves(g, ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1', 'Ng8']);
    assert.ok(state.claims.includes('threefold_repetition'), `claims ${state.claims}`);
    assert.equal(state.outcome, null, 'a threefold repetition does not end the game by itself');
    const r = expectOk(await api('POST', `/api/games/${g.id}/claim`, { secret: g.white, kind: 'threefold' }), 'claim');
    assert.equal(r.state.outcome.termination, 'threefold_repetition');
    assert.equal(r.state.outcome.result, '1/2-1/2');
    finished.push(g.id);

    const h = await friendGame();
    state = await playMoves(h, ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1']);
    // Black's Ng8 repeats the position a third time: claimed with the move (FIDE 9.2.1.1).
    const m = expectOk(await api('POST', `/api/games/${h.id}/move`,
      { secret: h.black, ply: state.ply, move: 'Ng8', claim: 'threefold' }), 'move with claim');
    assert.equal(m.state.ply, 8);
    assert.equal(m.state.outcome.termination, 'threefold_repetition');
    finished.push(h.id);
  },

  async 'a local game: one creator holds both sides'() {
    const c = expectOk(await api('POST', '/api/games', { mode: 'local', color: 'white', time: { type: 'none' } }),
      'create local', 201);
    assert.equal(c.invite, null);
    assert.equal(typeof c.secrets.white, 'string');
    assert.equal(typeof c.secrets.black, 'string');
    assert.equal(c.state.mode, 'local');
    const state = await playMoves({ id: c.id, white: c.secrets.white, black: c.secrets.black }, ['f3', 'e5', 'g4', 'Qh4#']);
    assert.deepEqual(state.outcome, {
      result: '0-1', termination: 'checkmate', winner: 'black', reason: null,
      text: 'Checkmate – Black wins 0-1', text_de: 'Schachmatt – Schwarz gewinnt 0:1',
    });
    finished.push(c.id);
  },

  async 'the lists of games'() {
    const r = expectOk(await api('GET', `/api/games?ids=${finished.join(',')}`), 'list');
    assert.deepEqual(new Set(r.games.map((s) => s.id)), new Set(finished));
    const mate = r.games.find((s) => s.id === finished[0]);
    assert.equal(mate.moves, 19);
    assert.equal(mate.outcome.result, '1-0');
    const recent = expectOk(await api('GET', '/api/recent'), 'recent');
    assert.ok(recent.games.length >= finished.length && recent.games.length <= 20, 'recent count');
    for (const id of finished)
      assert.ok(recent.games.some((s) => s.id === id), `${id} among the recent games`);
  },
});
