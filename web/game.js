// The game page (/g/<id>): the board, the clocks, the moves, the controls and the links.
import { Chessground } from '/vendor/chessground/dist/chessground.js';
import * as api from './api.js';
import { boardOf, capturedMaterial, claimWithMovePossible, glyph, halfmoveClock } from './chess.js';
import { colorName, lang, levelName, outcomeText, t } from './i18n.js';
import { Live } from './live.js';
import { BoardKeys, announce, keyHandlers, narrate, signed } from './board-keys.js';
import { Review } from './review.js';
import { initMuteSwitch, play } from './sound.js';
import './strings-game.js';
import { renderPresence, renderRematch } from './game-rematch.js';
import { gameRecord, saveGame } from './storage.js';
import { $, formatClock, formatDate, formatSpan, fragmentParams, gamePath, other, privateLink, show, showError } from './util.js';

const PROMOTION_ROLES = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' };

// ---------------------------------------------------------------------------------------------
// Game page

export class GamePage {
  constructor(id) {
    this.id = id;
    this.state = null;
    this.stateAt = 0; // performance.now() when the state arrived, for the ticking clocks
    this.orientation = null;
    this.busy = false; // a change is on its way to the server
    this.pendingPromotion = null;
    this.cg = Chessground($('board'), {
      // Empty until the first state: pieces appear where they stand instead of sliding there
      // from the starting position.
      fen: '8/8/8/8/8/8/8/8 w - - 0 1',
      coordinates: true,
      viewOnly: false,
      movable: { free: false, color: undefined, showDests: true, events: { after: (o, d) => this.onBoardMove(o, d) } },
      premovable: { enabled: false },
      draggable: { enabled: true, showGhost: true },
      selectable: { enabled: true },
      highlight: { lastMove: true, check: true },
      animation: { enabled: true, duration: 150 },
      drawable: { enabled: true },
      // The keyboard grid describes what chessground shows; a pointer pick changes that.
      events: { select: () => setTimeout(() => this.keys.update(), 0) },
    });
    this.keys = new BoardKeys(document.querySelector('#game-page .board-frame'), this.cg, keyHandlers(this));
    this.review = new Review(this);
    this.bindControls();
    this.watchPointer();
  }

  /** Chessground offers only legal moves and lets anything else snap back in silence; this says why
   *  instead. A drag (or a click after picking a piece) onto a square the piece cannot reach is sent
   *  to the server, whose 422 illegal_move names the reason ("the path is blocked at e2") as for a
   *  typed move; nothing is played. Picking a piece with no legal move says so at once. */
  watchPointer() {
    const board = $('board');
    const keyAt = (e) => {
      // A touch's position is in its touches (at the start) or changedTouches (at the end).
      const p = (e.touches && e.touches[0]) || (e.changedTouches && e.changedTouches[0]) || e;
      return this.cg.getKeyAtDomPos([p.clientX, p.clientY]);
    };
    const down = (e) => {
      // Chessground keeps the board's position from the last scroll or resize; the invitation
      // above the board (or anything else) may have moved it since. Measure afresh before it reads
      // this press.
      this.cg.state.dom.bounds.clear();
      if (e.button !== undefined && e.button !== 0) return;
      this.pointer = { orig: keyAt(e), picked: this.cg.state.selected };
    };
    const up = (e) => {
      const p = this.pointer;
      this.pointer = null;
      if (!p || !p.orig || !this.canMove()) return;
      const dest = keyAt(e);
      if (!dest) return;
      const s = this.state;
      const pieces = boardOf(s.fen);
      const mine = (sq) => pieces.get(sq) && pieces.get(sq).color === s.turn;
      const legal = s.legal || {};
      if (dest !== p.orig && mine(p.orig)) {
        // A drag from one of the mover's pieces.
        if (!(legal[p.orig] || []).includes(dest)) this.explainIllegal(p.orig, dest);
      } else if (dest === p.orig && p.picked && p.picked !== dest && !mine(dest)) {
        // A click on a target after picking a piece.
        if (!(legal[p.picked] || []).includes(dest)) this.explainIllegal(p.picked, dest);
      } else if (dest === p.orig && !p.picked && pieces.get(dest) && !mine(dest)) {
        showError($('error'), new Error(t('not_your_piece')));
      } else if (dest === p.orig && mine(dest) && !(legal[dest] || []).length) {
        const piece = pieces.get(dest);
        const what = { piece: t('the_' + piece.role), square: dest };
        showError($('error'), new Error(t(s.check ? 'no_legal_move_check' : 'no_legal_move', what)));
      }
    };
    board.addEventListener('mousedown', down, true);
    board.addEventListener('touchstart', down, { capture: true, passive: true });
    document.addEventListener('mouseup', up, true);
    document.addEventListener('touchend', up, { capture: true, passive: true });
  }

