"""The two Acme proposals as a reviewer reads them (docs/acme-options.json proposes its H100 NVL
option; docs/acme-two-clusters.json builds two GPU clusters): the words issue 50 found are gone
from the whole rendered text, the out-of-band switches are nowhere called the data centre's,
and each GPU fabric's media read as its bill orders them."""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from reports.document import ReportOptions
from reports.proposal import proposal_pdf
from tests.engine.test_port_ends import design_of
from wizard.engine import plan

NAMES = ("acme-options", "acme-two-clusters")
_TEXT: dict[str, str] = {}


def _text(name: str, catalog) -> str:
    """The whole proposal's text, whitespace folded (table cells wrap anywhere)."""
    if name not in _TEXT:
        pdf = proposal_pdf(plan(design_of(name), catalog), ReportOptions())
        pages = [pg.extract_text() for pg in PdfReader(io.BytesIO(pdf)).pages]
        _TEXT[name] = " ".join(" ".join(pages).split())
    return _TEXT[name]


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    "said",
    [
        "RDMA None",
        "RDMA: None",
        "bridges_per_group",
        "data parallel = 1,000,000,000,000",
        "give Read per GPU",
        "set the failure domain to rack",
        "NVLink bridge 2u",
        "nvlink-bridge-2u",
        "host-to-leaf fibre",
        "configure-to-order",
        "micro batches 5.33",
        "5.33 micro-batches",
    ],
)
def test_the_words_issue_50_found_are_gone(name, said, catalog):
    assert said not in _text(name, catalog)


@pytest.mark.parametrize("name", NAMES)
def test_a_risk_of_too_few_gpus_is_a_shortfall(name, catalog):
    """'leaves 8 GPUs for a demand of 6' is no risk: every such sentence names fewer GPUs
    than the demand."""
    for left, demand in re.findall(r"leaves ([\d,]+) GPUs? for a demand of ([\d,]+)",
                                   _text(name, catalog)):  # fmt: skip
        assert int(left.replace(",", "")) < int(demand.replace(",", "")), (name, left, demand)


@pytest.mark.parametrize("name", NAMES)
def test_the_out_of_band_switches_are_quoted_in_the_words(name, catalog):
    text = _text(name, catalog)
    assert "NVIDIA Spectrum SN2201 out-of-band management switch" in text  # on the bill
    assert "out-of-band switch at the top of each rack" in text  # in the network figure
    assert not re.search(r"out-of-band[^.]{0,120}(not quoted|data centre's)", text)
    assert not re.search(r"(not quoted|data centre's)[^.]{0,120}out-of-band", text)


def test_acme_options_names_its_fabric_optics_as_billed(catalog):
    """The proposed option's 200 Gb/s hosts on SN4700 400 G ports split in two: fibre and the
    modules the bill orders, never 'direct-attach copper' for that fabric."""
    text = _text("acme-options", catalog)
    assert re.search(r"200 Gb/s host to leaf: \d+ fibres, \d+ optical modules "
                     r"\(MMA1T00-VS, MMA1U50-WS\)", text)  # fmt: skip
    assert not re.search(r"200 Gb/s host to leaf: \d+ direct-attach", text)
    assert "MMA1U50-WS" in text and "Multimode breakout fibre, MPO-16 to 2 x MPO-12/UPC" in text


def test_acme_two_clusters_calls_its_splitters_copper(catalog):
    """The QM9700 stands in its hosts' rack: the 400 Gb/s links are MCP7Y00 copper splitters,
    as billed, with no optical module."""
    text = _text("acme-two-clusters", catalog)
    assert re.search(r"400 Gb/s host to leaf: \d+ direct-attach copper cables, no optical "
                     r"modules \(MCP7Y00", text)  # fmt: skip


@pytest.mark.parametrize("name", NAMES)
def test_every_source_number_reads_whole(name, catalog):
    """Both proposals cite more than 99 sources: '[100]' broken over two lines of its column
    reads '[10 0]', two numbers, and the appendix then lacks '[100]'."""
    text = _text(name, catalog)
    cited = max(int(n) for n in re.findall(r"\[(\d+)\]", text))
    assert cited >= 100, cited  # the case the check is for
    missing = [n for n in range(1, cited + 1) if f"[{n}]" not in text]
    assert not missing, missing
    assert not re.search(r"\[\d+ \d+\]", text)


def test_where_each_group_runs_says_where_and_the_shared_decisions_stand_apart(catalog):
    """acme-two-clusters states each group's cluster (docs/acme-two-clusters.json): the section
    named for it lists the three groups with their clusters, and the decision on the shared
    networks' media is under the whole design's decisions, not under where groups run."""
    text = _text("acme-two-clusters", catalog)
    where = text.rindex("Where each workload group runs")
    shared = text.rindex("Decisions for the whole design")
    after = text.rindex("Calculations for the whole design")
    assert where < shared < after
    placed = text[where:shared]
    for group, cluster in (
        ("Data scientists' notebooks", "Notebook cluster"),
        ("Llama 3.3 70B chat service", "HGX cluster"),
        ("Llama 3.1 70B LoRA fine-tuning", "HGX cluster"),
    ):
        assert f"{group} {cluster}" in placed
    assert "Host-to-leaf links" not in placed
    assert "W1 Host-to-leaf links" in text[shared:after]
