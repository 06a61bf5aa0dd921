"""The ``gpuwizard`` command: the GUI with no sub-command, headless sub-commands otherwise.

Exit codes: 0 success, 2 bad input (one line per problem, naming the field and value),
1 internal error.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from wizard import __version__
from wizard.app.output_paths import (
    STDOUT_NAMES,
    catalog_files,
    checked_output,
    refuse_input_as_output,
)
from wizard.base.catalog_kinds import KINDS
from wizard.base.errors import UserError
from wizard.base.numbers import count, value
from wizard.present.paper import PAPER

EXIT_OK, EXIT_INTERNAL, EXIT_BAD_INPUT = 0, 1, 2
SUBCOMMANDS = (
    "size",
    "report",
    "calibrate",
    "bom",
    "recommend",
    "cost",
    "compare",
    "mig-config",
    "vsphere-steps",
    "import-estate",
    "validate",
    "catalog",
    "schema",
    "example",
    "gui",
)


# Control characters a design may hold (ESC sequences clear or recolour a terminal) are shown as
# escapes, never sent to the terminal: C0 except newline and tab, DEL and C1.
_CONTROLS = {
    c: f"\\x{c:02x}" for c in [*range(0x20), 0x7F, *range(0x80, 0xA0)] if c not in (0x0A, 0x09)
}


def terminal_text(text: str) -> str:
    return text.translate(_CONTROLS)


# Set while a command writes its output to standard output (-o -): what it would print beside
# it (a recommendation's reasons, a fit's report) goes to standard error, so that standard
# output holds the design or script alone and can be piped into a file or another command.
_STDOUT_TAKEN = {"by": ""}


def _out(text: str = "") -> None:
    stream = sys.stderr if _STDOUT_TAKEN["by"] else sys.stdout
    stream.write(terminal_text(text) + "\n")


# Inside a JSON document every control character can only stand in a string, where JSON's own
# escape keeps it off the terminal and keeps the document JSON.
_JSON_CONTROLS = {c: f"\\u{c:04x}" for c in [*range(0x20), 0x7F, *range(0x80, 0xA0)]
                  if c not in (0x0A, 0x09)}  # fmt: skip


def _out_json(text: str) -> None:
    """A JSON document on stdout: JSON whatever the data holds, safe for a terminal."""
    sys.stdout.write(text.translate(_JSON_CONTROLS) + "\n")


def _err(text: str) -> None:
    sys.stderr.write(terminal_text(text) + "\n")


# ------------------------------------------------------------------------------ helpers


def _catalog(args: argparse.Namespace):
    from wizard.app.catalog_loader import load_catalog

    # A folder named with --catalog-dir is read even with --no-user-catalog, which leaves out
    # the default folder (GPUWIZARD_CATALOG_DIR, else the per-user one): a folder named on the
    # command line is never silently ignored.
    if args.catalog_dir:
        return load_catalog(Path(args.catalog_dir))
    if args.no_user_catalog:
        return load_catalog(include_user=False)
    env = os.environ.get("GPUWIZARD_CATALOG_DIR")
    return load_catalog(Path(env) if env else None)


def _design(path: str):
    from wizard.app.io import load_design

    return load_design(path)


def _checked(args: argparse.Namespace):
    """Load a design and refuse it, naming each problem, if the catalog cannot build it."""
    from wizard.engine import check_design

    design = _design(args.design)
    catalog = _catalog(args)
    problems = check_design(design, catalog)
    if problems:
        raise UserError(f"{args.design}: {p}" for p in problems)
    return design, catalog


# ---------------------------------------------------------------------------- commands


def _plan(args: argparse.Namespace, design, catalog, prices=None):
    """The Plan of what ``design`` proposes; the engine's refusals (e.g. beyond one design's
    size) name the file too."""
    from wizard.engine import plan

    try:
        return plan(design, catalog, prices)
    except UserError as exc:
        raise UserError(f"{args.design}: {p}" for p in exc.problems) from None


def _one_cluster(args: argparse.Namespace, p, command: str):
    """The GPU cluster a per-cluster export configures: the design's only one, or the one
    ``--cluster`` names (compared as names are, case and composition aside)."""
    import unicodedata

    wanted = getattr(args, "cluster", None)
    names = [c.name for c in p.clusters]
    if wanted is None:
        if len(p.clusters) == 1:
            return p.clusters[0]
        raise UserError(
            f"{args.design}: clusters: this design has {len(names)} GPU clusters "
            f"({', '.join(names)}); {command} configures one: name it with --cluster"
        )

    def key(name: str) -> str:
        return unicodedata.normalize("NFC", " ".join(name.split())).casefold()

    chosen = [c for c in p.clusters if key(c.name) == key(wanted)]
    if not chosen:
        raise UserError(
            f"--cluster {wanted!r}: the design has no GPU cluster of that name; its GPU "
            f"{'cluster is' if len(names) == 1 else 'clusters are'} {', '.join(names)}"
        )
    return chosen[0]


def _say_proposal(design) -> None:
    """After a command's output: which option it was for, when the design proposes one."""
    if design.proposed is not None:
        _err(f"note: for the proposed option, {design.proposed}")


