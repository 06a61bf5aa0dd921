"""The summary's overview: one cluster is told in a paragraph; several get a row each in a table
whose last row totals them (vSphere HA works per cluster, so the reader needs each cluster's
hosts and reserve, and the whole)."""

from __future__ import annotations

import html
import re

import reports.word as word
from reports import doctree as t
from reports.document import ReportOptions
from reports.proposal import proposal_pdf
from tests.engine.test_estate import acme
from wizard.app.io import design_from_dict, design_from_text
from wizard.base.bundled import example_text
from wizard.engine import plan

HEADER = ("Cluster", "Role", "Hosts", "GPUs", "GPUs used", "kW", "Runs")


def _plain(cell: t.Para) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", cell.text)).strip()


def _overview_tables(p, monkeypatch) -> list[list[list[str]]]:
    got: list = []
    monkeypatch.setattr(word, "to_docx", lambda blocks, *a: got.extend(blocks) or b"")
    proposal_pdf(p, ReportOptions(word=True))
    tables = [[[_plain(c) for c in row] for row in b.rows] for b in got if isinstance(b, t.Table)]
    return [rows for rows in tables if tuple(rows[0]) == HEADER]


def test_one_cluster_gets_no_overview_table(catalog, monkeypatch):
    p = plan(design_from_text(example_text("llm-serving")), catalog)
    assert len(p.estate.clusters) == 1
    assert _overview_tables(p, monkeypatch) == []


def test_several_clusters_get_a_row_each_and_a_total(catalog, monkeypatch):
    """Acme: a notebook cluster, an HGX cluster and the management domain. The table has one row
    per cluster in the plan's order and a total row whose hosts and GPUs are the sums of the
    rows above it."""
    p = plan(design_from_dict(acme()), catalog)
    clusters = p.estate.clusters
    assert len(clusters) >= 2
    (rows,) = _overview_tables(p, monkeypatch)
    body, total = rows[1:-1], rows[-1]
    assert [r[0] for r in body] == [c.name for c in clusters]
    assert total[0] == "Total"
    hosts = sum(c.hosts for c in clusters)
    gpus = sum(c.gpus for c in clusters)
    assert (total[2], total[3]) == (f"{hosts:,}", f"{gpus:,}")
    assert [r[3] for r in body] == [f"{c.gpus:,}" for c in clusters]
