"""`gpuwizard calibrate`'s --concurrency and --gpus at the edges of the ranges its help and its
refusals state: requests in flight "above 0 and at most 1,000,000" (a mean, so 0.5 is a load)
and a GPU count "from 1 to 100,000".
Each edge is taken, the first value past it is refused in one line naming the option."""

from __future__ import annotations

import json

import pytest

from tests.conftest import ROOT, run_cli
from tests.measure.test_fit import GROUP, _design

RUN = ROOT / "docs" / "measurements" / "nim-70b-h100-tp2-c1.aiperf.json"


def _calibrate(tmp_path, *options: str):
    design = tmp_path / "design.json"
    design.write_text(json.dumps(_design(1)), encoding="utf-8")
    out = tmp_path / "calibrated.json"
    done = run_cli("--no-user-catalog", "calibrate", str(design), str(RUN), "--group", GROUP,
                   "-o", str(out), *options)  # fmt: skip
    return done, out


@pytest.mark.parametrize("value", ["0.5", "1", "1000000"])
def test_concurrency_at_either_end_of_its_range_is_taken(tmp_path, value):
    """Half a request in flight on average, 1 (the published run's own load) and 1,000,000 are
    all in range."""
    done, out = _calibrate(tmp_path, "--concurrency", value)
    assert done.returncode == 0, done.stderr
    assert "--concurrency" not in done.stderr and out.is_file()


@pytest.mark.parametrize("value", ["0", "1000001"])
def test_concurrency_past_its_range_is_refused_by_name(tmp_path, value):
    done, out = _calibrate(tmp_path, "--concurrency", value)
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert "--concurrency" in line and "above 0 and at most 1,000,000" in line
    assert not out.exists()


def test_a_gpu_count_of_100000_is_taken(tmp_path):
    """100,000 GPUs is the top of the stated range: the option is accepted (a serving run's
    file is fitted as before)."""
    done, out = _calibrate(tmp_path, "--gpus", "100000")
    assert done.returncode == 0, done.stderr
    assert "--gpus" not in done.stderr and out.is_file()


@pytest.mark.parametrize("value", ["0", "100001"])
def test_a_gpu_count_past_its_range_is_refused_by_name(tmp_path, value):
    done, out = _calibrate(tmp_path, "--gpus", value)
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert f"--gpus: {value} is not a GPU count from 1 to 100,000" in line
    assert not out.exists()
