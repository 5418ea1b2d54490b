// A player's page (/@/<name>): to be built (issue 13).
import { $, show } from './util.js';

export function initPlayer(name) {
  show($('player-page'), true);
  $('player-page').textContent = name;
  return { relabel() {} };
}
