#!/usr/bin/env bash
# The layers point one way (tests/layers/layers.py): util < core < notation < game < pgn (with the
# message lookup) < engine < match, server < cli. No #include and no call of a lower layer reaches a
# higher one; calls are read with nm from the build folder's objects (the folder of $1). Then the
# checker itself is tested: a planted upward include and a planted upward call must each fail it.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
require_command python3
require_command nm
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(dirname "$SCHACH")
check=$src/tests/layers/layers.py

python3 "$check" "$src" "$build" >"$tmp/out" 2>&1 || fail "layer violations:
$(cat "$tmp/out")"

# A planted include: the core's FEN parser includes the game record's header.
mkdir -p "$tmp/tree"
cp -r "$src/src" "$src/include" "$tmp/tree/"
sed -i '0,/^#include/s//#include "schach\/game.h"\n#include/' "$tmp/tree/src/core/fen.c"
if python3 "$check" "$tmp/tree" >"$tmp/out" 2>&1; then
    fail "a planted upward include (core -> game) passes the check"
else
    grep -q 'src/core/fen.c:[0-9]*: the core layer includes schach/game.h of the game layer' "$tmp/out" ||
        fail "the planted include is not named: $(cat "$tmp/out")"
fi

# A planted call: an object of the core layer that plays a move of a Game.
cat >"$tmp/planted.c" <<'C'
#include "schach/game.h"
void planted_core_helper(SchGame *g);
void planted_core_helper(SchGame *g) { sch_game_play(g, SCH_MOVE_NONE, NULL); }
C
if cc -c -I"$src/include" -o "$tmp/planted.o" "$tmp/planted.c" 2>"$tmp/cc.log"; then
    if python3 "$check" "$src" "$build" --plant-object core "$tmp/planted.o" >"$tmp/out" 2>&1; then
        fail "a planted upward call (core -> sch_game_play) passes the check"
    else
        grep -q 'the core layer calls sch_game_play of the game layer' "$tmp/out" ||
            fail "the planted call is not named: $(cat "$tmp/out")"
    fi
else
    fail "cannot compile the planted object: $(cat "$tmp/cc.log")"
fi
# The server's rooms: a planted upward include (the store includes the service's header), a room that
# includes another room's internal header, and a planted upward call (a store object that calls into
# the service).
rm -rf "$tmp/tree" && mkdir -p "$tmp/tree"
cp -r "$src/src" "$src/include" "$tmp/tree/"
sed -i '0,/^#include/s//#include "service\/service.h"\n#include/' "$tmp/tree/src/server/store/store_common.c"
sed -i '0,/^#include/s//#include "service\/service_internal.h"\n#include/' "$tmp/tree/src/server/http/http_static.c"
if python3 "$check" "$tmp/tree" >"$tmp/out" 2>&1; then
    fail "a planted upward include (store -> service) passes the check"
else
    grep -q 'src/server/store/store_common.c:[0-9]*: the server/store layer includes service/service.h of the server/service layer' "$tmp/out" ||
        fail "the planted room include is not named: $(cat "$tmp/out")"
    grep -q 'src/server/http/http_static.c:[0-9]*: service/service_internal.h is not the public header of the room service' "$tmp/out" ||
        fail "the planted include of an internal header is not named: $(cat "$tmp/out")"
fi
cat >"$tmp/planted_store.c" <<'C'
void service_set_cache_max(void *service, int games);
void planted_store_helper(void *service);
void planted_store_helper(void *service) { service_set_cache_max(service, 1); }
C
if cc -c -o "$tmp/planted_store.o" "$tmp/planted_store.c" 2>"$tmp/cc.log"; then
    if python3 "$check" "$src" "$build" --plant-object server/store "$tmp/planted_store.o" >"$tmp/out" 2>&1; then
        fail "a planted upward call (store -> service_set_cache_max) passes the check"
    else
        grep -q 'the server/store layer calls service_set_cache_max of the server/service layer' "$tmp/out" ||
            fail "the planted store call is not named: $(cat "$tmp/out")"
    fi
else
    fail "cannot compile the planted store object: $(cat "$tmp/cc.log")"
fi
cli_finish layers
