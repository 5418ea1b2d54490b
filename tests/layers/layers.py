#!/usr/bin/env python3
"""Checks that libschach's layers point one way: util < core < notation < game < pgn, and the
programs above them (engine < match, server < cli). A file may include headers and call functions of
its own layer and the layers below, never above.

The server is ranked room by room (src/server/ROOM/, each with one public header named after it):
base < store < service < accounts < http, where store's backends store/sqlite and store/pg sit above
store's shared part (which opens them) in one rank, beside each other. A room includes of a lower room (and the program of any
room) only that room's public header.

    layers.py SOURCE_DIR [BUILD_DIR] [--plant-object LAYER FILE.o ...]

Includes are read from the sources (src/ and include/schach/). Calls are read from the object files
of BUILD_DIR with nm: every undefined symbol of a library object must be defined in its own layer or
below. --plant-object adds an object file to a layer (the self-test of tests/cli/layers.sh).
Exit status 1 with one line per violation."""
import os
import re
import subprocess
import sys

# Layer ranks. Files named pgn_* in src/notation are the pgn layer until they move to src/pgn/.
LAYERS = ["util", "core", "notation", "game", "pgn", "engine", "match", "analysis",
          "server/base", "server/store", "server/store/sqlite", "server/store/pg", "server/service",
          "server/accounts", "server/http", "cli"]
SERVER_ROOMS = ["base", "store", "service", "accounts", "http"]
RANK = {name: i for i, name in enumerate(LAYERS)}
# One room, one rank: the store's shared part opens a backend, a backend implements store.h.
RANK["server/store/sqlite"] = RANK["server/store/pg"] = RANK["server/store"]
# match and the server both sit on the engine, neither on the other; the two store backends neither.
PEERS = {(a, b) for a in ["match"] for b in LAYERS if b.startswith("server/")}
# The game analysis (src/analysis) sits on the engine beside the match runner, below the server and cli.
PEERS |= {("match", "analysis")}
PEERS |= {(b, a) for a, b in PEERS}
PEERS |= {("server/store/sqlite", "server/store/pg"), ("server/store/pg", "server/store/sqlite")}

# Public headers by the layer that implements them; schach.h is the umbrella at the top.
PUBLIC = {
    "types.h": "util", "error.h": "util", "version.h": "core",
    "bitboard.h": "core", "position.h": "core", "movegen.h": "core", "fen.h": "core", "perft.h": "core",
    "notation.h": "notation",
    "game.h": "game", "material.h": "game", "winnable.h": "game", "explain.h": "game",
    "pgn.h": "pgn", "schach.h": "pgn",
}


def layer_of(rel):
    """Layer of a path relative to the source dir, or None when it is not ours."""
    parts = rel.split("/")
    if parts[0] == "include" and len(parts) == 3 and parts[1] == "schach":
        return PUBLIC.get(parts[2], "unknown")
    if parts[0] != "src" or len(parts) < 3:
        return None
    module, name = parts[1], parts[-1]
    if module == "notation" and name.startswith("pgn_"):
        return "pgn"
    if module in ("pgn", "messages"):  # the message lookup reads every module's table: the top
        return "pgn"
    if module == "server":
        if len(parts) < 4 or parts[2] not in SERVER_ROOMS:
            return "unknown"  # a file outside the rooms has no rank
        if parts[2] == "store" and len(parts) >= 5 and parts[3] in ("sqlite", "pg"):
            return "server/store/" + parts[3]
        return "server/" + parts[2]
    return module if module in RANK else None


def room_of(rel):
    """The server room (base, store, ...) a path relative to the source dir belongs to, or None."""
    parts = rel.split("/")
    if len(parts) >= 4 and parts[:2] == ["src", "server"] and parts[2] in SERVER_ROOMS:
        return parts[2]
    return None


def is_public(rel):
    """Whether a server header is its room's public one (src/server/ROOM/ROOM.h)."""
    parts = rel.split("/")
    return len(parts) == 4 and parts[3] == parts[2] + ".h"


def allowed(user, used):
    if "unknown" in (user, used):
        return False
    if user == used:
        return True
    if (user, used) not in PEERS and user.startswith("server/store") and used.startswith("server/store"):
        return True
    if (user, used) in PEERS:
        return False
    return RANK[used] < RANK[user]


