"""Optimizer workloads (issue 4): L2-regularised logistic regression on the breast-cancer data,
time to reach gradient norm 1e-8 from 0, dagml (bench/optim_bench.cpp) beside
scipy.optimize.minimize (bench/reference_optim.py) in the same run. Target: ratio <= 0.5."""
from compare import line, run_dagml, run_reference


def run(build_dir, wanted):
    pairs = [("logreg_newton", "newton_cg", "dagml Newton vs SciPy Newton-CG"),
             ("logreg_newton_cg", "newton_cg", "dagml Newton-CG vs SciPy Newton-CG"),
             ("logreg_lbfgs", "lbfgs_b", "dagml L-BFGS vs SciPy L-BFGS-B")]
    pairs = [p for p in pairs if wanted in p[0]]
    if not pairs:
        return
    d = run_dagml(build_dir, "optim_bench", "logreg_")
    r = run_reference("reference_optim.py", "")
    for ours, theirs, what in pairs:
        line(ours, d[ours], r[theirs],
             f" ({what}; SciPy {r[theirs + '_iterations']} iterations to gradient norm "
             f"{r[theirs + '_gradient_norm']:.1e}; target ratio <= 0.5)")
