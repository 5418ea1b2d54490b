// What this browser remembers about its games in localStorage: the secret of each side it holds,
// the invitation while nobody has joined, and so the list of "my games". A game's address never
// carries a secret: the page reads a fragment with one once, keeps it here and shows the plain
// /g/ID (game-ctrl.js). Where localStorage cannot be used (some private modes, a full storage), the
// records are kept in memory: the page works until it is left.

const KEY = 'schach.games';

// The records while localStorage throws (null while it works).
let memory = null;

function readAll() {
  if (memory) return memory;
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || '{}');
    return v && typeof v === 'object' ? v : {};
  } catch (_) {
    // Unreadable (storage disabled): from now on in memory. A damaged record: start afresh.
    memory = {};
    return memory;
  }
}

function writeAll(all) {
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
    memory = null;
  } catch (_) {
    // Private mode or full storage: kept in memory until the page is left.
    memory = all;
  }
}

/** The record of game ID: {secrets: {white?, black?}, invite?, added} or null. */
export function gameRecord(id) {
  return readAll()[id] || null;
}

/** Merges PATCH into game ID's record (secrets are merged side by side). */
export function saveGame(id, patch) {
  const all = readAll();
  const old = all[id] || { secrets: {}, added: Date.now() };
  all[id] = { ...old, ...patch, secrets: { ...old.secrets, ...(patch.secrets || {}) } };
  writeAll(all);
}

/** The ids of the games played from this browser, newest first. */
export function myGameIds() {
  const all = readAll();
  return Object.keys(all).sort((a, b) => (all[b].added || 0) - (all[a].added || 0));
}

/** Where to open game ID after its secrets were saved: its plain address. Only while the records are
 *  kept in memory (no usable localStorage), which a new page does not see, do the secrets travel in
 *  the fragment; the game page reads that at once and takes it out of the address bar. */
export function gameAddress(id) {
  const path = `/g/${encodeURIComponent(id)}`;
  const s = memory && memory[id] ? memory[id].secrets : null;
  if (!s) return path;
  if (s.white && s.black) return `${path}#w=${encodeURIComponent(s.white)}&b=${encodeURIComponent(s.black)}`;
  const c = s.white ? 'white' : s.black ? 'black' : null;
  return c ? `${path}#s=${encodeURIComponent(s[c])}&c=${c}` : path;
}
