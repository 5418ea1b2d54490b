/* Game analysis: the JSON of the server's API and the annotated PGN (see analysis.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

json_t *analysis_eval_json(int score) {
    bool mate;
    int moves = analysis_mate_moves(score, &mate);
    return mate ? json_pack("{s:i}", "mate", moves) : json_pack("{s:i}", "cp", score);
}

static json_t *accuracy_json(double accuracy) {
    return accuracy < 0 ? json_null() : json_integer((json_int_t)lround(accuracy)); /* as lichess's API */
}

static json_t *side_json(const AnalysisSide *s) {
    return json_pack("{s:i,s:i,s:i,s:i}", "inaccuracy", s->inaccuracy, "mistake", s->mistake, "blunder", s->blunder,
                     "acpl", s->acpl);
}

json_t *analysis_json(const AnalysisResult *r, SchLang lang) {
    json_t *moves = json_array();
    if (!moves)
        return NULL;
    for (int i = 0; i < r->ply_count; i++) {
        const AnalysisMove *m = &r->moves[i];
        const AnalysisPosition *before = &r->positions[i];
        json_t *o = json_object();
        if (!o || json_array_append_new(moves, o) != 0)
            goto oom;
        json_object_set_new(o, "ply", json_integer(m->ply));
        json_object_set_new(o, "san", json_string(m->san[lang]));
        json_object_set_new(o, "eval", analysis_eval_json(m->eval));
        bool other = !m->best_played && before->best != SCH_MOVE_NONE;
        json_object_set_new(o, "best", other ? json_string(before->best_uci) : json_null());
        json_object_set_new(o, "best_san", other ? json_string(before->best_san[lang]) : json_null());
        json_t *line = other ? json_array() : json_null();
        for (int k = 0; other && k < before->line_length; k++)
            json_array_append_new(line, json_string(before->line_san[lang][k]));
        json_object_set_new(o, "line", line);
        const char *j = analysis_judgement_name(m->judgement);
        json_object_set_new(o, "judgement", j ? json_string(j) : json_null());
    }
    json_t *out =
        json_pack("{s:o,s:{s:o,s:o},s:{s:o,s:o}}", "moves", moves, "accuracy", "white",
                  accuracy_json(r->side[SCH_WHITE].accuracy), "black", accuracy_json(r->side[SCH_BLACK].accuracy),
                  "summary", "white", side_json(&r->side[SCH_WHITE]), "black", side_json(&r->side[SCH_BLACK]));
    return out;
oom:
    json_decref(moves);
    return NULL;
}

static const char *judgement_text(AnalysisJudgement j, SchLang lang) {
    static const char *const en[] = {"", "Inaccuracy", "Mistake", "Blunder"};
    static const char *const de[] = {"", "Ungenauigkeit", "Fehler", "Grober Fehler"};
    return lang == SCH_LANG_DE ? de[j] : en[j];
}

/* The NAG of a judgement: $6 ?!, $2 ?, $4 ??. */
static int judgement_nag(AnalysisJudgement j) { return j == ANALYSIS_BLUNDER ? 4 : j == ANALYSIS_MISTAKE ? 2 : 6; }

/* Sets the [%eval] of n to score (White's view) the way lichess writes it: pawns, or #moves. */
static void set_eval(SchPgnNode *n, int score) {
    bool mate;
    int moves = analysis_mate_moves(score, &mate);
    n->has_eval = true;
    n->eval_mate = mate;
    n->eval = mate ? moves : score;
    n->eval_depth = 0;
}

/* The judged move n: NAG, the comment (after the one there is) and the better line as a variation. */
static bool annotate_judged(SchPgnGame *g, SchPgnNode *n, const AnalysisMove *m, const AnalysisPosition *before,
                            SchLang lang) {
    sch_pgn_node_add_nag(n, judgement_nag(m->judgement)); /* a node with SCH_PGN_MAX_NAGS keeps its own */
    char text[256];
    snprintf(text, sizeof text, lang == SCH_LANG_DE ? "%s. %s war der beste Zug." : "%s. %s was best.",
             judgement_text(m->judgement, lang), before->best_san[lang]);
    size_t old = n->comment ? strlen(n->comment) : 0;
    char *joined = malloc(old + strlen(text) + 2);
    if (!joined)
        return false;
    if (old)
        snprintf(joined, old + strlen(text) + 2, "%s %s", n->comment, text);
    else
        strcpy(joined, text);
    bool ok = sch_pgn_node_set_comment(n, false, joined);
    free(joined);
    if (!ok)
        return false;
    SchPgnNode *at = n->parent;
    for (int k = 0; k < before->line_length; k++) {
        at = sch_pgn_node_add(g, at, before->line[k], NULL);
        if (!at)
            return false;
    }
    return true;
}

bool analysis_annotate_pgn(SchPgnGame *g, const AnalysisResult *r, SchLang lang) {
    const SchGame *game = &g->game;
    if (!sch_pgn_set_tag(g, "Annotator", "schach analyse"))
        return false;
    SchPgnNode *root = sch_pgn_tree_root(g);
    if (!root)
        return false;
    int depth = 0;
    for (const SchPgnNode *n = root->main; n && depth < game->ply_count && n->move == game->plies[depth].move;
         n = n->main)
        depth++;
    /* A tree shorter than the record (a game played into g->game): its missing plies are made. */
    if (depth < game->ply_count && !sch_pgn_set_comment(g, game->ply_count, NULL))
        return false;
    SchPgnNode *n = root->main;
    for (int i = 0; i < r->ply_count && i < game->ply_count && n; i++, n = n->main) {
        if (n->move != game->plies[i].move)
            break;
        const AnalysisMove *m = &r->moves[i];
        set_eval(n, m->eval);
        if (m->judgement != ANALYSIS_GOOD && r->positions[i].line_length > 0 &&
            !annotate_judged(g, n, m, &r->positions[i], lang))
            return false;
    }
    return true;
}
