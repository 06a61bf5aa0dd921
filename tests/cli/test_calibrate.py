"""`gpuwizard calibrate`: the published NIM runs in docs/measurements (their sources are in that
folder's README) fitted into the 70B group of a design, as a presales architect would with the
customer's own files."""

from __future__ import annotations

import json

from tests.conftest import ROOT, run_cli
from tests.measure.test_fit import GROUP, _design

FILES = ROOT / "docs" / "measurements"


def _write_design(tmp_path, concurrency: int = 1):
    path = tmp_path / "design.json"
    path.write_text(json.dumps(_design(concurrency)), encoding="utf-8")
    return path


def test_calibrate_writes_the_fitted_factors_with_their_sources(tmp_path):
    design = _write_design(tmp_path)
    out = tmp_path / "calibrated.json"
    files = [FILES / "nim-70b-h100-tp2-c1.aiperf.json", FILES / "nim-70b-h100-tp2-c5.aiperf.json"]
    done = run_cli("--no-user-catalog", "calibrate", str(design), *map(str, files),
                   "--group", GROUP, "-o", str(out))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Decode bandwidth efficiency" in done.stdout and f"wrote {out}" in done.stderr
    cal = json.loads(out.read_text())["workloads"][0]["calibration"]
    assert {f["name"] for f in cal["factors"]} == {
        "decode_bandwidth_efficiency", "prefill_compute_efficiency"
    }  # fmt: skip
    assert [s["file"] for s in cal["sources"]] == [f.name for f in files]
    assert all(len(s["sha256"]) == 64 and s["tool"] == "AIPerf" for s in cal["sources"])
    # the calibrated design sizes and says what its figures rest on
    sized = run_cli("--no-user-catalog", "size", str(out))
    assert sized.returncode == 0, sized.stderr
    assert (
        "calibrated on your measurements; your run measured 18.58 ms at this load" in sized.stdout
    )


def test_a_vllm_block_and_an_aiperf_export_of_the_same_run_give_the_same_factors(tmp_path):
    design = _write_design(tmp_path)
    fitted = []
    for first in ("nim-70b-h100-tp2-c1.aiperf.json", "nim-70b-h100-tp2-c1.vllm.txt"):
        done = run_cli("--no-user-catalog", "calibrate", str(design), str(FILES / first),
                       str(FILES / "nim-70b-h100-tp2-c5.aiperf.json"), "--group", GROUP,
                       "-o", str(tmp_path / "out.json"), "--json")  # fmt: skip
        assert done.returncode == 0, done.stderr
        fit = json.loads(done.stdout)
        fitted.append({f["name"]: f["fitted"] for f in fit["factors"]})
        assert all(set(f) == {"name", "default", "fitted", "spread", "bounds"}
                   for f in fit["factors"])  # fmt: skip
        assert all({"measured", "predicted_before", "predicted_after"} <= set(p)
                   for p in fit["points"])  # fmt: skip
    assert fitted[0] == fitted[1]


def test_figures_no_system_can_give_are_left_out_by_cause_and_the_rest_fits(tmp_path):
    """The made-up block (docs/measurements/README.md): 4.0 ms between tokens and 240 tokens/s
    for a 70B model at one request on two H100s, faster than their memory bandwidth allows."""
    design = _write_design(tmp_path)
    out = tmp_path / "calibrated.json"
    done = run_cli("--no-user-catalog", "calibrate", str(design),
                   str(FILES / "inconsistent-70b.vllm.txt"),
                   str(FILES / "nim-70b-h100-tp2-c5.aiperf.json"), "--group", GROUP,
                   "-o", str(out))  # fmt: skip
    assert done.returncode == 0, done.stderr
    refused = [line for line in done.stdout.splitlines() if line.startswith("Not used: ")]
    assert any("inconsistent-70b.vllm.txt" in r and "time between tokens" in r
               and "memory bandwidth" in r for r in refused)  # fmt: skip
    assert any("inconsistent-70b.vllm.txt" in r and "output tokens/s" in r for r in refused)
    assert "DISAGREES" not in done.stdout


def test_the_output_may_not_be_an_input(tmp_path):
    design = _write_design(tmp_path)
    done = run_cli("--no-user-catalog", "calibrate", str(design),
                   str(FILES / "nim-70b-h100-tp2-c1.aiperf.json"), "--group", GROUP,
                   "-o", str(design))  # fmt: skip
    assert done.returncode == 2 and "is also an input" in done.stderr
