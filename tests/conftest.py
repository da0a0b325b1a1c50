
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
