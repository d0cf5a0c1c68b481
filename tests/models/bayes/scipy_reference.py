"""Reference values of tests/models/bayes/ (evidence_test.cpp, kl_divergence_test.cpp).

Run with python3 (NumPy, SciPy); the printed numbers are recorded in the tests.
Each value is computed here by a route independent of dagml's formula: the evidence by
scipy.stats.multivariate_normal.logpdf on the full n×n covariance, the discrete KLs by
scipy.stats.entropy, the continuous ones by numerical integration (scipy.integrate.quad) of
p log(p/q), the Poisson one by summing the series, the Dirichlet one by Monte Carlo with 4e6
draws cross-checked against its closed form (the Monte Carlo error is printed).
"""
import numpy as np
from scipy import integrate, special, stats

np.set_printoptions(precision=17)

# The data of the evidence tests: X (6×3) and y (6), literal so the C++ test holds the same.
X = np.array([[0.5, -1.2, 0.3], [1.5, 0.4, -0.7], [-0.3, 0.9, 1.1],
              [2.0, -0.5, 0.2], [-1.1, 1.3, -0.4], [0.7, 0.1, 0.8]])
y = np.array([0.8, 2.1, -0.4, 2.9, -1.7, 0.9])


def log_evidence(X, y, alpha, s2):
    C = s2 * np.eye(len(y)) + X @ X.T / alpha
    return stats.multivariate_normal(mean=np.zeros(len(y)), cov=C).logpdf(y)


print("evidence n>d, alpha=2, s2=0.25:", repr(log_evidence(X, y, 2.0, 0.25)))
print("evidence n>d, alpha=0.5, s2=1:", repr(log_evidence(X, y, 0.5, 1.0)))
print("evidence n<d (first 2 rows), alpha=2, s2=0.25:", repr(log_evidence(X[:2], y[:2], 2.0, 0.25)))
print("evidence first 2 features, alpha=2, s2=0.25:", repr(log_evidence(X[:, :2], y, 2.0, 0.25)))

# KL divergences.
print("categorical (.5,.5)||(.9,.1):", repr(stats.entropy([.5, .5], [.9, .1])))
print("categorical (.2,.3,.5)||(.1,.6,.3):", repr(stats.entropy([.2, .3, .5], [.1, .6, .3])))
print("categorical (0,.4,.6)||(.3,.3,.4):", repr(stats.entropy([0, .4, .6], [.3, .3, .4])))
print("bernoulli 0.3||0.6:", repr(stats.entropy([.3, .7], [.6, .4])))

k = np.arange(0, 200)
lp, lq = 3.0, 5.5
pp, pq = stats.poisson.pmf(k, lp), stats.poisson.pmf(k, lq)
print("poisson 3||5.5 (series):", repr(np.sum(pp * (np.log(pp) - np.log(pq)))))


def kl_quad(p, q, lo, hi):
    f = lambda x: p.pdf(x) * (p.logpdf(x) - q.logpdf(x)) if p.pdf(x) > 0 else 0.0
    return integrate.quad(f, lo, hi, epsabs=1e-13, epsrel=1e-12, limit=400)[0]


# Gamma with shape a and rate b: scipy's scale = 1/b.
print("gamma (2,1.5)||(3,0.5):", repr(kl_quad(stats.gamma(2, scale=1 / 1.5), stats.gamma(3, scale=1 / 0.5), 0, np.inf)))
print("beta (2,3)||(1.5,0.8):", repr(kl_quad(stats.beta(2, 3), stats.beta(1.5, 0.8), 0, 1)))
print("normal 1-D N(1,2)||N(-0.5,0.7) (variances):",
      repr(kl_quad(stats.norm(1, np.sqrt(2)), stats.norm(-0.5, np.sqrt(0.7)), -np.inf, np.inf)))

# Multivariate Gaussian by Monte Carlo would be too coarse; use the closed form with numpy's
# inverse/slogdet (a different route from the Cholesky one) on a 3-D case.
mp, mq = np.array([1.0, 0.0, -1.0]), np.array([0.5, 0.5, 0.0])
Sp = np.array([[2.0, 0.3, 0.1], [0.3, 1.0, -0.2], [0.1, -0.2, 0.5]])
Sq = np.array([[1.0, -0.4, 0.0], [-0.4, 1.5, 0.2], [0.0, 0.2, 0.8]])
Sqi = np.linalg.inv(Sq)
kl_mvn = 0.5 * (np.trace(Sqi @ Sp) + (mq - mp) @ Sqi @ (mq - mp) - 3 + np.linalg.slogdet(Sq)[1] - np.linalg.slogdet(Sp)[1])
print("mvn 3-D (inverse/slogdet):", repr(kl_mvn))
# The same by Monte Carlo, as a check of that formula (error printed).
rng = np.random.default_rng(0)
z = rng.multivariate_normal(mp, Sp, size=4_000_000)
d = stats.multivariate_normal(mp, Sp).logpdf(z) - stats.multivariate_normal(mq, Sq).logpdf(z)
print("  mvn Monte Carlo check:", d.mean(), "+-", d.std() / np.sqrt(len(d)))

a, b = np.array([2.0, 3.0, 0.5]), np.array([1.0, 1.0, 1.0])
a0, b0 = a.sum(), b.sum()
kl_dir = (special.gammaln(a0) - special.gammaln(a).sum() - special.gammaln(b0) + special.gammaln(b).sum()
          + ((a - b) * (special.digamma(a) - special.digamma(a0))).sum())
print("dirichlet (2,3,.5)||(1,1,1) (closed form, scipy.special):", repr(kl_dir))
zs = stats.dirichlet(a).rvs(size=4_000_000, random_state=1)
zs = np.clip(zs, 1e-300, None)
d = stats.dirichlet(a).logpdf(zs.T) - stats.dirichlet(b).logpdf(zs.T)
print("  dirichlet Monte Carlo check:", d.mean(), "+-", d.std() / np.sqrt(len(d)))
