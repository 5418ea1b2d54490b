// A player's page (/@/<name>): the name and since when, the ratings per category with their history
// as a graph, the finished games (20 a page, filtered by result; the filter and page live in the
// address's query, so a view can be linked), and all games as one PGN file. Everything comes from
// GET /api/players/NAME (docs/api.md "Players"); the language switch re-renders what was read.
import { request } from './api.js';
import { categoryNames } from './categories.js';
import { ratingGraph, summarize } from './graph.js';
import { lang, outcomeText, t } from './i18n.js';
import './strings-player.js';
import { $, gamePath, show, showError, timeControlText } from './util.js';

// Every account's rating in a category begins here (Glicko-2's newcomer, src/server/base/glicko2.h).
const NEWCOMER_RATING = 1500;

const FILTERS = ['all', 'won', 'lost', 'drawn'];
const MINUS = '\u2212';

const shortDate = (ms) =>
  new Date(ms).toLocaleDateString(lang() === 'de' ? 'de-DE' : 'en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
const dateTime = (ms) =>
  new Date(ms).toLocaleString(lang() === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `${MINUS}${-n}` : '±0');
export const playerPath = (name) => `/@/${encodeURIComponent(name)}`;

function node(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') e.textContent = v;
    else if (k === 'class') e.className = v;
    else e.setAttribute(k, v === true ? '' : v);
  }
  e.append(...children.filter((c) => c !== null && c !== undefined));
  return e;
}

/** The view the address asks for: ?result=won&page=2 (pages counted from 1 in the address). */
function readQuery() {
  const q = new URLSearchParams(location.search);
  const filter = FILTERS.includes(q.get('result')) ? q.get('result') : 'all';
  const page = Math.max(1, Math.min(100000, parseInt(q.get('page'), 10) || 1));
  return { filter, page };
}

function writeQuery(view) {
  const q = new URLSearchParams();
  if (view.filter !== 'all') q.set('result', view.filter);
  if (view.page > 1) q.set('page', String(view.page));
  const s = q.toString();
  history.pushState(null, '', location.pathname + (s ? `?${s}` : ''));
}

/** A game of the list as the player sees it: their colour, the opponent, won/lost/drawn. */
function fromPlayer(g, me) {
  const key = me.toLowerCase();
  const color = g.white && g.white.toLowerCase() === key ? 'white' : 'black';
  const opponent = color === 'white' ? g.black : g.white;
  const winner = g.result === '1-0' ? 'white' : g.result === '0-1' ? 'black' : null;
  const outcome = winner === color ? 'won' : winner ? 'lost' : 'drawn';
  const diff = g.rated && g.ratings ? g.ratings[color].diff : null;
  return { color, opponent, outcome, winner, diff };
}

/** The ending in words, from a listed game (the same sentences as the game page). */
function endingText(g, winner) {
  // The side to move when it ended: the one whose flag fell (from the standard start).
  const state = { turn: g.moves % 2 ? 'black' : 'white', outcome: { result: g.result, termination: g.termination, winner, reason: null } };
  return outcomeText(state);
}

