#!/usr/bin/python3
"""Generate reference.json, the reference values for package stats' tests.

Run from the repository root with Debian's python3 (pyenv's has no scipy):

    apt-get install -y python3-scipy r-base-core r-cran-coin
    /usr/bin/python3 tracker/stats/testdata/gen_reference.py > tracker/stats/testdata/reference.json

Versions used: scipy 1.10.1, R 4.2.2, coin 1.4-2 (Debian bookworm).

Samples come from a fixed numpy seed and are rounded to few significant
digits so that Python, R and Go all parse them to the same float64.
Every expected value records the tool and the exact call that produced it.
R is run once, through Rscript, on a generated script.
"""

import json
import subprocess
import sys

import numpy as np
from scipy import stats

rng = np.random.default_rng(20261121)
ALTS = ["two-sided", "less", "greater"]


def sample(n, loc=100.0, sd=5.0, decimals=3):
    return [float(v) for v in np.round(rng.normal(loc, sd, n), decimals)]


def lognormal(n, med=1000.0, sigma=0.05, decimals=3):
    return [float(v) for v in np.round(med * np.exp(rng.normal(0, sigma, n)), decimals)]


def has_ties(*xs):
    v = [a for x in xs for a in x]
    return len(set(v)) != len(v)


def untied(gen, *args):
    while True:
        x = gen(*args)
        if not has_ties(x):
            return x


def ralt(alt):
    return alt.replace("-", ".")


def rvec(x):
    return "c(" + ",".join(repr(v) for v in x) + ")"


mw, hl, padj, desc = [], [], [], []
rlines = []  # R statements; each prints "key value"


def r_emit(key, expr):
    rlines.append(f'cat("{key}", sprintf("%.17g", {expr}), "\\n")')


# 1. Exact, no ties: scipy method='exact' and R wilcox.test(exact=TRUE).
exact_sizes = [(3, 4), (5, 5), (6, 9), (10, 10), (12, 8), (20, 30), (25, 25), (40, 45), (49, 49), (50, 50)]
for n, m in exact_sizes:
    for shift in (0.0, 4.0):
        while True:
            x, y = sample(n, 100 + shift), sample(m)
            if not has_ties(x, y):
                break
        for alt in ALTS:
            r = stats.mannwhitneyu(x, y, alternative=alt, method="exact")
            name = f"exact/{n}x{m}/shift={shift}/{alt}"
            mw.append(dict(name=name, x=x, y=y, alt=alt, kind="exact", tool="scipy",
                           cmd=f"scipy.stats.mannwhitneyu(x, y, alternative='{alt}', method='exact')",
                           u=float(r.statistic), p=float(r.pvalue)))
            key = f"mw{len(mw)}"
            mw.append(dict(name=name, x=x, y=y, alt=alt, kind="exact", tool="R",
                           cmd=f"wilcox.test(x, y, alternative='{ralt(alt)}', exact=TRUE)$p.value",
                           u=float(r.statistic), p=key))
            r_emit(key, f"wilcox.test({rvec(x)}, {rvec(y)}, alternative='{ralt(alt)}', exact=TRUE)$p.value")

# Complete separation far in the tail: p = 1/C(n+m, n).
for n, m in [(10, 10), (30, 20), (50, 50)]:
    x, y = [1000.0 + i for i in range(n)], [float(i) for i in range(m)]
    r = stats.mannwhitneyu(x, y, alternative="greater", method="exact")
    mw.append(dict(name=f"exact/separated/{n}x{m}", x=x, y=y, alt="greater", kind="exact", tool="scipy",
                   cmd="scipy.stats.mannwhitneyu(x, y, alternative='greater', method='exact')",
                   u=float(r.statistic), p=float(r.pvalue)))

# 2. Normal approximation with tie and continuity corrections.
normal_cases = [
    ("ties/8x9", sample(8, 100, 3, 0), sample(9, 101, 3, 0)),
    ("ties/20x20", sample(20, 10, 1, 0), sample(20, 10.5, 1, 0)),
    ("ties/30x40", sample(30, 100, 2, 0), sample(40, 99, 2, 0)),
    ("noties/60x70", untied(sample, 60, 101), untied(sample, 70)),
    ("noties/100x100", untied(sample, 100, 100.5), untied(sample, 100)),
    ("deep/60x60", untied(sample, 60, 108), untied(sample, 60)),
    ("deep/100x100", untied(sample, 100, 106), untied(sample, 100)),
    ("ties/100x100", sample(100, 50, 2, 0), sample(100, 51, 2, 0)),
]
for name, x, y in normal_cases:
    for alt in ALTS:
        r = stats.mannwhitneyu(x, y, alternative=alt, method="asymptotic", use_continuity=True)
        mw.append(dict(name=f"normal/{name}/{alt}", x=x, y=y, alt=alt, kind="normal", tool="scipy",
                       cmd=f"scipy.stats.mannwhitneyu(x, y, alternative='{alt}', method='asymptotic', use_continuity=True)",
                       u=float(r.statistic), p=float(r.pvalue)))
        key = f"mw{len(mw)}"
        mw.append(dict(name=f"normal/{name}/{alt}", x=x, y=y, alt=alt, kind="normal", tool="R",
                       cmd=f"wilcox.test(x, y, alternative='{ralt(alt)}', exact=FALSE, correct=TRUE)$p.value",
                       u=float(r.statistic), p=key))
        r_emit(key, f"wilcox.test({rvec(x)}, {rvec(y)}, alternative='{ralt(alt)}', exact=FALSE, correct=TRUE)$p.value")

