"""Unit-test configuration: a derandomized hypothesis profile so every run checks the same cases."""

from hypothesis import HealthCheck, settings

settings.register_profile("starlib", derandomize=True, deadline=None, max_examples=40,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("starlib")
