// The home page (/): what the site is, three doors — play someone now (the lobby: quick pairing and
// open challenges, lobby.js), play a friend (an invitation link, or both sides on this screen), play the
// computer — each opening its part (the lobby, or the one new-game form set up for the door), and the
// lists of this browser's and recently finished games. /#friend and /#computer open those doors.
import * as api from './api.js';
import { colorName, lang, levelName, outcomeText, t } from './i18n.js';
import './strings-analysis.js';
import { loadRules, validateFen } from './analysis-rules.js';
import { loadMyGames, renderGameList } from './game-list.js';
import { mountLobby } from './lobby.js';
import { gameAddress, gameRecord, myGameIds, saveGame } from './storage.js';
import { $, formatDate, gamePath, show, showError, timeControlText } from './util.js';

// The computer's levels from GET /api/levels ({id, name, name_de, elo}), loaded once per page.
let levelsPromise = null;
function loadLevels() {
  if (!levelsPromise) levelsPromise = api.getLevels().then((r) => r.levels || []);
  return levelsPromise;
}
let knownLevels = [];

// ---------------------------------------------------------------------------------------------
// Game lists (home page): game-list.js

async function loadLists() {
  knownLevels = await loadLevels().catch(() => []);
  const mine = $('my-games');
  const recent = $('recent-games');
  loadMyGames(mine, knownLevels); // this browser's games and the account's (game-list.js)
  recent.textContent = t('loading');
  api.recentGames().then(
    (r) => renderGameList(recent, r.games || [], knownLevels),
    (e) => showError(recent, e),
  );
}

// ---------------------------------------------------------------------------------------------
// New-game page

const DOORS = ['now', 'friend', 'computer'];

export function initHome() {
  show($('home-page'), true);
  document.title = t('app_title');
  const form = $('new-game');
  // The open door: "now" shows the lobby, "friend" and "computer" the form set up for them.
  let door = DOORS.includes(location.hash.slice(1)) ? location.hash.slice(1) : 'now';
  const modeOf = () => (door === 'computer' ? 'computer' : form.elements.mode.value);
  const syncForm = () => {
    const mode = modeOf();
    const time = form.elements.time.value;
    show($('friend-where'), door === 'friend');
    show($('color-field'), mode === 'friend' || mode === 'computer');
    show($('level-options'), mode === 'computer');
    show($('corr-options'), time === 'correspondence');
    show($('live-options'), time === 'live');
  };
  const openDoor = (d) => {
    door = d;
    for (const b of document.querySelectorAll('#home-page .door')) b.setAttribute('aria-pressed', String(b.dataset.door === d));
    show($('lobby-area'), d === 'now');
    show(form, d !== 'now');
    $('new-game-title').textContent = d === 'now' ? '' : t(`form_${d}`);
    showError($('home-error'), null);
    syncForm();
  };
  for (const b of document.querySelectorAll('#home-page .door')) {
    b.addEventListener('click', () => {
      openDoor(b.dataset.door);
      history.replaceState(null, '', b.dataset.door === 'now' ? location.pathname + location.search : `#${b.dataset.door}`);
    });
  }
  // The level picker: the server's levels, named in the page's language; a club player to begin with.
  const fillLevels = () =>
    loadLevels().then(
      (levels) => {
        const select = $('level');
        const chosen = select.value || 'club';
        select.textContent = '';
        for (const l of levels) {
          const o = document.createElement('option');
          o.value = l.id;
          o.textContent = l.elo ? t('level_elo', { name: levelName(l), elo: l.elo }) : levelName(l);
          select.append(o);
        }
        if (levels.some((l) => l.id === chosen)) select.value = chosen;
      },
      () => showError($('home-error'), new Error(t('levels_error'))),
    );
  fillLevels();
  form.addEventListener('change', syncForm);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const f = form.elements;
    const timeType = f.time.value;
    const time =
      timeType === 'live'
        ? { type: 'live', minutes: Number(f.minutes.value), increment: Number(f.increment.value) }
        : timeType === 'correspondence'
          ? { type: 'correspondence', days: Number(f.days.value) }
          : { type: 'none' };
    const mode = modeOf();
    const body = { mode, color: mode === 'local' ? 'white' : f.color.value, time };
    if (mode === 'computer') body.level = f.level.value;
    if (f.variant.value === 'chess960') body.variant = 'chess960'; // a start position drawn by the server
    // A start position: checked here by libschach (WebAssembly) for the reason in the page's
    // language; without WebAssembly the server checks it and says why.
    const fen = f.fen.value.trim();
    if (fen) {
      const v = (await loadRules()) ? validateFen(fen) : null;
      if (v && !v.ok) {
        showError($('home-error'), new Error(t('home_fen_bad', { reason: lang() === 'de' ? v.error.de : v.error.en })));
        f.fen.focus();
        return;
      }
      body.fen = v ? v.fen : fen;
    }
    $('create').disabled = true;
    try {
      const r = await api.createGame(body);
      if (mode === 'local' && r.secrets) {
        saveGame(r.id, { secrets: { white: r.secrets.white, black: r.secrets.black } });
      } else {
        saveGame(r.id, { secrets: { [r.color]: r.secret }, invite: r.invite || null });
      }
      // The secrets are in storage: the game's plain address, no secret in the address bar.
      location.assign(gameAddress(r.id));
    } catch (e) {
      showError($('home-error'), e);
      $('create').disabled = false;
    }
  });
  loadLists();
  // The lobby behind the first door (lobby.js).
  const lobby = mountLobby($('lobby-area'));
  openDoor(door);
  return {
    relabel: () => {
      lobby.relabel();
      $('new-game-title').textContent = door === 'now' ? '' : t(`form_${door}`);
      fillLevels();
      loadLists();
    },
  };
}
