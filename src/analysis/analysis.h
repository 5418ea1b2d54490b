/* Game analysis: every position of a game searched by the engine, each move judged by the drop in
 * winning chances, accuracy and average centipawn loss per side (as lichess computes them), and the
 * result written as an annotated PGN or as the JSON of the server's API.
 *
 * The core of `schach analyse` and of the server's analyses. It holds no global state: an Analyser
 * owns its engines (one per thread) and may analyse one game at a time; several Analysers may run on
 * several threads. Memory is allocated per game (the result, one copy of the game per engine), never
 * per position.
 *
 * Evaluations are "scores": centipawns from White's point of view, or a mate as in the engine,
 * ±(ENGINE_MATE - plies) (positive: White mates). A checkmate on the board scores ±ENGINE_MATE for the
 * side that gave it; a game the rules ended otherwise (stalemate, dead position, fivefold repetition,
 * 75 moves) scores 0.
 */
#ifndef SCHACH_ANALYSIS_H
#define SCHACH_ANALYSIS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "schach/game.h"
#include "schach/notation.h"
#include "schach/pgn.h"

/* Plies of the engine's line kept per position (the best move first). */
#define ANALYSIS_LINE_MAX 10
/* Engines (threads) one Analyser runs at most. */
#define ANALYSIS_THREADS_MAX 64
/* Node budget per position when no limit is given; chosen by bench/analysis.sh (docs/analysis.md):
 * a 40-move game in about 2 s on one core of the development machine (44 positions/s). */
#define ANALYSIS_DEFAULT_NODES 50000
/* Winning chances are computed from centipawns clamped to ±ANALYSIS_CP_CLAMP; a mate counts as that. */
#define ANALYSIS_CP_CLAMP 1000

/* How bad a move was, by the drop in the mover's winning chances (analysis_judge). */
typedef enum {
    ANALYSIS_GOOD = 0,   /* not judged (null in JSON) */
    ANALYSIS_INACCURACY, /* drop >= 0.1 */
    ANALYSIS_MISTAKE,    /* drop >= 0.2 */
    ANALYSIS_BLUNDER,    /* drop >= 0.3 */
} AnalysisJudgement;

/* The search per position: exactly one of nodes, depth, movetime (ms) is used, in that order of
 * precedence; all zero means nodes = ANALYSIS_DEFAULT_NODES. */
typedef struct AnalysisOptions {
    uint64_t nodes;
    int depth;
    int movetime;
    int threads;    /* engines analysing different positions at once, 1..ANALYSIS_THREADS_MAX */
    size_t hash_mb; /* transposition table per engine (0: 16) */
} AnalysisOptions;

/* One position of the game: index i is the position before ply i + 1, index ply_count the last one. */
typedef struct AnalysisPosition {
    int score;                       /* White's view (see the top of the file) */
    SchMove best;                    /* SCH_MOVE_NONE when the game is over here */
    int line_length;                 /* moves in line, 0 when the game is over here */
    SchMove line[ANALYSIS_LINE_MAX]; /* the engine's principal variation, line[0] == best */
    int depth;                       /* completed iterations */
    uint64_t nodes;                  /* nodes searched */
    char best_uci[SCH_MOVE_TEXT_MAX];
    char best_san[2][SCH_MOVE_TEXT_MAX];                    /* [SchLang] */
    char line_san[2][ANALYSIS_LINE_MAX][SCH_MOVE_TEXT_MAX]; /* [SchLang][ply of the line] */
} AnalysisPosition;

/* One move of the game and its judgement. */
typedef struct AnalysisMove {
    int ply;                        /* 1-based */
    SchMove move;                   /* as played (SCH_MOVE_NULL for a null move) */
    char san[2][SCH_MOVE_TEXT_MAX]; /* [SchLang] */
    int eval;                       /* score after the move, White's view (= positions[ply].score) */
    bool best_played;               /* the move is the engine's best: never judged */
    double drop;                    /* winning chances lost, the mover's view (negative: gained) */
    int cp_loss;                    /* centipawns lost, 0..2 * ANALYSIS_CP_CLAMP (0 for the best move) */
    double accuracy;                /* lichess's move accuracy, 0..100 */
    AnalysisJudgement judgement;
} AnalysisMove;

/* The summary of one side. */
typedef struct AnalysisSide {
    int moves; /* moves the side played */
    int inaccuracy, mistake, blunder;
    int acpl;        /* average centipawn loss, rounded */
    double accuracy; /* lichess's game accuracy 0..100, or -1 when the side played no move */
} AnalysisSide;

/* The analysis of one game. Filled by analyser_run; free with analysis_result_free. */
typedef struct AnalysisResult {
    int ply_count;
    SchColor first_mover;        /* the side to move at the start */
    AnalysisPosition *positions; /* ply_count + 1 */
    AnalysisMove *moves;         /* ply_count */
    AnalysisSide side[2];        /* [SchColor] */
} AnalysisResult;

