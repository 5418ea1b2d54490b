/* schach play: reading standard input - a line at a time, echoed in script mode - and turning the text
 * of a move into a legal move, asking which piece a pawn becomes when the text does not say. Apart
 * from the commands, which use it for moves typed alone and for 'claim MOVE'.
 */
#define _POSIX_C_SOURCE 200809L /* getline */

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "cli.h"
#include "play.h"
#include "schach/explain.h"
#include "schach/game.h"

static char *trim(char *s) {
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

char *play_read_line(Play *p, const char *prompt) {
    fputs(prompt, stdout);
    fflush(stdout);
    ssize_t n = getline(&p->line, &p->line_cap, stdin);
    if (n < 0) {
        putchar('\n');
        return NULL;
    }
    char *text = trim(p->line);
    if (p->script)
        printf("%s\n", text);
    return text;
}

void play_lowercase(char *s) {
    for (unsigned char *u = (unsigned char *)s; *u; u++) {
        if (u[0] == 0xC3 && (u[1] == 0x84 || u[1] == 0x96 || u[1] == 0x9C)) {
            u[1] = (unsigned char)(u[1] + 0x20);
            u++;
        } else {
            *u = (unsigned char)tolower(*u);
        }
    }
}

const char *play_skip_move_number(const char *text) {
    const char *s = text;
    while (isdigit((unsigned char)*s))
        s++;
    if (s == text || *s != '.')
        return text;
    while (*s == '.')
        s++;
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

bool play_looks_like_move(const char *word) {
    if (!strncmp(word, "0-0", 3) ||
        ((word[0] == 'o' || word[0] == 'O') && word[1] == '-' && (word[2] == 'o' || word[2] == 'O')))
        return true;
    for (const char *s = word; s[0] && s[1]; s++)
        if (s[0] >= 'a' && s[0] <= 'h' && s[1] >= '1' && s[1] <= '8')
            return true;
    return false;
}

/* A legal promotion to a queen with the squares of text, which lacked the piece; SCH_MOVE_NONE if none. */
static SchMove promotion_candidate(const SchGame *g, const char *text) {
    char base[64];
    snprintf(base, sizeof base, "%s", text);
    size_t n = strlen(base);
    while (n > 0 && strchr("+#!? ", base[n - 1]))
        base[--n] = '\0';
    static const char *const forms[] = {"%s=Q", "%sq", "%sQ"};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        char tried[80];
        snprintf(tried, sizeof tried, forms[i], base);
        SchError err;
        sch_err_clear(&err);
        SchMove m = sch_game_parse_move(g, tried, SCH_LANG_EN, &err);
        if (m != SCH_MOVE_NONE && sch_move_kind(m) == SCH_MOVE_PROMOTION)
            return m;
    }
    return SCH_MOVE_NONE;
}

/* The piece an answer names: a letter of either language ("D", "Q", "=Q") or a word ("Dame", "rook"). */
static SchPieceType parse_promotion_piece(const char *answer) {
    char word[32];
    snprintf(word, sizeof word, "%s", answer[0] == '=' ? answer + 1 : answer);
    play_lowercase(word);
    if (word[0] && !word[1]) {
        switch (word[0]) {
            case 'q':
            case 'd': return SCH_QUEEN;
            case 'r':
            case 't': return SCH_ROOK;
            case 'b':
            case 'l': return SCH_BISHOP;
            case 'n':
            case 's': return SCH_KNIGHT;
            default: return SCH_PIECE_TYPE_NB;
        }
    }
    static const struct {
        const char *word;
        SchPieceType type;
    } words[] = {{"queen", SCH_QUEEN},   {"dame", SCH_QUEEN},      {"rook", SCH_ROOK},      {"turm", SCH_ROOK},
                 {"bishop", SCH_BISHOP}, {"läufer", SCH_BISHOP},   {"laeufer", SCH_BISHOP}, {"laufer", SCH_BISHOP},
                 {"knight", SCH_KNIGHT}, {"springer", SCH_KNIGHT}, {"pferd", SCH_KNIGHT}};
    size_t len = strlen(word);
    for (size_t i = 0; len >= 2 && i < sizeof words / sizeof words[0]; i++)
        if (!strncmp(words[i].word, word, len))
            return words[i].type;
    return SCH_PIECE_TYPE_NB;
}

/* Asks which piece the pawn of queen_move becomes. */
static int ask_promotion(Play *p, SchMove queen_move, SchMove *out) {
    SchLang lang = p->lang;
    for (;;) {
        char *answer = play_read_line(p, CLI_TR(lang, "Promote to: Q R B N? ", "Umwandeln in: D T L S? "));
        if (!answer)
            return RESOLVE_EOF;
        char low[32];
        snprintf(low, sizeof low, "%s", answer);
        play_lowercase(low);
        if (!*low || !strcmp(low, "cancel") || !strcmp(low, "abbrechen")) {
            puts(CLI_TR(lang, "Move cancelled.", "Zug abgebrochen."));
            return RESOLVE_CANCEL;
        }
        SchPieceType t = parse_promotion_piece(answer);
        if (t != SCH_PIECE_TYPE_NB) {
            *out = sch_move_make_promotion(sch_move_from(queen_move), sch_move_to(queen_move), t);
            return RESOLVE_OK;
        }
        puts(CLI_TR(lang, "Please answer Q (queen), R (rook), B (bishop) or N (knight); 'cancel' takes the move back.",
                    "Bitte D (Dame), T (Turm), L (Läufer) oder S (Springer) antworten; 'abbrechen' verwirft den Zug."));
    }
}

int play_resolve_move(Play *p, const char *text, SchMove parsed, const SchError *err, SchMove *out) {
    if (parsed != SCH_MOVE_NONE) {
        *out = parsed;
        return RESOLVE_OK;
    }
    if (err->code == SCH_MOVE_ERR_PROMOTION_MISSING) {
        SchMove q = promotion_candidate(play_game(p), text);
        if (q != SCH_MOVE_NONE)
            return ask_promotion(p, q, out);
    }
    play_print_error(p, err);
    return RESOLVE_BAD;
}

int play_read_move(Play *p, const char *text, SchMove *out) {
    SchGame *g = play_game(p);
    if (sch_game_over(g)) {
        play_print_game_error(p, SCH_GAME_ERR_OVER);
        return RESOLVE_BAD;
    }
    if (!*text) {
        play_print_game_error(p, SCH_MOVE_ERR_EMPTY);
        return RESOLVE_BAD;
    }
    SchError err;
    sch_err_clear(&err);
    SchMove m = sch_game_parse_move(g, text, p->lang, &err);
    return play_resolve_move(p, text, m, &err, out);
}

void play_move(Play *p, SchMove m) {
    SchError err;
    sch_err_clear(&err);
    if (!sch_game_play(play_game(p), m, &err)) {
        play_print_error(p, &err);
        return;
    }
    play_show_and_announce(p);
}
