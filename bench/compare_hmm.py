"""Hidden Markov models (issue: sequences and decisions): Baum-Welch (100 iterations) and Viterbi
on T = 10^4 observations with K = 2, 7 and 50 states, against the same scaled algorithm in
vectorised NumPy (bench/reference_hmm.py; hmmlearn is not packaged in Debian), one thread.
Target: Baum-Welch <= 0.5x NumPy's time. The log-likelihoods after the fit are printed side by side:
the two run the same arithmetic, so they agree to rounding. The reference runs without the
machine's OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE (which force slower kernels) and says which BLAS
kernel it used. Protocol: bench/compare.py."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402  (bench/compare.py: line(), benchmark_entries(), run_reference())

WORKLOADS = [f"hmm_{w}_k{K}" for w in ("baum_welch", "viterbi") for K in (2, 7, 50)]


def run(build_dir, wanted):
    names = [n for n in WORKLOADS if wanted in n]
    if not names:
        return
    ours = compare.benchmark_entries(build_dir, "hmm_bench", "^(" + "|".join(names) + ")$")
    ref = compare.run_reference("reference_hmm.py", wanted)
    blas = ref["blas"]
    for name in names:
        seconds = ours[name]["seconds"]
        target = "target ratio <= 0.5; " if "baum_welch" in name else ""
        compare.line(name, seconds, ref[name]["seconds"],
                     f" ({target}log-likelihood dagml={ours[name]['log_likelihood']:.10g} "
                     f"numpy={ref[name]['log_likelihood']:.10g}; reference: NumPy, 1 thread, {blas})",
                     peak_mib=(ours[name].get("peak_mib"), ref[name].get("peak_mib")))