def _refuse_errors(args: argparse.Namespace, p) -> None:
    """The rule book's error-level problems of a plan, one line each naming the field: what
    validate refuses and what keeps the proposal, the order and the steps from being written
    (the wizard keeps Next and Export shut on them)."""
    if p.errors:
        raise UserError(f"{args.design}: {e}" for e in p.errors)


def cmd_validate(args: argparse.Namespace) -> int:
    design, catalog = _checked(args)
    # the engine's limits and the rule book's error-level rules are part of validity, for the
    # design as it stands
    _refuse_errors(args, _plan(args, design.model_copy(update={"proposed": None}), catalog))
    groups = len(design.workloads)
    _out(
        f"{args.design}: valid (schema {design.schema_version}, {count(groups, 'workload group')})"
    )
    return EXIT_OK


def cmd_size(args: argparse.Namespace) -> int:
    from wizard.app.summary import plan_lines

    given, catalog = _checked(args)
    p = _plan(args, given, catalog)  # what the proposal specifies
    if args.json:  # one shape for one cluster or several: the estate, each cluster's Result in it
        _out_json(p.estate.model_dump_json(indent=2))
    else:
        for line in plan_lines(p):
            _out(line)
    _refuse_errors(args, p)  # printed, and the exit says it fails
    _say_proposal(given)
    return EXIT_OK


def _catalog_files(args: argparse.Namespace) -> list[str]:
    """The files of the catalog folder this command reads (--catalog-dir, else the default user
    folder unless --no-user-catalog): each is an input."""
    from wizard.app.catalog_loader import user_catalog_dir

    if getattr(args, "catalog_dir", None):
        return catalog_files(Path(args.catalog_dir))
    if getattr(args, "no_user_catalog", False):
        return []
    env = os.environ.get("GPUWIZARD_CATALOG_DIR")
    return catalog_files(Path(env) if env else user_catalog_dir())


def _inputs(args: argparse.Namespace) -> list[str]:
    """Every file a command reads: the ones the user named and the catalog's; an output must
    never replace one."""
    named = [getattr(args, k, None) for k in ("design", "prices", "logo")]
    named += list(getattr(args, "measurements", None) or [])
    named += list(getattr(args, "estate_files", None) or [])
    return [str(p) for p in named if p] + _catalog_files(args)


def _checked_output(path: str) -> Path:
    return checked_output(path)


def _refuse_input_as_output(args: argparse.Namespace, path: str) -> None:
    refuse_input_as_output(path, _inputs(args))


def _to_stdout(path: str, kind: str | None) -> bool:
    """Whether ``-o`` names standard output; a binary ``kind`` (PDF, Word, Excel) cannot go
    there."""
    if path not in STDOUT_NAMES:
        return False
    if kind is not None:
        raise UserError(f"-o {path}: a {kind} is not text; name a file to write it to")
    return True


def _write_bytes(
    path: str, data: bytes, args: argparse.Namespace | None = None, binary: str | None = None
) -> None:
    """Write an output atomically, or to standard output for ``-o -`` (text formats only)."""
    from wizard.app.io import atomic_write_bytes

    if _to_stdout(path, binary):
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    if args is not None:
        _refuse_input_as_output(args, path)
    else:
        _checked_output(path)
    try:
        atomic_write_bytes(path, data)
    except OSError as exc:
        raise UserError(f"{path}: cannot be written: {exc.strerror or exc}") from None


def _wrote(path: str, detail: str = "") -> None:
    """Say on standard error where the output went."""
    where = "standard output" if path in STDOUT_NAMES else path
    _err(f"wrote {where}{detail}")


def _date(text: str | None):
    import datetime as dt

    if text is None:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise UserError(f"--date: not a date in the form YYYY-MM-DD (got {text!r})") from None


