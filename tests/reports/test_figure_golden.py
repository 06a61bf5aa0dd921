"""Golden tests of where every figure draws each of its shapes: for every bundled example and
six other cases (two scaled up until the figures elide, one with spines, one of bridged pairs,
the docs' design of several clusters and the same with three more),
each figure of the proposal (and the estate drawing) at the A4 text width, every box, line, dot
and label in drawing order with its place and size to a tenth of a point, and each label's text
and type size.

The page goldens (test_golden.py) read text back from the PDF within 1.5 points, which lets a
shape move unseen (a legend swatch, a tick, a line) and a label slip by a point; this reads the
drawings themselves, before any renderer, so nothing but the product's own layout moves them.
The numbers a figure prints come from the Plan, which source-derived tests pin
(tests/engine); this golden pins where they are drawn.

After an intended change, regenerate with
    GPUWIZARD_UPDATE_GOLDEN=1 python -m pytest tests/reports/test_figure_golden.py
and review the diff of tests/reports/golden/figures/<example>.json.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable

import pytest
from reportlab.graphics.shapes import Circle, Drawing, Line, Path, Polygon, PolyLine, Rect, String

from reports.data import build_data
from reports.diagrams import DIAGRAMS
from reports.diagrams import estate as estate_diagram
from reports.fonts import register_fonts
from tests.conftest import ROOT, acme_with_more_clusters
from tests.reports.drawing_parts import leaf_shapes
from wizard.app.io import design_from_dict, design_from_text
from wizard.base.bundled import example_names, example_text
from wizard.model.design import Design

FIGURES = ROOT / "tests" / "reports" / "golden" / "figures"
WIDTH = 468  # points: the A4 page's text width (drawing_parts.WIDTHS)
TOLERANCE = 0.11  # points: one rounding step of the stored tenths


def _r(v: float) -> float:
    return round(float(v), 1)


def shape_row(s) -> list:
    """One shape as [kind, numbers..., text, size]: what a reader sees of it."""
    if isinstance(s, String):
        return ["text", _r(s.x), _r(s.y), s.text, _r(s.fontSize), s.textAnchor]
    if isinstance(s, Rect):
        return ["box", _r(s.x), _r(s.y), _r(s.width), _r(s.height), _r(s.strokeWidth or 0)]
    if isinstance(s, Line):
        return ["line", _r(s.x1), _r(s.y1), _r(s.x2), _r(s.y2), _r(s.strokeWidth or 0)]
    if isinstance(s, Circle):
        return ["dot", _r(s.cx), _r(s.cy), _r(s.r)]
    if isinstance(s, (Polygon, PolyLine)):
        return [type(s).__name__.lower(), *(_r(v) for v in s.points)]
    if isinstance(s, Path):
        return ["path", *(_r(v) for v in s.points)]
    raise AssertionError(f"a figure draws a shape the golden does not read: {type(s).__name__}")


def drawing_rows(d: Drawing) -> dict:
    return {"size": [_r(d.width), _r(d.height)], "shapes": [shape_row(s) for s in leaf_shapes(d)]}


def _scaled(name: str, factor: int) -> Design:
    """A bundled example with every group's count multiplied: large enough that the figures
    elide (the architecture's "... N more" tiles, the fabric's leaves, many racks)."""
    design = design_from_text(example_text(name))
    groups = [g.model_copy(update={"count": g.count * factor}) for g in design.workloads]
    return design.model_copy(update={"workloads": groups})


def _two_tiers() -> Design:
    """gpt3-175b at 2 requests a second: spines above its leaves."""
    design = design_from_text(example_text("gpt3-175b"))
    groups = [
        g.model_copy(
            update={"inference": g.inference.model_copy(update={"target_requests_per_s": 2})}
        )
        if g.inference
        else g
        for g in design.workloads
    ]
    return design.model_copy(update={"workloads": groups})


def _bridged() -> Design:
    """llm-serving on H100 NVL cards in pairs joined by NVLink bridges, four to a host."""
    design = design_from_text(example_text("llm-serving"))
    hardware = design.hardware.model_copy(
        update={"gpu": "h100-nvl-94gb", "server": "dell-r760xa", "gpus_per_host": 4,
                "nics_per_host": 1}
    )  # fmt: skip
    return design.model_copy(update={"hardware": hardware})


def _acme(more: int = 0) -> Design:
    """The two-GPU-cluster design of the docs, and with ``more`` GPU clusters like its HGX one
    (each running a copy of its chat service): several rows of the estate drawing."""
    return design_from_dict(acme_with_more_clusters(more))


CASES: dict[str, Callable[[], Design]] = {
    **{n: (lambda n=n: design_from_text(example_text(n))) for n in example_names()},
    "starter-x25": lambda: _scaled("starter", 25),
    "enterprise-x28": lambda: _scaled("enterprise", 28),
    "gpt3-175b-two-tiers": _two_tiers,
    "llm-serving-nvlink-bridges": _bridged,
    "acme-two-clusters": _acme,
    "acme-five-clusters": lambda: _acme(3),
}


def figures_of(case: str, catalog) -> dict[str, dict]:
    """Every figure the case has at the A4 width, by name (the estate drawing's parts as
    estate-1, estate-2, ...)."""
    register_fonts()
    data = build_data(CASES[case](), catalog)
    out = {}
    for key, spec in DIAGRAMS.items():
        drawing = spec.draw(data, WIDTH)
        if drawing is not None:
            out[key] = drawing_rows(drawing)
    names = {g: gpu.name for g, gpu in catalog.gpus.items()}
    for n, part in enumerate(estate_diagram.draw_pages(data.plan.estate, names, WIDTH), 1):
        out[f"estate-{n}"] = drawing_rows(part)
    return out


def _stored(figures: dict[str, dict]) -> str:
    """One shape a line, so a review's diff shows each moved shape."""
    parts = []
    for key, fig in figures.items():
        shapes = ",\n".join("    " + json.dumps(s, ensure_ascii=False) for s in fig["shapes"])
        parts.append(
            f' {json.dumps(key)}: {{"size": {json.dumps(fig["size"])}, "shapes": [\n{shapes}\n ]}}'
        )
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _near(got: list, want: list) -> bool:
    if len(got) != len(want):
        return False
    for g, w in zip(got, want, strict=True):
        if isinstance(g, float) and isinstance(w, (int, float)):
            if abs(g - w) > TOLERANCE:
                return False
        elif g != w:
            return False
    return True


