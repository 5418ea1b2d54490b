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

static void set_default_tags(SchPgnGame *pg) {
    char date[16] = "????.??.??";
    time_t now = time(NULL);
    struct tm tm;
    if (localtime_r(&now, &tm))
        strftime(date, sizeof date, "%Y.%m.%d", &tm);
    sch_pgn_set_tag(pg, "Event", "Casual game");
    sch_pgn_set_tag(pg, "Date", date);
}

void play_judge_dead_positions(SchGame *g) {
    static const SchWinLimits quick = {true, 0};
    static const SchWinLimits full = {false, SCH_GAME_DEAD_NODES};
    sch_game_set_dead_mode(g, SCH_GAME_DEAD_INLINE);
    if (sch_game_over(g))
        return;
    SchWinResult res[2];
    SchWinnability v = sch_dead_position(&g->pos, &quick, NULL, res);
    if (v == SCH_WIN_UNDETERMINED && (res[SCH_WHITE].blockade || res[SCH_BLACK].blockade))
        sch_dead_position(&g->pos, &full, NULL, res);
    sch_game_settle_dead(g, g->ply_count, res);
}

bool play_new_game(SchPgnGame *pg, const char *fen, SchLang lang, FILE *out) {
    SchPgnGame fresh;
    sch_pgn_game_init(&fresh);
    sch_game_set_dead_mode(&fresh.game, SCH_GAME_DEAD_INLINE); /* sch_pgn_game_init prepares for reading */
    if (fen) {
        SchError err;
        sch_err_clear(&err);
        if (!sch_game_init_fen(&fresh.game, fen, &err)) {
            char msg[256];
            err.line = 0;
            cli_format_error(&err, lang, msg, sizeof msg);
            fprintf(out, CLI_TR(lang, "invalid FEN: %s\n", "ungültige FEN: %s\n"), msg);
            sch_pgn_game_free(&fresh);
            return false;
        }
    }
    set_default_tags(&fresh);
    sch_pgn_game_free(pg);
    *pg = fresh;
    return true;
}

bool play_load_game(SchPgnGame *pg, const char *file, SchLang lang, FILE *out) {
    FILE *f = fopen(file, "r");
    if (!f) {
        fprintf(out, CLI_TR(lang, "cannot open '%s': %s\n", "'%s' lässt sich nicht öffnen: %s\n"), file,
                strerror(errno));
        return false;
    }
    SchError err;
    sch_err_clear(&err);
    SchPgnReader *r = sch_pgn_reader_from_file(f, &err);
    if (!r) {
        char msg[256];
        cli_format_error(&err, lang, msg, sizeof msg);
        fprintf(out, "%s: %s\n", file, msg);
        fclose(f);
        return false;
    }
    SchPgnGame last;
    int last_rc = 0;
    SchError last_err;
    sch_err_clear(&last_err);
    for (;;) {
        SchPgnGame next;
        sch_err_clear(&err);
        int rc = sch_pgn_read_game(r, &next, &err);
        if (rc == 0)
            break;
        if (last_rc != 0)
            sch_pgn_game_free(&last);
        last = next;
        last_rc = rc;
        last_err = err;
    }
    sch_pgn_reader_close(r);
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
        sch_pgn_game_free(&last);
        return false;
    }
    play_judge_dead_positions(&last.game);
    if (sch_game_over(&last.game) && last.result != SCH_RESULT_NONE && last.result != last.game.outcome.result) {
        /* Only a dead position the reader let pass can disagree with the file's result. */
        fprintf(out,
                CLI_TR(lang, "The file gives the result %s, but the position was already dead: a draw.\n",
                       "Die Datei nennt das Ergebnis %s, aber die Stellung war schon tot: remis.\n"),
                sch_result_string(last.result));
        last.result = SCH_RESULT_NONE;
    } else if (!sch_game_over(&last.game) && last.result != SCH_RESULT_NONE) {
        fprintf(out,
                CLI_TR(lang, "The file gives the result %s, but the rules do not end the game there; play goes on.\n",
                       "Die Datei nennt das Ergebnis %s, aber nach den Regeln ist die Partie dort nicht beendet; "
                       "es geht weiter.\n"),
                sch_result_string(last.result));
        last.result = SCH_RESULT_NONE;
    }
    sch_pgn_game_free(pg);
    *pg = last;
    return true;
}
