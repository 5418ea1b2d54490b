#!/usr/bin/env bash
# libschach keeps to its own namespace: every name its public headers declare (functions, data,
# types, struct and enum tags, enum constants, macros, header guards) starts with sch_, Sch or SCH_,
# and schach.h compiles together with the headers of other common libraries — X11's Intrinsic.h
# (which declares its own Position, Boolean, Cardinal, ...), curses, SQLite, jansson, the C library —
# in either order, as C with gcc and clang and as C++ with g++. The symbols of the built libraries are
# checked by tests/cli/install.sh.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
require_command clang
require_command python3
src=$(cd "$(dirname "$0")/../.." && pwd)

# 1. The declared names.
python3 "$src/tests/cli/lib/public_names.py" "$src/include" >"$tmp/names" 2>"$tmp/log" ||
    fail "public_names.py: $(head -5 "$tmp/log")"
count=$(wc -l <"$tmp/names")
[ "$count" -ge 400 ] || fail "only $count public names found: the listing itself is broken"
grep -q '^FunctionDecl sch_game_play$' "$tmp/names" || fail "the listing misses sch_game_play"
grep -q '^TypedefDecl SchPosition$' "$tmp/names" || fail "the listing misses SchPosition"
grep -q '^EnumConstantDecl SCH_WHITE$' "$tmp/names" || fail "the listing misses SCH_WHITE"
unprefixed=$(awk '$2 !~ /^(sch_|Sch[A-Z]|SCH_)/ {print $1 " " $2}' "$tmp/names")
[ -z "$unprefixed" ] || fail "public names without the prefix ($(wc -l <<<"$unprefixed")): $(head -40 <<<"$unprefixed" | paste -sd, -)"

# 2. Together with other libraries' headers. Each must be there (scripts/install-deps installs them).
others=(X11/Intrinsic.h X11/Xlib.h curses.h sqlite3.h jansson.h math.h stdlib.h string.h termios.h pthread.h
        sys/socket.h signal.h)
for h in "${others[@]}"; do
    printf '#include <%s>\n' "$h" | gcc -x c -E - >/dev/null 2>&1 || fail "<$h> is missing (scripts/install-deps installs it)"
done
{
    for h in "${others[@]}"; do printf '#include <%s>\n' "$h"; done
    printf '#include <schach/schach.h>\n'
    printf 'int main(void) { SchPosition pos; sch_pos_set_start(&pos); return sch_gen_count(&pos) == 20 ? 0 : 1; }\n'
} >"$tmp/after.c"
{
    printf '#include <schach/schach.h>\n'
    for h in "${others[@]}"; do printf '#include <%s>\n' "$h"; done
    printf 'int main(void) { Position p = 0; Boolean b = True; return (int)p + (int)b + (SCH_WHITE == 0 ? 0 : 1); }\n'
} >"$tmp/before.c"
compilers=()
for c in gcc clang; do command -v "$c" >/dev/null && compilers+=("$c -x c -std=c17"); done
command -v g++ >/dev/null && compilers+=("g++ -x c++ -std=c++17")
for file in after before; do
    for cc in "${compilers[@]}"; do
        # shellcheck disable=SC2086
        $cc -Wall -Wextra -Wpedantic -Werror -I"$src/include" -fsyntax-only "$tmp/$file.c" >"$tmp/log" 2>&1 ||
            fail "schach.h $file X11, curses, SQLite, jansson with ${cc%% *}: $(grep -m3 error "$tmp/log")"
    done
done
cli_finish namespace