@pytest.mark.parametrize("name", list(CASES))
def test_every_figure_draws_where_the_golden_says(catalog, name):
    got = figures_of(name, catalog)
    golden = FIGURES / f"{name}.json"
    if os.environ.get("GPUWIZARD_UPDATE_GOLDEN"):
        golden.write_text(_stored(got), encoding="utf-8")
    want = json.loads(golden.read_text(encoding="utf-8"))
    assert list(got) == list(want), "the example's figures changed"
    for key, fig in got.items():
        w = want[key]
        assert _near(fig["size"], w["size"]), f"{key}: size {w['size']} -> {fig['size']}"
        assert len(fig["shapes"]) == len(w["shapes"]), f"{key}: a shape was added or dropped"
        for i, (g, s) in enumerate(zip(fig["shapes"], w["shapes"], strict=True)):
            assert _near(g, s), f"{key}, shape {i}: {s} -> {g}"


def test_the_golden_reads_a_moved_label_and_a_resized_box():
    """The comparison sees a label moved by 0.2 points, a box a point wider and changed text,
    and lets the last tenth's rounding pass."""
    label = ["text", 10.0, 20.0, "spine", 7.5, "middle"]
    assert _near(label, ["text", 10.1, 20.0, "spine", 7.5, "middle"])
    assert not _near(label, ["text", 10.2, 20.0, "spine", 7.5, "middle"])
    assert not _near(label, ["text", 10.0, 20.0, "spine ", 7.5, "middle"])
    assert not _near(["box", 0.0, 0.0, 9.0, 8.0, 0.5], ["box", 0.0, 0.0, 8.0, 8.0, 0.5])
