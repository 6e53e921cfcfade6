#!/bin/sh
# The issue-41 final run of 2026-12-05 (branch t41-final): ONE process (nice -n 10), 3 players,
# fresh deals 90001-90200 (nothing in the project had played or tuned on them), in chunks of
# 5 deals; on each chunk the four target tables are played one after the other, so at any stop
# every table has been played on the same first deals (paired). benchmarks.mixed play appends
# a row per game and resumes, so the script can be restarted. No chunk starts after $STOP
# (UTC, HH:MM; default 09:10) so that the run ends by 09:15.
# Usage, from the repository's root: nice -n 10 sh benchmarks/results/mixed-final-2026-12-05/run.sh
D=benchmarks/results/mixed-final-2026-12-05
STOP=${STOP:-09:10}
T="uct/uct plausible/uct uct/plausible noisy/uct"
{ date -u; uname -m; nproc; uptime; git rev-parse HEAD; } > $D/load-start.txt
s=90001
while [ $s -le 90200 ]; do
  if [ "$(date -u +%H:%M)" \> "$STOP" ]; then echo "stopped before deal $s at $(date -u)"; break; fi
  e=$((s+4))
  for t in $T; do
    python -m benchmarks.mixed play --out $D --players 3 --seeds $s-$e --table $t
  done
  s=$((e+1))
done
{ date -u; uptime; } > $D/load-end.txt