  /** Asks the server why FROM-TO is not legal (it answers 422 with the reason and plays nothing). */
  explainIllegal(from, to) {
    if (!this.canMove()) return;
    const piece = boardOf(this.state.fen).get(from);
    // A pawn onto the last rank is asked about with a queen: without a piece named the server would
    // only say that one is missing.
    const promo = piece && piece.role === 'p' && /[18]$/.test(to) ? 'q' : '';
    this.sendMove(from + to + promo, true);
  }


  get secrets() {
    const rec = gameRecord(this.id);
    return rec ? rec.secrets : {};
  }

  /** The sides this browser holds. */
  held() {
    const s = this.secrets;
    return ['white', 'black'].filter((c) => s[c]);
  }

  async start() {
    show($('game-page'), true);
    this.muteLabel = initMuteSwitch();
    const p = fragmentParams();
    if (p.s && (p.c === 'white' || p.c === 'black')) saveGame(this.id, { secrets: { [p.c]: p.s } });
    if (p.w || p.b) saveGame(this.id, { secrets: { ...(p.w ? { white: p.w } : {}), ...(p.b ? { black: p.b } : {}) } });
    if (p.i) await this.join(p.i);
    this.renderLinks();
    try {
      this.applyState(await api.getGame(this.id));
    } catch (e) {
      if (e.code === 'not_found') {
        showError($('error'), e);
        return;
      }
      showError($('error'), e);
    }
    this.live = new Live(
      this.id,
      (s) => this.applyState(s),
      (st) => this.renderConnection(st),
    );
    // Live clocks tick between updates; correspondence deadlines count down.
    setInterval(() => this.renderClocks(), 100);
  }

  async join(invite) {
    try {
      const r = await api.joinGame(this.id, invite);
      saveGame(this.id, { secrets: { [r.color]: r.secret } });
      history.replaceState(null, '', privateLink(this.id, r.color, r.secret));
      this.applyState(r.state);
    } catch (e) {
      // A spent invitation is no problem when this browser already joined with it.
      if (!this.held().length) showError($('error'), e);
      history.replaceState(null, '', gamePath(this.id) + this.ownFragment());
    }
  }

  ownFragment() {
    const held = this.held();
    if (held.length === 1) return `#s=${encodeURIComponent(this.secrets[held[0]])}&c=${held[0]}`;
    if (held.length === 2)
      return `#w=${encodeURIComponent(this.secrets.white)}&b=${encodeURIComponent(this.secrets.black)}`;
    return '';
  }

