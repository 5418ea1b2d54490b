// The browser UI of schach serve. No framework: the page's HTML is static (index.html holds every
// page's section), and the module of the page the address names fills it from the server's state.
// Routes: / (home), /g/<id> (a game), /@/<name> (a player), /account (sign up, log in, password),
// /analysis (the analysis board) and /editor (the board editor).
import { GamePage } from './game-ctrl.js';
import { initHeader } from './header.js';
import { initHome } from './home.js';
import { lang, setLang, translateDom } from './i18n.js';
import './strings-analysis.js'; // the header's links to the analysis board and the editor
import { $, copyFrom } from './util.js';

/** The page module for the address: an object with relabel() (called after a language switch). */
async function route() {
  const path = location.pathname;
  let m = path.match(/^\/g\/([A-Za-z0-9_-]+)\/?$/);
  if (m) {
    const page = new GamePage(m[1]);
    page.start();
    return page;
  }
  m = path.match(/^\/@\/([^/]+)\/?$/);
  if (m) {
    const { initPlayer } = await import('./player.js');
    return initPlayer(decodeURIComponent(m[1]));
  }
  if (path === '/analysis' || path === '/analysis/') {
    const { initAnalysis } = await import('./analysis.js');
    return initAnalysis();
  }
  if (path === '/editor' || path === '/editor/') {
    const { initEditor } = await import('./editor.js');
    return initEditor();
  }
  if (path === '/account' || path === '/account/') {
    const { initAccount } = await import('./account.js');
    return initAccount();
  }
  return initHome();
}

async function main() {
  translateDom();
  for (const b of document.querySelectorAll('[data-copy]')) b.addEventListener('click', () => copyFrom($(b.dataset.copy), b));
  // The header's account part and "your turn" (header.js) on every page.
  const header = initHeader();
  const page = await route();
  // For debugging in the console and for the browser tests (which close the socket on purpose).
  window.schachPage = page;
  $('lang-switch').addEventListener('click', () => {
    setLang(lang() === 'de' ? 'en' : 'de');
    translateDom();
    header.relabel();
    if (page && page.relabel) page.relabel();
  });
}

main();
