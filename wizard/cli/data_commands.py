"""The sub-commands about data rather than one design's plan: calibrate from benchmark files,
the schemas, the bundled examples, the catalog listings, the window and the estate import."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wizard.app.output_paths import (
    STDOUT_NAMES,
)
from wizard.base.errors import UserError
from wizard.base.numbers import count, value
from wizard.cli.common import (
    _STDOUT_TAKEN,
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_OK,
    _catalog,
    _checked,
    _design,
    _err,
    _out,
    _out_json,
    _refuse_input_as_output,
    _write_bytes,
    _wrote,
)


def cmd_calibrate(args: argparse.Namespace) -> int:
    """Fit a group's efficiency factors to benchmark files and write the calibrated design."""
    from wizard.app.io import design_to_text
    from wizard.base.safe_read import decode_utf8, read_limited
    from wizard.measure.fit import MeasurementFile, calibrate, calibrated
    from wizard.measure.parsers import parse
    from wizard.measure.report import fit_json, fit_lines

    _refuse_input_as_output(args, args.output)
    design, catalog = _checked(args)
    files = []
    if not 0 < args.tolerance < 1:
        raise UserError(f"--tolerance: {args.tolerance} is not a share between 0 and 1")
    if args.concurrency is not None and not (
        math.isfinite(args.concurrency) and 0 < args.concurrency <= 1_000_000
    ):
        raise UserError(f"--concurrency: {args.concurrency} is not a number of requests in "
                        "flight above 0 and at most 1,000,000")  # fmt: skip
    for path in args.measurements:
        name = _measurement_name(path)
        data = read_limited(path, MEASUREMENT_LIMIT, "benchmark file")
        files.append(MeasurementFile(name, data, parse(decode_utf8(data, path), name)))
    if args.gpus is not None and not 1 <= args.gpus <= 100_000:
        raise UserError(f"--gpus: {args.gpus} is not a GPU count from 1 to 100,000")
    if args.json and _STDOUT_TAKEN["by"]:
        raise UserError(
            f"--json and -o {args.output}: both would go to standard output; name a file for "
            "the calibrated design"
        )
    report = calibrate(design, catalog, args.group, files, tolerance=args.tolerance, tp=args.tp,
                       gpus=args.gpus, concurrency=args.concurrency)  # fmt: skip
    if args.json:
        _out_json(fit_json(report))
    else:
        for line in fit_lines(report):
            _out(line)
    if report.disagreeing:
        _err(
            f"not written: {len(report.disagreeing)} of the points are further than "
            f"{args.tolerance:.0%} from the calibrated model, so factors fitted on them would hold "
            "only on average; check the runs' setup (GPU, layout, precision, load) or leave "
            "those files out"
        )
        return EXIT_BAD_INPUT
    _write_bytes(args.output, design_to_text(calibrated(design, report)).encode("utf-8"), args)
    _wrote(args.output)
    return EXIT_OK


MEASUREMENT_LIMIT = 50 * 2**20  # a benchmark export is kilobytes; a log of a long run, megabytes


def _measurement_name(path: str) -> str:
    from wizard.measure.parsers import measurement_name

    return measurement_name(Path(path).name)


def cmd_schema(args: argparse.Namespace) -> int:
    from pydantic import BaseModel

    from wizard.model.design import Design
    from wizard.model.estate import Estate
    from wizard.model.result import Result

    models: dict[str, type[BaseModel]] = {"design": Design, "result": Result, "estate": Estate}
    _out(json.dumps(models[args.which].model_json_schema(), indent=2))
    return EXIT_OK


