# Reference Gram matrices and log-space hyperparameter gradients from scikit-learn 1.2.1 for
# tests/models/kernel/kernel_hyperparameters_test.cpp: /usr/bin/python3 gp_kernel_reference.py
import numpy as np
from sklearn.gaussian_process.kernels import (RBF, ConstantKernel, ExpSineSquared, Matern,
                                              RationalQuadratic, WhiteKernel)

X = np.array([[0.1, -0.4], [1.2, 0.3], [-0.7, 0.9], [0.5, 0.5]])
kernels = {
    "rbf(length_scale=0.8)": RBF(0.8),
    "rbf(length_scale=[0.5, 2])": RBF([0.5, 2.0]),
    "matern(nu=0.5, length_scale=1.3)": Matern(1.3, nu=0.5),
    "matern(nu=1.5, length_scale=0.7)": Matern(0.7, nu=1.5),
    "matern(nu=2.5, length_scale=[0.9, 1.4])": Matern([0.9, 1.4], nu=2.5),
    "rational_quadratic(length_scale=1.1, alpha=0.6)": RationalQuadratic(1.1, 0.6),
    "periodic(length_scale=0.9, period=2.5)": ExpSineSquared(0.9, 2.5),
    "constant(value=2) * rbf(length_scale=0.8) + white(noise=0.3)": ConstantKernel(2.0) * RBF(0.8) + WhiteKernel(0.3),
}
np.set_printoptions(precision=17)
for name, k in kernels.items():
    K, dK = k(X, eval_gradient=True)
    print(f'{{"{name}",')
    print("  {" + ", ".join(repr(v) for v in K[0, :]) + ", " + ", ".join(repr(v) for v in K[1, 2:]) + "},")
    # scikit-learn orders theta by hyperparameter name (RationalQuadratic: alpha, then
    # length_scale; dagml: length_scale, then alpha). dK[0, 1, :] and dK[2, 3, :]: d K_01 / d theta and d K_22 / d theta (theta = log values)
    print("  {" + ", ".join(repr(v) for v in dK[0, 1, :]) + "},")
    print("  {" + ", ".join(repr(v) for v in dK[2, 3, :]) + "}},")
