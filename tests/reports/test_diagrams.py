"""Diagrams and charts: labels stay inside the drawing and never overlap, for 2 hosts or 200;
the wizard gets them as SVG through reports.render."""

import pytest
from reportlab.graphics.shapes import Group, String
from reportlab.pdfbase.pdfmetrics import stringWidth

from reports import render
from reports.data import build_data
from reports.diagrams import DIAGRAMS
from wizard.app.io import design_from_text
from wizard.base.bundled import example_text


def _strings(node):
    for item in node.contents if isinstance(node, Group) else []:
        if isinstance(item, String):
            yield item
        elif isinstance(item, Group):
            assert item.transform == (1, 0, 0, 1, 0, 0), "the checks assume untransformed groups"
            yield from _strings(item)


def _box(s: String):
    w = stringWidth(s.text, s.fontName, s.fontSize)
    x = {"start": s.x, "middle": s.x - w / 2, "end": s.x - w}[s.textAnchor]
    return x, s.y - s.fontSize * 0.2, x + w, s.y + s.fontSize * 0.8


def assert_labels_fit(drawing):
    boxes = [(_box(s), s.text) for s in _strings(drawing) if s.text]
    assert boxes
    for (x0, y0, x1, y1), text in boxes:
        assert x0 >= -0.5 and x1 <= drawing.width + 0.5, f"{text!r} runs off the drawing"
        assert y0 >= -0.5 and y1 <= drawing.height + 0.5, f"{text!r} runs off the drawing"
    for i, (a, ta) in enumerate(boxes):
        for b, tb in boxes[i + 1 :]:
            overlap = (
                a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5
            )
            assert not overlap, f"{ta!r} overlaps {tb!r}"


def _scaled(catalog, name: str, factor: int):
    """A bundled example with every group's count multiplied: from a few hosts to hundreds."""
    design = design_from_text(example_text(name))
    groups = [g.model_copy(update={"count": g.count * factor}) for g in design.workloads]
    return build_data(design.model_copy(update={"workloads": groups}), catalog)


@pytest.mark.parametrize(
    ("name", "factor", "hosts"),
    [
        ("imagenet-resnet50", 1, 3),  # 1 + 1 (N+1) + 1 to the VCF minimum of three
        ("llm-serving", 1, 4),  # 20 GPUs: 3 hosts + 1 (N+1)
        ("enterprise", 1, 8),
        ("starter", 25, 176),
        ("enterprise", 28, 197),
    ],
)
@pytest.mark.parametrize("width", [480, 300])
def test_labels_fit_from_two_hosts_to_two_hundred(catalog, name, factor, hosts, width):
    data = _scaled(catalog, name, factor)
    assert data.result.cluster.hosts_total == hosts
    for spec in DIAGRAMS.values():
        drawing = spec.draw(data, width)
        if drawing is not None:
            assert drawing.width <= width
            assert_labels_fit(drawing)


def test_large_cluster_is_summarized_not_crammed(catalog):
    data = _scaled(catalog, "enterprise", 28)  # 197 hosts
    texts = [s.text for s in _strings(DIAGRAMS["architecture"].draw(data, 480))]
    tiles = [t for t in texts if t.startswith("host ")]
    assert len(tiles) <= 20
    assert "host 197" in texts
    assert any(t.startswith("… ") and t.endswith(" more") for t in texts)


def test_memory_chart_has_a_bar_per_model_sized_group(example_data):
    data = example_data("bert-large-25gbe")
    texts = [s.text for s in _strings(DIAGRAMS["memory"].draw(data, 480))]
    assert "BERT-Large pre-training" in texts
    # the bar's figure is the Result's total GB per GPU, to two places
    assert f"{data.result.workloads[0].memory_gb.total:.2f}" in texts


