"""The ``gpuwizard`` command: the GUI with no sub-command, headless sub-commands otherwise.

Exit codes: 0 success, 2 bad input (one line per problem, naming the field and value),
1 internal error.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from wizard import __version__
from wizard.app.output_paths import STDOUT_NAMES
from wizard.base.catalog_kinds import KINDS
from wizard.base.errors import UserError
from wizard.cli.common import (
    _STDOUT_TAKEN,
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_OK,
    SUBCOMMANDS,
    _err,
)
from wizard.cli.data_commands import (
    cmd_calibrate,
    cmd_catalog,
    cmd_example,
    cmd_gui,
    cmd_import_estate,
    cmd_schema,
)
from wizard.cli.design_commands import (
    cmd_bom,
    cmd_compare,
    cmd_cost,
    cmd_mig_config,
    cmd_recommend,
    cmd_report,
    cmd_size,
    cmd_validate,
    cmd_vsphere_steps,
)
from wizard.present.paper import PAPER


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
