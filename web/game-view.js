// The game page's drawing (game-ctrl.js holds the state): the board, and around it the status, the
// controls, the moves, the players' bars, the links and the connection; and the controls' events,
// which call the page's actions.
import * as api from './api.js';
import { boardOf, capturedMaterial, claimWithMovePossible, glyph } from './chess.js';
import { colorName, lang, levelName, outcomeText, t } from './i18n.js';
import { signed } from './board-keys.js';
import { renderClocks } from './game-clock.js';
import { bindPromotion } from './game-promotion.js';
import { renderPresence, renderRematch } from './game-rematch.js';
import { renderTakeback } from './game-takeback.js';
import { gameRecord } from './storage.js';
import { $, gamePath, other, privateLink, show, showError } from './util.js';

/** The page's controls: each calls one of the page's actions. */
export function bindControls(ctrl) {
  $('flip').addEventListener('click', () => {
    ctrl.orientation = other(ctrl.orientation || 'white');
    ctrl.cg.set({ orientation: ctrl.orientation });
    ctrl.keys.update();
    renderBars(ctrl);
  });
  $('resign').addEventListener('click', () => {
    if (!confirm(t('resign_confirm'))) return;
    ctrl.action('resign', ctrl.actingColor(), {});
  });
  $('abort').addEventListener('click', () => ctrl.action('abort', ctrl.actingColor(), {}));
  $('offer-draw').addEventListener('click', () => ctrl.action('draw', ctrl.actingColor(), { action: 'offer' }));
  $('accept-draw').addEventListener('click', () =>
    ctrl.action('draw', other(ctrl.state.draw_offer), { action: 'accept' }),
  );
  $('decline-draw').addEventListener('click', () =>
    ctrl.action('draw', other(ctrl.state.draw_offer), { action: 'decline' }),
  );
  $('claim-threefold').addEventListener('click', () => ctrl.action('claim', ctrl.state.turn, { kind: 'threefold' }));
  $('claim-fifty').addEventListener('click', () => ctrl.action('claim', ctrl.state.turn, { kind: 'fifty' }));
  $('move-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = $('move-input').value.trim();
    if (text && ctrl.review.active) showError($('error'), new Error(t('review_no_move')));
    else if (text && ctrl.canMove()) ctrl.sendMove(text, false);
  });
  bindPromotion(ctrl);
  $('read-clocks').addEventListener('click', () => ctrl.keys.handlers.clocks());
  $('pgn-de').href = api.pgnUrl(ctrl.id, 'de');
  $('pgn-en').href = api.pgnUrl(ctrl.id, 'en');
}

/** The board and everything around it for the page's state. */
export function render(ctrl) {
  const s = ctrl.state;
  if (!s) return;
  // While the promotion chooser is open the pawn stays on its target square.
  if (ctrl.pendingPromotion) {
    renderSide(ctrl);
    return;
  }
  // While learning from the mistakes, the board shows the position to try (game-analysis-learn.js).
  if (ctrl.analysis.learn.active) {
    renderSide(ctrl);
    ctrl.analysis.learn.draw();
    return;
  }
  // While reviewing, the board keeps the earlier position; the rest of the page follows the game.
  if (ctrl.review.active) {
    renderSide(ctrl);
    ctrl.review.draw();
    return;
  }
  const dests = new Map();
  if (ctrl.canMove()) for (const [from, tos] of Object.entries(s.legal || {})) dests.set(from, tos);
  // Always draw the server's FEN: chessground alone would leave an en-passant pawn standing
  // and cannot know the promoted piece.
  ctrl.cg.set({
    fen: s.fen,
    orientation: ctrl.orientation,
    turnColor: s.turn,
    lastMove: s.last_move ? [s.last_move.slice(0, 2), s.last_move.slice(2, 4)] : undefined,
    check: s.check ? s.turn : false,
    movable: { free: false, color: ctrl.canMove() ? s.turn : ctrl.premove.color(), dests },
    premovable: { enabled: !!ctrl.premove.color() },
  });
  ctrl.keys.update();
  renderSide(ctrl);
}

