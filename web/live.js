// The game page's WebSocket (web/socket.js reconnects it): subscribes to one game, and again after
// a reconnection (the server then sends the full state), and sends requests with an id so their ack
// or error finds the caller.
import { ApiError } from './api.js';
import { lang, t } from './i18n.js';
import { ReconnectingSocket } from './socket.js';
import { gameRecord } from './storage.js';

const REQUEST_TIMEOUT_MS = 8000;

export class Live extends ReconnectingSocket {
  /** GAME: the id to subscribe to; ON_STATE(state) for every update; ON_STATUS("connecting"|"connected"|"disconnected"). */
  constructor(game, onState, onStatus) {
    super();
    this.game = game;
    this.onState = onState;
    this.onStatus = onStatus;
    this.nextId = 1;
    this.pending = new Map();
    this.closed = false;
    this.connect();
  }

  wanted() {
    return !this.closed;
  }

  connect() {
    if (!this.closed) this.onStatus('connecting');
    super.connect();
  }

  /** The game in the URL: behind HAProxy (deploy/haproxy.cfg) every page of a game reaches the same
   *  server, which is where presence is counted. */
  query() {
    return `&game=${encodeURIComponent(this.game)}`;
  }

  opened(ws) {
    this.onStatus('connected');
    // A side this page holds subscribes with its secret: the opponent sees it present.
    const rec = gameRecord(this.game);
    const secret = rec && rec.secrets && (rec.secrets.white || rec.secrets.black);
    ws.send(JSON.stringify({ type: 'subscribe', game: this.game, id: 'subscribe', ...(secret ? { secret } : {}) }));
  }

  lost() {
    // Requests in flight get no answer on a dead socket: their callers fall back to HTTP.
    for (const [, p] of this.pending) p.reject(new ApiError('network', t('network_error'), 0));
    this.pending.clear();
    this.onStatus('disconnected');
  }

  receive(msg) {
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
    clearTimeout(this.timer);
    if (this.ws) {
      const ws = this.ws;
      this.ws = null;
      ws.close();
    }
  }
}
