// One WebSocket per page for the lobby and the "your turn" watch (web/live.js stays the game page's
// own socket): it watches the lobby (`lobby`, optionally holding the page's open seek so that it
// vanishes when the page closes) and any number of games (`subscribe`), up to what the server allows
// one connection. After a loss it reconnects (web/socket.js) and sends everything again, since the
// server forgets a connection's watches and held seeks with the connection.
import { ReconnectingSocket } from './socket.js';

// The server's default --max-subscriptions is 64 (src/server/http/http.h); staying at 32 leaves
// room on servers started with less, and an error "subs" from the server lowers it further.
const MAX_GAMES = 32;
// Seeks one connection may hold (WS_HELD_SEEKS in src/server/http/http_internal.h); withdrawn ones still
// count, so a page that posts again after that many starts a fresh connection.
const HELD_PER_CONNECTION = 4;

class LobbySocket extends ReconnectingSocket {
  constructor() {
    super();
    this.games = new Set(); // ids subscribed (or to subscribe after a reconnect)
    this.maxGames = MAX_GAMES;
    this.lobbyWatchers = 0;
    this.hold = null; // {seek, secret} of this page's open seek
    this.heldHere = 0; // holds sent on the current connection
    this.stateHandlers = new Set();
    this.lobbyHandlers = new Set();
    this.nextId = 1;
    this.subIds = new Map(); // request id -> game, to know which subscription an error refuses
  }

  /** Opens the socket when something is to be watched and it is not open or opening yet. */
  ensure() {
    if (!this.ws && !this.timer) this.connect();
  }

  wanted() {
    return this.games.size > 0 || this.lobbyWatchers > 0;
  }

  opened() {
    this.heldHere = 0;
    if (this.lobbyWatchers) this.sendLobby();
    for (const g of this.games) this.subscribe(g);
  }

  send(msg) {
    if (this.open) this.ws.send(JSON.stringify(msg));
  }

  subscribe(game) {
    const id = this.nextId++;
    this.subIds.set(id, game);
    if (this.subIds.size > 256) this.subIds.delete(this.subIds.keys().next().value);
    this.send({ type: 'subscribe', game, id });
  }

  sendLobby() {
    if (!this.open) return;
    if (this.hold) this.heldHere++;
    this.send(this.hold ? { type: 'lobby', hold: this.hold } : { type: 'lobby' });
  }

  receive(msg) {
    if (msg.type === 'lobby' && Array.isArray(msg.seeks)) {
      for (const h of this.lobbyHandlers) h(msg.seeks);
    } else if (msg.type === 'state' && msg.game && msg.state) {
      for (const h of this.stateHandlers) h(msg.game, msg.state);
    } else if (msg.type === 'error' && this.subIds.has(msg.id)) {
      // A subscription refused: over the server's limit of watched games (watch fewer from now on),
      // or a game that does not exist (any more).
      const game = this.subIds.get(msg.id);
      this.subIds.delete(msg.id);
      this.games.delete(game);
      if (msg.error && msg.error.code === 'bad_request') this.maxGames = Math.max(1, this.games.size);
    }
  }

  /** Calls HANDLER(seeks) with every lobby list; returns a function that stops it. */
  watchLobby(handler) {
    this.lobbyHandlers.add(handler);
    this.lobbyWatchers++;
    if (this.ws) this.sendLobby();
    else this.ensure();
    return () => {
      if (!this.lobbyHandlers.delete(handler)) return;
      this.lobbyWatchers--;
      if (!this.lobbyWatchers) this.send({ type: 'unlobby' });
    };
  }

  /** Holds the seek (its id and secret) over this socket: the server withdraws it when the socket
   *  closes, i.e. when the page goes. null stops holding (the seek was taken or withdrawn). */
  setHold(hold) {
    this.hold = hold;
    if (!hold || !this.lobbyWatchers || !this.open) return;
    if (this.heldHere < HELD_PER_CONNECTION) {
      this.sendLobby();
      return;
    }
    // The server forgets this connection's holds with it; the new one holds just this seek.
    const old = this.ws;
    this.ws = null;
    old.close();
    this.connect();
  }

  /** Calls HANDLER(gameId, state) for every game state that arrives. */
  onState(handler) {
    this.stateHandlers.add(handler);
  }

  /** Watches exactly the games in IDS (at most the allowed number, the first ones first). */
  watchGames(ids) {
    const want = new Set(ids.slice(0, this.maxGames));
    for (const g of [...this.games]) {
      if (!want.has(g)) {
        this.games.delete(g);
        this.send({ type: 'unsubscribe', game: g });
      }
    }
    for (const g of want) {
      if (this.games.has(g)) continue;
      this.games.add(g);
      this.subscribe(g);
    }
    this.ensure();
  }
}

let shared = null;

/** The page's one lobby socket. */
export function lobbySocket() {
  if (!shared) shared = new LobbySocket();
  return shared;
}
