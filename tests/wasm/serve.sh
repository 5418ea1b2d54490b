#!/usr/bin/env bash
# schach serve sends schach.wasm as application/wasm (what WebAssembly.instantiateStreaming needs),
# gzip-compressed to a client that accepts it, the same bytes either way; and in Chromium the page's
# rules and the engine worker run under the site's Content-Security-Policy.
#   bash tests/wasm/serve.sh BUILD/schach BUILD/wasm/schach.wasm
set -u
source "$(dirname "$0")/../cli/lib/common.bash"
cli_init "$1"
wasm=$2
source "$(dirname "$0")/../server/server.bash"
server_setup

web=$tmp/web
mkdir -p "$web/wasm"
echo '<!DOCTYPE html><html><body>wasm</body></html>' >"$web/index.html"
cp "$wasm" "$web/wasm/schach.wasm"
cp "$(dirname "$0")/../../web/wasm/"*.js "$web/wasm/"
server_start "$tmp/wasm.db" --web "$web"

type=$(curl -s -o "$tmp/plain" -w '%{content_type}' "$SCHACH_URL/wasm/schach.wasm")
[ "$type" = application/wasm ] || fail "schach.wasm: Content-Type '$type', want application/wasm"
cmp -s "$tmp/plain" "$wasm" || fail "schach.wasm: the bytes sent differ from the file"
enc=$(curl -s -H 'Accept-Encoding: gzip' -o "$tmp/gz" -w '%{content_type} %header{content-encoding}' "$SCHACH_URL/wasm/schach.wasm")
[ "$enc" = "application/wasm gzip" ] || fail "schach.wasm with Accept-Encoding gzip: '$enc'"
gzip -dc "$tmp/gz" | cmp -s - "$wasm" || fail "schach.wasm: the gzip body is not the file"
type=$(curl -s -o /dev/null -w '%{content_type}' "$SCHACH_URL/wasm/engine-worker.js")
[ "$type" = application/javascript ] || fail "engine-worker.js: Content-Type '$type'"
# In Chromium under the site's own headers (its Content-Security-Policy must allow WebAssembly).
if [ -x "${CHROMIUM:-/usr/bin/chromium}" ] && [ -d "$(dirname "$0")/../e2e/node_modules/playwright-core" ]; then
    node "$(dirname "$0")/browser.test.mjs" "$SCHACH_URL/" || fail "schach.wasm in Chromium"
else
    echo "note: no Chromium or playwright-core (tests/e2e/node_modules): the browser check is left out"
fi
server_stop

cli_finish wasm_serve
