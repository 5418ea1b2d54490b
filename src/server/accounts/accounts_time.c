/* Time controls as the accounts' answers write them (accounts_internal.h). */
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
