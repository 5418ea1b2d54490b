/* Placeholder until the match runner lands; delete when src/match has real sources. */
typedef int match_placeholder_t;
