# Reference values of tests/models/metrics/scoring_metrics_test.cpp (PrecisionRecall* cases),
# computed with scikit-learn 1.2.1:  python3 tests/models/metrics/sklearn_reference.py
import numpy as np
from sklearn.metrics import average_precision_score, precision_recall_curve

np.set_printoptions(precision=17)
yb = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1, 1])
s = np.array([0.9, 0.1, 0.4, 0.8, 0.4, 0.3, 0.35, 0.2, 0.8, 0.55])
precision, recall, thresholds = precision_recall_curve(yb, s)
print("precision", repr(precision))
print("recall", repr(recall))
print("thresholds", repr(thresholds))
print("average_precision", repr(average_precision_score(yb, s)))

# Ties across classes and a positive at the lowest score.
y2 = np.array([0, 1, 1, 0, 1, 0, 0, 1])
s2 = np.array([0.2, 0.2, 0.7, 0.7, 0.9, 0.1, 0.5, 0.05])
precision, recall, thresholds = precision_recall_curve(y2, s2)
print("precision2", repr(precision))
print("recall2", repr(recall))
print("thresholds2", repr(thresholds))
print("average_precision2", repr(average_precision_score(y2, s2)))
