"""'To confirm' travels: for every bundled example and the Acme designs (docs/*.json, and the
option acme-options proposes), each figure the catalog marks unsettled (an entry's ``unsettled``
list) that the plan uses is marked on every row and line of the proposal that prints it: the
network tiers' power, the power section's per-host line, a cluster's power per host, the
storage and cooling figures, the catalog entries in the appendix, a calculation's inputs and the
host drawing's legend. The check reads the document tree both writers (PDF and Word) render,
row by row, so one place that forgets the mark fails it; the PDF is read too for the two rows a
reviewer first found unmarked. Negative case: with every figure settled, no row carries a mark
but the part numbers a cabling line's own source says to confirm."""

from __future__ import annotations

import html
import io
import re
from collections.abc import Iterator

import pytest
from pypdf import PdfReader
from reportlab.graphics.shapes import Group, String

from reports import doctree as t
from reports import sections
from reports.data import data_of
from reports.document import ReportOptions
from reports.proposal import proposal_pdf
from reports.story import Story
from reports.styles import make_styles
from tests.engine.test_port_ends import CASES, PROPOSED, design_of
from tests.reports.conftest import squash
from wizard.app.io import design_from_dict
from wizard.base.numbers import num
from wizard.engine import plan
from wizard.present.formula_text import inputs_words

MARK = "to confirm with the vendor"

# (catalog kind, field): the unit the proposal prints it with
FIGURES: dict[tuple[str, str], str] = {
    ("switches", "power_w"): "W",
    ("switches", "rack_units"): "U",
    ("servers", "baseline_power_w"): "W",
    ("servers", "psu_w"): "W",
    ("servers", "rack_units"): "U",
    ("servers", "cpu_interconnect_gbs"): "GB/s",
    ("gpus", "tdp_w"): "W",
    ("gpus", "memory_bandwidth_gbs"): "GB/s",
    ("storage", "usable_capacity_tb_per_node"): "TB",
    ("storage", "read_throughput_gbs_per_node"): "GB/s",
    ("storage", "power_w_per_node"): "W",
    ("storage", "rack_units_per_node"): "U",
    ("cooling", "power_w"): "W",
    ("cooling", "capacity_kw"): "kW",
    ("cooling", "facility_delta_t_c"): "°C",
    ("gpus", "nvlink.bridges_per_group"): "bridges",
}
# a calculation's input that is a catalog figure, by the input's name
INPUTS = {
    "baseline_w": ("servers", "baseline_power_w"),
    "tdp_w": ("gpus", "tdp_w"),
    "usable_tb_per_node": ("storage", "usable_capacity_tb_per_node"),
    "read_gbs_per_node": ("storage", "read_throughput_gbs_per_node"),
    "host_units": ("servers", "rack_units"),
    "temperature_rise": ("cooling", "facility_delta_t_c"),
    "bridges_per_group": ("gpus", "nvlink.bridges_per_group"),
}


def _used(p) -> dict[str, set[str]]:
    """The catalog entries a plan uses, by kind: its clusters' servers and GPUs, its networks'
    switches, its storage and its coolant distribution unit."""
    e = p.estate
    out: dict[str, set[str]] = {k: set() for k, _ in FIGURES}
    for c in e.clusters:
        out["servers"].add(c.server)
        if c.result is not None:
            out["gpus"].add(c.result.gpu)
            if c.result.storage is not None and c.result.storage.system:
                out["storage"].add(c.result.storage.system)
    out["switches"] |= {tier.switch for plane in e.network for tier in plane.tiers}
    if e.cooling is not None:
        out["cooling"].add(e.cooling.cdu)
    return out


def _printed(p, catalog) -> list[tuple[str, str, str, str]]:
    """(entry, field, value as printed, unit) of every unsettled figure the plan uses, with the
    figures that follow from one by hand arithmetic: a storage system's nodes times its per-node
    figure, a CPU interconnect's one-way half of the catalog's both-ways bandwidth."""
    out = []
    nodes = {c.result.storage.system: c.result.storage.nodes for c in p.estate.clusters
             if c.result is not None and c.result.storage.nodes}  # fmt: skip
    for kind, ids in _used(p).items():
        for entry_id in ids:
            entry = getattr(catalog, kind).get(entry_id)
            if entry is None:
                continue
            for (k, field), unit in FIGURES.items():
                if k != kind or field not in entry.unsettled:
                    continue
                head, _, tail = field.partition(".")
                value = getattr(getattr(entry, head), tail) if tail else getattr(entry, head)
                if value is None:  # left out, not printed (the power table says so)
                    continue
                forms = {num(value)}
                if kind == "storage" and entry_id in nodes:
                    forms.add(num(value * nodes[entry_id]))
                if field == "cpu_interconnect_gbs":
                    forms.add(num(value / 2))
                if field == "nvlink.bridges_per_group":  # the bridged groups of a host times it
                    groups = {len([g for g in h.device_groups if g.kind == "nvlink"])
                              for c in p.estate.clusters if c.result is not None
                              for h in c.result.topology.hosts if h.gpu == entry_id}  # fmt: skip
                    forms |= {num(value * g) for g in groups if g}
                out += [(entry_id, field, f, unit) for f in forms]
    return out


