#!/usr/bin/env bash
# device-i15.sh: one device call for issue 15's open items (bf16 transcendental
# elementwise, LayerNorm bf16, the rowwise medium preset) and issue 14's peak
# RSS, with PyTorch side by side:
#   source .gpu/gpu-env.sh && bash docs/results/device-i15.sh
# Stages (STAGES, default "test ew rowwise decode attention torch rss gemm";
# also rsssuites, rssfull, gemmall): go test; elementwise transcendental at
# 16M/64M; rowwise at RW_SIZE (default medium); decode (DECODE_REPS processes,
# DECODE_FILTER); attention at S = 2048 with torch_attention.py gqa; PyTorch
# for the elementwise and rowwise runs; peak RSS of --suite memory (OLD: a
# tree to build as the "before"), of every default suite at ci and of
# --rounds 3 (OLD_GPUMEM: an older kernels/gpumem_cuda.go, e.g. `git show
# 250844a:kernels/gpumem_cuda.go`, built into a copy of this tree), of the
# default run; gemm fp16/bf16 in three tilings; gemmvar: fp16 4096 with 3
# pipeline stages and with raster groups of 16; the whole gemm medium preset.
# Other knobs: EW_FILTER, RW_FILTER, RUNFLAGS (default --fast), BUDGET
# (seconds after which a stage is skipped). Writes to $OUT: summary.txt,
# table.md, results.tgz.
set -uo pipefail
STAGES=${STAGES:-test ew rowwise decode attention torch rss gemm}
EW_FILTER=${EW_FILTER:-'^elementwise/(sigmoid|gelu|swish|add)/.*/n=(16M|64M)/'}
RW_SIZE=${RW_SIZE:-medium}
RW_FILTER=${RW_FILTER:-.}
RUNFLAGS=${RUNFLAGS:---fast}
BUDGET=${BUDGET:-540} # seconds: a stage that starts later is skipped
want() { [[ " $STAGES " == *" $1 "* ]] || return 1; [ $SECONDS -lt $BUDGET ] || { echo "skip $1: ${SECONDS}s" | tee -a "$OUT/summary.txt"; return 1; }; }
OUT=${OUT:-/tmp/perfgate-out}
W=/tmp/i15-results
mkdir -p "$OUT" $W
pg=/tmp/pg
stage() { echo "== $(date -u +%T) $*" | tee -a "$OUT/summary.txt"; }
finish() {
  tar -C $W -czf "$OUT/results.tgz" . 2>/dev/null
  stage done
}
trap finish EXIT
# maxrss runs a command and prints its peak resident set (MiB) to stderr.
maxrss() {
  python3 -c 'import resource, subprocess, sys
rc = subprocess.call(sys.argv[1:])
print("maxrss_mib %.0f rc %d: %s" % (resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, rc, " ".join(sys.argv[1:4])), file=sys.stderr)
sys.exit(rc)' "$@"
}

stage build
go build -tags cuda -o $pg ./cmd/perfgate || exit 1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv >> "$OUT/summary.txt"
meta=(--repo perfgate/perfgate --testbed lent-h100 --commit "$(cat docs/results/.commit 2>/dev/null || echo 0000000000000000000000000000000000000000)" --branch main --event push)

want test && {
  stage "go test -tags cuda ./kernels/... (PERFGATE_REQUIRE_GPU=${PERFGATE_REQUIRE_GPU:-})"
  timeout 150 go test -tags cuda -count=1 -v ./kernels/... > $W/test.log 2>&1
  echo "go test exit $?" | tee -a "$OUT/summary.txt"
  grep -E "^(--- FAIL|ok|FAIL|panic)" $W/test.log | head -40 | tee -a "$OUT/summary.txt"
  grep -E -A3 "^    --- FAIL" $W/test.log | head -40 >> "$OUT/summary.txt"
}

