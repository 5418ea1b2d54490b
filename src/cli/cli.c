/* Helpers shared by the subcommands of the schach program. */
#include "cli.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schach/fen.h"
#include "schach/game.h"

SchLang cli_env_lang(void) {
    /* POSIX precedence: LC_ALL overrides LC_MESSAGES, which overrides LANG. */
    static const char *const vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return (tolower((unsigned char)v[0]) == 'd' && tolower((unsigned char)v[1]) == 'e') ? SCH_LANG_DE
                                                                                                : SCH_LANG_EN;
    }
    return SCH_LANG_EN;
}

static bool equal_nocase(const char *a, const char *b) {
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

bool cli_parse_lang(const char *text, SchLang *out) {
    if (equal_nocase(text, "en")) {
        *out = SCH_LANG_EN;
        return true;
    }
    if (equal_nocase(text, "de")) {
        *out = SCH_LANG_DE;
        return true;
    }
    return false;
}

int cli_option(int argc, char **argv, int *i, const char *name, const char **value) {
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return 0;
    if (a[n] == '=') {
        *value = a + n + 1;
        return 1;
    }
    if (a[n] != '\0')
        return 0;
    if (*i + 1 >= argc)
        return -1;
    *value = argv[++*i];
    return 1;
}

bool cli_scan_lang(int argc, char **argv, SchLang *lang, const char **bad) {
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int r = cli_option(argc, argv, &i, "--lang", &v);
        if (r < 0) {
            *bad = NULL;
            return false;
        }
        if (r > 0 && !cli_parse_lang(v, lang)) {
            *bad = v;
            return false;
        }
    }
    return true;
}

bool cli_wants_help(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return true;
    return false;
}

void cli_errorf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("schach: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_usage(SchLang lang, const char *cmd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "schach %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fprintf(stderr,
            CLI_TR(lang, "Try 'schach %s --help' for more information.\n", "Mehr dazu mit 'schach %s --help'.\n"), cmd);
    return CLI_USAGE;
}

int cli_bad_lang(SchLang lang, const char *cmd, const char *bad) {
    if (!bad)
        return cli_usage(lang, cmd, "%s",
                         CLI_TR(lang, "--lang needs a value: de or en", "--lang braucht einen Wert: de oder en"));
    return cli_usage(lang, cmd,
                     CLI_TR(lang, "unknown language '%s' (use de or en)", "unbekannte Sprache '%s' (de oder en)"), bad);
}

void cli_format_error(const SchError *err, SchLang lang, char *buf, size_t size) {
    size_t n = 0;
    if (err->line > 0 && err->column > 0)
        n = (size_t)snprintf(buf, size, CLI_TR(lang, "line %d, column %d: ", "Zeile %d, Spalte %d: "), err->line,
                             err->column);
    else if (err->line > 0)
        n = (size_t)snprintf(buf, size, CLI_TR(lang, "line %d: ", "Zeile %d: "), err->line);
    else if (err->column > 0)
        n = (size_t)snprintf(buf, size, CLI_TR(lang, "column %d: ", "Spalte %d: "), err->column);
    if (n < size)
        sch_err_format(err, lang, buf + n, size - n);
}

/* Length of the valid UTF-8 sequence at s, or 0 when it is not one. */
static size_t utf8_sequence(const unsigned char *s) {
    if (s[0] < 0x80)
        return 1;
    size_t len = s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 && s[0] < 0xE0 ? 2 : 0;
    if (s[0] > 0xF4)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return len;
}

/* Copy of text with invalid UTF-8 replaced by '?' (every non-ASCII byte when ascii_only). */
static json_t *sanitized_string(const char *text, bool ascii_only) {
    char *copy = malloc(strlen(text) + 1);
    if (!copy)
        return NULL;
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p;) {
        size_t len = ascii_only ? (*p < 0x80) : utf8_sequence(p);
        if (len == 0) {
            copy[o++] = '?';
            p++;
        } else {
            memcpy(copy + o, p, len);
            o += len;
            p += len;
        }
    }
    copy[o] = '\0';
    json_t *s = json_string(copy);
    free(copy);
    return s;
}

json_t *cli_json_string(const char *text) {
    json_t *s = json_string(text);
    /* Not UTF-8 (a Latin-1 PGN, a truncated error argument): keep what is valid, mark the rest.
     * Overlong forms and surrogates pass the simple check above, hence the ASCII-only last resort. */
    if (!s)
        s = sanitized_string(text, false);
    if (!s)
        s = sanitized_string(text, true);
    return s;
}

json_t *cli_claims_json(int claims) {
    json_t *c = json_array();
    if (claims & SCH_CLAIM_THREEFOLD)
        json_array_append_new(c, json_string("threefold_repetition"));
    if (claims & SCH_CLAIM_FIFTY)
        json_array_append_new(c, json_string("fifty_moves"));
    return c;
}

bool cli_print_json(json_t *obj) {
    if (!obj)
        return false;
    int r = json_dumpf(obj, stdout, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(obj);
    return r == 0 && fputc('\n', stdout) != EOF;
}

void cli_chess960_game(struct SchGame *g, int c960) {
    if (c960 == CLI_CHESS960_OFF)
        return;
    if (c960 >= 0) {
        sch_game_free(g);
        sch_game_init_chess960(g, c960, NULL); /* cannot fail: the number was checked when read */
    }
    g->start.chess960 = g->pos.chess960 = 1;
}