/* Called after each position is analysed: done of total positions. From the analysing threads, one
 * call at a time; it must not call back into the Analyser except analyser_stop. */
typedef void (*AnalysisProgressFn)(int done, int total, void *ctx);

typedef struct Analyser Analyser;

/* Options as documented above with threads 1 and the default budget. */
void analysis_options_default(AnalysisOptions *opt);

/* A new Analyser with opt's budget and engines (NULL: the defaults), or NULL when out of memory or
 * when opt is out of range. */
Analyser *analyser_new(const AnalysisOptions *opt);
void analyser_free(Analyser *a);

/* Analyses every position of game (its start and its moves; the outcome decides only whether the last
 * position is over by the rules) into *out, which the caller frees with analysis_result_free on every
 * return. Blocks until done: the first engine searches on the caller's thread, each other one on a
 * thread started and joined here. progress may be NULL. Returns false when stopped by analyser_stop
 * (*out then holds what was done, unsummarised) or out of memory. Positions are searched from the
 * last to the first, so each engine's table carries what it learnt of later positions back to
 * earlier ones; with one thread and a node or depth budget the result is the same on every run. */
bool analyser_run(Analyser *a, const SchGame *game, AnalysisResult *out, AnalysisProgressFn progress, void *ctx);

/* Thread-safe: stops the running analyser_run (and any later one, until analyser_resume) as soon as
 * possible. */
void analyser_stop(Analyser *a);
/* Lets analyser_run work again after analyser_stop (call it between runs). */
void analyser_resume(Analyser *a);

void analysis_result_free(AnalysisResult *r);

/* ------------------------------------------------------------------------------------ the measures */

/* A score clamped to ±ANALYSIS_CP_CLAMP; a mate counts as the clamp with its sign. */
int analysis_clamp_cp(int score);
/* Winning chances of a score, -1..1: 2 / (1 + exp(-0.00368208 * cp)) - 1 of the clamped score. */
double analysis_winning_chances(int score);
/* Win percent 0..100: 50 + 50 * winning chances. */
double analysis_win_percent(int score);
/* The judgement of a drop in winning chances: >= 0.3 blunder, >= 0.2 mistake, >= 0.1 inaccuracy. */
AnalysisJudgement analysis_judge(double drop);
/* lichess's accuracy of a move from the mover's win percent before and after it:
 * 103.1668 * exp(-0.04354 * (before - after)) - 3.1669 + 1, clamped to 0..100; 100 when after >= before. */
double analysis_move_accuracy(double win_before, double win_after);
/* lichess's game accuracy of both sides from the scores (White's view) of the count + 1 positions of a
 * game of count moves whose first mover is first: per side the mean of the volatility-weighted mean
 * (weights: the standard deviation of the win percents in a sliding window, 0.5..12) and the harmonic
 * mean of its move accuracies. out[SchColor] is -1 for a side without moves. */
void analysis_game_accuracy(const int *scores, int count, SchColor first, double out[2]);
/* Judges every move and fills the summary from the positions' scores and best moves (analyser_run
 * calls it; exposed for tests and for analyses loaded from storage). */
void analysis_summarise(AnalysisResult *r);

/* Mate in moves of a mate score from White's view (negative: Black mates; 0: mate on the board), or 0
 * with *is_mate false for centipawns. */
int analysis_mate_moves(int score, bool *is_mate);
/* A judgement's name in the API ("inaccuracy", "mistake", "blunder") or NULL for ANALYSIS_GOOD. */
const char *analysis_judgement_name(AnalysisJudgement j);

/* ------------------------------------------------------------------------------------ the outputs */

/* {"cp": N} or {"mate": N} of a score (White's view). New reference. */
json_t *analysis_eval_json(int score);
/* The analysis as the server's API gives it: {"moves": [{"ply", "san", "eval", "best", "best_san",
 * "line", "judgement"}], "accuracy": {"white", "black"} (whole percents, null without moves), "summary": {"white": {"inaccuracy",
 * "mistake", "blunder", "acpl"}, "black": {...}}}, SAN in lang; best, best_san and line are null where
 * the best move was played. New reference, NULL when out of memory. */
json_t *analysis_json(const AnalysisResult *r, SchLang lang);
/* Annotates g (whose record is the game that was analysed) as lichess does: after each main-line move
 * an [%eval] of the position after it; on a judged move the NAG ($6 ?!, $2 ?, $4 ??), a comment naming
 * the judgement and the better move in lang, and the engine's line as a variation from the position
 * before the move; the tag [Annotator "schach analyse"]. Comments, NAGs and variations already there
 * are kept (an [%eval] there is replaced). false when out of memory or past the PGN limits. */
bool analysis_annotate_pgn(SchPgnGame *g, const AnalysisResult *r, SchLang lang);

#endif
