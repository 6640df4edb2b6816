#!/usr/bin/env bash
# run --strict on the GPU machine: once on an idle GPU, once while another
# process (PyTorch) holds the GPU. Run from the repository root after
# `source .gpu/gpu-env.sh`; writes under $OUT.
set -uo pipefail
go build -tags cuda -o /tmp/pg ./cmd/perfgate || exit 1
F='elementwise/add/dtype=fp32/n=4K'
/tmp/pg run --strict --suite elementwise --size ci --filter "$F" --out $OUT/idle.json > $OUT/idle.log 2>&1; echo "idle GPU: run --strict exit $?"
python3 -c '
import torch, time
x = torch.empty(1 << 28, device="cuda"); torch.cuda.synchronize()
open("/tmp/busy.ready", "w").close(); time.sleep(60)' &
busy=$!
for i in $(seq 60); do [ -e /tmp/busy.ready ] && break; sleep 0.5; done
nvidia-smi --query-compute-apps=pid,used_memory --format=csv > $OUT/apps.csv
/tmp/pg run --strict --suite elementwise --size ci --filter "$F" --out $OUT/busy.json > $OUT/busy.log 2>&1; echo "busy GPU: run --strict exit $? (3 = refused)"
/tmp/pg run --suite elementwise --size ci --filter "$F" --out $OUT/busy-warn.json > $OUT/busy-warn.log 2>&1; echo "busy GPU: run (no --strict) exit $?"
kill $busy; wait $busy 2>/dev/null
grep -i -m3 "process\|refus\|warn" $OUT/busy.log; grep -i -m3 "process\|warn" $OUT/busy-warn.log
