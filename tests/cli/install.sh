#!/usr/bin/env bash
# make install as a user meets it: libschach installed into a temporary prefix (and once more staged
# with DESTDIR), then small C and C++ programs (tests/install/) built against the *installed* files
# only, with `pkg-config --cflags --libs schach` and with CMake's find_package(schach), shared and
# static; then make uninstall's script removes every file again. $1 is the schach binary: its folder
# is the build folder whose libraries are installed.
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
require_command pkg-config
require_command g++
require_command cmake

src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(dirname "$SCHACH")
[ -f "$build/cmake_install.cmake" ] || { echo "FAIL: $build is not a CMake build folder" >&2; exit 1; }
# cmake --install rewrites the build folder's manifest: keep the one of a real make install.
manifest=$build/install_manifest_library.txt
[ -f "$manifest" ] && cp "$manifest" "$tmp/manifest.saved"
restore_manifest() { if [ -f "$tmp/manifest.saved" ]; then cp "$tmp/manifest.saved" "$manifest"; else rm -f "$manifest"; fi; }

# 1. Staged with DESTDIR: everything lands under the stage, nothing outside it.
DESTDIR=$tmp/stage cmake --install "$build" --prefix /opt/schach --component library >"$tmp/log" 2>&1 ||
    fail "install with DESTDIR: $(cat "$tmp/log")"
[ -f "$tmp/stage/opt/schach/include/schach/schach.h" ] || fail "DESTDIR: no schach.h under the stage"
[ -e /opt/schach/include/schach/schach.h ] && fail "DESTDIR: files were installed outside the stage"

# 2. Into a prefix.
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" --component library >"$tmp/log" 2>&1 || fail "install: $(cat "$tmp/log")"
cp "$manifest" "$tmp/manifest.test"
restore_manifest
libdir=$(dirname "$(find "$prefix" -name schach.pc | head -1)")/..
libdir=$(cd "$libdir" && pwd)

# What is installed: public headers only (no internal ones, not the engine's), both libraries, the
# versioned shared library with its SONAME, schach.pc, the CMake package.
for h in schach bitboard error explain fen game movegen notation perft pgn position types winnable; do
    [ -f "$prefix/include/schach/$h.h" ] || fail "header schach/$h.h is not installed"
