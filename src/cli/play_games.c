/* schach play: where a game comes from - a new one from the standard position or a FEN, or the last
 * game of a PGN file - and the judgement of dead positions that a game played here needs. Apart
 * because the command line, 'new', 'load' and 'undo' all use it and none of it talks to the person.
 */
#define _POSIX_C_SOURCE 200809L /* localtime_r */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "play.h"
#include "schach/game.h"
#include "schach/pgn.h"

static void set_default_tags(PgnGame *pg) {
    char date[16] = "????.??.??";
    time_t now = time(NULL);
    struct tm tm;
    if (localtime_r(&now, &tm))
        strftime(date, sizeof date, "%Y.%m.%d", &tm);
    pgn_set_tag(pg, "Event", "Casual game");
    pgn_set_tag(pg, "Date", date);
}

void play_judge_dead_positions(Game *g) {
    static const WinLimits quick = {true, 0};
    static const WinLimits full = {false, GAME_DEAD_NODES};
    game_set_dead_mode(g, GAME_DEAD_INLINE);
    if (game_over(g))
        return;
    WinResult res[2];
    Winnability v = dead_position(&g->pos, &quick, NULL, res);
    if (v == WIN_UNDETERMINED && (res[WHITE].blockade || res[BLACK].blockade))
        dead_position(&g->pos, &full, NULL, res);
    game_settle_dead(g, g->ply_count, res);
}

bool play_new_game(PgnGame *pg, const char *fen, Lang lang, FILE *out) {
    PgnGame fresh;
    pgn_game_init(&fresh);
    game_set_dead_mode(&fresh.game, GAME_DEAD_INLINE); /* pgn_game_init prepares for reading */
    if (fen) {
        SchError err;
        err_clear(&err);
        if (!game_init_fen(&fresh.game, fen, &err)) {
            char msg[256];
            err.line = 0;
            cli_format_error(&err, lang, msg, sizeof msg);
            fprintf(out, CLI_TR(lang, "invalid FEN: %s\n", "ungültige FEN: %s\n"), msg);
            pgn_game_free(&fresh);
            return false;
        }
    }
    set_default_tags(&fresh);
    pgn_game_free(pg);
    *pg = fresh;
    return true;
}

bool play_load_game(PgnGame *pg, const char *file, Lang lang, FILE *out) {
    FILE *f = fopen(file, "r");
    if (!f) {
        fprintf(out, CLI_TR(lang, "cannot open '%s': %s\n", "'%s' lässt sich nicht öffnen: %s\n"), file,
                strerror(errno));
        return false;
    }
    SchError err;
    err_clear(&err);
    PgnReader *r = pgn_reader_from_file(f, &err);
    if (!r) {
        char msg[256];
        cli_format_error(&err, lang, msg, sizeof msg);
        fprintf(out, "%s: %s\n", file, msg);
        fclose(f);
        return false;
    }
    PgnGame last;
    int last_rc = 0;
    SchError last_err;
    err_clear(&last_err);
    for (;;) {
        PgnGame next;
        err_clear(&err);
        int rc = pgn_read_game(r, &next, &err);
        if (rc == 0)
            break;
        if (last_rc != 0)
            pgn_game_free(&last);
        last = next;
        last_rc = rc;
        last_err = err;
    }
    pgn_reader_close(r);
    fclose(f);
    if (last_rc == 0) {
        fprintf(out, CLI_TR(lang, "%s holds no game\n", "%s enthält keine Partie\n"), file);
        return false;
    }
    if (last_rc < 0) {
        char msg[512];
        cli_format_error(&last_err, lang, msg, sizeof msg);
        fprintf(out, CLI_TR(lang, "%s, game %d: %s\n", "%s, Partie %d: %s\n"), file,
                last_err.game > 0 ? last_err.game : last.number, msg);
        pgn_game_free(&last);
        return false;
    }
    play_judge_dead_positions(&last.game);
    if (game_over(&last.game) && last.result != RESULT_NONE && last.result != last.game.outcome.result) {
        /* Only a dead position the reader let pass can disagree with the file's result. */
        fprintf(out,
                CLI_TR(lang, "The file gives the result %s, but the position was already dead: a draw.\n",
                       "Die Datei nennt das Ergebnis %s, aber die Stellung war schon tot: remis.\n"),
                result_string(last.result));
        last.result = RESULT_NONE;
    } else if (!game_over(&last.game) && last.result != RESULT_NONE) {
        fprintf(out,
                CLI_TR(lang, "The file gives the result %s, but the rules do not end the game there; play goes on.\n",
                       "Die Datei nennt das Ergebnis %s, aber nach den Regeln ist die Partie dort nicht beendet; "
                       "es geht weiter.\n"),
                result_string(last.result));
        last.result = RESULT_NONE;
    }
    pgn_game_free(pg);
    *pg = last;
    return true;
}