def cmd_example(args: argparse.Namespace) -> int:
    from wizard.base.bundled import example_names, example_text

    if args.list or not args.name:
        if not args.list:
            raise UserError("example: give an example NAME or --list")
        for name in example_names():
            _out(name)
        return EXIT_OK
    text = example_text(args.name)
    if args.output:
        _write_bytes(args.output, text.encode("utf-8"))
        _wrote(args.output)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def _catalog_columns() -> dict[str, list[tuple[str, Callable[[Any], Any]]]]:
    return {
        "gpus": [
            ("id", lambda g: g.id),
            ("name", lambda g: g.name),
            ("memory GB", lambda g: g.memory_gb),
            ("bandwidth GB/s", lambda g: g.memory_bandwidth_gbs),
            ("BF16 TFLOPS", lambda g: g.tflops.bf16),
            ("TDP W", lambda g: g.tdp_w),
            ("form", lambda g: g.form_factor.value),
            ("MIG", lambda g: g.mig_capable),
            ("vGPU", lambda g: g.vgpu_capable),
        ],
        "servers": [
            ("id", lambda s: s.id),
            ("vendor", lambda s: s.vendor),
            ("model", lambda s: s.model),
            ("U", lambda s: s.rack_units),
            ("sockets", lambda s: s.sockets),
            ("PCIe", lambda s: s.pcie_gen),
            ("topology", lambda s: s.pcie_topology.value),
            ("max GPUs", lambda s: max(x.max_gpus for x in s.gpu_support)),
            ("NVLink bridge", lambda s: s.nvlink_bridge_support),
            ("cooling", lambda s: s.cooling.value),
            (
                "processors (cores per socket)",
                lambda s: "; ".join(f"{c.name} ({c.cores})" for c in s.cpu_options) or None,
            ),
        ],
        "storage": [
            ("id", lambda s: s.id),
            ("vendor", lambda s: s.vendor),
            ("model", lambda s: s.model),
            ("TB/node", lambda s: s.usable_capacity_tb_per_node),
            ("read GB/s/node", lambda s: s.read_throughput_gbs_per_node),
            ("GDS", lambda s: s.gpudirect_storage),
            ("power W/node", lambda s: s.power_w_per_node),
        ],
        "nics": [
            ("id", lambda n: n.id),
            ("model", lambda n: n.model),
            ("kind", lambda n: n.kind.value),
            ("ports", lambda n: n.ports),
            ("Gb/s", lambda n: n.port_speed_gbps),
            ("RDMA", lambda n: ",".join(n.rdma) or None),
            ("GPUDirect", lambda n: n.gpudirect_rdma),
        ],
        "switches": [
            ("id", lambda s: s.id),
            ("model", lambda s: s.model),
            ("kind", lambda s: s.kind.value),
            ("ports", lambda s: s.ports),
            ("Gb/s", lambda s: s.port_speed_gbps),
            ("U", lambda s: s.rack_units),
            ("SHARP", lambda s: s.sharp),
        ],
        "licences": [
            ("id", lambda x: x.id),
            ("vendor", lambda x: x.vendor),
            ("name", lambda x: x.name),
            ("unit", lambda x: x.unit.value),
            ("term", lambda x: x.term),
        ],
        "models": [
            ("id", lambda m: m.id),
            ("name", lambda m: m.name),
            ("params (B)", lambda m: round(m.parameters / 1e9, 3)),
            ("layers", lambda m: m.layers),
            ("hidden", lambda m: m.hidden_size),
            ("heads", lambda m: m.heads),
            ("KV heads", lambda m: m.kv_heads),
        ],
        "software": [
            ("id", lambda r: r.id),
            ("name", lambda r: r.name),
            ("release", lambda r: r.release),
            ("vGPU", lambda r: r.vgpu_branch),
            ("driver", lambda r: r.driver_branch),
            ("GPU Operator", lambda r: r.gpu_operator or None),
        ],
        "cooling": [
            ("id", lambda c: c.id),
            ("vendor", lambda c: c.vendor),
            ("model", lambda c: c.model),
            ("placement", lambda c: c.placement.value),
            ("kW", lambda c: c.capacity_kw),
            ("U", lambda c: c.rack_units),
            ("own W", lambda c: c.power_w),
        ],
    }


def cmd_catalog(args: argparse.Namespace) -> int:
    catalog = _catalog(args)
    entries = list(getattr(catalog, args.kind).values())
    if args.json:
        _out_json(json.dumps([e.model_dump(mode="json") for e in entries], indent=2))
        return EXIT_OK
    # every kind ends with the figures its entries mark as not settled (to confirm)
    columns = [*_catalog_columns()[args.kind], ("to confirm", lambda e: ", ".join(e.unsettled))]
    rows = [[h for h, _ in columns]] + [[value(get(e)) for _, get in columns] for e in entries]
    widths = [max(len(r[i]) for r in rows) for i in range(len(columns))]
    for n, row in enumerate(rows):
        _out("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        if n == 0:
            _out("  ".join("-" * w for w in widths))
    return EXIT_OK


def cmd_gui(args: argparse.Namespace) -> int:
    from wizard.base.preflight import apt_line, has_display, missing_packages, uses_xcb

    if args.design:
        _design(args.design)  # refuse a bad file here, with the same message as validate
    if not has_display():
        _err("No display found: the wizard needs a desktop (the sub-commands work headless).")
        return EXIT_INTERNAL
    missing = missing_packages() if uses_xcb() else []
    if missing:
        _err("The wizard window needs system libraries that are missing. Install them with:")
        _err(f"  {apt_line(missing)}")
        return EXIT_INTERNAL
    from wizard.gui.app import main as gui_main

    return gui_main(args.design)


def cmd_import_estate(args: argparse.Namespace) -> int:
    from wizard.estate_import import inventory_script, read_estate
    from wizard.estate_import.findings import findings_json, findings_lines

    if args.inventory_script:
        _write_bytes(args.inventory_script, inventory_script().encode("utf-8"), args)
        _wrote(args.inventory_script)
    elif not args.estate_files:
        raise UserError(
            "import-estate: name an RVTools .xlsx, an nvidia-smi report or the inventory CSV, "
            "or write the inventory script with --inventory-script FILE"
        )
    if not args.estate_files:
        return EXIT_OK
    catalog = _catalog(args)
    estate = read_estate(args.estate_files, catalog)
    if args.json:
        _write_bytes(args.json, findings_json(estate, catalog).encode("utf-8"), args)
        _wrote(args.json)
    if args.design:
        _into_design(args, estate)
    if args.json not in STDOUT_NAMES:
        for line in findings_lines(estate, catalog):
            _out(line)
    return EXIT_OK


def _into_design(args: argparse.Namespace, estate) -> None:
    """The design named with --into, with the estate read as its existing clusters, written
    to -o (never over the design or any file read)."""
    from wizard.app.io import design_from_dict, design_to_text
    from wizard.estate_import.to_design import existing_estate

    if not args.output:
        raise UserError("import-estate --into: name the design file to write with -o OUT.json")
    doc = json.loads(design_to_text(_design(args.design)))
    doc["existing"] = existing_estate(estate).model_dump(mode="json")
    text = design_to_text(design_from_dict(doc, args.output))
    _write_bytes(args.output, text.encode("utf-8"), args)
    _wrote(args.output, f" (existing: {count(len(doc['existing']['clusters']), 'cluster')})")


# ------------------------------------------------------------------------------- parser
