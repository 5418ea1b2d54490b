/* Time controls and rating categories as the accounts' answers write them (accounts_internal.h). */
#include <jansson.h>

#include "accounts_internal.h"
#include "base/base.h"

json_t *accounts_time_json(const TimeControl *time) {
    const char *type = time_type_name(time->type);
    if (time->type == TIME_LIVE)
        return json_pack("{s:s,s:i,s:i}", "type", type, "minutes", time->minutes, "increment", time->increment);
    if (time->type == TIME_CORRESPONDENCE)
        return json_pack("{s:s,s:i}", "type", type, "days", time->days);
    return json_pack("{s:s}", "type", time_type_name(TIME_NONE));
}

/* {"seconds": {"minute", "increment"}, "list": [{"name", "time", "below", "variant"}...]} ("time" null:
 * any, the chess960 category): rating_category's rule
 * as data, so that the page names a time control's category without a rule of its own. */
json_t *accounts_categories_json(void) {
    json_t *list = json_array();
    for (int c = 0; c < RATING_COUNT; c++) {
        long below = rating_category_below(c);
        TimeType time = rating_category_time(c);
        json_array_append_new(list, json_pack("{s:s,s:o,s:o,s:s}", "name", rating_category_name(c), "time",
                                              time == TIME_NONE ? json_null() : json_string(time_type_name(time)),
                                              "below", below > 0 ? json_integer(below) : json_null(), "variant",
                                              variant_name(rating_category_variant(c))));
    }
    return json_pack("{s:{s:i,s:i},s:o}", "seconds", "minute", TC_SECONDS_PER_MINUTE, "increment",
                     TC_SECONDS_PER_INCREMENT, "list", list);
}
