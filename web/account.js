// The account page (/account): to be built (issue 13).
import { $, show } from './util.js';

export function initAccount() {
  show($('account-page'), true);
  return { relabel() {} };
}