def test_charts_without_data_are_absent(example_data):
    """enterprise sizes every group by whole GPUs, so it has no memory bars; its mode comparison
    is drawn, and the same data with the comparison emptied has no sharing chart."""
    data = example_data("enterprise")
    assert DIAGRAMS["memory"].draw(data, 480) is None
    assert data.result.sharing_comparison
    assert DIAGRAMS["sharing"].draw(data, 480) is not None
    result = data.result.model_copy(update={"sharing_comparison": []})
    empty = type(data)(design=data.design, catalog=data.catalog, result=result)
    assert DIAGRAMS["sharing"].draw(empty, 480) is None
    assert DIAGRAMS["memory"].draw(example_data("bert-large-25gbe"), 480) is not None


def test_svg_for_the_wizard(example_data):
    data = example_data("bert-large-25gbe")
    names = [n for n, _ in render.drawing_names(data)]
    assert names[:2] == ["architecture", "memory"]
    svg = render.drawing_svg("architecture", data)
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg and "BERT-Large" in svg
    assert set(render.font_files()) >= {"DejaVuSans", "DejaVuSans-Bold"}
    with pytest.raises(KeyError, match="unknown diagram"):
        render.drawing_svg("nope", data)


@pytest.mark.parametrize("name", ["enterprise", "llm-serving", "mig-shared"])
def test_every_diagram_renders_as_svg(example_data, name):
    """The wizard shows every diagram through SVG; each one must render, not only in the PDF."""
    data = example_data(name)
    names = [n for n, _ in render.drawing_names(data)]
    assert "racks" in names
    for diagram in names:
        assert "<svg" in render.drawing_svg(diagram, data)


def _with_comparison(data):
    from wizard.model.result import ModeOption

    def option(mode, label, gpus, util, available=True, reason=""):
        return ModeOption(
            mode=mode, label=label, available=available, reason=reason, gpus=gpus,
            hosts_for_capacity=gpus // 2, hosts_total=gpus // 2 + 1, mean_utilization=util,
            isolation="hardware", live_migration="no", ha_behaviour="restart", licences="none",
            caveats=["a caveat"],
        )  # fmt: skip

    options = [
        option("as-designed", "As designed", 16, 0.9),
        option("passthrough", "Passthrough (whole GPUs)", 1400, 0.42),
        option("mig", "MIG", 0, 0, available=False, reason="the T4 has no MIG " * 8),
    ]
    result = data.result.model_copy(update={"sharing_comparison": options})
    return type(data)(design=data.design, catalog=data.catalog, result=result)


@pytest.mark.parametrize("width", [480, 300])
def test_sharing_chart_labels_fit(example_data, width):
    drawing = DIAGRAMS["sharing"].draw(_with_comparison(example_data("starter")), width)
    assert_labels_fit(drawing)
    texts = [s.text for s in _strings(drawing)]
    assert "1,400 GPUs, 701 hosts, 42 % allocated" in texts
    assert any(t.startswith("not available: the T4 has no MIG") for t in texts)


def test_a_cjk_label_is_drawn_in_the_fallback_font():
    from reports.diagrams.common import Label, label
    from reports.fonts import FALLBACK, SANS

    whole = label(10, 10, "東京データ", 200)
    assert isinstance(whole, String) and whole.fontName == FALLBACK
    assert label(10, 10, "Tokyo", 200).fontName == SANS
    # The fallback has no Latin letters: a mixed label is set in runs, each in its own font,
    # one after the other as a single String would be.
    mixed = label(100, 10, "推論 H100", 200, anchor="end")
    assert isinstance(mixed, Label) and mixed.text == "推論 H100"
    runs = [(s.text, s.fontName) for s in mixed.contents]
    assert runs == [("推論", FALLBACK), (" H100", SANS)]
    first, second = mixed.contents
    assert second.x == pytest.approx(first.x + stringWidth("推論", FALLBACK, 7.5))
    assert second.x + stringWidth(" H100", SANS, 7.5) == pytest.approx(100)


