// The pages' way to libschach's rules in WebAssembly (docs/wasm.md): /wasm/rules.js, loaded when a
// page first needs it, from where the server keeps it beside schach.wasm (not bundled into app.js:
// its Node.js branch is no part of the page). Every function answers as rules.js does, and null while
// the rules are not loaded or cannot be (no WebAssembly, the module missing).
const RULES_JS = '/wasm/rules.js';

let rules = null;
let loading = null;

/** Loads the rules once; resolves to whether they can be used. Never rejects. */
export function loadRules() {
  if (!loading) {
    const url = RULES_JS; // a variable: the bundler leaves this import to the browser
    loading = import(url)
      .then((m) => m.loadRules().then((ok) => (ok ? (rules = m) : null)))
      .then((m) => !!m)
      .catch(() => false);
  }
  return loading;
}

const call = (name) => (...a) => (rules ? rules[name](...a) : null);

export const gameState = call('gameState');
export const playMove = call('playMove');
export const validateFen = call('validateFen');
export const parsePgn = call('parsePgn');
export const writePgn = call('writePgn');
