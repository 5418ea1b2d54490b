#!/usr/bin/env python3
"""Every name libschach's public headers declare, one per line as "KIND NAME".

Usage: public_names.py INCLUDE_DIR

The declarations come from clang's syntax tree of the umbrella header (functions, data, types, enum
constants, struct and enum tags), the macros from the headers' text (also those inside #if branches
the compiler did not take). Names declared inside a struct (its fields) are not global and are not
listed. Used by tests/cli/namespace.sh, which wants every name to carry the prefix.
"""
import json
import os
import re
import subprocess
import sys


def declared(include_dir):
    header = os.path.join(include_dir, "schach", "schach.h")
    proc = subprocess.run(
        ["clang", "-Xclang", "-ast-dump=json", "-fsyntax-only", "-x", "c", "-I", include_dir, header],
        capture_output=True, text=True, check=True)
    tree = json.loads(proc.stdout)
    public_dir = os.path.realpath(os.path.join(include_dir, "schach"))
    names = []
    current = [None]  # clang writes a file name only where it changes

    def note_file(node):
        loc = node.get("loc", {})
        for where in (loc, loc.get("spellingLoc", {}), loc.get("expansionLoc", {})):
            if "file" in where:
                current[0] = where["file"]
                return

    def skip(node):  # inside a body or a struct: follow the file changes only
        note_file(node)
        for child in node.get("inner", []):
            skip(child)

    def walk(node):
        note_file(node)
        kind = node.get("kind")
        inside = current[0] and os.path.realpath(os.path.dirname(current[0])) == public_dir
        # clang declares the builtins a header calls (__builtin_ctzll) where they are first used.
        if inside and node.get("name") and not node["name"].startswith("__builtin_") and kind in (
                "FunctionDecl", "VarDecl", "TypedefDecl", "EnumConstantDecl", "RecordDecl", "EnumDecl"):
            names.append((kind, node["name"]))
        for child in node.get("inner", []):
            if kind in ("FunctionDecl", "RecordDecl"):
                skip(child)
            else:
                walk(child)

    walk(tree)
    return names


def macros(include_dir):
    names = []
    folder = os.path.join(include_dir, "schach")
    for header in sorted(os.listdir(folder)):
        with open(os.path.join(folder, header), encoding="utf-8") as f:
            for m in re.finditer(r"^\s*#\s*define\s+(\w+)", f.read(), re.M):
                names.append(("Macro", m.group(1)))
    return names


def main():
    include_dir = sys.argv[1]
    seen = set()
    for kind, name in declared(include_dir) + macros(include_dir):
        if (kind, name) not in seen:
            seen.add((kind, name))
            print(kind, name)


if __name__ == "__main__":
    main()