def _strings(node) -> Iterator[str]:
    for c in getattr(node, "contents", []):
        if isinstance(c, String):
            yield c.text
        elif isinstance(c, Group):
            yield from _strings(c)


FIGURE = ["figure"]  # the header a drawing's row stands under


def _rows(blocks: list[t.Block]) -> Iterator[tuple[list[str] | None, list[str]]]:
    """(the table's header or None, the cells) of every row, paragraph and bullet of the
    document; a drawing is one row of its caption and all its labels (a legend entry spans its
    wrapped lines, a chart's figure its caption)."""
    for b in blocks:
        if isinstance(b, t.Para):
            yield None, [html.unescape(b.text)]
        elif isinstance(b, t.Bullets):
            yield from ((None, [html.unescape(i)]) for i in b.items)
        elif isinstance(b, t.Table):
            head = [html.unescape(c.text) for c in b.rows[0]] if b.header else None
            for r in b.rows[1 if b.header else 0 :]:
                yield head, [html.unescape(c.text) for c in r]
        elif isinstance(b, t.Figure):
            yield FIGURE, [b.caption, *_strings(b.drawing)]


def _prints(head: list[str] | None, cells: list[str], value: str, unit: str, field: str) -> bool:
    """Whether the row prints ``value``: followed by its unit, in a column headed with the unit,
    or as a calculation's input of that figure."""
    named = "bridges?" if unit == "bridges" else re.escape(unit)  # "1 bridge", "3 bridges"
    with_unit = re.compile(rf"(?<![\d.,]){re.escape(value)}\s?{named}(?![A-Za-z/])")
    if any(with_unit.search(c) for c in cells):
        return True
    if head is FIGURE:  # a chart's bare figure, on an axis in the unit
        return value in cells and any(re.search(rf"\b{re.escape(unit)}\b", c) for c in cells)
    if head is None:
        return False
    in_column = re.compile(rf"(?<![A-Za-z]){re.escape(unit)}(?![A-Za-z/])")
    if any(c.strip() == value and in_column.search(h) for h, c in zip(head, cells, strict=False)):
        return True
    if head[:3] == ["Quantity", "Formula", "Inputs"]:
        names = [n for n, (_, f) in INPUTS.items() if f == field]
        said = [inputs_words({n: float(value.replace(",", ""))}) for n in names]
        return any(re.search(rf"{re.escape(s)}(?![\d]|[.,]\d)", cells[2]) for s in said)
    return False


def _tree(p) -> list[t.Block]:
    story = Story(data_of(p), make_styles(), 480)
    return sections.build_all(story)


def _unmarked(p, catalog) -> tuple[list[str], int]:
    """The rows that print an unsettled figure without the mark, and how many rows print one."""
    # the list of sources quotes each source's own words (a vendor sheet's per-chassis 15 GB/s),
    # not the plan's figures
    rows = [(h, c) for h, c in _rows(_tree(p)) if h != ["No.", "Source"]]
    missing, seen = [], 0
    for entry, field, value, unit in _printed(p, catalog):
        for head, cells in rows:
            if _prints(head, cells, value, unit, field):
                seen += 1
                if not any(MARK in c for c in cells):
                    missing.append(f"{entry} {field} {value} {unit}: {' | '.join(cells)[:160]}")
    return missing, seen


_PLANS: dict[str, object] = {}


LIQUID = "a liquid-cooled B200 design"  # the coolant units' figures, the heat share


def _design(name: str):
    if name == LIQUID:
        from tests.engine.test_liquid_cooling import _lcc

        return design_from_dict(_lcc())
    return design_of(name)


def _plan(name: str, catalog):
    if name not in _PLANS:
        _PLANS[name] = plan(_design(name), catalog)
    return _PLANS[name]


@pytest.mark.parametrize("name", [*CASES, LIQUID])
def test_every_row_printing_an_unsettled_figure_carries_the_mark(name, catalog):
    p = _plan(name, catalog)
    missing, seen = _unmarked(p, catalog)
    assert missing == [], (name, missing)
    # every design uses a server whose platform power is an estimate (the catalog's own note),
    # so the check is never empty
    assert seen >= 2, name


