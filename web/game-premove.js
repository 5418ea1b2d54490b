// The game page's premove (docs/api.md "Premoves"): in a game with a live clock, during the opponent's
// turn, a move made on the board (chessground's premovable) is queued on the server, which plays it right
// after the opponent's move. The board marks its squares, and the box under the controls names it with
// a Cancel button; a click elsewhere on the board, Escape or the button cancels it. When the server drops
// it (not legal after the opponent's move) the page says so.
import { boardOf } from './chess.js';
import { t } from './i18n.js';
import * as api from './api.js';
import { $, show, showError } from './util.js';

export class Premove {
  constructor(ctrl) {
    this.ctrl = ctrl;
    this.queued = null; // {orig, dest, move, ply} while one is queued
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.queued) this.cancel(true);
    });
  }

  /** The color this page may premove for now, or undefined: it holds exactly one side, the game has a
   *  live clock and goes on, and it is the opponent's turn. */
  color() {
    const ctrl = this.ctrl;
    const s = ctrl.state;
    const held = ctrl.held();
    if (!s || s.outcome || held.length !== 1 || !s.time || s.time.type !== 'live') return undefined;
    if (s.turn === held[0] || ctrl.review.active) return undefined;
    const taken = (c) => !s.players || s.players[c] || (s.computer && s.computer.color === c);
    return taken('white') && taken('black') ? held[0] : undefined;
  }

  /** Chessground queued ORIG-DEST: the server hears of it (a pawn onto the last rank becomes a queen). */
  onSet(orig, dest) {
    const ctrl = this.ctrl;
    const s = ctrl.state;
    const color = this.color();
    if (!color) return;
    const piece = boardOf(s.fen).get(orig);
    const move = orig + dest + (piece && piece.role === 'p' && /[18]$/.test(dest) ? 'q' : '');
    this.queued = { orig, dest, move, ply: s.ply + 1 };
    this.render();
    this.post({ secret: ctrl.secrets[color], ply: s.ply + 1, move });
  }

  /** Chessground dropped the premove (a click elsewhere): cancelled on the server too. */
  onUnset() {
    if (this.queued) this.cancel(false);
  }

  /** Cancels the queued premove (on the board too, when BOARD). */
  cancel(board) {
    const color = this.ctrl.held()[0];
    this.clear(board);
    if (color) this.post({ secret: this.ctrl.secrets[color] });
  }

  /** Forgets the premove shown (the server played or dropped it, or it was cancelled). */
  clear(board = true) {
    this.queued = null;
    if (board) this.ctrl.cg.cancelPremove(); // its unset event finds nothing queued any more
    this.render();
  }

  async post(body) {
    const ctrl = this.ctrl;
    try {
      if (ctrl.live && ctrl.live.open) await ctrl.live.request('premove', body);
      else await api.gameAction(ctrl.id, 'premove', body);
      // What the server holds now, for the browser tests: the move, or "none".
      document.body.dataset.premove = body.move || 'none';
    } catch (e) {
      if (body.move && this.queued && this.queued.move === body.move) this.clear();
      showError($('error'), e);
    }
  }

  /** A new state: once the game went past the premove's ply (played, or taken back) it is gone. */
  onState(s) {
    const q = this.queued;
    if (q && (s.outcome || s.ply > q.ply || s.ply < q.ply - 1)) this.clear();
    else this.render();
  }

  /** {"type":"premove","dropped":UCI}: not legal after the opponent's move. */
  onMessage(msg) {
    if (!msg.dropped) return;
    this.clear();
    $('notice').textContent = t('premove_dropped', { move: msg.dropped });
    show($('notice'), true);
  }

  /** The box that names the queued premove, made once under the controls. */
  render() {
    let box = $('premove-box');
    if (!box) {
      const controls = $('controls');
      if (!controls) return;
      box = document.createElement('p');
      box.id = 'premove-box';
      box.className = 'notice';
      box.hidden = true;
      const text = document.createElement('span');
      text.id = 'premove-text';
      const button = document.createElement('button');
      button.type = 'button';
      button.id = 'premove-cancel';
      button.addEventListener('click', () => this.cancel(true));
      box.append(text, ' ', button);
      controls.after(box);
    }
    const q = this.queued;
    $('premove-text').textContent = q ? t('premove_queued', { from: q.orig, to: q.dest }) : '';
    $('premove-cancel').textContent = t('premove_cancel');
    show(box, !!q);
  }
}