done
find "$prefix" -name '*internal*' | grep -q . && fail "internal headers installed: $(find "$prefix" -name '*internal*')"
[ -e "$prefix/include/schach/engine.h" ] && fail "the engine's header is installed with the rules"
find "$prefix" -name '*engine*' | grep -q . && fail "something of the engine is installed: $(find "$prefix" -name '*engine*')"
[ -f "$libdir/libschach.a" ] || fail "libschach.a is not installed"
real=$(ls "$libdir"/libschach.so.*.*.* 2>/dev/null | head -1)
[ -n "$real" ] || fail "no versioned libschach.so.X.Y.Z"
[ -L "$libdir/libschach.so" ] || fail "libschach.so is not a link to the versioned library"
soname=$(readelf -d "$real" 2>/dev/null | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
[[ $soname =~ ^libschach\.so\.[0-9]+$ ]] || fail "SONAME: want libschach.so.N, got '$soname'"
[ -L "$libdir/$soname" ] || fail "no link $soname"
# The shared library exports the public API and nothing else (cmake/exports.cmake).
exported=$(nm -D --defined-only "$real" | awk '{print $3}' | sed 's/@.*//' | grep -v '^SCHACH_' | sort -u)
[ "$(wc -l <<<"$exported")" -ge 50 ] || fail "libschach.so exports only: $exported"
for sym in $exported; do
    [[ $sym == sch_* ]] || fail "libschach.so exports $sym, which lacks the library's prefix sch_"
    grep -qw -- "$sym" "$prefix"/include/schach/*.h || fail "libschach.so exports $sym, which no public header declares"
done
for sym in sch_fen_parse sch_gen_moves sch_pos_make sch_perft sch_san_write sch_game_play sch_pgn_read_game sch_err_format sch_version; do
    grep -qx -- "$sym" <<<"$exported" || fail "libschach.so does not export $sym"
done
# The ABI: the exported symbols are exactly the committed list, every one in the version node of the
# soname (SCHACH_1.0). A symbol added, removed or renamed by accident fails here; a deliberate change
# updates tests/install/libschach.symbols and docs/library/CHANGES.md together.
diff <(cat <<<"$exported") <(grep -v '^#' "$src/tests/install/libschach.symbols") >"$tmp/abi.diff" ||
    fail "the exported symbols differ from tests/install/libschach.symbols (< exported, > listed): $(head -20 "$tmp/abi.diff")"
unversioned=$(nm -D --defined-only "$real" | awk '{print $3}' | grep -v '^SCHACH_' | grep -v '@@SCHACH_1\.0$' || true)
[ -z "$unversioned" ] || fail "symbols outside the version node SCHACH_1.0: $unversioned"
# The static archive defines nothing outside the prefix either (its internal functions too), so a
# program linking it statically can never collide with it.
stray=$(nm -g --defined-only "$libdir/libschach.a" 2>/dev/null | awk 'NF == 3 {print $3}' | grep -v '^sch_' | sort -u)
[ -z "$stray" ] || fail "libschach.a defines global symbols without the prefix sch_: $stray"
[ -f "$libdir/cmake/schach/schachConfig.cmake" ] || fail "no CMake package"
[ -f "$libdir/cmake/schach/schachConfigVersion.cmake" ] || fail "no CMake package version file"

# 3. pkg-config, C and C++, shared.
export PKG_CONFIG_PATH=$libdir/pkgconfig
flags=$(pkg-config --cflags --libs schach) || fail "pkg-config does not know schach"
version=$(pkg-config --modversion schach)
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "schach.pc has no version"
header_version=$(sed -n 's/^#define SCH_VERSION_\(MAJOR\|MINOR\|PATCH\) *\([0-9]*\).*/\2/p' "$prefix/include/schach/version.h" | paste -sd.)
[ "$header_version" = "$version" ] || fail "version.h says version $header_version, the package $version"
[ "$soname" = libschach.so.1 ] || fail "libschach 1.x must have the soname libschach.so.1, not $soname"
[ "$soname" = "libschach.so.${version%%.*}" ] || fail "SONAME $soname does not carry the major version of $version"
pkg-config --static --libs schach | grep -q -- -lpthread || fail "schach.pc: Libs.private lacks -lpthread"
# shellcheck disable=SC2086
gcc -std=c17 -Wall -Wextra -Wpedantic -Werror -o "$tmp/consumer" "$src/tests/install/consumer.c" $flags ||
    fail "the C program does not build with pkg-config's flags"
# shellcheck disable=SC2086
g++ -std=c++17 -Wall -Wextra -Wpedantic -Werror -o "$tmp/consumer_cpp" "$src/tests/install/consumer.cpp" $flags ||
    fail "the C++ program does not build with pkg-config's flags"
for prog in consumer consumer_cpp; do
    [ -x "$tmp/$prog" ] || continue
    LD_LIBRARY_PATH=$libdir "$tmp/$prog" >"$tmp/$prog.out" 2>&1 || fail "$prog (shared): $(cat "$tmp/$prog.out")"
    LD_LIBRARY_PATH=$libdir ldd "$tmp/$prog" | grep -q "$libdir/$soname" || fail "$prog does not load the installed $soname"
done
grep -q "all checks passed" "$tmp/consumer.out" 2>/dev/null || fail "consumer: $(cat "$tmp/consumer.out" 2>/dev/null)"
# Both slider lookups through the installed library.
LD_LIBRARY_PATH=$libdir SCHACH_SLIDERS=magic "$tmp/consumer" >"$tmp/magic.out" 2>&1 || fail "consumer with magics: $(cat "$tmp/magic.out")"
grep -q "slider lookup: magic" "$tmp/magic.out" || fail "SCHACH_SLIDERS=magic is not followed"

# 4. pkg-config, static: the program carries the library and needs nothing at run time.
# shellcheck disable=SC2086
gcc -std=c17 -o "$tmp/consumer_static" "$src/tests/install/consumer.c" $(pkg-config --cflags schach) \
    "$libdir/libschach.a" $(pkg-config --static --libs-only-l schach | sed 's/-lschach//') ||
    fail "the C program does not link the static library"
if [ -x "$tmp/consumer_static" ]; then
    "$tmp/consumer_static" >"$tmp/static.out" 2>&1 || fail "consumer (static): $(cat "$tmp/static.out")"
    ldd "$tmp/consumer_static" | grep -q libschach && fail "the static program still loads libschach.so"
fi

# 5. CMake's find_package(schach).
if cmake -S "$src/tests/install" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
    >"$tmp/cmake.log" 2>&1 && cmake --build "$tmp/cmake" >>"$tmp/cmake.log" 2>&1; then
    for prog in consumer consumer_cpp consumer_static; do
        "$tmp/cmake/$prog" >"$tmp/$prog.cm.out" 2>&1 || fail "find_package: $prog: $(cat "$tmp/$prog.cm.out")"
    done
else
    fail "find_package(schach): $(tail -20 "$tmp/cmake.log")"
fi

# 6. make uninstall's script removes every installed file and the folders of our own.
cmake -DMANIFEST="$tmp/manifest.test" -P "$src/cmake/uninstall.cmake" >"$tmp/log" 2>&1 || fail "uninstall: $(cat "$tmp/log")"
left=$(find "$prefix" -type f -o -type l)
[ -z "$left" ] || fail "uninstall left files: $left"
[ -d "$prefix/include/schach" ] && fail "uninstall left include/schach"

cli_finish install