/** Everything around the board. */
export function renderSide(ctrl) {
  const s = ctrl.state;
  renderStatus(ctrl);
  renderControls(ctrl);
  ctrl.review.renderMoves();
  renderBars(ctrl);
  renderLinks(ctrl);
  renderRematch(ctrl);
  // The FEN of the position shown: the reviewed one while reviewing.
  $('fen').value = ctrl.review.shownFen();
  ctrl.analysis.update();
  document.body.dataset.ply = String(s.ply);
  document.body.dataset.over = s.outcome ? 'true' : 'false';
}

/** Where the repeated position stood, in the page's language (the server's words: docs/api.md). */
function repetitionText(s) {
  return (lang() === 'de' ? s.repetition.text_de : s.repetition.text) || s.repetition.text;
}

function renderStatus(ctrl) {
  const s = ctrl.state;
  const held = ctrl.held();
  $('role').textContent =
    held.length === 2 ? t('you_play_both') : held.length === 1 ? t('you_play', { color: colorName(held[0]) }) : t('spectator');
  const result = $('result');
  // Games with accounts say whether they are rated; a Chess960 game says so, with its start position.
  const kind = [];
  if (s.accounts) kind.push(t(s.rated ? 'game_rated' : 'game_casual'));
  if (s.variant === 'chess960')
    kind.push(typeof s.chess960 === 'number' ? t('variant_chess960_number', { n: s.chess960 }) : t('variant_chess960_short'));
  show($('game-kind'), kind.length > 0);
  $('game-kind').textContent = kind.join(' · ');
  if (s.outcome) {
    const changes = ['white', 'black']
      .map((c) => s.accounts && s.accounts[c])
      .filter((a) => a && typeof a.diff === 'number')
      .map((a) => t('rating_change', { name: a.name, diff: signed(a.diff) }));
    // The score in one piece ("(1-0)" never breaks over two lines), a draw as "½-½"; an aborted game
    // has none to show. The colour follows the viewer's outcome: a win green, a loss red, else neutral.
    result.textContent = outcomeText(s);
    const score = s.outcome.result === '1/2-1/2' ? '½-½' : s.outcome.result;
    if (score && score !== '*') {
      const span = document.createElement('span');
      span.className = 'result-score';
      span.textContent = `(${score})`;
      result.append(' ', span);
    }
    const winner = s.outcome.winner;
    result.dataset.viewer = held.length !== 1 || score === '*' ? 'neutral' : !winner ? 'draw' : winner === held[0] ? 'win' : 'loss';
    // A draw by repetition says where the position stood (the state's repetition, as an arbiter asks).
    if (s.repetition) {
      const span = document.createElement('span');
      span.className = 'result-repetition';
      span.textContent = t('repetition_where', { where: repetitionText(s) });
      result.append(' ', span);
    }
    if (changes.length) {
      const span = document.createElement('span');
      span.className = 'result-ratings';
      span.textContent = changes.join(', ');
      result.append(span);
    }
    show(result, true);
    $('status').textContent = '';
    document.title = `${outcomeText(s)} – ${t('app_title')}`;
    return;
  }
  show(result, false);
  let text = t(s.turn === 'white' ? 'turn_white' : 'turn_black');
  if (held.length === 1 && held[0] === s.turn) text = t('your_turn');
  if (s.computer && s.computer.color === s.turn) text = t('computer_thinking');
  if (s.mode === 'friend' && !(s.players.white && s.players.black)) text = t('waiting_opponent') + ' ' + text;
  if (s.check) text = t('check') + ' ' + text;
  if (s.repetition) text += ' ' + t('repetition_claimable', { where: repetitionText(s) });
  $('status').textContent = text;
  document.title = `${t(s.turn === 'white' ? 'turn_white' : 'turn_black')} – ${t('app_title')}`;
}

