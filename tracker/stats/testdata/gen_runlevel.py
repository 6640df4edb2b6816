#!/usr/bin/env python3
"""Reference values for runlevel_test.go (Debian python3-scipy 1.10.1):

    /usr/bin/python3 tracker/stats/testdata/gen_runlevel.py

Each case is the run-level test computed the textbook way: job means, their
variance from successive differences (von Neumann: sum of squared
differences of neighbouring job means / (2 D), on 2 D^2 / (3 D - 1) degrees
of freedom for D differences), a t statistic with (1 + 1/K) for the new job,
and scipy.stats.t for the tails and quantiles.
"""
import numpy as np
from scipy import special, stats


def mssd(m):
    d = np.diff(m)
    D = len(d)
    return (d ** 2).sum() / (2 * D), 2 * D * D / (3 * D - 1)


# Case "one round a job": K = 4 baseline jobs = the whole history, a
# candidate of one round: the prediction-interval t test, df = K - 1.
y = np.log([100, 103, 98, 101])
z = np.log(108.0)
K = 4
v, df = mssd(y)
se = np.sqrt(v * (1 + 1 / K))
t = (z - y.mean()) / se
print("oneRound: delta=%.17g se=%.17g df=%.17g greater=%.17g less=%.17g q99=%.17g" % (
    z - y.mean(), se, df, stats.t.sf(t, df), stats.t.cdf(t, df), stats.t.ppf(0.99, df)))

# Case "balanced rounds": 5 history jobs of 3 rounds (newest first), the
# newest 3 jobs are the baseline, a candidate of 3 rounds. With equal rounds
# the round terms cancel: se^2 = var(job means) * (1 + 1/K) on its df.
H = np.log(np.array([[100, 101, 99.5], [102, 101.5, 102.5], [99, 98.5, 99.2],
                     [100.5, 100, 101], [101, 100.2, 100.8]]))
c = np.log(np.array([106, 107, 105.5]))
m = H.mean(axis=1)
K = 3
v, df = mssd(m)
se = np.sqrt(v * (1 + 1 / K))
t = (c.mean() - m[:K].mean()) / se
print("balanced: delta=%.17g se=%.17g df=%.17g greater=%.17g" % (
    c.mean() - m[:K].mean(), se, df, stats.t.sf(t, df)))
w = (sum(((r - r.mean()) ** 2).sum() for r in H) + ((c - c.mean()) ** 2).sum()) / (len(H) * 2 + 2)
print("balanced: within=%.17g jobvar=%.17g" % (w, v))

# Case "prior": one job a side, one round: a t test on PriorDF = 6 degrees
# of freedom with the prior as the job spread: se = prior * sqrt(1 + 1/1).
prior = 0.03
d = np.log(112.0) - np.log(100.0)
se = prior * np.sqrt(2)
print("prior: se=%.17g greater=%.17g" % (se, stats.t.sf(d / se, 6)))

# FitPrior: limma's fitFDist without covariates, written out (Smyth 2004,
# section 6.2, and limma 3.30's fitFDist), on a fixed set of variances and degrees of freedom.
s2 = np.array([0.0004, 0.0011, 0.00002, 0.0031, 0.0007, 0.0002, 0.009, 0.0015])
df = np.array([2, 2, 4, 3, 2, 5, 2, 6], dtype=float)
def trigamma_inverse(y):
    x = 0.5 + 1 / y
    for _ in range(50):
        tri = special.polygamma(1, x)
        dif = tri * (1 - tri / y) / special.polygamma(2, x)
        x += dif
        if -dif / x < 1e-8:
            break
    return x
def fit(s2, df):
    z = np.log(s2)
    e = z - special.digamma(df / 2) + np.log(df / 2)
    emean = e.mean()
    evar = e.var(ddof=1) - special.polygamma(1, df / 2).mean()
    if evar <= 0:
        return s2.mean(), np.inf  # limma since 2017: the pooled variance
    d0 = 2 * trigamma_inverse(evar)
    return np.exp(emean + special.digamma(d0 / 2) - np.log(d0 / 2)), d0
s0, d0 = fit(s2, df)
print("fitprior: s2=%.17g df=%.17g" % (s0, d0))
print("fitprior moderated[3]: %.17g" % ((d0 * s0 + df[3] * s2[3]) / (d0 + df[3])))
# Equal variances: the sample variances scatter less than chance: d0 = inf.
eq = np.array([0.001, 0.00101, 0.00099, 0.001])
print("fitprior equal: s2=%.17g df=%s" % fit(eq, np.array([3.0, 3, 3, 3])))
print("trigamma(0.3)=%.17g trigamma(7.5)=%.17g tetragamma(0.3)=%.17g tetragamma(12)=%.17g" % (
    special.polygamma(1, 0.3), special.polygamma(1, 7.5), special.polygamma(2, 0.3), special.polygamma(2, 12)))
