// The home page's game lists ("My games", "Recently finished"): who played each game (an account's
// name, "Anonymous", the computer with its level), the ratings of a rated game ("?" when provisional)
// and the result, and a link whose text names the game for a screen reader as for anyone:
// "Game against Bodo (1620), 27 Nov 2026, won" (issue 24, defect 5). The names and ratings come from
// the summaries' "accounts" (GET /api/games?ids=…, GET /api/recent).
import './strings-account.js';
import { colorName, lang, levelName, t } from './i18n.js';
import { listGames } from './api.js';
import { whoami } from './header.js';
import { gameRecord, myGameIds } from './storage.js';
import { gamePath, showError, timeControlText } from './util.js';

/** The day a game began: "27 Nov 2026" / "27. Nov. 2026". */
export function shortDate(ms) {
  return new Date(ms).toLocaleDateString(lang() === 'de' ? 'de-DE' : 'en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
}

/** Who plays COLOR in summary G: the account's name with its rating in a rated game, the computer with
 *  its level, "Anonymous", or nobody yet (an invitation nobody took). */
export function sideName(g, color, levels = []) {
  const acc = g.accounts && g.accounts[color];
  if (acc && acc.name) {
    if (acc.rating === null || acc.rating === undefined) return acc.name;
    return `${acc.name} (${acc.rating}${acc.provisional ? '?' : ''})`;
  }
  if (g.mode === 'computer' && !g[color]) {
    const level = levels.find((l) => l.id === g.level);
    return t('gl_computer', { level: level ? levelName(level) : g.level || '?' });
  }
  if (!g[color]) return t('gl_nobody');
  return t('gl_anonymous');
}

/** The result as seen by MINE ('white', 'black' or null for an onlooker). */
export function resultText(g, mine) {
  const o = g.outcome;
  if (!o) return t('gl_running');
  if (o.result === '*') return t('gl_aborted');
  if (mine) {
    if (!o.winner) return t('gl_drawn');
    return t(o.winner === mine ? 'gl_won' : 'gl_lost');
  }
  return o.result === '1/2-1/2' ? '½–½' : o.result.replace('-', '–');
}

export function renderGameList(container, games, levels = [], emptyKey = 'no_games', username = null) {
  container.textContent = '';
  if (!games.length) {
    const p = document.createElement('p');
    p.textContent = t(emptyKey);
    container.append(p);
    return;
  }
  const ul = document.createElement('ul');
  for (const g of games) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    const rec = gameRecord(g.id);
    const held = rec ? Object.keys(rec.secrets).filter((c) => rec.secrets[c]) : [];
    // The side this browser holds, else the logged-in account's.
    const byAccount = username && g.accounts ? ['white', 'black'].filter((c) => g.accounts[c] && g.accounts[c].name === username) : [];
    const mine = held.length === 1 ? held[0] : byAccount.length === 1 ? byAccount[0] : null;
    // The plain address: the game page finds this browser's secrets in its storage.
    a.href = gamePath(g.id);
    const date = shortDate(g.created);
    const result = resultText(g, mine);
    a.textContent = g.mode === 'local'
      ? t('gl_local', { date, result })
      : mine
      ? t('gl_against', { name: sideName(g, mine === 'white' ? 'black' : 'white', levels), date, result })
      : t('gl_between', { white: sideName(g, 'white', levels), black: sideName(g, 'black', levels), date, result });
    const info = document.createElement('span');
    const parts = [
      ...(mine ? [t('gl_you_play', { color: colorName(mine) })] : []),
      ...(g.variant === 'chess960' ? [t('variant_chess960_short')] : []),
      ...(g.accounts && g.accounts.white && g.accounts.white.rating != null ? [t('gl_rated')] : []),
      timeControlText(g.time),
      t(g.moves === 1 ? 'moves_count_one' : 'moves_count', { n: g.moves }),
    ];
    info.textContent = ' – ' + parts.join(' · ');
    li.append(a, info);
    ul.append(li);
  }
  container.append(ul);
}

/** "My games": this browser's games and, logged in, the account's games in play (GET /api/me), which
 *  are the player's wherever they were started (issue 24). */
export async function loadMyGames(container, levels = []) {
  const me = await whoami().catch(() => null);
  const username = me ? me.username : null;
  const ids = [...new Set([...((me && me.playing) || []).map((g) => g.id), ...myGameIds()])].slice(0, 50);
  if (!ids.length) {
    renderGameList(container, [], levels, 'no_games', username);
    return;
  }
  container.textContent = t('loading');
  try {
    const r = await listGames(ids);
    const games = (r.games || []).sort((a, b) => b.created - a.created);
    renderGameList(container, games, levels, 'no_games', username);
  } catch (e) {
    showError(container, e);
  }
}
