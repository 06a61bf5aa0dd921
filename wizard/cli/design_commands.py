"""The sub-commands that read a design and answer from its plan: validate, size, report, cost,
compare, recommend, the vSphere steps, the mig-parted configuration and the bill of materials."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from wizard.app.output_paths import (
    STDOUT_NAMES,
)
from wizard.base.errors import UserError
from wizard.base.numbers import count, value
from wizard.cli.common import (
    EXIT_OK,
    _checked,
    _date,
    _err,
    _one_cluster,
    _out,
    _out_json,
    _plan,
    _refuse_errors,
    _refuse_input_as_output,
    _say_proposal,
    _write_bytes,
    _wrote,
    terminal_text,
)


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
