// The game page's takebacks (docs/api.md "Takebacks"): in a casual game between two players, "Ask to
// take back" asks the opponent to take back this side's last move (and their reply, when they replied);
// the opponent sees the request with Accept and Decline. game-view.js calls renderTakeback whenever it
// draws a state; the buttons live beside the draw offer's (#controls), made here.
import { colorName, t } from './i18n.js';
import { $, other, show } from './util.js';

/** The color that last moved in state S (the side not to move), or null before the first move. */
const lastMover = (s) => (s.ply > 0 ? other(s.turn) : null);

/** Whether COLOR has a move to take back in state S. */
const hasMove = (s, color) => s.ply >= 2 || (s.ply === 1 && lastMover(s) === color);

/** Whether state S, after the state CUR shown, is the game after CUR's takeback request was accepted:
 *  fewer plies, the request gone, the game going on. */
export const isTakeback = (cur, s) =>
  !!cur && !!s && !!cur.takeback_offer && !s.takeback_offer && s.ply < cur.ply && !s.outcome && !cur.outcome;

/** Makes the takeback's buttons (once) and binds them to the page's actions. */
export function bindTakeback(ctrl) {
  const box = $('controls');
  if (!box || $('takeback-offer')) return;
  const button = (id, onClick) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.id = id;
    b.hidden = true;
    b.addEventListener('click', onClick);
    return b;
  };
  const text = document.createElement('span');
  text.id = 'takeback-text';
  text.hidden = true;
  const anchor = $('claim-threefold');
  for (const el of [
    button('takeback-offer', () => ctrl.action('takeback', asker(ctrl), { action: 'offer' })),
    text,
    button('takeback-accept', () =>
      ctrl.action('takeback', other(ctrl.state.takeback_offer), { action: 'accept' }),
    ),
    button('takeback-decline', () =>
      ctrl.action('takeback', other(ctrl.state.takeback_offer), { action: 'decline' }),
    ),
  ])
    box.insertBefore(el, anchor);
}

/** The side this page asks for: the one it holds, or in a local game (both held) the one that moved last. */
function asker(ctrl) {
  const held = ctrl.held();
  return held.length === 2 ? lastMover(ctrl.state) || ctrl.state.turn : held[0];
}

/** Shows the takeback's buttons and words for the page's state. */
export function renderTakeback(ctrl) {
  if (!$('takeback-offer')) bindTakeback(ctrl);
  const s = ctrl.state;
  const held = ctrl.held();
  const taken = (c) => !s.players || s.players[c];
  const casual = !s.outcome && !s.rated && !s.computer && held.length > 0 && taken('white') && taken('black');
  const offer = casual ? s.takeback_offer : null;
  const me = held.length ? asker(ctrl) : null;
  show($('takeback-offer'), casual && !offer && !!me && hasMove(s, me));
  $('takeback-offer').textContent = t('takeback_offer');
  const canAnswer = !!offer && !!ctrl.secrets[other(offer)];
  show($('takeback-accept'), canAnswer);
  show($('takeback-decline'), canAnswer);
  $('takeback-accept').textContent = t('takeback_accept');
  $('takeback-decline').textContent = t('takeback_decline');
  const words = !offer ? '' : ctrl.secrets[offer] && held.length === 1 ? t('takeback_asked') : t('takeback_offered_by', { color: colorName(offer) });
  $('takeback-text').textContent = words;
  show($('takeback-text'), !!offer);
}