def cmd_report(args: argparse.Namespace) -> int:
    from reports.document import ReportOptions
    from reports.proposal import proposal_pdf

    date = _date(args.date)
    design, catalog = _checked(args)
    named: tuple[str, ...] = ()
    if args.logo is not None:
        logo = str(Path(args.logo).expanduser().absolute())
        project = design.project.model_copy(update={"logo_path": logo})
        design = design.model_copy(update={"project": project})
        named = (logo,)
    word = Path(args.output).suffix.lower() == ".docx"
    if not word and Path(args.output).suffix.lower() not in (".pdf", ""):
        raise UserError(
            f"-o: the proposal is written as .pdf or, to edit in Word, .docx (got {args.output!r})"
        )
    options = ReportOptions(
        page_size=args.page_size,
        date=date,
        logo_base=Path(args.design).resolve().parent,
        named_logos=named,
        word=word,
    )
    prices = None
    if args.prices:
        from wizard.app.pricing import check_currency, load_prices

        prices = load_prices(args.prices)
        check_currency(prices, design.project.currency, args.prices)
    p = _plan(args, design, catalog, prices)  # the proposed option, which the document specifies
    _refuse_errors(args, p)
    pdf = proposal_pdf(p, options)
    for notice in options.notices:
        _err(f"note: {notice}")
    _say_proposal(design)
    _write_bytes(args.output, pdf, args, binary="Word document" if word else "PDF")
    _wrote(args.output)
    return EXIT_OK


def cmd_cost(args: argparse.Namespace) -> int:
    """The cost of ownership from the user's price list and the design's cost inputs."""
    from wizard.app.pricing import check_currency, load_prices
    from wizard.app.summary import cost_lines

    design, catalog = _checked(args)
    prices = load_prices(args.prices)
    check_currency(prices, design.project.currency, args.prices)
    cost = _plan(args, design, catalog, prices).cost
    assert cost is not None  # the plan has the price list
    if args.json:
        _out_json(cost.model_dump_json(indent=2))
    else:
        for line in cost_lines(cost, design.costs):
            _out(line)
    _say_proposal(design)
    return EXIT_OK


def cmd_compare(args: argparse.Namespace) -> int:
    """The design and its options side by side, with their cost when a price list is given."""
    from wizard.app.summary import compare_lines
    from wizard.engine import compare

    design, catalog = _checked(args)
    prices = None
    if args.prices:
        from wizard.app.pricing import check_currency, load_prices

        prices = load_prices(args.prices)
        check_currency(prices, design.project.currency, args.prices)
    rows = compare(design, catalog, prices)
    if args.json:
        _out_json("[" + ",\n".join(r.model_dump_json(indent=2) for r in rows) + "]")
    else:
        for line in compare_lines(rows):
            _out(line)
    return EXIT_OK


HARDWARE_LABELS = {
    "gpu": "GPU",
    "server": "Server",
    "gpus_per_host": "GPUs per host",
    "nvlink": "NVLink",
    "fabric": "Network",
    "rdma": "RDMA",
    "nic": "NIC",
    "gpudirect_rdma": "GPUDirect RDMA",
}


def _hardware_value(catalog, hw, key: str) -> str:
    """A recommended hardware choice by its product name or label, not its catalog id."""
    from enum import StrEnum

    from wizard.present.labels import label

    v = getattr(hw, key)
    if key == "gpu":
        return catalog.gpus[v].name
    if key == "server":
        return catalog.servers[v].product_name
    if key == "nic" and v is not None:
        return catalog.nics[v].product_name
    return label(v) if isinstance(v, StrEnum) else value(v)