# 3. Exact given ties: coin's exact permutation distribution of the
#    midrank sum. Two-sided is left to the brute-force test: coin's
#    two-sided convention differs from 2·min(tails).
rlines.insert(0, "suppressMessages(library(coin))")
tie_cases = [
    ("3x4", [1.0, 2.0, 2.0], [2.0, 3.0, 3.0, 4.0]),
    ("6x7", sample(6, 10, 1, 0), sample(7, 10.5, 1, 0)),
    ("10x10", sample(10, 10, 1.5, 0), sample(10, 11, 1.5, 0)),
    ("12x15", sample(12, 20, 2, 0), sample(15, 19, 2, 0)),
    ("25x25", sample(25, 50, 2, 0), sample(25, 51.5, 2, 0)),
    ("20x25/far", sample(20, 50, 1, 0), sample(25, 54, 1, 0)),
]
for name, x, y in tie_cases:
    assert has_ties(x, y), name
    for alt in ("less", "greater"):
        key = f"mw{len(mw)}"
        u = float(stats.mannwhitneyu(x, y, method="asymptotic").statistic)
        mw.append(dict(name=f"exact-ties/{name}/{alt}", x=x, y=y, alt=alt, kind="exact-ties", tool="R coin",
                       cmd=f"pvalue(wilcox_test(v ~ g, data.frame(v=c(x,y), g=factor(rep(c('x','y'), c(n,m)))), distribution='exact', alternative='{alt}'))",
                       u=u, p=key))
        r_emit(key, f"pvalue(wilcox_test(v ~ g, data.frame(v={rvec(x + y)}, g=factor(rep(c('x','y'), c({len(x)},{len(y)})))), distribution='exact', alternative='{alt}'))")

# 4. Hodges-Lehmann ratio: R's estimate and interval on the log scale,
#    exponentiated, plus the exact median of the pairwise log ratios.
#    Outside its exact branch R finds the interval with uniroot(tol=1e-4),
#    so for those cases the script also locates, by bisection over the
#    sorted distinct pairwise differences, the difference at which R's own
#    statistic W(d) (copied from stats:::wilcox.test.default, two-sided,
#    correct=TRUE) crosses the normal quantile: the exact root R approximates.
rlines.append("""
W <- function(x, y, d) {
  n.x <- length(x); n.y <- length(y)
  dr <- rank(c(x - d, y))
  NTIES.CI <- table(dr)
  dz <- sum(dr[seq_along(x)]) - n.x * (n.x + 1)/2 - n.x * n.y/2
  CORRECTION.CI <- sign(dz) * 0.5
  SIGMA.CI <- sqrt((n.x * n.y/12) * ((n.x + n.y + 1) - sum(NTIES.CI^3 - NTIES.CI)/((n.x + n.y) * (n.x + n.y - 1))))
  (dz - CORRECTION.CI)/SIGMA.CI
}
osroot <- function(x, y, zq) {
  u <- sort(unique(as.vector(outer(x, y, "-"))))
  g <- function(j) W(x, y, if (j == 0) u[1] - 1 else if (j == length(u)) u[j] + 1 else (u[j] + u[j + 1])/2) - zq
  lo <- 0; hi <- length(u)  # g(lo) >= 0 > g(hi) once checked
  if (g(lo) < 0) return(u[1])
  while (hi - lo > 1) { mid <- (lo + hi) %/% 2; if (g(mid) < 0) hi <- mid else lo <- mid }
  u[hi]
}
""")
hl_cases = [
    ("5x5", 5, 5, 0.0, 0.95), ("10x10", 10, 10, 0.08, 0.99), ("10x12", 10, 12, -0.05, 0.95),
    ("20x20", 20, 20, 0.02, 0.99), ("30x45", 30, 45, 0.0, 0.90), ("49x49", 49, 49, 0.1, 0.99),
    ("3x3", 3, 3, 0.0, 0.99),  # no k achieves 99%: the interval is [min, max]
    ("60x60", 60, 60, 0.05, 0.99), ("100x100", 100, 100, -0.02, 0.99), ("80x120", 80, 120, 0.0, 0.95),
    ("ties/70x90", 70, 90, 0.03, 0.99),
]
for name, n, m, shift, conf in hl_cases:
    while True:
        base, cand = lognormal(n), lognormal(m, 1000 * np.exp(shift))
        if not has_ties(base, cand):
            break
    if name == "ties/70x90":  # R's normal branch handles ties too
        base, cand = lognormal(n, 1000, 0.05, -1), lognormal(m, 1000 * np.exp(shift), 0.05, -1)
    key = f"hl{len(hl)}"
    hl.append(dict(name=name, base=base, cand=cand, conf=conf, tool="R",
                   cmd=f"exp(wilcox.test(log(cand), log(base), conf.int=TRUE, conf.level={conf})[c('estimate','conf.int')]); exp(median(outer(log(cand), log(base), '-')))",
                   exact=n < 50 and m < 50, key=key))
    rlines.append(f"w <- suppressWarnings(wilcox.test(log({rvec(cand)}), log({rvec(base)}), conf.int=TRUE, conf.level={conf}))")
    r_emit(key + "est", "exp(w$estimate)")
    r_emit(key + "lo", "exp(w$conf.int[1])")
    r_emit(key + "hi", "exp(w$conf.int[2])")
    r_emit(key + "med", f"exp(median(outer(log({rvec(cand)}), log({rvec(base)}), '-')))")
    if not hl[-1]["exact"]:
        a = 1 - conf
        r_emit(key + "lo_root", f"exp(osroot(log({rvec(cand)}), log({rvec(base)}), qnorm({a}/2, lower.tail=FALSE)))")
        r_emit(key + "hi_root", f"exp(osroot(log({rvec(cand)}), log({rvec(base)}), qnorm({a}/2)))")

