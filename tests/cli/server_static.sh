#!/usr/bin/env bash
# schach serve's static files: a test web folder (index, /g/<id>, MIME types, chessground's folder),
# then, when the repository's web/index.html exists, the folder the built schach serves by default
# (the bundle scripts/web-bundle made in the build folder, unless SCHACH_WEB_BUNDLE=0: web/ itself) and
# web/ as it is, module by module (--web).
set -u
source "$(dirname "$0")/lib/common.bash"
cli_init "$@"
source "$(dirname "$0")/../server/server.bash"
server_setup

web=$tmp/web
mkdir -p "$web/node_modules/@lichess-org/chessground/dist"
echo '<!DOCTYPE html><html><body>schach-static-test</body></html>' >"$web/index.html"
echo 'export const app = 1;' >"$web/app.mjs"
echo 'export const app = 2;' >"$web/app.js"
echo '{"version":3}' >"$web/app.js.map"
echo 'body{}' >"$web/style.css"
echo '<svg xmlns="http://www.w3.org/2000/svg"/>' >"$web/icon.svg"
printf 'wOF2' >"$web/font.woff2"
echo 'export const cg = 1;' >"$web/node_modules/@lichess-org/chessground/dist/chessground.min.js"
server_start "$tmp/x.db" --web "$web"
STATIC_MARK=schach-static-test STATIC_FULL=1 run_node static.mjs
server_stop

repo_web=$(cd "$(dirname "$0")/../../web" 2>/dev/null && pwd)
if [ -n "$repo_web" ] && [ -f "$repo_web/index.html" ]; then
    server_start "$tmp/y.db"
    STATIC_MARK='<html' STATIC_SERVED=$([ "${SCHACH_WEB_BUNDLE:-1}" = 1 ] && echo bundle || echo sources) run_node static.mjs
    server_stop
    server_start "$tmp/z.db" --web "$repo_web"
    STATIC_MARK='<html' STATIC_SERVED=sources run_node static.mjs
    server_stop
else
    echo "note: web/index.html not there yet; only the test folder was served"
fi

cli_finish server_static