function renderControls(ctrl) {
  const s = ctrl.state;
  const held = ctrl.held();
  const active = !s.outcome && held.length > 0;
  const mover = !s.outcome && !!ctrl.secrets[s.turn];
  // Offering a draw and resigning wait until both sides are taken (by a person or the computer).
  const taken = (c) => !s.players || s.players[c] || (s.computer && s.computer.color === c);
  const started = active && taken('white') && taken('black');
  show($('abort'), active && s.can_abort);
  show($('resign'), started);
  $('resign').textContent = held.length === 2 ? t('resign_as', { color: colorName(s.turn) }) : t('resign');
  const offer = s.draw_offer;
  show($('offer-draw'), started && !offer);
  const canAnswer = active && offer && !!ctrl.secrets[other(offer)];
  show($('accept-draw'), !!canAnswer);
  show($('decline-draw'), !!canAnswer);
  $('draw-offer-text').textContent = offer ? t('draw_offered_by', { color: colorName(offer) }) : '';
  show($('draw-offer-text'), !s.outcome && !!offer);
  renderTakeback(ctrl);
  ctrl.premove.render();
  const claims = s.claims || [];
  show($('claim-threefold'), mover && claims.includes('threefold_repetition'));
  show($('claim-fifty'), mover && claims.includes('fifty_moves'));
  // Claiming with the move is offered only when some move could make the claim correct.
  const claimable = mover && claimWithMovePossible(s);
  show($('claim-with-move-label'), claimable);
  if (!claimable) $('claim-with-move').checked = false;
  show($('move-form'), mover || (active && held.length > 0));
  // Only a live game's clocks are read out (a correspondence game shows its deadline in words).
  show($('read-clocks'), !!s.time && s.time.type === 'live');
  $('move-input').disabled = !mover;
}

const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const ROLE_ORDER = 'qrbnp';

/** The ply of the position shown: the reviewed one, the live one, or (learning from mistakes) the one
 *  whose FEN is shown. */
function shownPly(ctrl, fen) {
  const s = ctrl.state;
  if (ctrl.review.active && ctrl.review.ply !== null) return ctrl.review.ply;
  if (fen === s.fen) return s.ply;
  const i = ctrl.review.fens.indexOf(fen);
  return i >= 0 ? i : s.ply;
}

/** The pieces each side lost by capture in the first PLY moves of state S ({white: [roles], black:
 *  [roles]}, queens first), replayed from the start position: a promoted pawn that is taken counts as
 *  its new piece, en passant as a pawn, castling (also Chess960's king-takes-rook) as nothing. */
export function capturesFromMoves(s, ply) {
  const board = boardOf(s.start_fen || START_FEN);
  const lost = { white: [], black: [] };
  for (const m of (s.moves || []).slice(0, ply)) {
    const from = m.uci.slice(0, 2);
    const to = m.uci.slice(2, 4);
    const piece = board.get(from);
    if (!piece) continue;
    const target = board.get(to);
    board.delete(from);
    if (piece.role === 'k' && (target ? target.color === piece.color : Math.abs(to.charCodeAt(0) - from.charCodeAt(0)) > 1)) {
      // Castling: the king to the g- or c-file, the rook beside it on the inside.
      const short = to.charCodeAt(0) > from.charCodeAt(0);
      const rank = from[1];
      const rookFrom = target ? to : (short ? 'h' : 'a') + rank;
      const rook = board.get(rookFrom);
      board.delete(rookFrom);
      board.set((short ? 'g' : 'c') + rank, piece);
      if (rook) board.set((short ? 'f' : 'd') + rank, rook);
      continue;
    }
    if (target && target.color !== piece.color) lost[target.color].push(target.role);
    else if (!target && piece.role === 'p' && from[0] !== to[0]) {
      // En passant: the pawn taken stands beside the mover's start square.
      const passed = to[0] + from[1];
      const p = board.get(passed);
      if (p) lost[p.color].push(p.role);
      board.delete(passed);
    }
    board.set(to, m.uci.length > 4 ? { color: piece.color, role: m.uci[4] } : piece);
  }
  for (const c of ['white', 'black']) lost[c].sort((a, b) => ROLE_ORDER.indexOf(a) - ROLE_ORDER.indexOf(b));
  return lost;
}

