// The game page (/g/<id>), split as lichess's ui/round is: this controller holds the game's state and
// the page's actions (moves, draw offers, resignation, …); game-view.js draws the board and what is
// around it, game-socket.js talks to the server, game-promotion.js is the promotion chooser and
// game-clock.js the clocks.
import { Chessground } from '/vendor/chessground/dist/chessground.js';
import * as api from './api.js';
import { boardOf, halfmoveClock } from './chess.js';
import { outcomeText, t } from './i18n.js';
import { BoardKeys, announce, keyHandlers, narrate } from './board-keys.js';
import { Review } from './review.js';
import { GameAnalysis } from './game-analysis.js';
import { initMuteSwitch, play } from './sound.js';
import './strings-game.js';
import * as clock from './game-clock.js';
import * as promotion from './game-promotion.js';
import * as socket from './game-socket.js';
import * as view from './game-view.js';
import { Premove } from './game-premove.js';
import { isTakeback } from './game-takeback.js';
import { whoami } from './header.js';
import { gameRecord, saveGame } from './storage.js';
import { $, fragmentParams, gamePath, show, showError } from './util.js';

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
      // A premove (game-premove.js): enabled by game-view.js in the opponent's turn of a live game.
      premovable: {
        enabled: false,
        showDests: true,
        castle: true,
        events: { set: (o, d) => this.premove.onSet(o, d), unset: () => this.premove.onUnset() },
      },
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
    this.analysis = new GameAnalysis(this); // after the end: the computer analysis, learning
    this.premove = new Premove(this);
    view.bindControls(this);
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
    // A fragment with a secret (a private link) or an invitation is read once: the secrets go to the
    // browser's storage and the address bar shows the plain /g/ID at once, so the address (copied,
    // shared, in the history) never gives a side away.
    const p = fragmentParams();
    if (location.hash) history.replaceState(history.state, '', gamePath(this.id) + location.search);
    if (p.s && (p.c === 'white' || p.c === 'black')) saveGame(this.id, { secrets: { [p.c]: p.s } });
    if (p.w || p.b) saveGame(this.id, { secrets: { ...(p.w ? { white: p.w } : {}), ...(p.b ? { black: p.b } : {}) } });
    if (p.i) await this.join(p.i);
    // A logged-in player opening the game on a browser that holds no side of it: the account's
    // secret for it (GET /api/me lists the running games with theirs).
    if (!this.held().length) await this.secretFromAccount(false);
    view.renderLinks(this);
    try {
      this.applyState(await api.getGame(this.id));
    } catch (e) {
      if (e.code === 'not_found') {
        showError($('error'), e);
        return;
      }
      showError($('error'), e);
    }
    socket.connect(this);
    clock.tickClocks(this);
  }

  async join(invite) {
    try {
      const r = await api.joinGame(this.id, invite);
      saveGame(this.id, { secrets: { [r.color]: r.secret } });
      this.applyState(r.state);
    } catch (e) {
      // A spent invitation is no problem when this browser already joined with it. (An invitation
      // seats one browser only: the server spends it on the first join.)
      if (!this.held().length) showError($('error'), e);
    }
  }

  /** Takes the logged-in account's secret of this game from GET /api/me (fresh when REFRESH) into the
   *  browser's storage: for COLOR only, when given. Answers the secret saved, or null when the account
   *  holds no (other) secret of it. */
  async secretFromAccount(refresh, color = null, old = null) {
    let me = null;
    try {
      me = await whoami(refresh);
    } catch (_) {
      return null;
    }
    const g = ((me && me.playing) || []).find((x) => x.id === this.id && x.secret && (!color || x.color === color));
    if (!g || g.secret === old || (g.color !== 'white' && g.color !== 'black')) return null;
    saveGame(this.id, { secrets: { [g.color]: g.secret } });
    return g.secret;
  }

  /** After a 403 for OLD, a secret of this page's side: the account's fresh one for that side (the
   *  server revokes an account's seat secrets on a password change or "log out everywhere"), or null. */
  renewSecret(old) {
    const color = ['white', 'black'].find((c) => this.secrets[c] === old);
    return color ? this.secretFromAccount(true, color, old) : Promise.resolve(null);
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
    // A state with fewer plies is an older one, unless it answers the takeback request shown.
    const takenBack = isTakeback(cur, s);
    if (cur && ((s.ply < cur.ply && !takenBack) || (s.ply === cur.ply && cur.outcome && !s.outcome))) return;
    if (takenBack) announce(t('takeback_done'));
    if (!cur || s.ply !== cur.ply || s.outcome) this.closePromotion();
    this.state = s;
    this.stateAt = performance.now();
    this.premove.onState(s);
    const news = narrate(cur, s, outcomeText);
    if (news) {
      this.lastNews = [cur, s]; // said again in the new language after a switch (relabel)
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
      view.renderSide(this);
      return;
    }
    this.render();
  }

  // -- drawing (game-view.js, game-clock.js) ----------------------------------------------------

  render() {
    // Which sides this page holds ("white", "black", both, or empty for a spectator), for the tests.
    $('game-page').dataset.held = this.held().join(' ');
    view.render(this);
  }

  renderBars() {
    view.renderBars(this);
  }

  renderClocks() {
    clock.renderClocks(this);
  }

  /** The connection's state in words, and polling while the socket is down (game-socket.js). */
  renderConnection(status) {
    view.renderConnection(status);
    socket.followConnection(this, status);
  }

  // -- moves --------------------------------------------------------------------------------

  onBoardMove(orig, dest) {
    const s = this.state;
    const byKey = this.byKey;
    this.byKey = false;
    if (this.analysis.onBoardMove(orig, dest)) return;
    if (!this.canMove()) return this.render();
    if ((s.promotions || []).includes(orig + dest)) {
      this.byKey = byKey;
      promotion.openPromotion(this, orig, dest);
      return;
    }
    this.sendMove(orig + dest, true);
  }

  closePromotion() {
    promotion.closePromotion(this);
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

  /** Sends a change to the server (game-socket.js) and redraws the state. */
  send(kind, body) {
    return socket.send(this, kind, body);
  }

  relabel() {
    this.keys.update();
    // The last announcement (a move, the ending, the rating changes) in the new language.
    const again = this.lastNews && narrate(...this.lastNews, outcomeText);
    if (again) announce(again.text);
    if (this.muteLabel) this.muteLabel();
    if (this.state) this.render();
    this.analysis.relabel();
    this.renderConnection($('connection').dataset.status || 'connecting');
  }
}
