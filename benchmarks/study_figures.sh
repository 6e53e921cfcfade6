#!/usr/bin/env bash
# The figures of docs/results.md: a study in stages, then its report.
#
#   benchmarks/study_figures.sh run DB [WORKERS] [TIME_LIMIT]
#       the study stages, in order (each resumes what is stored; STAGE_END_1..4 = a UTC time
#       such as 06:42 stops that stage cleanly with SIGTERM at that time, for a shared machine;
#       WASTE_TIME_LIMIT = the fixed limit of the waste stage, default TIME_LIMIT)
#   benchmarks/study_figures.sh report DB OUTDIR
#       Markdown tables and JSON of every figure into OUTDIR, plots into OUTDIR/plots-*
#
# Runs seed by seed, so a stage stopped early covers every player count and rule set on its
# first seeds. Never writes over DB (it is extended) and writes the report into OUTDIR only.
set -euo pipefail
cmd=${1:?usage: study_figures.sh run DB [WORKERS] [TIME_LIMIT] | report DB OUTDIR}
db=${2:?the study database}
ascent() { python -m cli.main "$@"; }

stage() {  # stage END_TIME ARGS...: run one stage, stopped at END_TIME (UTC) if given
    local end=$1; shift
    if [ -n "$end" ]; then
        local left=$(( $(date -u -d "$end" +%s) - $(date -u +%s) ))
        if [ "$left" -le 5 ]; then echo "=== skipped (past $end): ascent $*"; return 0; fi
        echo "=== $(date -u +%H:%M:%S) until $end: ascent $*"
        timeout -s TERM "$left" python -m cli.main "$@" || echo "=== stopped (rc $?)"
    else
        echo "=== $(date -u +%H:%M:%S): ascent $*"
        ascent "$@"
    fi
}

case "$cmd" in
run)
    w=${3:-1}; tl=${4:-10}
    stage "${STAGE_END_1:-}" study run --players 1-5 --seeds 1-2000 --time-limit "$tl" --db "$db" --workers "$w"
    stage "${STAGE_END_2:-}" study run --players 1-5 --seeds 1-2000 --vary rulings --each --time-limit "$tl" --db "$db" --workers "$w"
    stage "${STAGE_END_3:-}" study run --players 1-5 --seeds 1-2000 --vary hand_size=3,4,6 --vary summits=3,4 --each --time-limit "$tl" --db "$db" --workers "$w"
    stage "${STAGE_END_4:-}" study run --players 1-5 --seeds 1-2000 --objective waste --time-limit "${WASTE_TIME_LIMIT:-$tl}" --db "$db" --workers "$w"
    ;;
report)
    out=${3:?the output folder}
    mkdir -p "$out"
    rulings="standard,standard bridge_neighbour=look-through,standard bridge_replace_cost=left,standard campfire_move_cost=free,standard dealing=blocks"
    designer="standard,standard hand_size=3,standard hand_size=4,standard hand_size=6,standard summits=3,standard summits=4"
    report() {  # report NAME ARGS...: Markdown, JSON and plots of one figure
        local name=$1; shift
        ascent study report --db "$db" "$@" --markdown > "$out/$name.md"
        ascent study report --db "$db" "$@" --json > "$out/$name.json"
        ascent study report --db "$db" "$@" --json --plots "$out/plots-$name" > /dev/null
    }
    complete() {  # the last seed solved for every player count under rule set $1 (objective none)
        python - "$db" "$1" <<'PY'
import sqlite3, sys
con = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
seeds = [r[0] for r in con.execute(
    "SELECT seed FROM solves WHERE variant = ? AND objective = 'none' GROUP BY seed "
    "HAVING count(DISTINCT players) = 5 ORDER BY seed", (sys.argv[2],))]
k = 0
while k < len(seeds) and seeds[k] == k + 1:
    k += 1
print(k)
PY
    }
    k_std=$(complete standard)
    k_rul=$(complete "standard dealing=blocks")
    k_des=$(complete "standard summits=4")
    echo "complete seeds: standard 1-$k_std, rulings 1-$k_rul, designer 1-$k_des" | tee "$out/seeds.txt"
    report winnability --by players --only objective=none --only variant=standard --only "seed=1-$k_std"
    [ "$k_rul" -gt 0 ] && report rulings --by players,variant --only objective=none --only "variant=$rulings" --only "seed=1-$k_rul"
    [ "$k_des" -gt 0 ] && report designer --by players,variant --only objective=none --only "variant=$designer" --only "seed=1-$k_des"
    report cards-out --by players --only objective=waste --only variant=standard || true
    ;;
*) echo "usage: study_figures.sh run DB [WORKERS] [TIME_LIMIT] | report DB OUTDIR" >&2; exit 2 ;;
esac
