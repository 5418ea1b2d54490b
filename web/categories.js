// The rating categories as the server decides them. GET /api/seeks and GET /api/players/NAME send
// them as `categories` (docs/api.md "Rating categories"): the names in their order and the rule, so
// the page never has a rule of its own.

/** The names of the categories in the server's order (bullet first), or [] without CATEGORIES. */
export const categoryNames = (categories) => (categories ? categories.list.map((c) => c.name) : []);

/** The name of the category a time control ({type, minutes, increment, days}) of VARIANT ('standard'
 *  or 'chess960') belongs to by the server's CATEGORIES, or null (no time control, or CATEGORIES not
 *  known yet). A category of time null takes every time control of its variant (chess960). */
export function categoryOf(categories, time, variant = 'standard') {
  if (!categories || !time || (time.type !== 'live' && time.type !== 'correspondence')) return null;
  const { seconds, list } = categories;
  const estimate = time.type === 'live' ? seconds.minute * time.minutes + seconds.increment * (time.increment || 0) : 0;
  const found = list.find((c) => (c.variant || 'standard') === variant &&
    (c.time === null || (c.time === time.type && (c.below === null || estimate < c.below))));
  return found ? found.name : null;
}
