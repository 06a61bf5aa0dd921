"""Every catalog figure has a source or a marked gap, and every server, storage system and
cooling unit can be designed with.

A figure the vendor does not publish, or one estimated, recalled or read through a third party,
is listed in the entry's `unsettled` and explained in its `source_note`, so a reader knows which
numbers to confirm; an optional figure left out (a storage node's or a CDU's power) is a gap and
is listed too."""

from __future__ import annotations

import re

import pytest

from wizard.app.io import design_from_dict
from wizard.engine.size import size
from wizard.model.catalog import CATALOG_KINDS, Storage, max_boards

HEDGES = re.compile(r"not settled|estimate|not re-read|recalled|assumption", re.IGNORECASE)

# optional published figures: left out means not published, a gap to list
OPTIONAL = {"storage": ("power_w_per_node",), "cooling": ("power_w",)}


def _entries(catalog):
    for kind in CATALOG_KINDS:
        for entry in getattr(catalog, kind).values():
            yield kind, entry


def test_every_entry_cites_a_document(catalog):
    """A web address, or a paper by its arXiv number."""
    for kind, e in _entries(catalog):
        assert "http" in e.source or re.search(r"arXiv:\d{4}\.\d{4,5}", e.source), (kind, e.id)


def test_every_unsettled_figure_is_explained(catalog):
    for kind, e in _entries(catalog):
        for path in e.unsettled:
            assert path.split(".")[-1] in e.source_note, (kind, e.id, path)


def test_a_note_that_hedges_lists_what_it_hedges(catalog):
    """A note saying 'not settled', 'estimate', 'recalled' … names its figures in `unsettled`."""
    quiet = [
        (kind, e.id)
        for kind, e in _entries(catalog)
        if HEDGES.search(e.source_note) and not e.unsettled
    ]
    assert quiet == []


def test_an_optional_figure_left_out_is_a_listed_gap(catalog):
    for kind, fields in OPTIONAL.items():
        for e in getattr(catalog, kind).values():
            for name in fields:
                if getattr(e, name) is None:
                    assert name in e.unsettled, (kind, e.id, name)


def test_unsettled_names_fields_of_the_entry():
    """A typo in `unsettled` is refused when the catalog is read (negative case of the rule)."""
    doc = {
        "id": "x", "source": "https://example.com/a", "vendor": "V", "model": "M",
        "usable_capacity_tb_per_node": 10, "read_throughput_gbs_per_node": 1,
        "protocols": ["nfs"], "gpudirect_storage": False, "rack_units_per_node": 1,
    }  # fmt: skip
    Storage(**doc, unsettled=["power_w_per_node"])
    with pytest.raises(ValueError, match="not a figure of this entry"):
        Storage(**doc, unsettled=["power_per_node"])


def test_every_server_can_be_designed_with(catalog):
    """Each server holds some catalog GPU, and a one-host design sizes on it."""
    failed = []
    for server in catalog.servers.values():
        held = [g for g in catalog.gpus.values() if max_boards(server, g) > 0]
        if not held:
            failed.append(server.id)
            continue
        gpu = min(held, key=lambda g: g.id)
        boards = min(max_boards(server, gpu), 16 // gpu.gpus_per_board)  # the design's 16 GPUs
        doc = {
            "workloads": [{"name": "Users", "kind": "development", "count": 1,
                           "shared": {"gpus_per_job": 1}}],
            "hardware": {"gpu": gpu.id, "server": server.id,
                         "gpus_per_host": boards * gpu.gpus_per_board},
        }  # fmt: skip
        if size(design_from_dict(doc), catalog).cluster.gpus_total < 1:
            failed.append(server.id)
    assert failed == []
