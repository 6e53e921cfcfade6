#!/bin/sh
# The issue-41 run of 2026-12-05: two processes (nice -n 10), 3 players, deals 80001-80100
# in chunks of 5 deals, each process playing its two target tables on a chunk before the next,
# so that at any stop every target table has been played on the same first deals
# (benchmarks.mixed play appends a row per game and resumes). After the targets, the ablation
# tables the same way. $1 = a|b (the output folder of the process).
D=benchmarks/results/mixed-2026-12-05
case $1 in
  a) T="uct/uct uct/plausible"; A="plausible/adhoc plausible/adhoc-tree";;
  b) T="plausible/uct noisy/uct"; A="plausible/adhoc-worlds adhoc/plausible";;
esac
for tables in "$T" "$A"; do
  s=80001
  while [ $s -le 80100 ]; do
    e=$((s+4))
    for t in $tables; do
      python -m benchmarks.mixed play --out $D/$1 --players 3 --seeds $s-$e --table $t
    done
    s=$((e+1))
  done
done
