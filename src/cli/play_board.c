/* schach play: the board, with figurines and colours on a terminal or plain letters elsewhere. */
#include "play.h"

#include <ctype.h>

#include "cli.h"

/* 256-colour backgrounds, all mid-tone so that both white and black pieces stay readable on them. */
enum {
    BG_LIGHT = 137,
    BG_DARK = 95,
    BG_LAST = 100,
    BG_CHECK = 124,
    BG_SELECTED = 30,
    BG_TARGET = 67,
    FG_WHITE = 231,
    FG_BLACK = 16,
};

/* Solid figurines for both colours (the foreground colour tells them apart), in SchPieceType order. */
static const char *const figurines[SCH_PIECE_TYPE_NB] = {"\u265F", "\u265E", "\u265D", "\u265C", "\u265B", "\u265A"};

void board_view_init(BoardView *v, bool color, bool flip, SchLang lang) {
    v->color = color;
    v->flip = flip;
    v->lang = lang;
    v->last_from = v->last_to = v->check = v->selected = SCH_SQ_NONE;
    v->targets = 0;
}

static bool is_target(const BoardView *v, SchSquare s) { return (v->targets >> s) & 1; }
static bool is_last(const BoardView *v, SchSquare s) { return s == v->last_from || s == v->last_to; }

static void print_files(FILE *out, const BoardView *v) {
    fputs("   ", out);
    for (int i = 0; i < 8; i++)
        fprintf(out, i < 7 ? " %c " : " %c\n", 'a' + (v->flip ? 7 - i : i));
}

static void print_color_square(FILE *out, const SchPosition *pos, const BoardView *v, SchSquare s) {
    int bg = (sch_square_file(s) + sch_square_rank(s)) % 2 ? BG_LIGHT : BG_DARK;
    if (is_last(v, s))
        bg = BG_LAST;
    if (is_target(v, s))
        bg = BG_TARGET;
    if (s == v->selected)
        bg = BG_SELECTED;
    if (s == v->check)
        bg = BG_CHECK;
    SchPiece p = sch_pos_piece_on(pos, s);
    if (p == SCH_NO_PIECE) {
        fprintf(out, "\x1b[48;5;%dm%s", bg, is_target(v, s) ? " \u00B7 " : "   ");
        return;
    }
    int fg = sch_piece_color(p) == SCH_WHITE ? FG_WHITE : FG_BLACK;
    fprintf(out, "\x1b[48;5;%d;38;5;%d;1m %s \x1b[22m", bg, fg, figurines[sch_piece_type(p)]);
}

static void print_plain_square(FILE *out, const SchPosition *pos, const BoardView *v, SchSquare s) {
    SchPiece p = sch_pos_piece_on(pos, s);
    char c = '.';
    if (p != SCH_NO_PIECE) {
        c = sch_piece_letter(sch_piece_type(p), v->lang);
        if (sch_piece_color(p) == SCH_BLACK)
            c = (char)tolower((unsigned char)c);
    }
    /* The most important mark wins: check, then the selected piece, targets, the last move. */
    const char *marks = "  ";
    if (s == v->check)
        marks = "<>";
    else if (s == v->selected)
        marks = "()";
    else if (is_target(v, s))
        marks = "{}";
    else if (is_last(v, s))
        marks = "[]";
    fprintf(out, "%c%c%c", marks[0], c, marks[1]);
}

static void print_legend(FILE *out, const BoardView *v) {
    SchLang lang = v->lang;
    bool any = false;
    if (v->last_from != SCH_SQ_NONE) {
        fputs(CLI_TR(lang, "[ ] last move", "[ ] letzter Zug"), out);
        any = true;
    }
    if (v->check != SCH_SQ_NONE) {
        fprintf(out, "%s%s", any ? "   " : "", CLI_TR(lang, "< > king in check", "< > König im Schach"));
        any = true;
    }
    if (v->selected != SCH_SQ_NONE) {
        fprintf(out, "%s%s", any ? "   " : "",
                CLI_TR(lang, "( ) the piece   { } where it may go", "( ) die Figur   { } wohin sie ziehen darf"));
        any = true;
    }
    if (any)
        fputc('\n', out);
}

void board_print(FILE *out, const SchPosition *pos, const BoardView *v) {
    print_files(out, v);
    for (int row = 0; row < 8; row++) {
        int rank = v->flip ? row : 7 - row;
        fprintf(out, " %d ", rank + 1);
        for (int col = 0; col < 8; col++) {
            SchSquare s = sch_square_make(v->flip ? 7 - col : col, rank);
            if (v->color)
                print_color_square(out, pos, v, s);
            else
                print_plain_square(out, pos, v, s);
        }
        if (v->color)
            fputs("\x1b[0m", out);
        fprintf(out, " %d\n", rank + 1);
    }
    print_files(out, v);
    if (!v->color)
        print_legend(out, v);
}
