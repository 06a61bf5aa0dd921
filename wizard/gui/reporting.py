"""The report's drawings and PDF for the wizard, called from background jobs.

The GUI never imports reportlab: the ``reports`` package renders diagrams to SVG text (drawn here
by Qt) and the proposal to PDF bytes. Calls are serialized with one lock because reportlab keeps
process-wide registries (fonts) that two threads should not fill at once.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from wizard.app.io import atomic_write_bytes
from wizard.model.catalog import Catalog
from wizard.model.design import Design
from wizard.model.result import Result

if TYPE_CHECKING:  # the engine loads when a proposal is written, not at start-up
    from wizard.engine import Plan

_LOCK = threading.Lock()


@dataclass(frozen=True)
class Diagram:
    name: str
    title: str
    svg: str | None
    error: str | None = None


_CLIP_PATH = re.compile(r"<clipPath\b.*?</clipPath>", re.DOTALL)
_CLIP_STYLE = re.compile(r"clip-path:\s*url\(#[^)]*\);?")


def for_qt(svg: str) -> str:
    """Qt's SVG renderer (SVG Tiny) ignores clipPath and draws its shapes as black fill; the
    report's drawings clip only to their own frame, so the clip can go."""
    return _CLIP_STYLE.sub("", _CLIP_PATH.sub("", svg))


def render_diagrams(design: Design, catalog: Catalog, result: Result) -> list[Diagram]:
    """Every diagram the Result has data for, as SVG; one that fails says why instead."""
    from reports.data import ReportData
    from reports.render import drawing_names, drawing_svg

    data = ReportData(design=design, catalog=catalog, result=result)
    out = []
    with _LOCK:
        for name, title in drawing_names(data):
            try:
                svg = drawing_svg(name, data)
                out.append(Diagram(name, title, for_qt(svg) if svg else None, None if svg else
                                   "no data"))  # fmt: skip
            except Exception as exc:  # one broken drawing must not hide the others
                out.append(Diagram(name, title, None, f"{type(exc).__name__}: {exc}"))
    return out


def font_files() -> dict[str, bytes]:
    from reports.render import font_files as files

    with _LOCK:
        return files()


@dataclass(frozen=True)
class WrittenPdf:
    path: Path
    size_bytes: int
    notices: list[str]


def write_pdf(plan: Plan, path: Path, page_size: str, logo_base: Path | None,
              named_logos: tuple[str, ...] = ()) -> WrittenPdf:  # fmt: skip
    """Build and atomically write the proposal of a plan: PDF, or the Word copy for a .docx
    path, with its cost of ownership when the plan is priced. The plan is the window's live one
    (read with the chosen price list), so the document shows the figures on screen without
    sizing the design again. OSError and UserError reach the caller."""
    from reports.document import ReportOptions
    from reports.proposal import proposal_pdf

    options = ReportOptions(
        page_size=page_size,
        logo_base=logo_base,
        named_logos=named_logos,
        word=path.suffix.lower() == ".docx",  # the editable Word copy
    )
    with _LOCK:
        # the proposed option, which the whole document specifies
        pdf = proposal_pdf(plan, options)
    atomic_write_bytes(path, pdf)
    return WrittenPdf(path, len(pdf), list(options.notices))


def page_sizes() -> list[str]:
    from wizard.present.paper import PAPER

    return list(PAPER)