export function initPlayer(name) {
  const root = $('player-page');
  show(root, true);
  let data = null; // the last answer
  let missing = false;
  let view = readQuery();
  let loadSeq = 0;

  root.replaceChildren(node('p', { class: 'pl-loading', text: t('pl_loading') }));

  async function load() {
    const seq = ++loadSeq;
    const q = `page=${view.page - 1}${view.filter !== 'all' ? `&result=${view.filter}` : ''}`;
    try {
      const got = await request('GET', `/api/players/${encodeURIComponent(name)}?${q}`);
      if (seq !== loadSeq) return;
      data = got;
      missing = false;
    } catch (err) {
      if (seq !== loadSeq) return;
      if (err.status === 404 && err.code === 'not_found') {
        missing = true;
        data = null;
      } else {
        root.replaceChildren(node('p', { class: 'error', role: 'alert' }));
        showError(root.firstChild, err);
        return;
      }
    }
    render();
  }

  function setView(next) {
    view = next;
    writeQuery(view);
    load();
  }

  function renderMissing() {
    document.title = t('pl_not_found_title');
    root.replaceChildren(
      node('div', { class: 'card pl-missing' },
        node('h1', { text: t('pl_not_found_title') }),
        node('p', { text: t('pl_not_found', { name }) })));
  }

  function renderHead() {
    const pgn = (l) => `/api/players/${encodeURIComponent(data.username)}/pgn?lang=${l}`;
    return node('div', { class: 'card pl-head' },
      node('h1', { text: data.username }),
      node('p', { class: 'pl-since', text: t('pl_member_since', { date: shortDate(data.created) }) }),
      node('div', { class: 'pl-download', role: 'group', 'aria-labelledby': 'pl-download-label' },
        node('span', { id: 'pl-download-label', text: t('pl_download') }),
        node('a', { class: 'button', id: 'pl-pgn-en', href: pgn('en'), download: `schach-${data.username}-en.pgn`, text: t('pl_pgn_en') }),
        node('a', { class: 'button', id: 'pl-pgn-de', href: pgn('de'), download: `schach-${data.username}-de.pgn`, text: t('pl_pgn_de') })));
  }

  function renderRatings() {
    // In the server's order of categories (bullet first).
    const cats = categoryNames(data.categories).filter((c) => data.ratings[c]);
    const card = node('section', { class: 'card pl-ratings', 'aria-labelledby': 'pl-ratings-title' },
      node('h2', { id: 'pl-ratings-title', text: t('pl_ratings') }));
    if (!cats.length) {
      card.append(node('p', { text: t('pl_no_ratings') }));
      return card;
    }
    const head = node('tr', {},
      node('th', { scope: 'col', text: t('pl_category') }),
      node('th', { scope: 'col', text: t('pl_rating') }),
      node('th', { scope: 'col' }, node('abbr', { title: t('pl_rd_title'), text: t('pl_rd') })),
      node('th', { scope: 'col', text: t('pl_games_count') }));
    const body = node('tbody');
    let provisional = false;
    for (const c of cats) {
      const r = data.ratings[c];
      provisional ||= r.provisional;
      const shown = r.provisional
        ? node('span', { 'aria-label': t('pl_provisional_label', { rating: r.rating }) }, `${r.rating}`, node('span', { class: 'pl-q', 'aria-hidden': 'true', text: '?' }))
        : node('span', { text: String(r.rating) });
      body.append(node('tr', { 'data-category': c },
        node('th', { scope: 'row', text: t(`pl_cat_${c}`) }),
        node('td', { class: 'pl-rating' }, shown),
        node('td', { text: String(r.rd) }),
        node('td', { text: String(r.games) })));
    }
    card.append(node('table', { class: 'pl-table' }, node('thead', {}, head), body));
    if (provisional) card.append(node('p', { class: 'pl-note', text: t('pl_provisional_note') }));
    // The history of each category, one graph each.
    const graphs = node('div', { class: 'pl-graphs' });
    for (const c of cats) {
      const points = (data.history && data.history[c]) || [];
      if (!points.length) continue;
      const s = summarize(points);
      const category = t(`pl_cat_${c}`);
      // The whole history is here: it began at a newcomer's rating when the account was made.
      const start = data.ratings[c] && data.ratings[c].games === points.length ? [data.created, NEWCOMER_RATING] : null;
      const label = s.count === 1
        ? t('pl_graph_label_one', { category, last: s.last, first: start ? start[1] : '?' })
        : t('pl_graph_label', { category, n: s.count, first: s.first, last: s.last, min: s.min, max: s.max });
      const svg = ratingGraph(points, {
        start,
        title: t('pl_graph_title', { category }),
        label,
        // A history of hours only: the times tell the two ends apart.
        date: points[points.length - 1][0] - points[0][0] < 2 * 86400000 ? dateTime : shortDate,
        pointTitle: (ms, r) => t('pl_point', { date: dateTime(ms), rating: r }),
      });
      svg.dataset.category = c;
      graphs.append(node('figure', { class: 'pl-graph' }, node('figcaption', { text: category }), svg));
    }
    if (graphs.childElementCount)
      card.append(node('h3', { text: t('pl_history') }), graphs);
    return card;
  }

  function renderGames() {
    const card = node('section', { class: 'card pl-games', 'aria-labelledby': 'pl-games-title' },
      node('h2', { id: 'pl-games-title', text: t('pl_games') }));
    const filters = node('div', { class: 'pl-filter', role: 'group', 'aria-label': t('pl_filter') });
    for (const f of FILTERS) {
      const b = node('button', { type: 'button', 'data-filter': f, 'aria-pressed': String(view.filter === f), text: t(`pl_filter_${f}`) });
      b.addEventListener('click', () => {
        if (view.filter !== f) setView({ filter: f, page: 1 });
      });
      filters.append(b);
    }
    card.append(filters);
    if (!data.games.length) {
      card.append(node('p', { class: 'pl-empty', text: t('pl_no_games') }));
    } else {
      const list = node('ul', { class: 'pl-list' });
      for (const g of data.games) {
        const p = fromPlayer(g, data.username);
        const opponent = p.opponent
          ? node('a', { href: playerPath(p.opponent), class: 'pl-opponent', text: p.opponent })
          : node('span', { class: 'pl-opponent', text: t('pl_anonymous') });
        const rated = g.rated
          ? node('span', { class: 'pl-rated' }, `${t('pl_rated')} `, node('span', { class: `pl-diff ${p.diff > 0 ? 'up' : p.diff < 0 ? 'down' : ''}`, text: p.diff === null ? '' : signed(p.diff) }))
          : node('span', { class: 'pl-rated', text: t('pl_casual') });
        list.append(node('li', { class: 'pl-game', 'data-id': g.id, 'data-outcome': p.outcome },
          node('span', { class: `pl-outcome ${p.outcome}`, text: t(`pl_${p.outcome}`) }),
          node('span', { class: 'pl-vs' }, `${t('pl_vs')} `, opponent, ` ${t(p.color === 'white' ? 'pl_as_white' : 'pl_as_black')}`),
          node('span', { class: 'pl-ending', text: endingText(g, p.winner) }),
          node('span', { class: 'pl-meta' },
            node('time', { datetime: new Date(g.ended).toISOString(), text: shortDate(g.ended) }),
            ` · ${timeControlText(g.time)} · `, rated),
          // Visible: "View game"; read out: which one (the rest is there for screen readers only).
          node('a', { class: 'pl-open', href: gamePath(g.id) }, t('pl_view_game'),
            node('span', { class: 'visually-hidden', text: t('pl_view_game_more', { date: shortDate(g.ended), opponent: p.opponent || t('pl_anonymous') }) }))));
      }
      card.append(list);
    }
    const nav = node('nav', { class: 'pl-pages', 'aria-label': t('pl_pages') });
    const prev = node('button', { type: 'button', id: 'pl-prev', text: t('pl_prev'), disabled: view.page <= 1 });
    const next = node('button', { type: 'button', id: 'pl-next', text: t('pl_next'), disabled: !data.more });
    prev.addEventListener('click', () => setView({ ...view, page: view.page - 1 }));
    next.addEventListener('click', () => setView({ ...view, page: view.page + 1 }));
    nav.append(prev, node('span', { class: 'pl-page', 'aria-live': 'polite', text: t('pl_page', { n: view.page }) }), next);
    card.append(nav);
    return card;
  }

  function render() {
    if (missing) return renderMissing();
    if (!data) return undefined;
    document.title = t('pl_title', { name: data.username });
    // Keep the focus where it was (a filter or page button) across the re-render.
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement : null;
    const key = focused && (focused.id || (focused.dataset.filter && `filter:${focused.dataset.filter}`));
    root.replaceChildren(renderHead(), renderRatings(), renderGames());
    if (key) {
      const again = key.startsWith('filter:') ? root.querySelector(`[data-filter="${key.slice(7)}"]`) : $(key);
      if (again && !again.disabled) again.focus();
    }
    return undefined;
  }

  window.addEventListener('popstate', () => {
    view = readQuery();
    load();
  });
  load();
  return {
    relabel() {
      if (missing || data) render();
    },
  };
}