def test_the_proposed_options_network_and_power_rows_read_marked_in_the_pdf(catalog):
    """The two rows a reviewer found unmarked, in the PDF itself: the service network's
    SN4600C leaf row (its typical power is a third-party reading) and the per-host line (the
    R760xa's platform power is the project's estimate)."""
    switch, server = catalog.switches["nvidia-sn4600c"], catalog.servers["dell-r760xa"]
    assert "power_w" in switch.unsettled and "baseline_power_w" in server.unsettled
    pdf = proposal_pdf(_plan(PROPOSED, catalog), ReportOptions())
    text = squash(" ".join(pg.extract_text() for pg in PdfReader(io.BytesIO(pdf)).pages))
    assert squash(f"{switch.product_name} ({MARK}: power)") in text
    assert squash(f"platform {num(server.baseline_power_w)} W) ({MARK}: platform power)") in text


def test_a_row_that_forgets_the_mark_is_caught(catalog, monkeypatch):
    """The check fails the plausible bug: the network tiers printing the switch power bare."""
    from reports.sections import network

    monkeypatch.setattr(network, "flag", lambda text, *_: text)
    missing, _ = _unmarked(_plan(PROPOSED, catalog), catalog)
    assert any(m.startswith("nvidia-sn4600c power_w") for m in missing), missing


def _settled(catalog):
    """The catalog with every figure settled: each entry's unsettled list emptied."""
    kinds = ("servers", "gpus", "nics", "switches", "storage", "licences", "cooling", "models")
    return catalog.model_copy(
        update={
            k: {i: e.model_copy(update={"unsettled": []}) for i, e in getattr(catalog, k).items()}
            for k in kinds
        }
    )


@pytest.mark.parametrize("name", ["enterprise", "acme-two-clusters", PROPOSED, LIQUID])
def test_a_settled_figure_never_carries_the_mark(name, catalog):
    p = plan(_design(name), _settled(catalog))
    rows = [cells for _, cells in _rows(_tree(p))]
    # every mark a row carries, in parentheses ('(power to confirm with the vendor)' too); the
    # only ones left are the part numbers a cabling line's own source says to confirm
    marks = {m for cells in rows for c in cells for m in re.findall(rf"\([^()]*{MARK}[^()]*\)", c)}
    assert marks == {f"({MARK}: part number)"}, (name, marks)
    # nor a line of its own (the liquid cooling's figures to confirm)
    assert not any(c.strip().lower() == MARK for cells in rows for c in cells), name


@pytest.mark.parametrize("name", ["enterprise", "acme-two-clusters", PROPOSED])
def test_the_bill_exports_carry_each_lines_mark(name, catalog):
    """The workbook and the CSV print each bill line's own description: a line whose figures
    the catalog leaves unsettled says which, in both; a settled line says nothing."""
    from openpyxl import load_workbook

    from reports.bom_export import bom_csv, bom_xlsx

    bom = _plan(name, catalog).estate.bom
    book = load_workbook(io.BytesIO(bom_xlsx(bom)))["Bill of materials"]
    cells = [str(c.value) for row in book.iter_rows() for c in row if c.value is not None]
    text = bom_csv(bom)
    marked = [ln for ln in bom.lines if ln.to_confirm]
    assert marked, name
    for ln in bom.lines:
        said = f"({MARK}: {', '.join(ln.to_confirm)})"
        row = next(c for c in cells if c.startswith(ln.description.split(f" ({MARK}")[0]))
        assert (said in row) == bool(ln.to_confirm), (name, ln.item, row)
        if ln.to_confirm:
            assert said in text, (name, ln.item)


@pytest.mark.parametrize("name", ["enterprise", PROPOSED, LIQUID])
def test_the_terminal_says_the_same_marks(name, catalog):
    """``gpuwizard size`` prints the plan's lines: the per-host power says its platform power is
    to confirm, and a bill line cut to the terminal's width keeps its whole mark; with every
    figure settled only the cabling part numbers keep one."""
    from wizard.app.summary import plan_lines

    p = _plan(name, catalog)
    lines = plan_lines(p)
    server = catalog.servers[p.estate.clusters[0].server]
    assert "baseline_power_w" in server.unsettled
    assert any(ln.strip().startswith("power") and ln.endswith(f"({MARK}: platform power)")
               for ln in lines), name  # fmt: skip
    for ln in p.estate.bom.lines:
        if ln.to_confirm:
            said = f"({MARK}: {', '.join(ln.to_confirm)})"
            assert any(x.endswith(said) and ln.description[:20] in x for x in lines), ln.item
    plain = plan_lines(plan(_design(name), _settled(catalog)))
    marks = {m for x in plain for m in re.findall(rf"\([^()]*{MARK}[^()]*\)", x)}
    assert marks <= {f"({MARK}: part number)"}, (name, marks)
