/* Time controls, variants and rating categories (timecontrol.h). */
#include "timecontrol.h"

#include <string.h>

static const char *const time_names[] = {"none", "live", "correspondence"};
static const char *const variant_names[] = {"standard", "chess960"};

/* The categories in RatingCategory's order: the time type of their games and, for live ones, the
 * estimated duration in seconds each stays below (0: none, the last live one). */
static const struct {
    const char *name;
    TimeType type;
    long below;
} categories[RATING_COUNT] = {
    {"bullet", TIME_LIVE, 3 * 60},
    {"blitz", TIME_LIVE, 8 * 60},
    {"rapid", TIME_LIVE, 25 * 60},
    {"classical", TIME_LIVE, 0},
    {"correspondence", TIME_CORRESPONDENCE, 0},
};

const char *time_type_name(TimeType type) {
    return type >= TIME_NONE && type <= TIME_CORRESPONDENCE ? time_names[type] : NULL;
}

bool time_type_of(const char *name, TimeType *out) {
    for (int i = TIME_NONE; name && i <= TIME_CORRESPONDENCE; i++)
        if (!strcmp(name, time_names[i])) {
            *out = (TimeType)i;
            return true;
        }
    return false;
}

const char *variant_name(Variant variant) {
    return variant >= VARIANT_STANDARD && variant <= VARIANT_CHESS960 ? variant_names[variant] : NULL;
}

bool variant_of(const char *name, Variant *out) {
    for (int i = VARIANT_STANDARD; name && i <= VARIANT_CHESS960; i++)
        if (!strcmp(name, variant_names[i])) {
            *out = (Variant)i;
            return true;
        }
    return false;
}

long time_control_seconds(const TimeControl *tc) {
    return (long)tc->minutes * TC_SECONDS_PER_MINUTE + (long)TC_SECONDS_PER_INCREMENT * tc->increment;
}

int rating_category(const TimeControl *tc, Variant variant) {
    (void)variant; /* Chess960 shares the standard categories (timecontrol.h) */
    if (!tc)
        return -1;
    if (tc->type == TIME_CORRESPONDENCE)
        return RATING_CORRESPONDENCE;
    if (tc->type != TIME_LIVE)
        return -1;
    long seconds = time_control_seconds(tc);
    for (int c = 0; c < RATING_COUNT; c++)
        if (categories[c].type == TIME_LIVE && (categories[c].below == 0 || seconds < categories[c].below))
            return c;
    return -1;
}

TimeType rating_category_time(int category) {
    return category >= 0 && category < RATING_COUNT ? categories[category].type : TIME_NONE;
}

long rating_category_below(int category) {
    return category >= 0 && category < RATING_COUNT ? categories[category].below : 0;
}

const char *rating_category_name(int category) {
    return category >= 0 && category < RATING_COUNT ? categories[category].name : NULL;
}

int rating_category_of(const char *name) {
    for (int i = 0; name && i < RATING_COUNT; i++)
        if (!strcmp(name, categories[i].name))
            return i;
    return -1;
}