def test_diagrams_with_a_cjk_group_name_fit(catalog):
    from reports.fonts import FALLBACK

    design = design_from_text(example_text("starter"))
    groups = [design.workloads[0].model_copy(update={"name": "한국어 추론 그룹 (推論)"}),
              *design.workloads[1:]]  # fmt: skip
    data = build_data(design.model_copy(update={"workloads": groups}), catalog)
    drawing = DIAGRAMS["architecture"].draw(data, 480)
    assert any(s.fontName == FALLBACK for s in _strings(drawing))
    assert_labels_fit(drawing)


# ----------------------------------------------------------------------- the physical network


def test_host_ports_reach_the_leaves_the_fabric_sizing_counts():
    """25 hosts with 8 ports each over 7 leaves: 200 ports, 29 on leaves 1-4 and 28 on 5-7
    (200 = 4 × 29 + 3 × 28). Leaf 1 takes ports 0-28, the ports of hosts 1-3 and five of host 4;
    leaf 7 takes ports 172-199, hosts 22 (its last four), 23, 24 and 25."""
    from reports.diagrams.fabric import _hosts_of_leaf

    cabled = _hosts_of_leaf(25, 8, 7, redundant=False)
    assert cabled[0] == {1, 2, 3, 4}
    assert cabled[6] == {22, 23, 24, 25}
    assert set().union(*cabled) == set(range(1, 26))
    # a redundant pair: every host on both leaves of its pair; 6 hosts over two pairs, 3 each
    pairs = _hosts_of_leaf(6, 2, 4, redundant=True)
    assert pairs == [{1, 2, 3}, {1, 2, 3}, {4, 5, 6}, {4, 5, 6}]


def test_the_network_figure_writes_link_counts_and_never_cuts_a_label(catalog):
    """gpt3-175b asked for 2 requests a second (its one replica serves about 0.06) needs two
    switch tiers: each host's links, each leaf's uplinks and the spines are written out; no label
    is below 7 pt or cut with an ellipsis. (A service's member count no longer multiplies its
    load, so the load is raised by its throughput target.)"""
    design = design_from_text(example_text("gpt3-175b"))
    groups = [
        g.model_copy(
            update={"inference": g.inference.model_copy(update={"target_requests_per_s": 2})}
        )
        for g in design.workloads
    ]
    data = build_data(design.model_copy(update={"workloads": groups}), catalog)
    compute = next(p for p in data.result.topology.fabric.planes if p.name == "compute")
    leaf = next(t for t in compute.tiers if t.role == "leaf")
    spine = next(t for t in compute.tiers if t.role == "spine")
    hosts = data.result.cluster.hosts_total
    drawing = DIAGRAMS["fabric"].draw(data, 480)
    texts = [s.text for s in _strings(drawing)]
    per_host = compute.host_ports // hosts
    assert f"{hosts} hosts, {per_host} × 400 Gb/s each" in texts
    assert (
        f"each leaf: {leaf.uplinks} × 400 Gb/s up, {leaf.uplinks // spine.count} to each spine"
        in texts
    )
    assert f"spine {spine.count}" in texts and f"leaf {leaf.count}" in texts
    racks = len(data.result.racks.racks)  # one quoted out-of-band switch at the top of each
    assert f"{racks} out-of-band switch{'es' if racks > 1 else ''}, one per rack" in texts
    assert all(s.fontSize >= 7 for s in _strings(drawing))
    assert not [t for t in texts if t.endswith("…") and t != "…"]
    assert_labels_fit(drawing)


def test_the_storage_system_is_drawn_on_the_network_it_attaches_to(example_data):
    """The enterprise design sizes 4 Isilon F800 nodes: the service network shows them; a design
    without a storage system (llm-serving) draws no storage box."""
    texts = [s.text for s in _strings(DIAGRAMS["fabric"].draw(example_data("enterprise"), 480))]
    assert "storage" in texts
    assert any("storage: 4 nodes of Dell EMC Isilon F800" in t for t in texts)
    texts = [s.text for s in _strings(DIAGRAMS["fabric"].draw(example_data("llm-serving"), 480))]
    assert "storage" not in texts


