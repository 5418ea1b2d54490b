#!/usr/bin/env bash
# Every public header (include/schach/*.h) compiles on its own, first in a translation unit, in C17
# with gcc and clang and in C++17 with g++, with -Wall -Wextra -Wpedantic -Werror: it includes what it
# uses and works from C++ (extern "C"). Public headers include only public headers and the system's.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
src=$(cd "$(dirname "$0")/../.." && pwd)
compilers=()
for c in gcc clang; do command -v "$c" >/dev/null && compilers+=("$c -x c -std=c17"); done
for c in g++ clang++; do command -v "$c" >/dev/null && compilers+=("$c -x c++ -std=c++17"); done
[ ${#compilers[@]} -ge 2 ] || fail "need a C and a C++ compiler (gcc, g++)"
for header in "$src"/include/schach/*.h; do
    name=schach/$(basename "$header")
    printf '#include <%s>\n' "$name" >"$tmp/one.c"
    for cc in "${compilers[@]}"; do
        # shellcheck disable=SC2086
        $cc -Wall -Wextra -Wpedantic -Werror -I"$src/include" -fsyntax-only "$tmp/one.c" >"$tmp/log" 2>&1 ||
            fail "$name alone with ${cc%% *}: $(head -5 "$tmp/log")"
    done
    grep -q '__cplusplus' "$header" || fail "$name has no extern \"C\" guard"
    [ "$name" = schach/schach.h ] || grep -q "^#include \"$(basename "$header")\"" "$src/include/schach/schach.h" ||
        fail "the umbrella schach/schach.h does not include $name"
    # Only public headers from inside the library: "x.h" of include/schach/ or <system.h>.
    while read -r inc; do
        [ -f "$src/include/schach/$inc" ] || fail "$name includes \"$inc\", which is not a public header"
    done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$header")
done
# schach.h brings the whole API.
printf '#include <schach/schach.h>\nint main(void) { return (int)(sch_gen_count(0) && sch_pgn_write(0, 0, SCH_LANG_EN) && sch_version()); }\n' >"$tmp/all.c"
gcc -std=c17 -Wall -Wextra -Wpedantic -Werror -I"$src/include" -fsyntax-only "$tmp/all.c" 2>"$tmp/log" ||
    fail "schach.h: $(head -5 "$tmp/log")"
cli_finish headers
