"""How ``benchmarks/load.py`` turns the server's RSS samples into the drift figures
docs/performance.md reports (issue 12's target): the warm level is the median of the
warm-up's last ten samples, so one transient sample there moves it neither way, while
the end and the maximum after it are single samples, spikes included."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "load.py"
_SPEC = importlib.util.spec_from_file_location("numgrid_load_benchmark", _PATH)
load = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(load)


def samples(levels: list[float]) -> list[dict]:
    return [
        {"t": float(t), "rss_mb": mb, "anon_mb": mb / 2, "threads": 50}
        for t, mb in enumerate(levels)
    ]


def test_warm_level_is_the_median_of_the_warm_ups_last_ten_samples():
    # a spike at t=59, a dip at t=60 (the window's first sample), level 140 around them
    levels = [100.0] * 50 + [140.0] * 9 + [170.0] + [130.0] + [140.0] * 29
    rss = load.rss_summary(samples(levels), None, warmup_s=60)
    assert rss["warm_t"] == 60
    assert (rss["warm_samples"], rss["warm_from_t"], rss["warm_to_t"]) == (10, 50, 59)
    assert rss["warm_mb"] == 140.0
    assert rss["drift_end_pct"] == pytest.approx(0.0)
    assert rss["drift_max_pct"] == pytest.approx(0.0)  # t=59 is before the window


def test_a_spike_or_a_rise_after_the_warm_up_counts_in_full():
    levels = [140.0] * 60 + [140.0] * 10 + [154.0] + [140.0] * 18 + [147.0]
    rss = load.rss_summary(samples(levels), None, warmup_s=60)
    assert rss["drift_max_pct"] == pytest.approx(10.0)
    assert rss["max_t"] == 70
    assert rss["drift_end_pct"] == pytest.approx(5.0)


def test_no_warm_up_measures_from_the_first_sample():
    levels = [113.0, 130.0, 140.0]
    rss = load.rss_summary(samples(levels), None, warmup_s=0)
    assert rss["warm_mb"] == 113.0
    assert rss["drift_end_pct"] == pytest.approx(100 * (140 / 113 - 1))


def test_a_short_warm_up_takes_the_samples_it_has():
    rss = load.rss_summary(samples([113.0, 130.0, 134.0, 140.0]), None, warmup_s=3)
    assert (rss["warm_samples"], rss["warm_mb"]) == (3, 130.0)


def test_no_sample_after_the_warm_up_gives_no_drift_to_pass():
    assert load.rss_summary(samples([113.0] * 30), None, warmup_s=60) == {}
    assert load.rss_summary([], None, warmup_s=0) == {}