def cmd_recommend(args: argparse.Namespace) -> int:
    """ "Recommend for me" headless: the hardware with a reason for each part, or with
    ``--split`` one cluster against two; ``-o`` writes the recommended design."""
    from wizard.app.io import design_to_text

    design, catalog = _checked(args)
    prices = None
    if args.prices:
        from wizard.app.pricing import check_currency, load_prices

        prices = load_prices(args.prices)
        check_currency(prices, design.project.currency, args.prices)
    if args.options:
        from wizard.app.recommend import best_options

        options = best_options(design, catalog, prices)
        for o in options:
            _out(f"{o.name}: {o.note}")
        names = {o.name for o in options}
        kept = [o for o in design.options if o.name not in names]
        chosen = design.model_copy(
            update={"options": kept + options, "proposed": options[0].name if options else None}
        )
        if args.output:
            _write_bytes(args.output, design_to_text(chosen).encode("utf-8"), args)
            _wrote(args.output)
        return EXIT_OK
    if args.split:
        from wizard.app.recommend_split import recommend_split

        split = recommend_split(design, catalog, prices)
        _out(split.why)
        chosen = split.design_two if split.take_two else split.design_one
    else:
        from wizard.app.recommend import recommend

        rec = recommend(design, catalog, keep_gpu=False, prices=prices)
        for key, why in rec.reasons.items():
            _out(f"{HARDWARE_LABELS.get(key, key)}: {_hardware_value(catalog, rec.hardware, key)}")
            _out(f"  {why}")
        chosen = design.model_copy(update={"hardware": rec.hardware})
    if args.output:
        _write_bytes(args.output, design_to_text(chosen).encode("utf-8"), args)
        _wrote(args.output)
    return EXIT_OK


def cmd_vsphere_steps(args: argparse.Namespace) -> int:
    from reports.exports.powercli import powercli_script

    given, catalog = _checked(args)
    p = _plan(args, given, catalog)  # the steps configure the proposed option
    one = _one_cluster(args, p, "vsphere-steps")
    _refuse_errors(args, p)
    cluster = one.name if len(p.clusters) > 1 else ""  # named when there are several to tell apart
    text = powercli_script(one.result, p.design.project.project_name, cluster, p.catalog)
    if args.output:
        _write_bytes(args.output, text.encode("utf-8"), args)
        _wrote(args.output)
    else:
        sys.stdout.write(terminal_text(text))
    _say_proposal(given)
    return EXIT_OK


def cmd_mig_config(args: argparse.Namespace) -> int:
    from reports.exports.mig_parted import mig_parted_yaml

    given, catalog = _checked(args)
    p = _plan(args, given, catalog)  # the MIG layout of the proposed option
    text = mig_parted_yaml(
        _one_cluster(args, p, "mig-config").result, p.design.project.project_name
    )
    if args.output:
        _write_bytes(args.output, text.encode("utf-8"), args)
        _wrote(args.output)
    else:
        sys.stdout.write(terminal_text(text))
    _say_proposal(given)
    return EXIT_OK


