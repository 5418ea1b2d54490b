/* The base room of schach serve: what every other room of the server builds on and nothing of its own
 * to do with games, accounts or storage.
 *
 * Owns: the log (log.h), the monotonic clock for limits and durations (monotonic.h), per-address token
 * buckets (client_limits.h), the time controls and variants of games with the rating categories they
 * make (timecontrol.h), the rating arithmetic shared by the store's rating rows and the accounts'
 * rating of games (rating.h, Glicko-2 in glicko2.h), and the one worker primitive every thread of the
 * server is started by (worker.h: a queue, its threads, the done list back to the event loop,
 * cancellation).
 *
 * Rooms of src/server, lowest first (tests/layers ranks them; a room includes only the public header
 * of a lower room and calls nothing above it): base < store < service < accounts < http. */
#ifndef SCHACH_SERVER_BASE_H
#define SCHACH_SERVER_BASE_H

#include "client_limits.h"
#include "log.h"
#include "monotonic.h"
#include "rating.h"
#include "timecontrol.h"
#include "worker.h"

#endif
