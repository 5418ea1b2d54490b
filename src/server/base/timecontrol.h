/* Time controls and variants of the server's games (issue 20), and the rating categories they make:
 * one type shared by the game record, the lobby's seeks, the rating queries and the games a player is
 * in. The store keeps the type as text ("none", "live", "correspondence": time_type_name) and the
 * numbers in columns of their own, so the names below are also those of the database and the JSON API.
 * The category of a game is decided here and nowhere else (rating_category); the web page is told the
 * categories by the server (docs/api.md "Rating categories"). */
#ifndef SCHACH_SERVER_TIMECONTROL_H
#define SCHACH_SERVER_TIMECONTROL_H

#include <stdbool.h>

typedef enum { TIME_NONE, TIME_LIVE, TIME_CORRESPONDENCE } TimeType;

/* A game's time control: live (minutes for the game, increment seconds a move), correspondence
 * (days a move) or none. Only the type's own numbers mean anything; the others are 0. */
typedef struct TimeControl {
    TimeType type;
    int minutes, increment, days;
} TimeControl;

/* Standard chess, or Chess960 (a start array other than the standard one: docs/chess960.md). */
typedef enum { VARIANT_STANDARD, VARIANT_CHESS960 } Variant;

/* "none", "live", "correspondence"; NULL for anything else. */
const char *time_type_name(TimeType type);
/* The type of a name into *out; false (*out untouched) for NULL or any other text. */
bool time_type_of(const char *name, TimeType *out);
/* "standard", "chess960"; NULL for anything else. */
const char *variant_name(Variant variant);
/* The variant of a name into *out; false (*out untouched) for NULL or any other text. */
bool variant_of(const char *name, Variant *out);

typedef enum {
    RATING_BULLET,
    RATING_BLITZ,
    RATING_RAPID,
    RATING_CLASSICAL,
    RATING_CORRESPONDENCE,
    RATING_CHESS960, /* every rated Chess960 game, whatever its time control (as on lichess) */
    RATING_COUNT
} RatingCategory;

/* A Chess960 game with a time control is in the category chess960, whatever the control. A standard
 * live game by its estimated duration, minutes × TC_SECONDS_PER_MINUTE + TC_SECONDS_PER_INCREMENT ×
 * increment seconds (lichess's rule: forty moves' increments): bullet below 3 minutes, blitz below 8,
 * rapid below 25, classical from there; correspondence games are their own category. -1 for a game
 * without a time control (never rated). */
int rating_category(const TimeControl *tc, Variant variant);
#define TC_SECONDS_PER_MINUTE    60
#define TC_SECONDS_PER_INCREMENT 40
/* The estimated duration of a live control in seconds (as rating_category reckons it). */
long time_control_seconds(const TimeControl *tc);
/* The rule of rating_category as data, for whoever shows categories (the web page): the time type of
 * a category's games (TIME_NONE for chess960: any), for a live one the estimated duration it stays
 * below (0: no bound, the longest), and the variant of its games. The categories are in the order of
 * RatingCategory: bullet, blitz, ... correspondence, chess960. */
TimeType rating_category_time(int category);
Variant rating_category_variant(int category);
long rating_category_below(int category);
/* "bullet", "blitz", "rapid", "classical", "correspondence", "chess960"; NULL for anything else. */
const char *rating_category_name(int category);
/* The category of a name, or -1. */
int rating_category_of(const char *name);

#endif