def cmd_bom(args: argparse.Namespace) -> int:

    stdout = args.output in STDOUT_NAMES
    fmt = ".csv" if stdout else Path(args.output).suffix.lower()
    if fmt not in (".csv", ".xlsx"):
        raise UserError(f"{args.output}: the bill of materials is written as .csv or .xlsx")
    _refuse_input_as_output(args, args.output)
    design, catalog = _checked(args)
    prices = None
    if args.prices:
        from wizard.app.pricing import check_currency, load_prices

        prices = load_prices(args.prices)
        check_currency(prices, design.project.currency, args.prices)
    p = _plan(args, design, catalog, prices)  # the order is for the proposed option
    _refuse_errors(args, p)
    bom = p.priced or p.estate.bom
    links = p.port_map
    from reports.bom_export import bom_csv, bom_xlsx

    kept = p.estate.kept
    data = bom_csv(bom, kept).encode("utf-8") if fmt == ".csv" else bom_xlsx(bom, links, kept)
    _write_bytes(args.output, data, args)
    priced = (
        f", priced: {bom.one_off:,.2f} {bom.currency} bought once and {bom.per_year:,.2f} "
        f"{bom.currency} a year of subscriptions"
        if bom.currency and bom.one_off is not None and bom.per_year is not None
        else ""
    )
    _wrote(args.output, f": {len(bom.lines)} lines{priced}")
    if bom.unpriced_items:
        _err(f"no price for: {', '.join(bom.unpriced_items)}")
    _say_proposal(design)
    return EXIT_OK


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
                        "flight from 1 to 1,000,000")  # fmt: skip
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gpuwizard",
        description="Design GPU infrastructure for machine learning. With no sub-command, opens "
        "the wizard (optionally with a design file).",
    )
    parser.add_argument("--version", action="version", version=f"gpuwizard {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    parser.add_argument(
        "--catalog-dir",
        metavar="DIR",
        help="user catalog directory that adds to or overrides the shipped catalogs "
        "(default: the per-user data directory; env GPUWIZARD_CATALOG_DIR)",
    )
    parser.add_argument(
        "--no-user-catalog",
        action="store_true",
        help="leave out the default user catalog folder (a --catalog-dir folder is still read)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("size", help="size a design and print the result")
    p.add_argument("design", metavar="DESIGN")
    p.add_argument("--json", action="store_true", help="print the whole result as JSON")
    p.set_defaults(func=cmd_size)

    p = sub.add_parser(
        "report", help="write the proposal for a design: PDF, or an editable Word copy (.docx)"
    )
    p.add_argument("design", metavar="DESIGN")
    p.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT.pdf|OUT.docx",
        help="the proposal file; a name ending in .docx writes the editable Word copy",
    )
    p.add_argument("--page-size", choices=list(PAPER), default="a4", help="paper size (default a4)")
    p.add_argument(
        "--date",
        metavar="YYYY-MM-DD",
        help="date on the cover and in the PDF metadata (default: the design's project.date, "
        "else today); the same design and date give a byte-identical PDF",
    )
    p.add_argument(
        "--logo",
        metavar="FILE",
        help="the customer's logo (PNG or JPEG) for the cover, instead of the design's; a logo "
        "path in the design is read only when the file lies in the design file's folder",
    )
    p.add_argument(
        "--prices", metavar="FILE", help="price list, for the cost of the options considered"
    )
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("bom", help="write the bill of materials (CSV or XLSX)")
    p.add_argument("design", metavar="DESIGN")
    p.add_argument("-o", "--output", required=True, metavar="OUT.csv|OUT.xlsx")
    p.add_argument(
        "--prices",
        metavar="FILE",
        help="price list (.toml or .csv) in the design's currency; without it, no prices",
    )
    p.set_defaults(func=cmd_bom)

    p = sub.add_parser(
        "cost", help="the cost of ownership, from your price list and the design's cost inputs"
    )
    p.add_argument("design", metavar="DESIGN")
    p.add_argument("--prices", required=True, metavar="FILE", help="price list (.toml or .csv)")
    p.add_argument("--json", action="store_true", help="the whole cost result as JSON")
    p.set_defaults(func=cmd_cost)

    p = sub.add_parser("compare", help="the design and its options side by side")
    p.add_argument("design", metavar="DESIGN")
    p.add_argument("--prices", metavar="FILE", help="price list, for the cost of each option")
    p.add_argument("--json", action="store_true", help="every option's figures as JSON")
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser(
        "recommend", help="recommend hardware for the design's workloads (Recommend for me)"
    )
    p.add_argument("design", metavar="DESIGN")
    p.add_argument(
        "--split",
        action="store_true",
        help="compare one cluster with two (GPU-sharing users apart from multi-GPU jobs)",
    )
    p.add_argument(
        "--prices",
        metavar="FILE",
        help="price list: recommend the lowest total cost of ownership among what it prices",
    )
    p.add_argument(
        "--options",
        action="store_true",
        help="add the two best hardware choices to the design as options, the best proposed",
    )
    p.add_argument("-o", "--output", metavar="OUT.json", help="write the recommended design")
    p.set_defaults(func=cmd_recommend)

    p = sub.add_parser(
        "vsphere-steps",
        help="write the vSphere host and VM steps (NVIDIA driver, graphics and vGPU mode, MIG "
        "mode, vGPU types, MMIO) as a PowerCLI script",
    )
    p.add_argument("design", metavar="DESIGN")
    p.add_argument("-o", "--output", metavar="FILE.ps1", help="write here instead of to stdout")
    p.add_argument(
        "--cluster",
        metavar="NAME",
        help="the GPU cluster to configure, in a design of several (one file per cluster)",
    )
    p.set_defaults(func=cmd_vsphere_steps)

    p = sub.add_parser(
        "mig-config",
        help="per-host MIG partitions for nvidia-mig-parted (Linux hosts and guests that "
        "partition their own GPUs; a vSphere design is refused: use vsphere-steps)",
    )
    p.add_argument("design", metavar="DESIGN")
    p.add_argument("-o", "--output", metavar="FILE.yaml", help="write here instead of to stdout")
    p.add_argument(
        "--cluster",
        metavar="NAME",
        help="the GPU cluster to configure, in a design of several (one file per cluster)",
    )
    p.set_defaults(func=cmd_mig_config)

    p = sub.add_parser(
        "calibrate",
        help="fit a group's efficiency factors to your benchmark results (vLLM, AIPerf, "
        "GenAI-Perf, nccl-tests, MLPerf logs) and write the calibrated design",
    )
    p.add_argument("design", metavar="DESIGN")
    p.add_argument("measurements", metavar="FILE", nargs="+", help="benchmark result files")
    p.add_argument("--group", required=True, metavar="NAME", help="the workload group measured")
    p.add_argument("-o", "--output", required=True, metavar="CALIBRATED", help="design to write")
    p.add_argument("--json", action="store_true", help="print the fit as JSON")
    p.add_argument(
        "--tolerance", type=float, default=0.15, metavar="SHARE",
        help="largest error of the calibrated model on a fitted point (default 0.15)",
    )  # fmt: skip
    p.add_argument(
        "--tp", type=int, choices=(1, 2, 4, 8), metavar="N",
        help="tensor parallelism the runs used, when not the planned replica's",
    )  # fmt: skip
    p.add_argument(
        "--gpus", type=int, metavar="N",
        help="GPUs a training run used, when its file does not say (or says otherwise)",
    )  # fmt: skip
    p.add_argument(
        "--concurrency", type=float, metavar="N",
        help="requests in flight during the serving runs, when their files do not state it",
    )  # fmt: skip
    p.set_defaults(func=cmd_calibrate)

    p = sub.add_parser(
        "import-estate",
        help="read the estate a customer runs (RVTools .xlsx, nvidia-smi -q -x, nvidia-smi vgpu "
        "-q, the inventory CSV) and say what maps to the catalog",
    )
    p.add_argument("estate_files", nargs="*", metavar="FILE")
    p.add_argument(
        "--json", metavar="OUT.json", help="also write the findings as JSON (- for stdout)"
    )
    p.add_argument(
        "--inventory-script",
        metavar="OUT.ps1",
        help="write the PowerCLI inventory script for the customer to run against vCenter",
    )
    p.add_argument(
        "--into",
        dest="design",
        metavar="DESIGN",
        help="put the estate read into this design as its existing clusters; written to -o",
    )
    p.add_argument("-o", "--output", metavar="OUT.json", help="the design --into writes")
    p.set_defaults(func=cmd_import_estate)

    p = sub.add_parser("validate", help="check a design file against the schema and catalogs")
    p.add_argument("design", metavar="DESIGN")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("catalog", help="list a catalog")
    p.add_argument(
        "kind",
        choices=list(KINDS),
    )
    p.add_argument("--json", action="store_true", help="every field of every entry, as JSON")
    p.set_defaults(func=cmd_catalog)

    p = sub.add_parser(
        "schema",
        help="print the JSON schema of the design file, the result, or the estate (the result of "
        "a design of several clusters)",
    )
    p.add_argument("which", choices=["design", "result", "estate"])
    p.set_defaults(func=cmd_schema)

    p = sub.add_parser("example", help="write a bundled example design")
    p.add_argument("name", nargs="?", metavar="NAME")
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of to stdout")
    p.add_argument("--list", action="store_true", help="list the bundled examples")
    p.set_defaults(func=cmd_example)

    p = sub.add_parser("gui", help="open the wizard (the default with no sub-command)")
    p.add_argument("design", nargs="?", metavar="DESIGN")
    p.set_defaults(func=cmd_gui)
    return parser