# 5. p.adjust.
padj_cases = [
    ("mixed", [0.01, 0.04, 0.03, 0.2, 0.5, 0.001, 0.04, 1.0]),
    ("tiny", [1e-6, 2e-6, 3e-8, 0.5, 1.2e-6, 0.049, 0.9, 1e-12, 4e-6, 0.02]),
    ("ties", [0.02, 0.02, 0.02, 0.5, 0.5]),
    ("one", [0.03]),
    ("na", [0.01, None, 0.02, 0.9]),
    ("random", [float(v) for v in np.round(rng.uniform(0, 0.2, 40) ** 2, 8)]),
]
for name, p in padj_cases:
    for method in ("BH", "holm"):
        key = f"pa{len(padj)}"
        rp = "c(" + ",".join("NA" if v is None else repr(v) for v in p) + ")"
        padj.append(dict(name=f"{method}/{name}", p=p, method=method, tool="R",
                         cmd=f"p.adjust(p, method='{method}')", key=key))
        for i in (i for i, v in enumerate(p) if v is not None):
            r_emit(f"{key}_{i}", f"p.adjust({rp}, method='{method}')[{i + 1}]")

# 6. Describe: numpy, ddof=1 and linear (type 7) percentiles; raw MAD.
for name, x in [("normal/30", sample(30)), ("small/2", [3.0, 1.0]), ("ties/9", sample(9, 10, 2, 0)),
                ("lognormal/101", lognormal(101, 50, 0.2))]:
    a = np.array(x)
    desc.append(dict(name=name, x=x, tool="numpy",
                     cmd="np.median, np.mean, np.std(ddof=1), np.percentile(x, [95, 99]), scipy.stats.median_abs_deviation(x)",
                     median=float(np.median(a)), mean=float(np.mean(a)), std=float(np.std(a, ddof=1)),
                     p95=float(np.percentile(a, 95)), p99=float(np.percentile(a, 99)),
                     mad=float(stats.median_abs_deviation(a))))

out = subprocess.run(["Rscript", "-"], input="\n".join(rlines), capture_output=True, text=True)
if out.returncode != 0:
    sys.exit("Rscript failed:\n" + out.stderr[-3000:])
out = out.stdout
rvals = {}
for line in out.splitlines():
    k, v = line.split()
    rvals[k] = float(v)
for c in mw:
    if isinstance(c["p"], str):
        c["p"] = rvals[c["p"]]
for c in hl:
    k = c.pop("key")
    c.update(est=rvals[k + "est"], lo=rvals[k + "lo"], hi=rvals[k + "hi"], median=rvals[k + "med"])
    if not c["exact"]:
        c.update(lo_root=rvals[k + "lo_root"], hi_root=rvals[k + "hi_root"])
for c in padj:
    k = c.pop("key")
    c["want"] = [None if v is None else rvals[f"{k}_{i}"] for i, v in enumerate(c["p"])]

# One case per line keeps diffs of the vectors readable.
sections = dict(mannwhitney=mw, hodges_lehmann=hl, padjust=padj, describe=desc)
print("{")
print(",\n".join(f"{json.dumps(k)}: [\n" + ",\n".join(json.dumps(c) for c in v) + "\n]" for k, v in sections.items()))
print("}")
