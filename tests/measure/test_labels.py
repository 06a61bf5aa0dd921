"""What each figure says it rests on after a calibration (issue 46): calibrated only where the
factor it rests on was fitted, a run's own figure beside it only where that run was on the
planned GPU, slice and layout, a time to train calibrated by an all-reduce measurement, and a fit
at a physical bound a caution in the plan and the proposal. The runs are the published NIM ones
(docs/measurements/README.md)."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest
from pypdf import PdfReader

from reports.data import build_data
from reports.document import ReportOptions, build_pdf
from tests.conftest import run_cli
from tests.measure.test_fit import GROUP, _design, _file, _training
from tests.reports.conftest import FIXED_DATE, page_texts
from wizard.app.io import design_from_dict
from wizard.engine import plan
from wizard.measure.fit import MeasurementFile, calibrate, calibrated
from wizard.measure.points import CollectivePoint, Run, ServingPoint
from wizard.model.result import Severity
from wizard.present.basis import (
    CALIBRATED,
    ESTIMATED,
    basis_short,
    basis_summary,
    serving_basis,
    training_basis,
)


def _serving_basis(design, catalog, gpu=None):
    p = plan(design, catalog)
    w = p.workloads[0]
    return serving_basis(design.workloads[0], w, gpu or design.hardware.gpu)


def test_time_to_first_token_is_estimated_when_only_the_decode_was_fitted(catalog):
    """Fitted on the 5-in-flight run alone: its time to first token is queueing, shown not
    fitted, so the prefill efficiency keeps its default; time between tokens and throughput rest
    on the fitted bandwidth efficiency."""
    plain = design_from_dict(_design(1))
    report = calibrate(plain, catalog, GROUP, [_file(5)])
    assert {f.name for f in report.factors} == {"decode_bandwidth_efficiency"}
    basis = _serving_basis(calibrated(plain, report), catalog)
    assert basis["ttft_ms"] == ESTIMATED
    assert basis["itl_ms"] == basis["tokens_per_s_total"] == CALIBRATED
    assert basis_short(basis) == "partly calibrated"
    assert basis_summary(basis) == (
        "time between tokens and throughput calibrated on your measurements, time to first "
        "token estimated"
    )


def test_the_size_command_says_the_first_token_is_estimated(catalog, tmp_path):
    plain = design_from_dict(_design(1))
    report = calibrate(plain, catalog, GROUP, [_file(5)])
    path = tmp_path / "c.json"
    path.write_text(json.dumps(calibrated(plain, report).model_dump(mode="json")), "utf-8")
    done = run_cli("--no-user-catalog", "size", str(path))
    assert done.returncode == 0, done.stderr
    ttft = next(line for line in done.stdout.splitlines() if "time to first token:" in line)
    assert ttft.rstrip().endswith("; estimated"), ttft


def test_a_run_is_quoted_only_where_it_was_measured(catalog):
    """Measured at one request on two whole H100 SXM (their full-size vGPU): quoted beside the
    model's figure there; once the group moves to H200s the run's 18.58 ms is not this GPU's."""
    plain = design_from_dict(_design(1))
    cal = calibrated(plain, calibrate(plain, catalog, GROUP, [_file(1), _file(5)]))
    basis = _serving_basis(cal, catalog)
    assert basis["itl_ms"] == f"{CALIBRATED}; your run measured 18.58 ms at this load"
    data = cal.model_dump(mode="json")
    data["hardware"]["gpu"] = "h200-sxm-141gb"
    moved = design_from_dict(data)
    basis = _serving_basis(moved, catalog)
    assert "your run measured" not in " ".join(basis.values())
    assert basis["itl_ms"] == CALIBRATED


def test_a_run_is_not_quoted_on_another_layout_or_slice(catalog):
    """Negative cases of the same rule on the same H100s: at tensor parallelism 4 the run (made at
    2) is not this layout's; on a smaller vGPU slice than the H100XM-80C it ran on, it is not
    this slice's. Each figure stays calibrated; only the quote goes."""
    plain = design_from_dict(_design(1))
    cal = calibrated(plain, calibrate(plain, catalog, GROUP, [_file(1), _file(5)]))
    data = cal.model_dump(mode="json")
    data["workloads"][0]["parallelism"]["tensor_parallel"] = 4
    wider = _serving_basis(design_from_dict(data), catalog)
    assert "your run measured" not in " ".join(wider.values())
    assert wider["itl_ms"] == CALIBRATED
    p = plan(cal, catalog)
    w = p.workloads[0]
    assert w.sharing.slot_profile == "H100XM-80C"
    sliced = w.model_copy(
        update={"sharing": w.sharing.model_copy(update={"slot_profile": "H100XM-40C"})}
    )
    basis = serving_basis(cal.workloads[0], sliced, cal.hardware.gpu)
    assert "your run measured" not in " ".join(basis.values())
    assert serving_basis(cal.workloads[0], w, cal.hardware.gpu)["itl_ms"].startswith(
        f"{CALIBRATED}; your run measured"
    )


def test_the_measured_figures_record_where_they_were_measured(catalog):
    plain = design_from_dict(_design(1))
    cal = calibrate(plain, catalog, GROUP, [_file(1)]).calibration()
    assert {(m.gpu, m.tensor_parallel) for m in cal.measured} == {("h100-sxm5-80gb", 2)}
    assert all(m.slot for m in cal.measured)


def test_time_to_train_is_calibrated_by_an_all_reduce_measurement(catalog):
    design = design_from_dict(_training())
    points = tuple(CollectivePoint("all_reduce", 2**30, 1.0, 230.0) for _ in range(3))
    run = Run("collective", "nccl-tests", points, gpus=8)
    report = calibrate(design, catalog, "BERT pre-training",
                       [MeasurementFile("ar.txt", b"ar", run)])  # fmt: skip
    group = calibrated(design, report).workloads[0]
    assert training_basis(group) == f"{CALIBRATED} (all-reduce link)"


@pytest.fixture(scope="module")
def at_bound(catalog):
    """The c1 run altered to 12 ms between tokens (and the throughput that gives), which pins the
    bandwidth efficiency at its 0.95 bound (tests/measure/test_hostile_results.py)."""
    plain = design_from_dict({**_design(1), "project": {"project_name": "Chat"}})
    point = ServingPoint(1, 5000, 500, 406.77, 12.0, 500 / (0.40677 + 499 * 0.012), 100)
    fast = MeasurementFile("fast.json", b"fast", Run("serving", "AIPerf", (point,)))
    report = calibrate(plain, catalog, GROUP, [fast], today=dt.date(2026, 12, 4))
    assert report.at_bound
    return calibrated(plain, report)


def test_a_fit_at_a_bound_is_a_caution_in_the_plan(at_bound, catalog):
    (one,) = plan(at_bound, catalog).clusters
    result = one.result
    (w,) = [x for x in result.warnings if x.code == "calibration-at-bound"]
    assert w.severity is Severity.WARNING
    assert w.message.startswith(
        f"{GROUP}: the measurements sit at the model's limit for the decode bandwidth efficiency"
    )


def test_a_fit_at_a_bound_is_a_caution_in_the_proposal(at_bound, catalog):
    blob = build_pdf(build_data(at_bound, catalog), ReportOptions(date=FIXED_DATE))
    text = " ".join(" ".join(page_texts(PdfReader(io.BytesIO(blob)))).split())
    assert "the measurements sit at the model's limit for the decode bandwidth efficiency" in text