/** The players' bars above and below the board: names, accounts and ratings, captured pieces, clocks. */
export function renderBars(ctrl) {
  const s = ctrl.state;
  if (!s) return;
  const bottom = ctrl.orientation || 'white';
  // The material of the position shown (the reviewed one while reviewing): the pieces taken, counted
  // from the moves up to it (a game from a FEN has no full set to count against), and the lead.
  const shownFen = ctrl.review.shownFen();
  const cap = { ...capturesFromMoves(s, shownPly(ctrl, shownFen)), diff: capturedMaterial(shownFen).diff };
  for (const [barId, color] of [
    ['bar-bottom', bottom],
    ['bar-top', other(bottom)],
  ]) {
    const bar = $(barId);
    bar.dataset.color = color;
    const present = s.players ? s.players[color] : true;
    const computer = s.computer && s.computer.color === color;
    const nameEl = bar.querySelector('.player-name');
    nameEl.textContent = computer
      ? `${colorName(color)} – ${t('computer_name', { level: levelName(s.computer) })}`
      : colorName(color) + (s.mode === 'friend' && !present ? ` (${t('waiting_opponent')})` : '');
    // A side played with an account: its name (a link to its player page), in rated games the
    // rating the game began with ("1500?" when it was provisional then, as the lobby and the player
    // page show it; a screen reader hears "1500, provisional"), and once the game is rated the change.
    const acc = s.accounts && s.accounts[color];
    if (acc && !computer) {
      const a = document.createElement('a');
      a.href = `/@/${encodeURIComponent(acc.name)}`;
      a.textContent = acc.name;
      a.title = t('player_page_of', { name: acc.name });
      nameEl.append(' – ', a);
      if (typeof acc.rating === 'number') {
        const r = document.createElement('span');
        r.className = 'rating';
        r.append(` (${acc.rating}`);
        if (acc.provisional) {
          const q = document.createElement('span');
          q.setAttribute('aria-hidden', 'true');
          q.textContent = '?';
          const word = document.createElement('span');
          word.className = 'visually-hidden';
          word.textContent = t('rating_provisional');
          r.append(q, word);
          r.title = t('rating_provisional_title');
        }
        r.append(')');
        nameEl.append(r);
      }
      if (typeof acc.diff === 'number') {
        const d = document.createElement('span');
        d.className = 'rating-diff ' + (acc.diff > 0 ? 'up' : acc.diff < 0 ? 'down' : '');
        d.textContent = ` ${signed(acc.diff)}`;
        nameEl.append(d);
      }
    }
    bar.querySelector('.clock').setAttribute('aria-label', t('clock_of', { color: colorName(color) }));
    bar.dataset.computer = computer ? 'true' : 'false';
    // Beside each side: the opponent's pieces it has taken, and its material lead.
    const taken = cap[other(color)].map((r) => glyph(other(color), r)).join('');
    const lead = color === 'white' ? cap.diff : -cap.diff;
    bar.querySelector('.captured').textContent = taken + (lead > 0 ? ` +${lead}` : '');
  }
  renderPresence(ctrl);
  renderClocks(ctrl);
}

/** The links to share: the spectators', the invitation while it is open, and, behind a disclosure with
 *  a warning, this side's private one (to continue on another device: whoever opens it plays). */
export function renderLinks(ctrl) {
  const held = ctrl.held();
  const rec = gameRecord(ctrl.id);
  $('spectator-link').value = location.origin + gamePath(ctrl.id);
  const s = ctrl.state;
  const inviteOpen =
    rec && rec.invite && held.length === 1 && (!s || (s.mode === 'friend' && !s.players[other(held[0])]));
  show($('invite-box'), !!inviteOpen);
  if (inviteOpen) $('invite-link').value = `${location.origin}${gamePath(ctrl.id)}#i=${encodeURIComponent(rec.invite)}`;
  show($('private-box'), held.length === 1);
  if (held.length === 1) $('private-link').value = privateLink(ctrl.id, held[0], ctrl.secrets[held[0]]);
}

/** The connection's state ("connecting", "connected", "disconnected") in words. */
export function renderConnection(status) {
  $('connection').textContent = t(status);
  $('connection').dataset.status = status;
}
