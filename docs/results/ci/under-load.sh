#!/usr/bin/env bash
# Three runs of .ci/run, each on a fresh clone of main, with 2 busy loops running throughout.
set -u
log=${TMPDIR:-/tmp}/ci3x.log; : > $log
for i in 1 2 3; do
  d=${TMPDIR:-/tmp}/ci3x-$i; rm -rf $d; git clone -q "${REPO:-$(git rev-parse --show-toplevel)}" $d
  ( while :; do :; done ) & b1=$!
  ( while :; do :; done ) & b2=$!
  start=$(date +%s)
  (cd $d && echo "run $i at $(git log --oneline -1 | cut -c1-60), start $(date -u +%T)" >> $log && bash .ci/run > ${TMPDIR:-/tmp}/ci3x-$i.log 2>&1)
  rc=$?
  kill $b1 $b2; wait $b1 $b2 2>/dev/null
  echo "run $i: rc=$rc $(( $(date +%s) - start )) s, load at end $(cut -d' ' -f1-3 /proc/loadavg)" >> $log
  [ $rc = 0 ] || break
done
echo done >> $log