def test_the_rack_elevation_numbers_units_and_shows_both_pdus(example_data):
    """A 42U rack numbered 1, 5, 10 … 40 from the bottom (every fifth unit and the first), a PDU
    on each of the A and B feeds, every item named, no label below 7 pt."""
    data = example_data("enterprise")
    drawing = DIAGRAMS["racks"].draw(data, 480)
    texts = [s.text for s in _strings(drawing)]
    assert [t for t in texts if t.isdigit()] == ["1", *(str(u) for u in range(5, 41, 5))]
    assert texts.count("A") == 1 and texts.count("B") == 1
    assert "PDU, A and B feeds (0U)" in texts
    for item in data.result.racks.racks[0].items:
        assert item.name in texts
    assert all(s.fontSize >= 7 for s in _strings(drawing))
    assert_labels_fit(drawing)


@pytest.mark.parametrize("name", ["enterprise", "llm-serving", "mig-shared", "starter"])
def test_no_label_is_cut_or_below_seven_points(example_data, name):
    """Every figure of the proposal summarizes rather than cuts: no label ends in an ellipsis
    except a row's "… N more" tile, and none is set below 7 pt."""
    data = example_data(name)
    for key, spec in DIAGRAMS.items():
        drawing = spec.draw(data, 480)
        if drawing is None:
            continue
        for s in _strings(drawing):
            assert not (s.text.endswith("…") and s.text != "…"), (key, s.text)
            assert s.fontSize >= 7, (key, s.text, s.fontSize)


def _nvlink_links(drawing):
    """The NVLink links the figure draws (its legend's sample lines apart)."""
    from reports.diagrams.host import NvlinkLinks

    groups = [g for g in drawing.contents if isinstance(g, NvlinkLinks)]
    return [shape for g in groups for shape in g.contents]


# A4 and US Letter text widths, and a narrow one
HOST_WIDTHS = [453, 468, 300]


@pytest.mark.parametrize("width", HOST_WIDTHS)
def test_c4140_host_figure_draws_its_nvlink_mesh_not_an_nvswitch(example_data, width):
    """The C4140's 4-GPU V100 SXM2 board is an NVLink mesh (server catalog source_note; six
    links per GPU over its three peers, Dell EMC Ready Solutions for AI Reference Guide 2.2):
    4 x 3 / 2 = 6 GPU-to-GPU links and no NVSwitch anywhere on the figure."""
    from reports.diagrams import host

    drawing = host.draw(example_data("enterprise"), width)
    texts = [s.text for s in _strings(drawing)]
    assert not [t for t in texts if "NVSwitch" in t and "no NVSwitch" not in t]
    assert len(_nvlink_links(drawing)) == 6
    assert_labels_fit(drawing)


@pytest.mark.parametrize("width", HOST_WIDTHS)
def test_hgx_host_figure_joins_eight_gpus_to_an_nvswitch_box(example_data, width):
    """HGX H200 8-GPU with 8 NICs: an NVSwitch box, a link from each of the 8 GPUs to it, and the
    H200's 900 GB/s NVLink given as 450 GB/s one way."""
    from reports.diagrams import host

    drawing = host.draw(example_data("hgx-h200-llm"), width)
    texts = " ".join(s.text for s in _strings(drawing))
    assert "NVSwitch" in texts and "450 GB/s one way" in texts
    assert len(_nvlink_links(drawing)) == 8
    assert_labels_fit(drawing)


def test_host_figure_shows_both_cpus_and_their_interconnect(example_data):
    """The C4140 hangs everything off CPU 0; CPU 1 is drawn and says it has nothing attached.
    Its UPI: 3 links x 10.4 GT/s x 2 B x 2 directions = 124.8 GB/s, 62.4 each way."""
    from reports.diagrams import host

    texts = [s.text for s in _strings(host.draw(example_data("enterprise"), 453))]
    assert "CPU 0" in texts and "CPU 1" in texts
    assert "no GPUs or NICs attached" in " ".join(texts)
    assert "UPI" in texts and "62.40 GB/s" in texts
    # an 8-GPU host has devices on both CPUs: no such note
    texts = [s.text for s in _strings(host.draw(example_data("hgx-h200-llm"), 453))]
    assert "CPU 1" in texts and "attached" not in " ".join(texts)


