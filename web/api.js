// HTTP calls to the schach server (docs/api.md). Every error becomes an ApiError carrying the
// server's code and its message in the page's language.
import { lang, t } from './i18n.js';

/** An error answer of the server, or a network failure (code "network"). */
export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** Sends METHOD PATH with the JSON BODY (if any); resolves with the answer's JSON, rejects with an
 *  ApiError. Page modules build their own calls on it. KEEPALIVE: the request outlives the page (a
 *  last request on pagehide). */
export async function request(method, path, body, { keepalive = false } = {}) {
  const sep = path.includes('?') ? '&' : '?';
  const url = `${path}${sep}lang=${lang()}`;
  let res;
  try {
    res = await fetch(url, {
      method,
      headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify({ ...body, lang: lang() }) : undefined,
      cache: 'no-store',
      keepalive,
    });
  } catch (_) {
    throw new ApiError('network', t('network_error'), 0);
  }
  let data = null;
  try {
    data = await res.json();
  } catch (_) {
    data = null;
  }
  if (!res.ok) {
    const err = data && data.error;
    throw new ApiError(err ? err.code : 'http_' + res.status, err ? err.message : `HTTP ${res.status}`, res.status);
  }
  return data;
}

/** POST /api/games: a new game; answers the create response. */
export const createGame = (body) => request('POST', '/api/games', body);
/** POST /api/games/ID/join with an invitation token. */
export const joinGame = (id, invite) => request('POST', `/api/games/${encodeURIComponent(id)}/join`, { invite });
/** GET /api/games/ID: the state. */
export const getGame = (id) => request('GET', `/api/games/${encodeURIComponent(id)}`);
/** POST /api/games/ID/ACTION (move, draw, claim, resign, abort) with BODY. */
export const gameAction = (id, action, body) => request('POST', `/api/games/${encodeURIComponent(id)}/${action}`, body);
/** GET /api/games?ids=…: summaries of the given games. */
export const listGames = (ids) => request('GET', `/api/games?ids=${ids.map(encodeURIComponent).join(',')}`);
/** GET /api/levels: the computer's levels with English and German names and Elo. */
export const getLevels = () => request('GET', '/api/levels');
/** GET /api/recent: summaries of recently finished games. */
export const recentGames = () => request('GET', '/api/recent');
/** The URL of a game's PGN in German or English letters. */
export const pgnUrl = (id, l) => `/api/games/${encodeURIComponent(id)}/pgn?lang=${l}`;
