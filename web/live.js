// The WebSocket connection to /ws (subprotocol "schach"): subscribes to one game, reconnects with
// backoff after a loss and subscribes again (the server then sends the full state), and sends
// requests with an id so their ack or error finds the caller. A server that drains (it is being
// stopped or restarted) closes with 1001, going away, after answering everything in flight: then the
// page reconnects at once, through the load balancer to another server.
import { ApiError } from './api.js';
import { lang, t } from './i18n.js';
import { gameRecord } from './storage.js';

const MAX_BACKOFF_MS = 10000;
// After 1001 the page reconnects within this: at once, but the pages a draining server closes
// together do not all arrive in the same millisecond.
const GOING_AWAY_SPREAD_MS = 250;
const CLOSE_GOING_AWAY = 1001;
const REQUEST_TIMEOUT_MS = 8000;

export class Live {
  /** GAME: the id to subscribe to; ON_STATE(state) for every update; ON_STATUS("connecting"|"connected"|"disconnected"). */
  constructor(game, onState, onStatus) {
    this.game = game;
    this.onState = onState;
    this.onStatus = onStatus;
    this.ws = null;
    this.backoff = 500;
    this.nextId = 1;
    this.pending = new Map();
    this.closed = false;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    this.onStatus('connecting');
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    let ws;
    try {
      ws = new WebSocket(`${proto}//${location.host}/ws?lang=${lang()}`, 'schach');
    } catch (_) {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = 500;
      this.onStatus('connected');
      // A side this page holds subscribes with its secret: the opponent sees it present.
      const rec = gameRecord(this.game);
      const secret = rec && rec.secrets && (rec.secrets.white || rec.secrets.black);
      ws.send(JSON.stringify({ type: 'subscribe', game: this.game, id: 'subscribe', ...(secret ? { secret } : {}) }));
    };
    ws.onmessage = (ev) => this.receive(ev.data);
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      // Requests in flight get no answer on a dead socket: their callers fall back to HTTP.
      for (const [, p] of this.pending) p.reject(new ApiError('network', t('network_error'), 0));
      this.pending.clear();
      this.onStatus('disconnected');
      if (ev && ev.code === CLOSE_GOING_AWAY) this.reconnectSoon();
      else this.retry();
    };
  }

  /** The server went away on purpose: another one takes over now, so no backoff (should that fail,
   *  the next close backs off as usual). */
  reconnectSoon() {
    if (this.closed) return;
    this.backoff = 500;
    setTimeout(() => this.connect(), Math.random() * GOING_AWAY_SPREAD_MS);
  }

  retry() {
    if (this.closed) return;
    const wait = this.backoff * (0.75 + Math.random() / 2);
    this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    setTimeout(() => this.connect(), wait);
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch (_) {
      return;
    }
    if (msg.type === 'state' && msg.game === this.game && msg.state) {
      this.onState(msg.state);
    } else if (msg.type === 'error' && msg.id === 'subscribe' && this.ws) {
      // A secret the server does not know (an old one in storage): watch without presence.
      this.ws.send(JSON.stringify({ type: 'subscribe', game: this.game }));
    } else if (msg.type === 'ack' || msg.type === 'error') {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.type === 'ack') p.resolve(msg);
      else p.reject(new ApiError(msg.error.code, msg.error.message, 0));
    }
  }

  /** Whether requests can go over the socket now. */
  get open() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /** Sends a request (type plus members); resolves with the ack, rejects with an ApiError. */
  request(type, members) {
    if (!this.open) return Promise.reject(new ApiError('network', t('network_error'), 0));
    const id = this.nextId++;
    const ws = this.ws;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.pending.delete(id)) reject(new ApiError('network', t('network_error'), 0));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, {
        resolve: (v) => (clearTimeout(timer), resolve(v)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      ws.send(JSON.stringify({ type, game: this.game, id, lang: lang(), ...members }));
    });
  }

  /** Stops for good (leaving the page's game). */
  close() {
    this.closed = true;
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close();
    }
  }
}
