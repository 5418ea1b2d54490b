#!/usr/bin/env bash
# The engine in WebAssembly against native (make bench-wasm; docs/wasm.md): nodes per second of the
# `schach bench` positions, one thread, native, in Node.js and in Chromium; the size of schach.wasm raw
# and gzip-compressed; and with --variants the Node.js speed of the optimisation flags tried.
#
#   bench/wasm.sh [BUILD] [--variants] [--depth N]       (BUILD: default build; each figure best of 3)
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
variants=0
depth=0
while [ $# -gt 0 ]; do
    case $1 in
        --variants) variants=1 ;;
        --depth) depth=$2; shift ;;
        *) build=$1 ;;
    esac
    shift
done
schach=$build/schach
wasm=$build/wasm/schach.wasm
[ -x "$schach" ] && [ -f "$wasm" ] || { echo "bench-wasm: build $schach and $wasm first (make)" >&2; exit 1; }

native_nps() {
    local best=0 nps
    for _ in 1 2 3; do
        nps=$("$schach" bench $([ "$depth" != 0 ] && echo "$depth") | sed -n 's/^Total: .*(\([0-9]*\) nodes per second)$/\1/p')
        [ "$nps" -gt "$best" ] && best=$nps
    done
    echo "$best"
}

raw=$(stat -c %s "$wasm")
gz=$(gzip -9 -c "$wasm" | wc -c)
echo "schach.wasm: $raw bytes, $gz gzip -9"
n=$(native_nps)
echo "native:   $n nodes/s (schach bench, one thread)"
node_json=$(node bench/wasm/node.mjs "$wasm" "$depth" 3)
node_nps=$(echo "$node_json" | jq .nps)
echo "Node.js:  $node_nps nodes/s ($(awk -v a="$node_nps" -v b="$n" 'BEGIN { printf "%.0f", 100 * a / b }') % of native; $(node --version))"

# Chromium: a schach serve of the build's web folder (its /wasm/ and its real headers).
if [ -x "${CHROMIUM:-/usr/bin/chromium}" ] && [ -d tests/e2e/node_modules/playwright-core ] && [ -d "$build/web/wasm" ]; then
    tmp=$(mktemp -d)
    "$schach" serve --listen 127.0.0.1:0 --db "$tmp/bench.db" --web "$build/web" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$tmp"' EXIT
    url=
    for _ in $(seq 600); do
        url=$(sed -n 's/^schach serve: \(http:[^ ]*\)$/\1/p' "$tmp/out")
        [ -n "$url" ] && break
        sleep 0.05
    done
    c_json=$(node bench/wasm/chromium.mjs "$url/" "$depth" 3)
    c_nps=$(echo "$c_json" | jq .nps)
    echo "Chromium: $c_nps nodes/s ($(awk -v a="$c_nps" -v b="$n" 'BEGIN { printf "%.0f", 100 * a / b }') % of native; $(chromium --version 2>/dev/null | head -1))"
else
    echo "Chromium: left out (no chromium, playwright-core in tests/e2e/node_modules, or $build/web/wasm)"
fi

if [ "$variants" = 1 ]; then
    # The same sources with other flags (cmake/wasm.cmake's command, SCHACH_WASM_FLAGS replaced).
    srcs=$(ls src/util/*.c src/core/*.c src/notation/*.c src/game/*.c src/pgn/*.c src/messages/*.c src/engine/*.c src/wasm/*.c |
        grep -v -E '/(core/dispatch|engine/search_dispatch|engine/pool|engine/uci[a-z_]*)\.c$')
    vdir=$(mktemp -d)
    for flags in "-O2" "-O3" "-O3 -flto" "-O3 -msimd128" "-O3 -flto -msimd128" "-Os -flto"; do
        # shellcheck disable=SC2086 # the flags and the sources are lists
        clang --target=wasm32-wasi --sysroot=/usr -std=c17 $flags -DNDEBUG -Iinclude -Isrc -Isrc/engine -Isrc/wasm/compat \
            -Isrc/wasm -mexec-model=reactor -Wl,-z,stack-size=8388608 -Wl,--strip-all -o "$vdir/v.wasm" $srcs
        v=$(node bench/wasm/node.mjs "$vdir/v.wasm" "$depth" 3 | jq .nps)
        echo "variant $flags: $v nodes/s in Node.js, $(stat -c %s "$vdir/v.wasm") bytes, $(gzip -9 -c "$vdir/v.wasm" | wc -c) gzip"
    done
    rm -rf "$vdir"
fi
