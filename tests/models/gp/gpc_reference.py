# Reference values from scikit-learn 1.2.1 for tests/models/gp/gaussian_process_classifier_test.cpp:
#   /usr/bin/python3 gpc_reference.py
import numpy as np
from sklearn.gaussian_process import GaussianProcessClassifier
from sklearn.gaussian_process.kernels import RBF, ConstantKernel as C

t = np.arange(30)
X = np.column_stack([np.sin(0.7 * t) * 1.5, np.cos(1.3 * t) + 0.1 * t])
score = np.sin(2 * X[:, 0]) + 0.4 * X[:, 1] + 0.3 * np.cos(5.0 * t)
y2 = (score > 0.8).astype(int)
y3 = np.digitize(score, [0.5, 1.2])
X_test = np.array([[0.2, 0.3], [-1.0, 1.5], [1.4, 2.2]])

def show(label, values):
    print(f"{label}: {{" + ", ".join(repr(float(v)) for v in np.ravel(values)) + "}")

print("y2:", list(y2)); print("y3:", list(y3))
gp = GaussianProcessClassifier(C(2.0) * RBF(0.8), optimizer=None).fit(X, y2)
print("# binary, fixed")
show("lml", [gp.log_marginal_likelihood_value_])
lml, grad = gp.log_marginal_likelihood(gp.kernel_.theta, eval_gradient=True)
show("lml at theta", [lml]); show("gradient", grad)
show("proba1", gp.predict_proba(X_test)[:, 1])
gp = GaussianProcessClassifier(C(1.0) * RBF(1.0)).fit(X, y2)
print("# binary, optimised:", gp.kernel_)
show("theta", gp.kernel_.theta); show("lml", [gp.log_marginal_likelihood_value_])
show("proba1", gp.predict_proba(X_test)[:, 1])
gp = GaussianProcessClassifier(C(2.0) * RBF(0.8), optimizer=None).fit(X, y3)
print("# three classes one-vs-rest, fixed")
show("proba", gp.predict_proba(X_test))
show("lml", [gp.log_marginal_likelihood_value_])
