# Reference values of tests/models/data/sharded_dataset_test.cpp: scikit-learn 1.2.1's
# StandardScaler on the features of the bundled breast-cancer data (all columns but the last).
#   /usr/bin/python3 tests/models/data/sharded_reference.py
import numpy as np
from sklearn.preprocessing import StandardScaler

X = np.loadtxt("data/breast_cancer.csv", delimiter=",", skiprows=1)[:, :-1]
scaler = StandardScaler().fit(X)
for j in (0, 3, 29):
    print(j, repr(scaler.mean_[j]), repr(scaler.scale_[j]))
# 0 14.127291739894563 3.5209507607110626
# 3 654.8891036906857 351.6047540632298
# 29 0.08394581722319855 0.018045389308594995
