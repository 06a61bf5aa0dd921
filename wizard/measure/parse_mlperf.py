"""MLPerf Training result logs (``:::MLLOG`` lines)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wizard.measure.parse_base import BOUNDS, MLPERF, _count, _fail, _iso_from_ms, _listed, _num
from wizard.measure.points import Run, TrainingPoint

# --------------------------------------------------------------------------------------------
# MLPerf Training


@dataclass
class _TrainingRun:
    start_ms: float
    start_line: int
    stop_ms: float | None = None
    status: str | None = None
    samples: float | None = None
    global_batch: int | None = None
    samples_at_stop: float | None = None  # run_stop's samples_count: what the run trained


def _parse_mllog(body: str, name: str) -> Run:
    runs: list[_TrainingRun] = []
    open_run: _TrainingRun | None = None
    last_closed: _TrainingRun | None = None
    batch: int | None = None
    benchmark: str | None = None
    system: Mapping[str, Any] = {}
    unreadable = 0
    counted: dict[str, int] = {}
    notes: list[str] = []
    evals: list[float] = []
    platform: str | None = None
    dataset: float | None = None
    for number, line in enumerate(body.splitlines(), 1):
        at = line.find(":::MLLOG")
        if at < 0:
            at = line.find(":::SYSJSON")
            if at >= 0:
                try:
                    found = json.loads(line[at + len(":::SYSJSON") :])
                except (ValueError, RecursionError):
                    found = None
                if isinstance(found, Mapping):
                    system = found
            continue
        try:
            record = json.loads(line[at + len(":::MLLOG") :])
        except (ValueError, RecursionError):
            unreadable += 1
            continue
        if not isinstance(record, Mapping) or not isinstance(record.get("key"), str):
            unreadable += 1
            continue
        key, value = record["key"], record.get("value")
        counted[key] = counted.get(key, 0) + 1
        time_ms = _num(record.get("time_ms"))
        if time_ms is not None and not 0 <= time_ms <= 1e15:
            _fail(name, f"line {number}: time_ms {time_ms:g} is not a time in milliseconds")
        meta = record.get("metadata") if isinstance(record.get("metadata"), Mapping) else {}
        assert isinstance(meta, Mapping)
        if key == "run_start":
            if time_ms is None:
                _fail(name, f"line {number}: run_start has no time_ms")
            if open_run is None:
                open_run = _TrainingRun(start_ms=time_ms, start_line=number, global_batch=batch)
                runs.append(open_run)
                last_closed = None
        elif key == "run_stop":
            if time_ms is None:
                _fail(name, f"line {number}: run_stop has no time_ms")
            if open_run is not None:
                open_run.stop_ms = time_ms
                open_run.samples_at_stop = _num(meta.get("samples_count"))
                status = meta.get("status")
                open_run.status = status if isinstance(status, str) else None
                open_run.global_batch = open_run.global_batch or batch
                last_closed, open_run = open_run, None
        elif key == "global_batch_size":
            batch = _count(value)
            if batch is None:
                _fail(name, f"line {number}: global_batch_size {value!r} is not a count")
            if open_run is not None:
                open_run.global_batch = batch
        elif key == "train_samples":
            samples = _num(value)
            target = open_run or last_closed
            if samples is not None and target is not None:
                target.samples = samples
            elif samples is not None:
                dataset = samples
        elif key == "submission_benchmark" and isinstance(value, str):
            benchmark = benchmark or value
        elif key == "submission_platform" and isinstance(value, str):
            platform = platform or value
        elif key == "eval_accuracy":
            accuracy = _num(value)
            if accuracy is not None:
                evals.append(accuracy)
    if not counted:
        _fail(name, "its :::MLLOG lines hold no readable record")
    if not runs:
        _fail(name, "the MLPerf log has no run_start: the run never started timing")
    finished = [run for run in runs if run.stop_ms is not None]
    if not finished:
        _fail(name, "the MLPerf log has run_start but no run_stop: the run did not finish")
    if len(finished) < len(runs):
        notes.append(f"{len(runs) - len(finished)} run_start without run_stop left out")
    if unreadable:
        notes.append(f"{unreadable} :::MLLOG lines were not valid records and were skipped")
    points = []
    for run in finished:
        assert run.stop_ms is not None
        seconds = (run.stop_ms - run.start_ms) / 1000
        if seconds <= 0:
            _fail(name, f"the run starting at line {run.start_line} stops before it starts")
        if seconds > 1e8:
            _fail(name, f"the run starting at line {run.start_line} lasts {seconds:,.0f} s, "
                        "more than three years: its times are not a run's")  # fmt: skip
        if run.status and run.status != "success":
            notes.append(f"the run starting at line {run.start_line} ended '{run.status}'")
        samples = run.samples_at_stop if run.samples_at_stop else run.samples
        if run.samples_at_stop and run.samples and run.samples != run.samples_at_stop:
            notes.append(f"the run at line {run.start_line}: samples trained from run_stop's "
                         f"samples_count ({run.samples_at_stop:,.0f}); train_samples "
                         f"{run.samples:,.0f} not used")  # fmt: skip
        steps = samples / run.global_batch if samples and run.global_batch else None
        step = seconds / steps if steps else None
        if step is not None and not 0 < step <= BOUNDS["step_s"][2]:
            step = None
        points.append(
            TrainingPoint(
                step_s=step,
                time_to_train_s=seconds,
                samples=samples,
                global_batch=run.global_batch,
            )
        )
        if not samples:
            why = "its run_stop has no samples_count and no train_samples is logged in the run"
            if dataset:
                why += (f" (the train_samples {dataset:,.0f} logged before run_start is the "
                        "dataset's size, not what the run trained)")  # fmt: skip
            notes.append(f"the run at line {run.start_line}: no step time, since {why}")
        elif not run.global_batch:
            notes.append(f"the run at line {run.start_line}: no step time, since the log has no "
                         "global_batch_size")  # fmt: skip
    if dataset and any(p.samples for p in points):
        notes.append(f"train_samples {dataset:,.0f} logged before run_start is the dataset's "
                     "size, not used")  # fmt: skip
    used = {"run_start", "run_stop", "global_batch_size", "train_samples", "submission_benchmark"}
    unused = sorted(key for key in counted if key not in used)
    if unused:
        notes.append(f"read, not used: {_listed(unused, 20)}")
    if evals:
        notes.append(f"last eval_accuracy {evals[-1]:g}, not used")
    if platform:
        notes.append(f"submission_platform {platform!r}")
    gpu = system.get("accelerator_model_name")
    if not (isinstance(gpu, str) and gpu) and platform:
        # "1xNVIDIA HGX B200": the system the run used, its GPU named in it
        gpu = re.sub(r"^\s*\d+\s*x\s*", "", platform)
    nodes, per_node = (
        _count(system.get("number_of_nodes")),
        _count(system.get("accelerators_per_node")),
    )
    if system:
        notes.append("the system description (:::SYSJSON) read for the GPU model and count")
    return Run(
        kind="training",
        tool=MLPERF,
        points=tuple(points),
        date=_iso_from_ms(finished[0].start_ms),
        model=benchmark,
        gpu=gpu if isinstance(gpu, str) and gpu else None,
        gpus=nodes * per_node if nodes and per_node else None,
        notes=tuple(notes),
    )
