"""analyze2.py: probe2.c's lanes. Usage: python3 analyze2.py FILE.jsonl...
Per quantity: each process's lane values; the SD across processes (%, log) of
E0, of the mean over E0..E7, of the mean over K0..K7, and of G; the mean
within-process SD over E0..E7 and over K0..K7."""
import json, math, statistics as st, sys
for path in sys.argv[1:]:
    ps = [json.loads(l) for l in open(path) if l.startswith("{")]
    print(f"{path}: {len(ps)} processes")
    for q in ["b4k", "m4k"]:
        sd = lambda xs: 100 * st.stdev(xs)
        L = lambda p, i: math.log(p[q][i])
        print(f"  {q}: between E0 {sd([L(p,0) for p in ps]):.2f}%  mean(E*) {sd([st.mean(L(p,i) for i in range(8)) for p in ps]):.2f}%"
              f"  mean(K*) {sd([st.mean(L(p,i) for i in range(8,16)) for p in ps]):.2f}%  G {sd([L(p,16) for p in ps]):.2f}%"
              f" | within E {st.mean(sd([L(p,i) for i in range(8)]) for p in ps):.2f}%  K {st.mean(sd([L(p,i) for i in range(8,16)]) for p in ps):.2f}%")
        for p in ps:
            print("    E", " ".join(f"{x:.3f}" for x in p[q][:8]), "| K", " ".join(f"{x:.3f}" for x in p[q][8:16]), "| G", f"{p[q][16]:.3f}")