runs=()
want ew && {
  stage "perfgate run elementwise --size medium --filter $EW_FILTER $RUNFLAGS"
  timeout 120 $pg run "${meta[@]}" --suite elementwise --size medium --filter "$EW_FILTER" $RUNFLAGS --out $W/elementwise.json 2> $W/elementwise.log
  echo "elementwise exit $?" | tee -a "$OUT/summary.txt"
  runs+=($W/elementwise.json)
}
want rowwise && {
  stage "perfgate run rowwise --size $RW_SIZE --filter $RW_FILTER $RUNFLAGS"
  maxrss timeout 240 $pg run "${meta[@]}" --suite rowwise --size "$RW_SIZE" --filter "$RW_FILTER" $RUNFLAGS --out $W/rowwise.json 2> $W/rowwise.log
  echo "rowwise exit $?" | tee -a "$OUT/summary.txt"
  grep maxrss $W/rowwise.log >> "$OUT/summary.txt"
  runs+=($W/rowwise.json)
}
want decode && {
  stage "perfgate run decode --size medium $RUNFLAGS"
  for i in ${DECODE_REPS:-1}; do # separate processes: their spread is the noise to judge by
    timeout 150 $pg run "${meta[@]}" --suite decode --size medium --filter "${DECODE_FILTER:-.}" $RUNFLAGS --out $W/decode$i.json 2> $W/decode$i.log
    echo "decode $i exit $?" | tee -a "$OUT/summary.txt"
    python3 docs/results/decode_summary.py $W/decode$i.json | tee -a "$OUT/summary.txt"
  done
}
want attention && {
  stage "perfgate run attention --filter s=2048/ $RUNFLAGS; torch_attention.py gqa"
  timeout 150 $pg run "${meta[@]}" --suite attention --size medium --filter 's=2048/' $RUNFLAGS --out $W/attention.json 2> $W/attention.log
  echo "attention exit $?" | tee -a "$OUT/summary.txt"
  PYTHONUNBUFFERED=1 timeout 150 python3 docs/results/torch_attention.py gqa > $W/torch-attention.jsonl 2> $W/torch-attention.err
  echo "torch attention exit $?" | tee -a "$OUT/summary.txt"
  python3 docs/results/attention_table.py $W/attention.json $W/torch-attention.jsonl | tee -a "$OUT/summary.txt"
}
grep -h "ERROR\|perfgate:" $W/*.log 2>/dev/null | grep -v "^=== \|^--- \|^    " | head -20 >> "$OUT/summary.txt"

want torch && [ ${#runs[@]} -gt 0 ] && {
  stage "torch reference"
  python3 - "${runs[@]}" > $W/perfgate.json <<'EOF'
import json, os, sys
docs = [json.load(open(p)) for p in sys.argv[1:] if os.path.exists(p) and os.path.getsize(p) > 0]
out = docs[0]
for d in docs[1:]:
    out["benchmarks"] += d["benchmarks"]
json.dump(out, sys.stdout)
EOF
  PYTHONUNBUFFERED=1 timeout 200 python3 docs/results/torch_rowwise.py time $W/perfgate.json > $W/torch.json 2> $W/torch.err
  echo "torch exit $?" | tee -a "$OUT/summary.txt"
  python3 docs/results/torch_rowwise.py table $W/perfgate.json $W/torch.json > "$OUT/table.md" 2>> $W/torch.err
  cp "$OUT/table.md" $W/
}

want rss && {
  stage "peak RSS: perfgate run --suite memory $RUNFLAGS (new${OLD:+, old from $OLD})"
  maxrss $pg run --suite memory $RUNFLAGS --out $W/memory.json 2>&1 | grep maxrss | sed 's/^/new /' | tee -a "$OUT/summary.txt"
  vendor=$(readlink -f vendor)
  [ -n "${OLD:-}" ] && (cd "$OLD" && { [ -e vendor ] || ln -s "$vendor" vendor; } && go build -tags cuda -o /tmp/pg_old ./cmd/perfgate) && \
    maxrss /tmp/pg_old run --suite memory $RUNFLAGS --out $W/memory-old.json 2>&1 | grep maxrss | sed 's/^/old /' | tee -a "$OUT/summary.txt"
}

want rssfull && {
  stage "peak RSS of the default run: perfgate run (default suites and size)"
  maxrss timeout 200 $pg run "${meta[@]}" --out $W/default-run.json 2> $W/default-run.log
  echo "default run exit $?" | tee -a "$OUT/summary.txt"
  grep maxrss $W/default-run.log | tee -a "$OUT/summary.txt"
  tail -3 $W/default-run.log >> "$OUT/summary.txt"
}

want rsssuites && {
  stage "peak RSS per default suite at size ci, new${OLD_GPUMEM:+ and old}; then perfgate run --rounds 3 (new)"
  # OLD_GPUMEM: kernels/gpumem_cuda.go from before the chunked verify, built
  # into an otherwise identical copy of this tree as the "before".
  if [ -n "${OLD_GPUMEM:-}" ]; then
    rm -rf /tmp/oldtree && cp -rL . /tmp/oldtree 2>/dev/null; cp "$OLD_GPUMEM" /tmp/oldtree/kernels/gpumem_cuda.go
    (cd /tmp/oldtree && go build -tags cuda -o /tmp/pg_old ./cmd/perfgate) || echo "old build failed" | tee -a "$OUT/summary.txt"
  fi
  for suite in memory elementwise microbatch mixedops attention decode; do
    for bin in $pg ${OLD_GPUMEM:+/tmp/pg_old}; do
      maxrss $bin run --suite $suite --size ci --out $W/rss-$suite.json 2>&1 | grep maxrss | sed "s|^|$suite $bin |" | tee -a "$OUT/summary.txt"
    done
  done
  maxrss timeout 200 $pg run "${meta[@]}" --rounds 3 --out $W/rounds3/ 2> $W/rounds3.log
  echo "rounds 3 exit $?" | tee -a "$OUT/summary.txt"
  grep maxrss $W/rounds3.log | tee -a "$OUT/summary.txt"
}

want gemmall && {
  stage "perfgate run gemm --size medium $RUNFLAGS (every dtype)"
  timeout 150 $pg run "${meta[@]}" --suite gemm --size medium $RUNFLAGS --out $W/gemm-medium.json 2> $W/gemm-medium.log
  echo "gemm medium exit $?" | tee -a "$OUT/summary.txt"
  grep -E "^(tiled|cublas)/" $W/gemm-medium.log | grep "mode=cold" | tee -a "$OUT/summary.txt"
}

want gemmvar && {
  stage "gemm fp16 at 4096: tiled+cublas, then tiled with GEMM_STAGES 3, then raster groups of 16"
  f='^gemm/(tiled|cublas)/dtype=fp16/shape=(4096x4096x4096|4096x11008x4096)/'
  timeout 60 $pg run "${meta[@]}" --suite gemm --size medium --filter "$f" $RUNFLAGS --out $W/gemmvar-base.json 2> $W/gemmvar-base.log
  grep -E "^gemm/.*mode=cold" $W/gemmvar-base.log | tee -a "$OUT/summary.txt"
  for v in st3 g16; do
    rm -rf /tmp/vt && cp -rL . /tmp/vt 2>/dev/null
    case $v in
      st3) sed -i 's/#define GEMM_STAGES 4/#define GEMM_STAGES 3/' /tmp/vt/kernels/cu/gemm.cu
           sed -i 's/return 4 \* (128\*(bk+8)/return 3 * (128*(bk+8)/' /tmp/vt/kernels/suite_gemm_cuda.go ;;
      g16) sed -i 's/const int group = 8;/const int group = 16;/' /tmp/vt/kernels/cu/gemm.cu ;;
    esac
    grep -c "GEMM_STAGES 3\|group = 16\|return 3 \*" /tmp/vt/kernels/cu/gemm.cu /tmp/vt/kernels/suite_gemm_cuda.go | tr '\n' ' ' | tee -a "$OUT/summary.txt"; echo | tee -a "$OUT/summary.txt"
    (cd /tmp/vt && go build -tags cuda -o /tmp/pg-$v ./cmd/perfgate) && \
      timeout 60 /tmp/pg-$v run "${meta[@]}" --suite gemm --size medium --filter '^gemm/tiled/dtype=fp16/shape=(4096x4096x4096|4096x11008x4096)/' $RUNFLAGS --out $W/gemmvar-$v.json 2> $W/gemmvar-$v.log
    grep -E "^gemm/.*mode=cold" $W/gemmvar-$v.log | sed "s/^/$v /" | tee -a "$OUT/summary.txt"
  done
}

want gemm && {
  stage "perfgate run gemm fp16/bf16: tiled (gemmTile's pick) + cublas; tiled forced to 128x256x32; tiled forced to 128x128x32"
  f='^gemm/(tiled|cublas)/dtype=(fp16|bf16)/'
  timeout 100 $pg run "${meta[@]}" --suite gemm --size medium --filter "$f" $RUNFLAGS --out $W/gemm.json 2> $W/gemm.log
  echo "gemm exit $?" | tee -a "$OUT/summary.txt"
  cp kernels/suite_gemm_cuda.go /tmp/gemm.go.orig
  sed -i 's/c.K%64 == 0/c.K%64 == 99/' kernels/suite_gemm_cuda.go && go build -tags cuda -o /tmp/pgk32 ./cmd/perfgate && \
    timeout 60 /tmp/pgk32 run "${meta[@]}" --suite gemm --size medium --filter '^gemm/tiled/dtype=(fp16|bf16)/' $RUNFLAGS --out $W/gemm256k32.json 2> $W/gemm256k32.log
  echo "gemm 256x32 exit $?" | tee -a "$OUT/summary.txt"
  sed -i 's/c.Dim%256 == 0 \&\&/c.Dim%256 == 99 \&\&/' kernels/suite_gemm_cuda.go && go build -tags cuda -o /tmp/pg128 ./cmd/perfgate && \
    timeout 60 /tmp/pg128 run "${meta[@]}" --suite gemm --size medium --filter '^gemm/tiled/dtype=(fp16|bf16)/' $RUNFLAGS --out $W/gemm128.json 2> $W/gemm128.log
  echo "gemm 128 exit $?" | tee -a "$OUT/summary.txt"
  cp /tmp/gemm.go.orig kernels/suite_gemm_cuda.go
  python3 - $W/gemm.json $W/gemm256k32.json $W/gemm128.json <<'EOF' | tee -a "$OUT/summary.txt"
import json, sys
r = {}
for tag, path in zip(("pick", "t256k32", "t128"), sys.argv[1:]):
    try:
        bs = json.load(open(path))["benchmarks"]
    except Exception as e:
        print(path, e); continue
    for b in bs:
        if b.get("error"):
            print("ERROR", tag, b["name"], b["error"][:300]); continue
        op = b["name"].split("/")[0]
        key = op if tag == "pick" else tag
        r[(b["params"]["dtype"], b["params"]["shape"], b["params"]["mode"], key)] = (b["metrics"], b.get("info", {}).get("kernel", ""))
print("dtype shape mode | cublas us | picked us (% of cublas) kernel | 128x256x32 | 128x128x32 | picked TF/s")
for k in sorted({k[:3] for k in r}):
    c = r.get(k + ("cublas",))
    f = lambda x: "%.1f (%.1f%%)" % (x[0]["median_us"], 100 * c[0]["median_us"] / x[0]["median_us"]) if x and c else "-"
    t = r.get(k + ("tiled",))
    print(*k, "| %s | %s %s | %s | %s | %s" % (c and "%.1f" % c[0]["median_us"], f(t), t and t[1], f(r.get(k + ("t256k32",))),
          f(r.get(k + ("t128",))), t and "%.0f" % t[0].get("tflops", 0)))
EOF
}