def check_public_headers(src, out):
    for f in sorted(os.listdir(os.path.join(src, "include", "schach"))):
        if f.endswith(".h") and f not in PUBLIC:
            out.append(f"include/schach/{f}: no layer given in tests/layers/layers.py (PUBLIC)")


def check_includes(src, out):
    for top in ("src", "include/schach"):
        for root, _, files in os.walk(os.path.join(src, top)):
            for f in sorted(files):
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.join(root, f)
                rel = os.path.relpath(path, src)
                user = layer_of(rel)
                if user is None:
                    continue
                with open(path, encoding="utf-8", errors="replace") as fh:
                    for n, line in enumerate(fh, 1):
                        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
                        if not m:
                            continue
                        inc = m.group(1)
                        # As the compiler looks: beside the file, then src/ and src/server/ (internal), then include/.
                        for base in (os.path.dirname(path), os.path.join(src, "src"), os.path.join(src, "src", "server"),
                                     os.path.join(src, "include")):
                            cand = os.path.normpath(os.path.join(base, inc))
                            if os.path.isfile(cand):
                                break
                        else:
                            continue  # generated or system header
                        cand_rel = os.path.relpath(cand, src)
                        used = layer_of(cand_rel)
                        if used and not allowed(user, used):
                            out.append(f"{rel}:{n}: the {user} layer includes {inc} of the {used} layer")
                        elif (room_of(cand_rel) and room_of(cand_rel) != room_of(rel)
                              and not is_public(cand_rel)):
                            out.append(f"{rel}:{n}: {inc} is not the public header of the room "
                                       f"{room_of(cand_rel)} (src/server/{room_of(cand_rel)}/{room_of(cand_rel)}.h)")


def nm_symbols(objs):
    """{object: (defined, undefined)} from one nm run over all objects (LTO objects through nm's plugin)."""
    res = subprocess.run(["nm", "-P", "-A"] + objs, capture_output=True, text=True)
    table = {obj: (set(), set()) for obj in objs}
    for line in res.stdout.splitlines():
        path, sep, rest = line.partition(": ")
        f = rest.split()
        if not sep or path not in table or len(f) < 2:
            continue
        name, kind = f[0], f[1]
        if kind == "U":
            table[path][1].add(name)
        elif kind in "TDBRVWGS":
            table[path][0].add(name)
    return table


def object_layers(build, src):
    """(layer, object) for every object file of the library and the programs."""
    objs = []
    for root, _, files in os.walk(build):
        if "CMakeFiles" not in root or "/tests/" in root + "/" or "/fuzz/" in root + "/" or "/bench/" in root + "/":
            continue
        for f in files:
            if not f.endswith(".o"):
                continue
            path = os.path.join(root, f)
            m = re.search(r"CMakeFiles/[^/]+\.dir/(.*)\.o$", path)
            if not m:
                continue
            rel = m.group(1)
            if rel.startswith("variants/"):  # cmake/multiversion.cmake's copies: variants/LAYER/FILE_x.c
                parts = rel.split("/")
                layer = parts[1] if len(parts) == 3 and parts[1] in RANK else None
            else:
                layer = layer_of(rel)
            if layer:
                objs.append((layer, path))
    return objs


def check_calls(objs, out):
    table = nm_symbols([obj for _, obj in objs])
    defined_in = {}
    for layer, obj in objs:
        for name in table[obj][0]:
            defined_in.setdefault(name, set()).add(layer)
    for layer, obj in sorted(objs, key=lambda x: x[1]):
        for name in sorted(table[obj][1]):
            owners = defined_in.get(name)
            if not owners or any(allowed(layer, o) for o in owners):
                continue
            owner = sorted(owners, key=RANK.get)[0]
            out.append(f"{os.path.basename(obj)}: the {layer} layer calls {name} of the {owner} layer")


def main():
    args = sys.argv[1:]
    plants = []
    while "--plant-object" in args:
        i = args.index("--plant-object")
        plants.append((args[i + 1], args[i + 2]))
        del args[i:i + 3]
    src = args[0]
    build = args[1] if len(args) > 1 else None
    out = []
    check_public_headers(src, out)
    check_includes(src, out)
    if build:
        objs = object_layers(build, src) + plants
        if not objs:
            out.append(f"no object files of the library under {build}")
        check_calls(objs, out)
    for line in out:
        print(line)
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main())
