"""A storage figure the catalog marks unsettled reaches the proposal marked: DDN's AI400X3 entry
says its 590 TB usable is derived for an assumed drive set and its 120 GB/s is the predecessor's
recalled figure, so the storage section's usable capacity and read throughput lines each say
to confirm it with the vendor. Negative case: the same design on a catalog whose AFF A800 entry
lists nothing unsettled states its figures plainly."""

from __future__ import annotations

import io

from pypdf import PdfReader

from reports.data import build_data
from reports.document import ReportOptions, build_pdf
from wizard.app.io import design_from_text
from wizard.base.bundled import example_text


def _text(catalog, storage: str) -> str:
    d = design_from_text(example_text("enterprise"))
    d = d.model_copy(update={"hardware": d.hardware.model_copy(update={"storage": storage})})
    pdf = build_pdf(build_data(d, catalog), ReportOptions())
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages).split())


def test_the_recalled_ddn_figures_are_marked(catalog):
    assert "read_throughput_gbs_per_node" in catalog.storage["ddn-ai400x3"].unsettled
    text = _text(catalog, "ddn-ai400x3")
    assert "TB (to confirm with the vendor: usable capacity)" in text
    assert "GB/s (to confirm with the vendor: read throughput)" in text


def test_settled_figures_are_not_marked(catalog):
    settled = catalog.storage["netapp-aff-a800"].model_copy(update={"unsettled": []})
    plain = catalog.model_copy(update={"storage": {**catalog.storage, settled.id: settled}})
    text = _text(plain, "netapp-aff-a800")
    assert "to confirm with the vendor: usable capacity" not in text
    assert "to confirm with the vendor: read throughput" not in text
