"""The calibration that scales the liveness tests' time limits on a busy machine."""

import pytest
from tests import conftest
from tests.conftest import calibrated, slowdown


def test_the_factor_is_at_least_one_and_scales_every_limit():
    factor = slowdown()
    assert factor >= 1
    assert calibrated(2.0) == pytest.approx(2.0 * factor)


def test_a_busy_machine_gives_a_larger_factor(monkeypatch):
    monkeypatch.delenv("THIRTYONE_TEST_SLOWDOWN", raising=False)
    monkeypatch.setattr(conftest, "_measured", [])
    monkeypatch.setattr(conftest, "_loop_seconds", lambda: 8 * conftest.CALIBRATION_IDLE_SECONDS)
    assert slowdown() == pytest.approx(8)
    assert calibrated(1.5) == pytest.approx(12)
    # A fast machine never shortens a limit.
    monkeypatch.setattr(conftest, "_measured", [])
    monkeypatch.setattr(conftest, "_loop_seconds", lambda: conftest.CALIBRATION_IDLE_SECONDS / 3)
    assert slowdown() == 1


def test_the_factor_can_be_set(monkeypatch):
    monkeypatch.setenv("THIRTYONE_TEST_SLOWDOWN", "4")
    assert calibrated(3) == 12
