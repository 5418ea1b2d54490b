// What the page's two WebSockets to /ws (subprotocol "schach") share: web/live.js (the game page's
// socket) and web/lobby-live.js (lobby and "your turn"). After a loss they reconnect with a growing,
// jittered backoff; a server that drains (stopped or restarted) closes with 1001, going away, after
// answering everything in flight: then they reconnect at once, through the load balancer to another
// server. A subclass says when a connection is wanted, what to send once open, and reads messages.
import { lang } from './i18n.js';

const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 10000;
const CLOSE_GOING_AWAY = 1001;
// After 1001 the page reconnects within this: at once, but the pages a draining server closes
// together do not all arrive in the same millisecond.
const GOING_AWAY_SPREAD_MS = 250;

export class ReconnectingSocket {
  constructor() {
    this.ws = null;
    this.backoff = FIRST_BACKOFF_MS;
    this.timer = null; // a reconnection waiting
  }

  /** Whether a connection is wanted now (no reconnection otherwise). */
  wanted() {
    return true;
  }

  /** More of the URL's query ("&game=ID"): the load balancer routes a game's sockets by it. */
  query() {
    return '';
  }

  /** WS is open: send what the server must know of this page (it forgets it with a connection). */
  opened(_ws) {}

  /** The connection is lost (before any reconnection). */
  lost() {}

  /** A message from the server (its JSON; anything else is passed over). */
  receive(_msg) {}

  connect() {
    this.timer = null;
    if (!this.wanted()) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    let ws;
    try {
      ws = new WebSocket(`${proto}//${location.host}/ws?lang=${lang()}${this.query()}`, 'schach');
    } catch (_) {
      this.reconnect(false);
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = FIRST_BACKOFF_MS;
      this.opened(ws);
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (_) {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.lost();
      this.reconnect(ev && ev.code === CLOSE_GOING_AWAY);
    };
  }

  /** Connects again later: after the backoff, or at once (no backoff) when the server went away on
   *  purpose, since another one takes over now (should that fail, the next close backs off). */
  reconnect(goingAway) {
    if (!this.wanted()) return;
    let wait;
    if (goingAway) {
      this.backoff = FIRST_BACKOFF_MS;
      wait = Math.random() * GOING_AWAY_SPREAD_MS;
    } else {
      wait = this.backoff * (0.75 + Math.random() / 2);
      this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    }
    this.timer = setTimeout(() => this.connect(), wait);
  }

  /** Whether messages can go over the socket now. */
  get open() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }
}
