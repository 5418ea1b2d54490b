// The game page's connection to the server (game-ctrl.js): the game's WebSocket (live.js) with the
// state it pushes, polling while that socket is down, and the changes the page sends (moves, draw
// offers, resignation, …), over the socket when it is open, else over HTTP.
import * as api from './api.js';
import { Live } from './live.js';
import { $, show, showError } from './util.js';

/** Opens the game's socket: every state it brings goes to the page, and so does every change of
 *  the connection ("connecting", "connected", "disconnected"). */
export function connect(ctrl) {
  ctrl.live = new Live(
    ctrl.id,
    (s) => ctrl.applyState(s),
    (st) => ctrl.renderConnection(st),
  );
  // The analysis' progress and end ({"type": "analysis"}) go to the page's analysis (game-analysis.js).
  const receive = ctrl.live.receive.bind(ctrl.live);
  // A premove the server dropped ({"type": "premove"}) goes to the page's premove (game-premove.js).
  ctrl.live.receive = (msg) =>
    msg && msg.type === 'analysis'
      ? ctrl.analysis.onMessage(msg)
      : msg && msg.type === 'premove'
        ? ctrl.premove.onMessage(msg)
        : receive(msg);
}

/** Without the socket the page still follows the game, by asking for the state now and then. */
export function followConnection(ctrl, status) {
  if (status === 'connected') {
    // Counted for the browser tests, which break the socket and wait for the reconnection.
    document.body.dataset.wsConnects = String(Number(document.body.dataset.wsConnects || 0) + 1);
    clearInterval(ctrl.pollTimer);
    ctrl.pollTimer = null;
  } else if (!ctrl.pollTimer) {
    ctrl.pollTimer = setInterval(() => {
      if (!ctrl.state || !ctrl.state.outcome) api.getGame(ctrl.id).then((s) => ctrl.applyState(s), () => {});
    }, 3000);
  }
}

/** Sends a change over the WebSocket when it is open, else (or when it breaks) over HTTP; the
 *  ply in moves makes a repeat harmless. Shows the server's error and redraws the state. */
export async function send(ctrl, kind, body) {
  ctrl.busy = true;
  showError($('error'), null);
  show($('notice'), false);
  // No further moves while this change is on its way; the moved piece stays where it was dropped.
  ctrl.cg.set({ movable: { color: undefined, dests: new Map() } });
  let result = { ok: false };
  const attempt = async (b) => {
    let viaHttp = !ctrl.live || !ctrl.live.open;
    if (!viaHttp) {
      try {
        const ack = await ctrl.live.request(kind, b);
        result = { ok: true, claim_rejected: ack.claim_rejected, ply: ack.ply };
        if (typeof ack.ply === 'number' && (!ctrl.state || ctrl.state.ply < ack.ply)) refreshSoon(ctrl);
      } catch (e) {
        if (e.code !== 'network') throw e;
        viaHttp = true;
      }
    }
    if (viaHttp) {
      const r = await api.gameAction(ctrl.id, kind, b);
      ctrl.applyState(r.state);
      result = { ok: true, claim_rejected: r.claim_rejected };
    }
  };
  try {
    try {
      await attempt(body);
    } catch (e) {
      // A secret refused (403 bad_secret): an account's seat secrets are revoked by a password change
      // or "log out everywhere". A logged-in player gets this side's fresh one from GET /api/me, and
      // the change is sent once more with it; otherwise the error stands.
      const fresh = e.code === 'bad_secret' && body && body.secret ? await ctrl.renewSecret(body.secret) : null;
      if (!fresh) throw e;
      await attempt({ ...body, secret: fresh });
    }
  } catch (e) {
    showError($('error'), e);
    // The state may have moved on (stale ply, game over): fetch it so the board is current.
    api.getGame(ctrl.id).then((st) => ctrl.applyState(st), () => {});
  } finally {
    ctrl.busy = false;
    // When the ack came before its state update, the update will draw the board; drawing the
    // old state now would make the moved piece jump back and forth.
    const updateDue = result.ok && typeof result.ply === 'number' && ctrl.state && ctrl.state.ply < result.ply;
    if (!updateDue) ctrl.render();
  }
  return result;
}

/** After an ack whose state update has not arrived yet, fetch the state once. */
function refreshSoon(ctrl) {
  setTimeout(() => {
    api.getGame(ctrl.id).then((st) => ctrl.applyState(st), () => {});
  }, 1000);
}
