"""analyze.py: between- and within-process spread of probe.c's lanes.
Usage: python3 analyze.py normal.jsonl [norand.jsonl conn32.jsonl ...]
For each file and quantity: the SD (in %, of log values) across processes of
one lane (S0), of the mean over the 8 streams, and of the mean over the 4
contexts (S0, C1..C3); and the mean within-process SD across streams,
placements (S0, P1..P3), contexts, and S0 vs M1 (the module loaded again)."""
import json, math, statistics as st, sys

Q = ["b4k", "b1m", "q4k", "g4k"]
def sd(x): return 100 * st.stdev(x) if len(x) > 1 else float("nan")
for path in sys.argv[1:]:
    procs = [json.loads(l) for l in open(path) if l.startswith("{")]
    print(f"{path}: {len(procs)} processes")
    print("  q     S0 median  between: S0   mean(S*)  mean(S0,C*) | within: streams  placements  contexts  module")
    for q in Q:
        lg = lambda p, k: math.log(p[k][q])
        S = [f"S{i}" for i in range(8)]; P = ["S0", "P1", "P2", "P3"]; C = ["S0", "C1", "C2", "C3"]
        b_s0 = sd([lg(p, "S0") for p in procs])
        b_ms = sd([st.mean(lg(p, k) for k in S) for p in procs])
        b_mc = sd([st.mean(lg(p, k) for k in C) for p in procs])
        w = lambda ks: st.mean(sd([lg(p, k) for k in ks]) for p in procs)
        print(f"  {q}  {st.median(p['S0'][q] for p in procs):8.3f}   {b_s0:6.2f}%  {b_ms:7.2f}%  {b_mc:9.2f}%   |  {w(S):7.2f}%  {w(P):9.2f}%  {w(C):8.2f}%  {w(['S0','M1']):6.2f}%")
    for q in ["b4k", "q4k"]:
        print(f"  {q} per process, lanes S0..S7 | C1..C3:")
        for p in procs:
            print("   ", " ".join(f"{p[f'S{i}'][q]:.3f}" for i in range(8)), "|", " ".join(f"{p[c][q]:.3f}" for c in ["C1", "C2", "C3"]))