@pytest.mark.parametrize(
    "name", ["enterprise", "hgx-h200-llm", "gpt3-175b", "rtx-pro-vsphere", "llm-serving",
             "mig-shared", "bert-large-25gbe"]
)  # fmt: skip
@pytest.mark.parametrize("width", HOST_WIDTHS)
def test_host_figure_never_cuts_or_shrinks_a_label(example_data, name, width):
    """Every PCIe link kind is given with its generation, width and GB/s; the NIC box or the key
    line names the NIC with its ports x speed; no label is cut or set below 7 pt."""
    from reports.diagrams import host

    data = example_data(name)
    drawing = host.draw(data, width)
    strings = list(_strings(drawing))
    assert all(s.fontSize >= 7 for s in strings)
    assert not [s.text for s in strings if s.text.endswith("…")]
    text = " ".join(s.text for s in strings)
    layout = data.result.topology.hosts[0]
    for lk in layout.links:
        if lk.kind == "pcie":
            assert lk.label in text
    nic = next((d for d in layout.devices if d.kind == "nic"), None)
    if nic is not None:
        assert " Gb/s" in text and " × " in text
    assert_labels_fit(drawing)


def test_bridged_pairs_are_drawn_one_bridge_each(catalog):
    """Eight A100 PCIe in NVLink-bridged pairs: 8 / 2 = 4 bridges, each labelled with the pair's
    600 GB/s / 2 = 300 GB/s one way; the same GPUs without bridges draw no NVLink at all."""
    from reports.diagrams import host

    design = design_from_text(example_text("bert-large-25gbe"))
    for nvlink, bridges in ((True, 4), (False, 0)):
        hw = design.hardware.model_copy(
            update={"server": "lenovo-sr670-v2", "nvlink": nvlink, "gpus_per_host": 8}
        )
        data = build_data(design.model_copy(update={"hardware": hw}), catalog)
        drawing = host.draw(data, 453)
        assert len(_nvlink_links(drawing)) == bridges
        texts = [s.text for s in _strings(drawing)]
        assert texts.count("300 GB/s") == bridges
        assert_labels_fit(drawing)


def _vertical_lines(node):
    from reportlab.graphics.shapes import Line

    for item in node.contents if isinstance(node, Group) else []:
        if isinstance(item, Line) and abs(item.x1 - item.x2) < 0.01:
            yield item.x1, min(item.y1, item.y2), max(item.y1, item.y2)
        elif isinstance(item, Group):
            yield from _vertical_lines(item)


@pytest.mark.parametrize(
    "name", ["enterprise", "hgx-h200-llm", "llm-serving", "mig-shared", "rtx-pro-vsphere"]
)
def test_no_connector_runs_through_a_network_label(example_data, name):
    """The logical architecture's drops between the boxes and the networks pass beside the
    networks' labels, never through their text (the HGX design's long InfiniBand label was
    crossed by the cluster's link to the management network)."""
    drawing = DIAGRAMS["architecture"].draw(example_data(name), 480)
    labels = [(_box(s), s.text) for s in _strings(drawing) if "network" in s.text.lower()
              or s.text.startswith("Data fabric")]  # fmt: skip
    assert len(labels) >= 2
    for (x0, y0, x1, y1), text in labels:
        for x, lo, hi in _vertical_lines(drawing):
            crosses = x0 + 0.5 < x < x1 - 0.5 and lo < y1 - 0.5 and hi > y0 + 0.5
            assert not crosses, f"a connector at x={x:.1f} runs through {text!r}"
