"""scikit-learn 1.2.1 side of bench/unsupervised_bench.cpp, with the same data, starting points and
iteration counts (see that file's header), THREADS threads (OpenBLAS and OpenMP, through the
environment and threadpoolctl). Classical MDS has no scikit-learn estimator: its reference is
NumPy's double centring and eigh; metric MDS is scikit-learn's MDS(metric=True), SMACOF. Prints one JSON object:
  {key: {"seconds": best time, "objective": ..., "solver": what ran, "iterations": ...},
   "blas": the BLAS and OpenMP libraries with their kernel and threads}
Usage: reference_unsupervised.py THREADS KEY...   (keys as in KEYS below, e.g. pca_full_digits;
with DAGML_BENCH_QUICK=1 the Fashion-MNIST sets are cut as in the C++ program)"""
import os
import sys

THREADS = int(sys.argv[1])
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = str(THREADS)

import json  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
from sklearn.cluster import KMeans  # noqa: E402
from scipy.spatial.distance import pdist  # noqa: E402
from sklearn.decomposition import NMF, PCA, KernelPCA  # noqa: E402
from sklearn.manifold import MDS  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402
from sklearn.metrics.pairwise import euclidean_distances  # noqa: E402
from sklearn.mixture import GaussianMixture  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_common  # noqa: E402
from reference_common import FASHION, best_of, blas_description, bundled, fashion_available, idx  # noqa: E402

QUICK = os.environ.get("DAGML_BENCH_QUICK", "") not in ("", "0")
SIZES = {"fashion10k": 1000 if QUICK else 10000, "fashion60k": 3000 if QUICK else 60000,
         "fashion2k": 500 if QUICK else 2000}
CLUSTERS, COMPONENTS, PARTS = 10, 50, 20
SLOW = 3.0  # seconds: a workload whose warm-up run takes longer is measured by that one run


def dataset(name):
    if name == "digits":
        return bundled("digits")[0] / 16.0
    images = idx(FASHION + "train-images-idx3-ubyte.gz", 16).reshape(-1, 784)[:SIZES[name]]
    return images / 255.0