  bindControls() {
    $('flip').addEventListener('click', () => {
      this.orientation = other(this.orientation || 'white');
      this.cg.set({ orientation: this.orientation });
      this.keys.update();
      this.renderBars();
    });
    $('resign').addEventListener('click', () => {
      if (!confirm(t('resign_confirm'))) return;
      this.action('resign', this.actingColor(), {});
    });
    $('abort').addEventListener('click', () => this.action('abort', this.actingColor(), {}));
    $('offer-draw').addEventListener('click', () => this.action('draw', this.actingColor(), { action: 'offer' }));
    $('accept-draw').addEventListener('click', () =>
      this.action('draw', other(this.state.draw_offer), { action: 'accept' }),
    );
    $('decline-draw').addEventListener('click', () =>
      this.action('draw', other(this.state.draw_offer), { action: 'decline' }),
    );
    $('claim-threefold').addEventListener('click', () => this.action('claim', this.state.turn, { kind: 'threefold' }));
    $('claim-fifty').addEventListener('click', () => this.action('claim', this.state.turn, { kind: 'fifty' }));
    $('move-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      const text = $('move-input').value.trim();
      if (text && this.review.active) showError($('error'), new Error(t('review_no_move')));
      else if (text && this.canMove()) this.sendMove(text, false);
    });
    for (const b of document.querySelectorAll('#promotion [data-role]'))
      b.addEventListener('click', () => this.choosePromotion(b.dataset.role));
    document.querySelector('#promotion .promotion-cancel').addEventListener('click', () => this.choosePromotion(null));
    document.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape' && this.pendingPromotion) this.choosePromotion(null);
    });
    $('read-clocks').addEventListener('click', () => this.keys.handlers.clocks());
    $('pgn-de').href = api.pgnUrl(this.id, 'de');
    $('pgn-en').href = api.pgnUrl(this.id, 'en');
  }

  /** The side on whose behalf a draw offer, resignation or abort is made. */
  actingColor() {
    const held = this.held();
    if (held.length === 2) return this.state.turn;
    return held[0];
  }

  canMove() {
    const s = this.state;
    return !!s && !s.outcome && !!this.secrets[s.turn] && !this.busy && !this.review.active;
  }

  /** Takes a state from the server unless a newer one is already shown. */
  applyState(s) {
    if (!s) return;
    const cur = this.state;
    if (cur && (s.ply < cur.ply || (s.ply === cur.ply && cur.outcome && !s.outcome))) return;
    if (!cur || s.ply !== cur.ply || s.outcome) this.closePromotion();
    this.state = s;
    this.stateAt = performance.now();
    const news = narrate(cur, s, outcomeText);
    if (news) {
      announce(news.text);
      if (news.sound) play(news.sound);
    }
    if (this.orientation === null) {
      const held = this.held();
      this.orientation = held.length === 1 ? held[0] : 'white';
    }
    // While a change is on its way, an update of the position shown (an answer to an earlier request,
    // presence) leaves the board alone: drawn, it would put a piece just dropped back on its square,
    // and the position after the move would slide it over again (a Chess960 castling showed the king
    // passing the f-file). send() draws the board once it is done.
    if (this.busy && cur && s.ply === cur.ply) {
      this.renderSide();
      return;
    }
    this.render();
  }

  render() {
    const s = this.state;
    if (!s) return;
    // While the promotion chooser is open the pawn stays on its target square.
    if (this.pendingPromotion) {
      this.renderSide();
      return;
    }
    // While reviewing, the board keeps the earlier position; the rest of the page follows the game.
    if (this.review.active) {
      this.renderSide();
      this.review.draw();
      return;
    }
    const dests = new Map();
    if (this.canMove()) for (const [from, tos] of Object.entries(s.legal || {})) dests.set(from, tos);
    // Always draw the server's FEN: chessground alone would leave an en-passant pawn standing
    // and cannot know the promoted piece.
    this.cg.set({
      fen: s.fen,
      orientation: this.orientation,
      turnColor: s.turn,
      lastMove: s.last_move ? [s.last_move.slice(0, 2), s.last_move.slice(2, 4)] : undefined,
      check: s.check ? s.turn : false,
      movable: { free: false, color: this.canMove() ? s.turn : undefined, dests },
    });
    this.keys.update();
    this.renderSide();
  }

  /** Everything around the board. */
  renderSide() {
    const s = this.state;
    this.renderStatus();
    this.renderControls();
    this.renderMoves();
    this.renderBars();
    this.renderLinks();
    renderRematch(this);
    $('fen').value = s.fen;
    document.body.dataset.ply = String(s.ply);
    document.body.dataset.over = s.outcome ? 'true' : 'false';
  }

  renderStatus() {
    const s = this.state;
    const held = this.held();
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
      result.textContent = `${outcomeText(s)} (${s.outcome.result})`;
      if (changes.length) {
        const span = document.createElement('span');
        span.className = 'result-ratings';
        span.textContent = ` · ${changes.join(', ')}`;
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
    $('status').textContent = text;
    document.title = `${t(s.turn === 'white' ? 'turn_white' : 'turn_black')} – ${t('app_title')}`;
  }

  renderControls() {
    const s = this.state;
    const held = this.held();
    const active = !s.outcome && held.length > 0;
    const mover = !s.outcome && !!this.secrets[s.turn];
    // Offering a draw and resigning wait until both sides are taken (by a person or the computer).
    const taken = (c) => !s.players || s.players[c] || (s.computer && s.computer.color === c);
    const started = active && taken('white') && taken('black');
    show($('abort'), active && s.can_abort);
    show($('resign'), started);
    $('resign').textContent = held.length === 2 ? t('resign_as', { color: colorName(s.turn) }) : t('resign');
    const offer = s.draw_offer;
    show($('offer-draw'), started && !offer);
    const canAnswer = active && offer && !!this.secrets[other(offer)];
    show($('accept-draw'), !!canAnswer);
    show($('decline-draw'), !!canAnswer);
    $('draw-offer-text').textContent = offer ? t('draw_offered_by', { color: colorName(offer) }) : '';
    show($('draw-offer-text'), !s.outcome && !!offer);
    const claims = s.claims || [];
    show($('claim-threefold'), mover && claims.includes('threefold_repetition'));
    show($('claim-fifty'), mover && claims.includes('fifty_moves'));
    // Claiming with the move is offered only when some move could make the claim correct.
    const claimable = mover && claimWithMovePossible(s);
    show($('claim-with-move-label'), claimable);
    if (!claimable) $('claim-with-move').checked = false;
    show($('move-form'), mover || (active && held.length > 0));
    show($('read-clocks'), !!s.time && s.time.type !== 'none');
    $('move-input').disabled = !mover;
  }

  renderMoves() {
    this.review.renderMoves();
  }

  renderBars() {
    const s = this.state;
    if (!s) return;
    const bottom = this.orientation || 'white';
    const cap = capturedMaterial(s.fen);
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
      // rating the game began with, and once the game is rated the change.
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
          r.textContent = ` (${acc.rating})`;
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
    renderPresence(this);
    this.renderClocks();
  }

  renderClocks() {
    const s = this.state;
    if (!s) return;
    for (const barId of ['bar-top', 'bar-bottom']) {
      const bar = $(barId);
      const color = bar.dataset.color;
      const el = bar.querySelector('.clock');
      const c = s.clock;
      el.classList.remove('running', 'low');
      if (!c || !s.time || s.time.type === 'none') {
        el.textContent = '';
        continue;
      }
      const running = !s.outcome && c.running === color;
      if (s.time.type === 'live') {
        const ms = c[color] - (running ? performance.now() - this.stateAt : 0);
        el.textContent = formatClock(ms);
        if (ms < 10000) el.classList.add('low');
      } else if (running && c.deadline) {
        el.textContent = `${t('deadline', { date: formatDate(c.deadline) })} (${t('time_left', { left: formatSpan(c.deadline - Date.now()) })})`;
      } else {
        el.textContent = running ? t('no_deadline') : '';
      }
      if (running) el.classList.add('running');
    }
  }

  renderLinks() {
    const held = this.held();
    const rec = gameRecord(this.id);
    $('spectator-link').value = location.origin + gamePath(this.id);
    const s = this.state;
    const inviteOpen =
      rec && rec.invite && held.length === 1 && (!s || (s.mode === 'friend' && !s.players[other(held[0])]));
    show($('invite-box'), !!inviteOpen);
    if (inviteOpen) $('invite-link').value = `${location.origin}${gamePath(this.id)}#i=${encodeURIComponent(rec.invite)}`;
    show($('private-box'), held.length === 1);
    if (held.length === 1) $('private-link').value = privateLink(this.id, held[0], this.secrets[held[0]]);
  }

  renderConnection(status) {
    $('connection').textContent = t(status);
    $('connection').dataset.status = status;
    // Without the socket the page still follows the game, by asking for the state now and then.
    if (status === 'connected') {
      // Counted for the browser tests, which break the socket and wait for the reconnection.
      document.body.dataset.wsConnects = String(Number(document.body.dataset.wsConnects || 0) + 1);
      clearInterval(this.pollTimer);
      this.pollTimer = null;
    } else if (!this.pollTimer) {
      this.pollTimer = setInterval(() => {
        if (!this.state || !this.state.outcome) api.getGame(this.id).then((s) => this.applyState(s), () => {});
      }, 3000);
    }
  }

  // -- moves --------------------------------------------------------------------------------

  onBoardMove(orig, dest) {
    const s = this.state;
    const byKey = this.byKey;
    this.byKey = false;
    if (!this.canMove()) return this.render();
    if ((s.promotions || []).includes(orig + dest)) {
      this.byKey = byKey;
      this.openPromotion(orig, dest);
      return;
    }
    this.sendMove(orig + dest, true);
  }

  /** The chooser opens over the promotion square's file: the queen on the promotion square, then
   *  rook, bishop and knight towards the board's middle, and a small cancel button after them. */
  openPromotion(orig, dest) {
    this.pendingPromotion = orig + dest;
    const color = this.state.turn;
    const white = (this.orientation || 'white') === 'white';
    const col = white ? dest.charCodeAt(0) - 97 : 104 - dest.charCodeAt(0);
    const fromTop = white === (dest[1] === '8');
    const box = $('promotion');
    box.style.left = `${col * 12.5}%`;
    box.style.top = fromTop ? '0' : 'auto';
    box.style.bottom = fromTop ? 'auto' : '0';
    box.classList.toggle('from-bottom', !fromTop);
    for (const b of document.querySelectorAll('#promotion [data-role]')) {
      const r = b.dataset.role;
      b.querySelector('piece').className = `${color} ${PROMOTION_ROLES[r]}`;
      b.setAttribute('aria-label', t(PROMOTION_ROLES[r]));
      b.title = t(PROMOTION_ROLES[r]);
    }
    show(box, true);
    this.promotionFromKeys = !!this.byKey;
    this.byKey = false;
    document.querySelector('#promotion [data-role="q"]').focus();
  }

  closePromotion() {
    this.pendingPromotion = null;
    show($('promotion'), false);
  }

  choosePromotion(role) {
    const uci = this.pendingPromotion;
    this.closePromotion();
    // Chosen with the keyboard: the focus goes back to the board, where it came from.
    if (this.promotionFromKeys) this.keys.focus();
    this.promotionFromKeys = false;
    if (!uci || !role) return this.render(); // cancelled: the pawn goes back
    if (!this.canMove()) return this.render();
    this.sendMove(uci + role, true);
  }

  /** The draw claim to send with MOVE when "claim with this move" is on: fifty-move when the move
   *  completes fifty moves without capture or pawn move, else threefold repetition. */
  claimFor(move) {
    if (!$('claim-with-move').checked) return undefined;
    const s = this.state;
    if (/^[a-h][1-8][a-h][1-8]/.test(move) && halfmoveClock(s.fen) >= 99) {
      const board = boardOf(s.fen);
      const piece = board.get(move.slice(0, 2));
      const target = board.get(move.slice(2, 4));
      if (piece && piece.role !== 'p' && (!target || target.color === piece.color)) return 'fifty';
    }
    return 'threefold';
  }

  async sendMove(move, fromBoard) {
    const s = this.state;
    const color = s.turn;
    const body = { secret: this.secrets[color], ply: s.ply, move };
    const claim = this.claimFor(move);
    if (claim) body.claim = claim;
    const r = await this.send('move', body);
    if (r.ok) {
      $('claim-with-move').checked = false;
      if (!fromBoard) $('move-input').value = '';
      if (r.claim_rejected) {
        $('notice').textContent = t('claim_rejected');
        show($('notice'), true);
      }
    }
  }

  async action(kind, color, members) {
    await this.send(kind, { secret: this.secrets[color], ...members });
  }

  /** Sends a change over the WebSocket when it is open, else (or when it breaks) over HTTP; the
   *  ply in moves makes a repeat harmless. Shows the server's error and redraws the state. */
  async send(kind, body) {
    this.busy = true;
    showError($('error'), null);
    show($('notice'), false);
    // No further moves while this change is on its way; the moved piece stays where it was dropped.
    this.cg.set({ movable: { color: undefined, dests: new Map() } });
    let result = { ok: false };
    try {
      let viaHttp = !this.live || !this.live.open;
      if (!viaHttp) {
        try {
          const ack = await this.live.request(kind, body);
          result = { ok: true, claim_rejected: ack.claim_rejected, ply: ack.ply };
          if (typeof ack.ply === 'number' && (!this.state || this.state.ply < ack.ply)) this.refreshSoon();
        } catch (e) {
          if (e.code !== 'network') throw e;
          viaHttp = true;
        }
      }
      if (viaHttp) {
        const r = await api.gameAction(this.id, kind, body);
        this.applyState(r.state);
        result = { ok: true, claim_rejected: r.claim_rejected };
      }
    } catch (e) {
      showError($('error'), e);
      // The state may have moved on (stale ply, game over): fetch it so the board is current.
      api.getGame(this.id).then((st) => this.applyState(st), () => {});
    } finally {
      this.busy = false;
      // When the ack came before its state update, the update will draw the board; drawing the
      // old state now would make the moved piece jump back and forth.
      const updateDue = result.ok && typeof result.ply === 'number' && this.state && this.state.ply < result.ply;
      if (!updateDue) this.render();
    }
    return result;
  }

  /** After an ack whose state update has not arrived yet, fetch the state once. */
  refreshSoon() {
    setTimeout(() => {
      api.getGame(this.id).then((st) => this.applyState(st), () => {});
    }, 1000);
  }

  relabel() {
    this.keys.update();
    if (this.muteLabel) this.muteLabel();
    if (this.state) this.render();
    this.renderConnection($('connection').dataset.status || 'connecting');
  }
}
