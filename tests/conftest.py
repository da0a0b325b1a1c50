import os

# One BLAS thread per test process, set before anything imports numpy (xdist's workers inherit it):
# `make test` runs two workers and Chromium on two cores, where OpenBLAS's second thread only spins
# against them, and the numpy-heavy tests took several times the CPU.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

# Hypothesis measures time: on a busy 2-core CI machine its speed checks fail tests that are right.
# What the properties assert does not depend on speed, so timing is left to `make bench`.
# (`make test-peer`'s venv has no Hypothesis: its tests use none.)
try:
    from hypothesis import HealthCheck, settings
except ImportError:
    pass
else:
    settings.register_profile("probierlabor", deadline=None, suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile("probierlabor")
