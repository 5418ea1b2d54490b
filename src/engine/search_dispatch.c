/* Run-time choice between the two builds of the search's hot files (cmake/multiversion.cmake): the
 * baseline and the one with BMI1/BMI2 (PEXT lookups), which calls the core's BMI2 build directly.
 * sch_bb_use_bmi2 is set once when the library is loaded, so the branch costs nothing beside a search. */
#include "core/bitboard_internal.h"
#include "search.h"

extern __typeof__(search_run) search_run_base, search_run_bmi2;
extern __typeof__(search_run_helper) search_run_helper_base, search_run_helper_bmi2;

EngineResult search_run(Search *s, const SchGame *game, const EngineLimits *limits, int overhead, int lag,
                        int report_lines, EngineInfoFn info, void *ctx) {
    return (sch_bb_use_bmi2 ? search_run_bmi2 : search_run_base)(s, game, limits, overhead, lag, report_lines, info,
                                                                 ctx);
}

void search_run_helper(Search *s, const SchGame *game, const EngineLimits *limits, int helper_index) {
    (sch_bb_use_bmi2 ? search_run_helper_bmi2 : search_run_helper_base)(s, game, limits, helper_index);
}
