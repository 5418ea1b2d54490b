// What the analysis board and the board editor share around chessground: the keyboard and
// screen-reader grid of the game page (board-keys.js) with the page's own help text, the page's
// announcer, and the promotion chooser of the analysis board.
import { BoardKeys } from './board-keys.js';
import { t } from './i18n.js';
import './strings-analysis.js';

/** The game page's keyboard grid (BoardKeys) with the help text of key HELP_KEY. */
export class PageKeys extends BoardKeys {
  constructor(frame, cg, handlers, helpKey) {
    super(frame, cg, handlers);
    this.helpKey = helpKey;
    this.update();
  }

  update() {
    super.update();
    if (this.helpKey) this.help.textContent = t(this.helpKey);
  }
}

/** Says TEXT in the live region EL (the same text twice is still read: a no-break space toggles). */
export function sayIn(el, text) {
  if (!el) return;
  el.textContent = el.textContent === text ? text + '\u00a0' : text;
}

const ROLES = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' };

/** The promotion chooser BOX (an element with buttons data-role q/r/b/n and a .promotion-cancel):
 *  open(color, dest, orientation, onChoice) shows it over the promotion square's file; onChoice(role)
 *  gets 'q', 'r', 'b', 'n' or null (cancelled, also by Escape). */
export class PromotionChooser {
  constructor(box) {
    this.box = box;
    this.onChoice = null;
    for (const b of box.querySelectorAll('[data-role]')) b.addEventListener('click', () => this.choose(b.dataset.role));
    box.querySelector('.promotion-cancel').addEventListener('click', () => this.choose(null));
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        this.choose(null);
      }
    });
  }

  get open() {
    return !this.box.hidden;
  }

  show(color, dest, orientation, onChoice) {
    this.onChoice = onChoice;
    const white = orientation !== 'black';
    const col = white ? dest.charCodeAt(0) - 97 : 104 - dest.charCodeAt(0);
    const fromTop = white === (dest[1] === '8');
    this.box.style.left = `${col * 12.5}%`;
    this.box.style.top = fromTop ? '0' : 'auto';
    this.box.style.bottom = fromTop ? 'auto' : '0';
    this.box.classList.toggle('from-bottom', !fromTop);
    for (const b of this.box.querySelectorAll('[data-role]')) {
      const r = b.dataset.role;
      b.querySelector('piece').className = `${color} ${ROLES[r]}`;
      b.setAttribute('aria-label', t(`${ROLES[r]}_piece`));
      b.title = t(`${ROLES[r]}_piece`);
    }
    this.box.hidden = false;
    this.box.querySelector('[data-role="q"]').focus();
  }

  choose(role) {
    const f = this.onChoice;
    this.onChoice = null;
    this.box.hidden = true;
    if (f) f(role);
  }
}
