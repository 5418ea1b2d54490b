// The rating categories as the server decides them. GET /api/seeks and GET /api/players/NAME send
// them as `categories` (docs/api.md "Rating categories"): the names in their order and the rule, so
// the page never has a rule of its own.

/** The names of the categories in the server's order (bullet first), or [] without CATEGORIES. */
export const categoryNames = (categories) => (categories ? categories.list.map((c) => c.name) : []);

/** The name of the category a time control ({type, minutes, increment, days}) belongs to by the
 *  server's CATEGORIES, or null (no time control, or CATEGORIES not known yet). */
export function categoryOf(categories, time) {
  if (!categories || !time) return null;
  const { seconds, list } = categories;
  const estimate = time.type === 'live' ? seconds.minute * time.minutes + seconds.increment * (time.increment || 0) : 0;
  const found = list.find((c) => c.time === time.type && (c.below === null || estimate < c.below));
  return found ? found.name : null;
}
