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
    {"chess960", TIME_NONE, 0},
};

const char *time_type_name(TimeType type) {
    return type >= TIME_NONE && type <= TIME_CORRESPONDENCE ? time_names[type] : NULL;
}

/* The index of name among count names, or -1 (also for NULL). */
static int index_of(const char *name, const char *const *names, int count) {
    for (int i = 0; name && i < count; i++)
        if (!strcmp(name, names[i]))
            return i;
    return -1;
}

bool time_type_of(const char *name, TimeType *out) {
    int i = index_of(name, time_names, TIME_CORRESPONDENCE + 1);
    if (i < 0)
        return false;
    *out = (TimeType)i;
    return true;
}

const char *variant_name(Variant variant) {
    return variant >= VARIANT_STANDARD && variant <= VARIANT_CHESS960 ? variant_names[variant] : NULL;
}

bool variant_of(const char *name, Variant *out) {
    int i = index_of(name, variant_names, VARIANT_CHESS960 + 1);
    if (i < 0)
        return false;
    *out = (Variant)i;
    return true;
}

long time_control_seconds(const TimeControl *tc) {
    return (long)tc->minutes * TC_SECONDS_PER_MINUTE + (long)TC_SECONDS_PER_INCREMENT * tc->increment;
}

int rating_category(const TimeControl *tc, Variant variant) {
    if (!tc)
        return -1;
    if (variant == VARIANT_CHESS960)
        return tc->type == TIME_LIVE || tc->type == TIME_CORRESPONDENCE ? RATING_CHESS960 : -1;
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

Variant rating_category_variant(int category) {
    return category == RATING_CHESS960 ? VARIANT_CHESS960 : VARIANT_STANDARD;
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