def spread_rows(X, K=CLUSTERS):
    """C0: the K rows at positions floor(i n / K)."""
    return X[[i * len(X) // K for i in range(K)]].copy()


# Each workload below takes the data X, prepares what is not timed (starting points) and returns
# the fit to time, a function giving {"objective": ..., "solver": ..., "iterations": ...}.

def pca(solver):
    def prepare(X):
        def fit():
            m = PCA(n_components=COMPONENTS, svd_solver=solver, random_state=0).fit(X)
            return {"objective": float(m.explained_variance_.sum()), "solver": solver}
        return fit
    return prepare


def pca_numpy_eigh(X):
    """The covariance eigendecomposition dagml's PCA picks (scikit-learn 1.5's 'covariance_eigh',
    which 1.2.1 lacks), in NumPy: S = Xcᵀ Xc / (n − 1), eigh, the 50 largest eigenvalues."""
    def fit():
        Xc = X - X.mean(axis=0)
        w = np.linalg.eigh(Xc.T @ Xc / (len(X) - 1))[0]
        return {"objective": float(w[::-1][:COMPONENTS].sum()), "solver": "numpy covariance + eigh"}
    return fit


def kpca(solver):
    def prepare(X):
        def fit():
            m = KernelPCA(n_components=COMPONENTS, kernel="rbf", gamma=1.0 / X.shape[1], eigen_solver=solver,
                          random_state=0).fit(X)
            return {"objective": float(m.eigenvalues_.sum()), "solver": solver}
        return fit
    return prepare


def kmeans(X):
    C0 = spread_rows(X)

    def fit():
        m = KMeans(n_clusters=CLUSTERS, init=C0, n_init=1, max_iter=100, tol=0, algorithm="lloyd").fit(X)
        return {"objective": float(m.inertia_), "iterations": int(m.n_iter_), "solver": "lloyd"}
    return fit


def gmm(covariance_type, iterations):
    """EM from the same start as dagml: means C0, weights 1/K, covariances s² I (s² the mean feature
    variance) given as precisions. init_params='random_from_data' is the cheapest way in: scikit-learn
    still computes initial responsibilities and an M-step from them before it overwrites the
    parameters with the given ones (work dagml does not do). The objective is the mean
    log-likelihood of the fitted parameters, score(X), computed after the timing (lower_bound_ is
    that of the parameters one M-step earlier)."""
    def prepare(X):
        K, d = CLUSTERS, X.shape[1]
        s2 = X.var(axis=0).mean()
        precisions = np.full((K, d), 1 / s2) if covariance_type == "diag" else np.stack([np.eye(d) / s2] * K)
        weights, means = np.full(K, 1 / K), spread_rows(X)

        def fit():
            m = GaussianMixture(n_components=K, covariance_type=covariance_type, tol=0, max_iter=iterations,
                                reg_covar=1e-6, init_params="random_from_data", weights_init=weights,
                                means_init=means, precisions_init=precisions, random_state=0)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                m.fit(X)
            return {"model": m, "iterations": int(m.n_iter_), "solver": f"EM, {covariance_type}"}
        return fit
    return prepare


def nmf_start(X, k=PARTS):
    """W0_ij = a (1 + ((7i + 13j) mod 17) / 17), H0_jl = a (1 + ((11j + 5l) mod 19) / 19), a = √(mean(X)/k)."""
    n, d = X.shape
    a = np.sqrt(X.mean() / k)
    i, j, l_ = np.arange(n)[:, None], np.arange(k), np.arange(d)[None, :]
    return a * (1 + ((7 * i + 13 * j[None, :]) % 17) / 17), a * (1 + ((11 * j[:, None] + 5 * l_) % 19) / 19)


def nmf(X):
    W0, H0 = nmf_start(X)

    def fit():
        m = NMF(n_components=PARTS, init="custom", solver="mu", beta_loss="frobenius", tol=0, max_iter=100)
        m.fit_transform(X, W=W0.copy(), H=H0.copy())
        return {"objective": float(m.reconstruction_err_), "iterations": int(m.n_iter_), "solver": "mu"}
    return fit


def classical_mds(X, k=2):
    """Classical MDS in NumPy (scikit-learn has none): B = −½ H D² H, eigh, the k largest eigenvalues."""
    def fit():
        D2 = euclidean_distances(X, squared=True)
        B = -0.5 * (D2 - D2.mean(axis=0)[None, :] - D2.mean(axis=1)[:, None] + D2.mean())
        w = np.linalg.eigh(B)[0]
        return {"objective": float(w[::-1][:k].sum()), "solver": "numpy double centring + eigh"}
    return fit


def smacof_start(X):
    """Z0: the means of the first and of the last half of each row's features (as the C++ side)."""
    half = X.shape[1] // 2
    return np.stack([X[:, :half].mean(axis=1), X[:, half:].mean(axis=1)], axis=1)


def metric_mds(X):
    """scikit-learn's MDS(metric=True) by SMACOF from Z0, its default 300 iterations and eps 1e-3;
    the objective is the raw stress σ = Σ_{i<j} (‖z_i − z_j‖ − ‖x_i − x_j‖)² of the embedding returned
    (scikit-learn's stress_ is that of the configuration before its last transform), computed after
    the timing."""
    Z0 = smacof_start(X)

    def fit():
        m = MDS(n_components=2, metric=True, n_init=1, max_iter=300, eps=1e-3, dissimilarity="euclidean",
                normalized_stress=False)
        m.fit(X, init=Z0.copy())
        Z = m.embedding_
        return {"after": lambda: float(((pdist(Z) - pdist(X)) ** 2).sum()), "iterations": int(m.n_iter_),
                "solver": "smacof"}
    return fit

# key: (data set, workload).
KEYS = {}
for data in ("digits", "fashion10k", "fashion60k"):
    KEYS[f"pca_full_{data}"] = (data, pca("full"))
    KEYS[f"pca_numpy_eigh_{data}"] = (data, pca_numpy_eigh)
    KEYS[f"pca_randomized_{data}"] = (data, pca("randomized"))
    KEYS[f"kmeans_{data}"] = (data, kmeans)
    KEYS[f"gmm_diag_{data}"] = (data, gmm("diag", 50 if data == "digits" else 10))
    KEYS[f"nmf_{data}"] = (data, nmf)
KEYS["gmm_full_digits"] = ("digits", gmm("full", 50))
KEYS["gmm_full_fashion2k"] = ("fashion2k", gmm("full", 10))
for data in ("digits", "fashion2k"):
    KEYS[f"kpca_dense_{data}"] = (data, kpca("dense"))
    KEYS[f"kpca_randomized_{data}"] = (data, kpca("randomized"))
KEYS["mds_numpy_digits"] = ("digits", classical_mds)
KEYS["smacof_digits"] = ("digits", metric_mds)


def main():
    results = {"blas": blas_description()}
    loaded = {}
    for key in sys.argv[2:]:
        data, workload = KEYS[key]
        if data != "digits" and not fashion_available():
            continue
        if data not in loaded:
            loaded[data] = dataset(data)
        X = loaded[data]
        seconds, out = best_of(workload(X), slow=SLOW)
        if "model" in out:  # a mixture: its objective, outside the timing
            out["objective"] = float(out.pop("model").score(X))
        if "after" in out:  # an objective computed outside the timing
            out["objective"] = out.pop("after")()
        results[key] = {"seconds": seconds, **out, "peak_mib": reference_common.LAST_PEAK_MIB}
    print(json.dumps(results))


if __name__ == "__main__":
    with threadpool_limits(limits=THREADS):
        main()
