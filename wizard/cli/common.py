"""What every sub-command shares: the exit codes, writing to the terminal (control characters
shown, never obeyed), reading the design and the catalogs, planning, and writing an output file
that is never one of the command's own inputs."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from wizard.app.output_paths import (
    STDOUT_NAMES,
    catalog_files,
    checked_output,
    refuse_input_as_output,
)
from wizard.base.errors import UserError

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
