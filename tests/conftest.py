"""Unit-test configuration: a derandomized hypothesis profile so every run checks the same cases, shared fixtures."""

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("starlib", derandomize=True, deadline=None, max_examples=40,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("starlib")


@pytest.fixture
def folders(tmp_path, monkeypatch):
    """``(inputs, work)``: two empty folders, the test running in ``work`` (so a test can check nothing is written)."""
    inputs, work = tmp_path / "in", tmp_path / "work"
    inputs.mkdir()
    work.mkdir()
    monkeypatch.chdir(work)
    return inputs, work