def _route(argv: list[str]) -> list[str]:
    """``gpuwizard`` and ``gpuwizard DESIGN.json`` open the GUI: insert the implicit sub-command."""
    takes_value = {"--catalog-dir"}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in {"-h", "--help", "--version"}:
            return argv
        if arg in takes_value:
            i += 2
            continue
        if not arg.startswith("-"):
            return argv if arg in SUBCOMMANDS else [*argv[:i], "gui", *argv[i:]]
        i += 1
    return [*argv, "gui"]


def _quiet_stdout() -> None:
    """Point stdout at devnull so Python's exit-time flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    raw = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        args = parser.parse_args(_route(raw))
    except SystemExit as exc:  # argparse already printed its usage message
        return EXIT_OK if exc.code == 0 else EXIT_BAD_INPUT
    _STDOUT_TAKEN["by"] = "-o" if getattr(args, "output", None) in STDOUT_NAMES else ""
    try:
        return int(args.func(args))
    except UserError as exc:
        for line in exc.problems:
            _err(f"error: {line}")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader (e.g. `| head`) left; nothing more to say
        _quiet_stdout()
        return EXIT_OK
    except Exception as exc:
        if args.debug:
            raise
        _err(f"internal error: {type(exc).__name__}: {exc} (run with --debug for details)")
        return EXIT_INTERNAL
