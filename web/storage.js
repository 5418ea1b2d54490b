// What this browser remembers about its games in localStorage: the secret of each side it holds,
// the invitation while nobody has joined, and so the list of "my games".

const KEY = 'schach.games';

function readAll() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || '{}');
    return v && typeof v === 'object' ? v : {};
  } catch (_) {
    return {};
  }
}

function writeAll(all) {
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch (_) {
    // Private mode or full storage: the URL fragment still carries the secret.
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
