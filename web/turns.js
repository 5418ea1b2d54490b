// "Your turn" in the header: how many of the logged-in player's running games wait for their move, a
// list of them (correspondence first, as those are the ones easily forgotten), and a browser
// notification when an opponent moves in a game the player is not looking at. The games come from
// GET /api/me (`playing`, refreshed by header.js) and are then followed live over the page's lobby
// socket, so the count changes the moment a move is made, on this page or anywhere else. Each game in
// the list names the opponent with their rating ("?" when provisional) or the computer's level, and
// the last move in SAN (issue 24).
import './strings-lobby.js';
import './strings-account.js';
import { colorName, lang, levelName, t } from './i18n.js';
import { lobbySocket } from './lobby-live.js';
import { gameAddress, saveGame } from './storage.js';
import { gamePath, timeControlText } from './util.js';

const hasNotifications = () => typeof window.Notification === 'function';

export class Turns {
  constructor() {
    this.games = new Map(); // id -> {id, color, secret, kind, myTurn, state}
    this.el = document.createElement('details');
    this.el.className = 'turns';
    this.el.id = 'turns';
    this.summary = document.createElement('summary');
    this.panel = document.createElement('div');
    this.panel.className = 'turns-panel';
    this.el.append(this.summary, this.panel);
    this.socket = lobbySocket();
    this.socket.onState((id, state) => this.update(id, state));
    // Closing the list with Escape, as one expects of a pop-up, and back to its summary.
    this.el.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape' && this.el.open) {
        this.el.open = false;
        this.summary.focus();
      }
    });
    this.render();
  }

  /** The running games from GET /api/me: [{id, color, secret, my_turn, time, opponent}]. */
  setPlaying(playing) {
    const next = new Map();
    for (const p of playing || []) {
      const old = this.games.get(p.id);
      // A game already followed keeps what the socket said last; a new one starts from /api/me.
      if (old) old.opponent = p.opponent || null;
      next.set(p.id, old || { id: p.id, color: p.color, secret: p.secret, kind: p.time, myTurn: !!p.my_turn,
        opponent: p.opponent || null, state: null });
    }
    this.games = next;
    this.socket.watchGames(this.ordered().map((g) => g.id));
    this.render();
  }

  /** Correspondence games first, then the others in the server's order. */
  ordered() {
    const all = [...this.games.values()];
    return all.filter((g) => g.kind === 'correspondence').concat(all.filter((g) => g.kind !== 'correspondence'));
  }

  update(id, state) {
    const g = this.games.get(id);
    if (!g) return;
    const was = g.myTurn;
    const prevPly = g.state ? g.state.ply : null;
    g.state = state;
    if (state.time && state.time.type) g.kind = state.time.type;
    g.myTurn = !state.outcome && state.turn === g.color;
    if (g.myTurn && !was && (prevPly === null || state.ply > prevPly)) this.notify(g);
    this.render();
  }

  /** Who plays against G's player: "Bodo (1620?)", "Computer (Club player)", "Anonymous". From the
   *  game's live state once it came (its accounts and computer), else from GET /api/me. */
  opponentText(g) {
    const other = g.color === 'white' ? 'black' : 'white';
    const s = g.state;
    if (s && s.computer && s.computer.color === other) return t('gl_computer', { level: levelName(s.computer) });
    const acc = s && s.accounts && s.accounts[other];
    const o = g.opponent;
    if (!s && o && o.level) return t('gl_computer', { level: o.level });
    const name = acc ? acc.name : !s && o ? o.name : null;
    if (!name) return t('gl_anonymous');
    // The game's rating for a rated game; else the one GET /api/me gave (the opponent's current one).
    const rating = acc && acc.rating != null ? acc.rating : o && o.name === name ? o.rating : null;
    const provisional = (acc && acc.provisional) || (o && o.name === name && o.provisional);
    return rating != null ? `${name} (${rating}${provisional ? '?' : ''})` : name;
  }

  /** The last move of G as "12… Nf6" / "13. Bb5", or '' before the live state came or the first move. */
  lastMoveText(g) {
    const moves = (g.state && g.state.moves) || [];
    const last = moves[moves.length - 1];
    if (!last || !last.san) return '';
    const startsBlack = !!(g.state.start_fen && g.state.start_fen.split(' ')[1] === 'b');
    const i = moves.length - 1 + (startsBlack ? 1 : 0);
    const n = Math.floor(i / 2) + 1;
    return `${n}${i % 2 ? '…' : '.'} ${last.san}`;
  }

  /** Keeps the game's secret in this browser's storage (before opening the game); its address. */
  open(g) {
    if (g.secret && (g.color === 'white' || g.color === 'black')) saveGame(g.id, { secrets: { [g.color]: g.secret } });
    return gameAddress(g.id);
  }

  /** A notification when the opponent moved and the player is not looking at that game now. */
  notify(g) {
    const looking = !document.hidden && location.pathname === gamePath(g.id);
    if (looking || !hasNotifications() || Notification.permission !== 'granted') return;
    const moves = (g.state && g.state.moves) || [];
    const last = moves[moves.length - 1];
    const san = last ? last.san : '';
    try {
      const n = new Notification(t('turns_notify_title'), {
        body: t('turns_notify_body', { san, color: colorName(g.color) }),
        tag: `schach-${g.id}`,
      });
      n.onclick = () => {
        window.focus();
        n.close();
        location.assign(this.open(g));
      };
    } catch (_) {
      // Some browsers (Android Chrome) allow notifications only from a service worker.
    }
  }

  render() {
    const waiting = this.ordered().filter((g) => g.myTurn);
    // States arrive for every move in every watched game: rebuild only when what is shown changed,
    // so that the keyboard focus inside the open list stays where it is.
    const perm = hasNotifications() ? Notification.permission : '';
    const shown = JSON.stringify([lang(), perm,
      waiting.map((g) => [g.id, g.kind, g.state && g.state.time, this.opponentText(g), this.lastMoveText(g)])]);
    if (shown === this.shown) return;
    this.shown = shown;
    this.summary.textContent = t('turns_summary', { n: waiting.length });
    this.summary.title = waiting.length === 1 ? t('turns_summary_label_one') : t('turns_summary_label', { n: waiting.length });
    this.el.classList.toggle('has-turns', waiting.length > 0);
    this.panel.textContent = '';
    if (waiting.length) {
      const ul = document.createElement('ul');
      for (const g of waiting) {
        const li = document.createElement('li');
        const a = document.createElement('a');
        // The plain address; the secret goes to storage when the link is followed (also in a new
        // tab), and the game page would find it through GET /api/me anyway.
        a.href = gamePath(g.id);
        const follow = () => {
          a.href = this.open(g);
        };
        a.addEventListener('click', follow);
        a.addEventListener('auxclick', follow);
        const tc = g.state ? timeControlText(g.state.time) : '';
        const last = this.lastMoveText(g);
        a.textContent = [
          g.kind === 'correspondence'
            ? t('turns_game_corr', { color: colorName(g.color) })
            : t('turns_game', { color: colorName(g.color), tc }),
          t('turns_vs', { name: this.opponentText(g) }),
          ...(last ? [t('turns_last', { san: last })] : []),
        ].join(' · ');
        li.append(a);
        ul.append(li);
      }
      this.panel.append(ul);
    } else {
      const p = document.createElement('p');
      p.textContent = t('turns_none');
      this.panel.append(p);
    }
    this.renderNotifyControl();
  }

  /** The button that asks for permission (browsers want a click for that), or what was decided. */
  renderNotifyControl() {
    if (!hasNotifications()) return;
    const perm = Notification.permission;
    if (perm === 'default') {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'turns-notify';
      b.textContent = t('turns_notify_enable');
      b.addEventListener('click', async () => {
        try {
          await Notification.requestPermission();
        } catch (_) {
          // Old Safari takes a callback instead; the state is read again below anyway.
        }
        this.render();
        const again = this.panel.querySelector('.turns-notify, .turns-notify-state');
        if (again) again.focus();
      });
      this.panel.append(b);
    } else {
      const p = document.createElement('p');
      p.className = 'turns-notify-state';
      p.tabIndex = -1;
      p.textContent = t(perm === 'granted' ? 'turns_notify_on' : 'turns_notify_denied');
      this.panel.append(p);
    }
  }
}
