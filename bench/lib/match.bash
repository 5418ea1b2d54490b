# Shared by the benchmarks that run `schach match` (strength.sh, levels.sh); sourced, not run.

# schach_binary SCRIPT [PATH]: prints PATH (default build/schach) as an absolute path; exits the
# calling script when it is not executable.
schach_binary() {
    local path=${2:-build/schach}
    case $path in /*) ;; *) path=$PWD/$path ;; esac
    [ -x "$path" ] || { echo "$1: $path is not executable (build it first)" >&2; exit 1; }
    echo "$path"
}

# find_engine NAME...: the first of the programs that exists (PATH or /usr/games).
find_engine() {
    for name in "$@"; do
        if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return 0; fi
        if [ -x "/usr/games/$name" ]; then echo "/usr/games/$name"; return 0; fi
    done
    return 1
}

# final_report FILE: the last block of a `schach match` output (its final statistics), which
# starts after the last empty line.
final_report() {
    awk 'BEGIN{RS=""} {block=$0} END{print block}' "$1"
}
