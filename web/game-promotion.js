// The game page's promotion chooser (#promotion, game-ctrl.js): a pawn moved onto the last rank waits
// on its target square while the chooser offers the piece to promote to; Escape or the small cancel
// button takes the move back.
import { t } from './i18n.js';
import { $, show } from './util.js';

const PROMOTION_ROLES = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' };

/** The chooser's buttons, its cancel button and Escape. */
export function bindPromotion(ctrl) {
  for (const b of document.querySelectorAll('#promotion [data-role]'))
    b.addEventListener('click', () => choosePromotion(ctrl, b.dataset.role));
  document.querySelector('#promotion .promotion-cancel').addEventListener('click', () => choosePromotion(ctrl, null));
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && ctrl.pendingPromotion) choosePromotion(ctrl, null);
  });
}

/** The chooser opens over the promotion square's file: the queen on the promotion square, then
 *  rook, bishop and knight towards the board's middle, and a small cancel button after them. */
export function openPromotion(ctrl, orig, dest) {
  ctrl.pendingPromotion = orig + dest;
  const color = ctrl.state.turn;
  const white = (ctrl.orientation || 'white') === 'white';
  const col = white ? dest.charCodeAt(0) - 97 : 104 - dest.charCodeAt(0);
  const fromTop = white === (dest[1] === '8');
  const box = $('promotion');
  box.style.left = `${col * 12.5}%`;
  box.style.top = fromTop ? '0' : 'auto';
  box.style.bottom = fromTop ? 'auto' : '0';
  box.classList.toggle('from-bottom', !fromTop);
  for (const b of document.querySelectorAll('#promotion [data-role]')) {
    const r = b.dataset.role;
    b.querySelector('piece').className = `${color} ${PROMOTION_ROLES[r]}`;
    b.setAttribute('aria-label', t(PROMOTION_ROLES[r]));
    b.title = t(PROMOTION_ROLES[r]);
  }
  show(box, true);
  ctrl.promotionFromKeys = !!ctrl.byKey;
  ctrl.byKey = false;
  document.querySelector('#promotion [data-role="q"]').focus();
}

export function closePromotion(ctrl) {
  ctrl.pendingPromotion = null;
  show($('promotion'), false);
}

/** ROLE ("q", "r", "b", "n") promotes; null cancels (the pawn goes back). */
export function choosePromotion(ctrl, role) {
  const uci = ctrl.pendingPromotion;
  closePromotion(ctrl);
  // Chosen with the keyboard: the focus goes back to the board, where it came from.
  if (ctrl.promotionFromKeys) ctrl.keys.focus();
  ctrl.promotionFromKeys = false;
  if (!uci || !role) return ctrl.render(); // cancelled: the pawn goes back
  if (!ctrl.canMove()) return ctrl.render();
  ctrl.sendMove(uci + role, true);
}
