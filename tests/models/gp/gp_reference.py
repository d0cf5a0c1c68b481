# Reference values from scikit-learn 1.2.1 for tests/models/gp/gaussian_process_regressor_test.cpp:
#   /usr/bin/python3 gp_reference.py
import numpy as np
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import RBF, ConstantKernel as C, Matern, WhiteKernel

# The training data of the test: 20 points in 2-D, a smooth function plus fixed "noise".
t = np.arange(20)
X = np.column_stack([np.sin(0.7 * t) * 1.5, np.cos(1.3 * t) + 0.1 * t])
y = np.sin(X[:, 0]) * 2 + 0.5 * X[:, 1] ** 2 + 0.1 * np.cos(5.0 * t)
X_test = np.array([[0.2, 0.3], [-1.0, 1.5], [1.4, 2.2]])
np.set_printoptions(precision=17)

def show(label, values):
    print(f"{label}: {{" + ", ".join(repr(float(v)) for v in np.ravel(values)) + "}")

# 1. Fixed hyperparameters (optimizer=None), normalize_y off and on.
for normalize in (False, True):
    k = C(2.0) * Matern(0.7, nu=2.5) + WhiteKernel(0.05)
    gp = GaussianProcessRegressor(k, alpha=1e-10, optimizer=None, normalize_y=normalize).fit(X, y)
    lml, grad = gp.log_marginal_likelihood(gp.kernel_.theta, eval_gradient=True)
    mean, std = gp.predict(X_test, return_std=True)
    print(f"# fixed, normalize_y={normalize}")
    show("lml", [lml]); show("lml gradient", grad); show("mean", mean); show("std", std)
    _, cov = gp.predict(X_test, return_cov=True)
    show("cov row 0", cov[0])

# 2. Optimised from the same start, no restarts.
for k in (C(1.0) * RBF(1.0) + WhiteKernel(0.1), C(1.0) * RBF([1.0, 1.0]) + WhiteKernel(0.1)):
    gp = GaussianProcessRegressor(k, alpha=1e-10, n_restarts_optimizer=0, random_state=0).fit(X, y)
    print("# optimised", k)
    print("#  ", gp.kernel_)
    show("theta", gp.kernel_.theta)
    show("lml", [gp.log_marginal_likelihood_value_])
    mean, std = gp.predict(X_test, return_std=True)
    show("mean", mean); show("std", std)
