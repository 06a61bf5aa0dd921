"""Export failures, the hardware page's checks and recommendation, and the live review."""

from __future__ import annotations

import errno
import re

from tests.gui.helpers import click, pick
from tests.reports.test_cli_report import script_texts
from wizard.base.bundled import example_text
from wizard.engine.size import size
from wizard.gui.prompts import PromptKind
from wizard.gui.wizard import PageId
from wizard.model.design import Fabric, HaLevel, Rdma, SharingMode


def _sized(window):
    """The sizing of the open design's one GPU cluster (the plan's only cluster)."""
    plan = window.live.current()
    if plan is None:
        return None
    (cluster,) = plan.clusters
    return cluster.result


def _open(window, tmp_path, name="enterprise"):
    path = tmp_path / f"{name}.json"
    path.write_text(example_text(name))
    assert window.open_path(path)
    return path


def test_export_to_an_unwritable_place_says_so_and_loses_nothing(qtbot, window, prompts,
                                                                 tmp_path):  # fmt: skip
    _open(window, tmp_path)
    assert window.wizard.go_to(PageId.EXPORT)
    page = window.wizard.page_of(PageId.EXPORT)
    before = window.doc.design()
    prompts.answers.append(str(tmp_path / "no-such-folder" / "out.json"))
    click(qtbot, page.json.button)
    assert page.json.status.text().startswith("Not written:")
    assert "No such file or directory" in page.json.status.text()
    assert prompts.asked[-1].kind is PromptKind.ERROR
    assert page.json.button.isEnabled() and not page.json.open_button.isVisible()
    assert window.doc.design() == before


def test_a_full_disk_leaves_the_earlier_file_intact(qtbot, window, prompts, tmp_path, monkeypatch):
    _open(window, tmp_path)
    window.wizard.go_to(PageId.EXPORT)
    page = window.wizard.page_of(PageId.EXPORT)
    target = tmp_path / "existing.json"
    target.write_text("earlier export")

    def full(_fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("wizard.app.io.os.fsync", full)
    prompts.answers.append(str(target))
    click(qtbot, page.json.button)
    assert "No space left on device" in page.json.status.text()
    assert target.read_text() == "earlier export"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_servers_that_cannot_hold_the_gpu_are_disabled_with_the_reason(qtbot, window, catalog):
    hw = window.wizard.page_of(PageId.HARDWARE)
    pick(hw.gpu, "h100-sxm5-80gb")
    fits = {s.id for s in catalog.servers_for_gpu(catalog.gpus["h100-sxm5-80gb"])}
    assert fits
    for sid in catalog.servers:
        assert hw.server.enabled(sid) == (sid in fits), sid
    pcie_only = next(s for s in catalog.servers if s not in fits)
    assert "Not available:" in hw.server.reason(pcie_only)
    # NVLink is on the SXM baseboard: checked, and not a choice
    assert hw.nvlink.isChecked() and not hw.nvlink.isEnabled()


def test_network_choices_follow_the_fabric(qtbot, window):
    hw = window.wizard.page_of(PageId.HARDWARE)
    pick(hw.gpu, "a100-pcie-80gb")
    pick(hw.fabric, Fabric.IB_HDR)
    assert not hw.rdma.enabled(Rdma.ROCE) and "Ethernet" in hw.rdma.reason(Rdma.ROCE)
    assert not hw.nic.enabled("cx5-25g-2p")
    pick(hw.fabric, Fabric.GBE_25)
    assert not hw.rdma.enabled(Rdma.INFINIBAND)
    pick(hw.rdma, Rdma.NONE)
    assert not hw.gdr.isEnabled() and "needs RDMA" in hw.gdr_note.text()


def test_catalog_problems_appear_under_the_field(qtbot, window, tmp_path):
    _open(window, tmp_path, "llm-serving")  # GPUDirect RDMA on, ConnectX-7, 200 GbE RoCE
    window.wizard.go_to(PageId.HARDWARE)
    hw = window.wizard.page_of(PageId.HARDWARE)
    assert hw.problems() == []
    pick(hw.fabric, Fabric.GBE_100)
    pick(hw.nic, "intel-e810-cqda2")  # no GPUDirect RDMA support
    row = hw.errors.rows["gpudirect_rdma"][1]
    assert row.error.isVisibleTo(hw)
    assert "does not support it" in row.error.text()
    assert "E810" in row.error.text()
    assert "GPUDirect" in hw.reason.text()
    assert not window.wizard.currentPage().isComplete()
    click(qtbot, hw.gdr)  # turning it off resolves it
    assert not hw.gdr.isChecked() and not hw.gdr.isEnabled()
    assert hw.problems() == []


def test_recommend_fills_the_hardware_and_says_why(qtbot, window, tmp_path):
    _open(window, tmp_path, "bert-large-25gbe")
    window.wizard.go_to(PageId.HARDWARE)
    hw = window.wizard.page_of(PageId.HARDWARE)
    click(qtbot, hw.recommend_button)
    chosen = window.doc.get("hardware")
    assert chosen.gpu == "a100-pcie-80gb"  # the GPU stays
    assert hw.explain.isVisible() and "Server" in hw.explain.text()
    assert hw.server.get() == chosen.server
    assert chosen.fabric is not Fabric.GBE_25  # data-parallel training crosses hosts
    assert hw.problems() == []


def test_review_follows_an_edit_on_another_page(qtbot, window, tmp_path):
    """enterprise (white paper 9.4.1): 7 hosts of 4 GPUs for capacity, N+1: 8 hosts, 32 GPUs,
    28 after one host fails. At N+2: 9 hosts, 36 GPUs, (9 - 2) x 4 = 28 after two fail."""
    _open(window, tmp_path)
    window.wizard.go_to(PageId.REVIEW)
    review = window.wizard.page_of(PageId.REVIEW)
    ha = window.wizard.page_of(PageId.HA)
    cards = {k: review.cards.cards[k].value for k in ("hosts", "gpus", "demand", "after")}
    assert {k: v.text() for k, v in cards.items()} == {
        "hosts": "8", "gpus": "32", "demand": "28", "after": "28",
    }  # fmt: skip
    pick(ha.level, HaLevel.N2)  # as if edited on the HA page
    expected = size(window.doc.design(), window.catalog).cluster.hosts_total
    assert expected == 9
    qtbot.waitUntil(lambda: cards["hosts"].text() == "9", timeout=10_000)
    assert (cards["gpus"].text(), cards["after"].text()) == ("36", "28")


def test_sharing_mode_change_is_checked_against_the_gpu(qtbot, window, tmp_path):
    _open(window, tmp_path, "llm-serving")
    window.wizard.go_to(PageId.SHARING)
    page = window.wizard.page_of(PageId.SHARING)
    combo = page.combos[0]
    # live migration is required: passthrough is disabled with the reason
    assert not combo.enabled(SharingMode.PASSTHROUGH)
    assert "live-migrate" in combo.reason(SharingMode.PASSTHROUGH)
    # the Dell XE9680's HGX board is an NVSwitch board: vSphere runs time-sliced vGPU only
    assert not combo.enabled(SharingMode.MIG)
    assert "NVSwitch board of the Dell PowerEdge XE9680" in combo.reason(SharingMode.MIG)
    assert combo.enabled(SharingMode.VGPU)
    pick(combo, SharingMode.VGPU)
    assert window.doc.get("workloads")[0].sharing_mode is SharingMode.VGPU
    assert page.problems() == []
    # on a PCIe server (mig-shared: H100 PCIe in a Dell R760xa) MIG is offered
    _open(window, tmp_path, "mig-shared")
    page = window.wizard.page_of(PageId.SHARING)
    assert page.combos[0].enabled(SharingMode.MIG)
    assert page.combos[0].get() is SharingMode.MIG
    assert page.problems() == []


def test_sharing_page_shows_the_engines_mode_comparison(qtbot, window, tmp_path):
    _open(window, tmp_path)
    window.wizard.go_to(PageId.SHARING)
    page = window.wizard.page_of(PageId.SHARING)
    result = _sized(window)
    options = result.sharing_comparison
    assert options and page.comparison.isVisible()
    assert page.comparison.columnCount() == len(options)
    for c, option in enumerate(options):
        first = page.comparison.item(0, c).text()
        assert first == "yes" if option.available else first == f"no: {option.reason}"
        if option.available:
            assert page.comparison.item(1, c).text() == f"{option.gpus:,}"
    mig = next(c for c, o in enumerate(options) if o.mode == "mig")
    assert "does not support MIG" in page.comparison.item(0, mig).text()


def test_review_lists_every_packed_gpu_once(qtbot, window, tmp_path):
    _open(window, tmp_path, "mig-shared")
    window.wizard.go_to(PageId.REVIEW)
    review = window.wizard.page_of(PageId.REVIEW)
    packing = _sized(window).packing
    counted = sum(
        int(review.placement.item(r, 2).text()) for r in range(review.placement.rowCount())
    )
    assert counted == sum(len(h.gpus) for h in packing.hosts)
    assert review.cards.cards["utilization"].value.text() == f"{packing.mean_utilization:.0%}"


def test_data_plan_and_platform_are_edited_on_their_pages(qtbot, window, tmp_path):
    from tests.gui.helpers import type_into
    from wizard.model.design import KubernetesPlatform

    _open(window, tmp_path)
    hw = window.wizard.page_of(PageId.HARDWARE)
    window.wizard.go_to(PageId.HARDWARE)
    type_into(qtbot, hw.dataset_gb, "5000")
    type_into(qtbot, hw.headroom, "50")
    data = window.doc.get("data")
    assert data.dataset_gb == 5000 and data.growth_headroom == 0.5
    window.wizard.go_to(PageId.SHARING)
    sharing = window.wizard.page_of(PageId.SHARING)
    pick(sharing.kubernetes, KubernetesPlatform.VKS)
    assert window.doc.get("platform").kubernetes is KubernetesPlatform.VKS
    window.wizard.go_to(PageId.REVIEW)
    review = window.wizard.page_of(PageId.REVIEW)
    result = _sized(window)
    assert result.software.kubernetes == "vks"
    assert "Kubernetes: vSphere Kubernetes Service (VKS)" in review.software.headline.text()
    assert result.storage.datasets_gb > 0
    shown = review.storage.summary.item(2, 1).text()
    assert shown == f"{result.storage.datasets_gb:,.1f} GB"


def test_bom_export_as_csv_and_xlsx_with_a_price_list(qtbot, window, prompts, tmp_path):
    import csv

    from openpyxl import load_workbook

    from tests.conftest import ROOT

    _open(window, tmp_path)
    window.wizard.go_to(PageId.EXPORT)
    page = window.wizard.page_of(PageId.EXPORT)
    result = _sized(window)
    out = tmp_path / "bom.csv"
    prompts.answers.append(str(out))
    click(qtbot, page.bom.button)
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [r["item"] for r in rows] == [ln.item for ln in result.bom.lines]
    assert all(r["unit_price"] == "" for r in rows)
    assert page.bom.open_button.isVisible()
    # with the sample price list (made-up figures, in the design's currency)
    prompts.answers.append(str(ROOT / "resources" / "examples" / "prices-sample.toml"))
    click(qtbot, page.prices_button)
    xlsx = tmp_path / "bom.xlsx"
    prompts.answers.append(str(xlsx))
    click(qtbot, page.bom.button)
    sheet = load_workbook(xlsx).active
    header = [c.value for c in sheet[1]]
    server = next(
        [c.value for c in row]
        for row in sheet.iter_rows(min_row=2)
        if row[0].value == "Server" and "C4140" in row[2].value
    )
    assert server[header.index("Line total")] == 8 * 11111


def test_a_price_list_in_another_currency_is_refused(qtbot, window, prompts, tmp_path):
    _open(window, tmp_path)
    window.wizard.go_to(PageId.EXPORT)
    page = window.wizard.page_of(PageId.EXPORT)
    usd = tmp_path / "usd.csv"
    usd.write_text("item,unit_price,currency\nserver:dell-c4140,5,USD\n", encoding="utf-8")
    page.set_prices(usd)
    target = tmp_path / "bom.csv"
    prompts.answers.append(str(target))
    click(qtbot, page.bom.button)
    assert page.bom.status.text().startswith("Not written:")
    assert "USD" in page.bom.status.text()
    assert not target.exists()


def test_review_shows_the_bom_power_and_racks(qtbot, window, tmp_path):
    _open(window, tmp_path)
    window.wizard.go_to(PageId.REVIEW)
    review = window.wizard.page_of(PageId.REVIEW)
    r = _sized(window)
    assert review.bom.lines.rowCount() == len(r.bom.lines)
    assert review.cards.cards["power"].value.text() == f"{r.power.total_kw:,.1f}"
    assert review.cards.cards["racks"].value.text() == str(len(r.racks.racks))
    assert review.power.racks.rowCount() == len(r.racks.racks)


def test_pdf_export_failure_is_shown_and_the_earlier_file_kept(qtbot, window, prompts, tmp_path):
    _open(window, tmp_path)
    window.wizard.go_to(PageId.EXPORT)
    page = window.wizard.page_of(PageId.EXPORT)
    prompts.answers.append(str(tmp_path / "missing" / "out.pdf"))
    click(qtbot, page.pdf.button)
    qtbot.waitUntil(lambda: page.pdf.status.text().startswith("Not written:"), timeout=60_000)
    assert "No such file or directory" in page.pdf.status.text()
    assert page.pdf.button.isEnabled() and not page.pdf.progress.isVisible()
    assert prompts.asked[-1].kind is PromptKind.ERROR


def test_vsphere_steps_export_writes_the_powercli_script(qtbot, window, prompts, tmp_path):
    """mig-shared: the steps name MIG mode (vSphere creates the instances) and each group's
    MIG-backed vGPU type with NVIDIA's 256 GB MMIO for an H100 (NVIDIA AI Enterprise 6, MMIO
    table: 'NVIDIA H100 (all variants) 256GB'); no mig-parted partition is written."""
    window.doc.dirty = False
    _open(window, tmp_path, "mig-shared")
    window.wizard.go_to(PageId.EXPORT)
    page = window.wizard.page_of(PageId.EXPORT)
    assert page.steps.button.isEnabled()
    out = tmp_path / "steps.ps1"
    prompts.answers.append(str(out))
    click(qtbot, page.steps.button)
    text = out.read_text()
    mig_types = {t for t in script_texts(text) if re.fullmatch(r"H100-\d-\d+C", t)}
    assert "-mig 1" in text and mig_types and "-Passthrough 0 -MmioGB 256" in text
    assert "mig-configs" not in text


def test_vsphere_steps_of_a_design_of_several_clusters_are_written_per_chosen_cluster(
    qtbot, window, prompts, tmp_path
):
    """acme-two-clusters: the notebooks' L40S-16C vGPUs are in the Notebook cluster, the 70B
    groups' H100XM-80C in the HGX cluster. The button asks which cluster; its script names it
    and holds only its vGPU types; cancelling the question writes nothing."""
    from tests.conftest import ROOT

    path = tmp_path / "acme.json"
    path.write_text((ROOT / "docs" / "acme-two-clusters.json").read_text(encoding="utf-8"))
    assert window.open_path(path)
    window.wizard.go_to(PageId.EXPORT)
    page = window.wizard.page_of(PageId.EXPORT)
    assert page.steps.button.isEnabled()

    prompts.answers.append(None)  # cancel the choice of cluster
    click(qtbot, page.steps.button)
    assert prompts.asked[-1].kind is PromptKind.CHOICE
    assert prompts.asked[-1].buttons == ("Notebook cluster", "HGX cluster")
    assert list(tmp_path.glob("*.ps1")) == []

    out = tmp_path / "hgx.ps1"
    prompts.answers.extend(["HGX cluster", str(out)])
    click(qtbot, page.steps.button)
    assert prompts.asked[-1].path.endswith("acme-HGX-cluster-vsphere-steps.ps1")
    text = out.read_text()
    assert "# For the design's GPU cluster HGX cluster;" in text
    assert "H100XM-80C" in script_texts(text) and "L40S-16C" not in script_texts(text)
    assert page.steps.open_button.isVisible()


def test_review_draws_the_reports_diagrams_off_the_edit_path(qtbot, window, tmp_path):
    _open(window, tmp_path)
    window.wizard.go_to(PageId.REVIEW)
    review = window.wizard.page_of(PageId.REVIEW)
    assert not review.diagram_job.running  # nothing drawn while the tab is not shown
    review.tabs.setCurrentIndex(review.diagrams_tab)
    qtbot.waitUntil(lambda: len(review.diagrams.views) >= 5, timeout=30_000)
    titles = [v.toolTip() for v in review.diagrams.views]
    assert "Logical architecture" in titles and "Rack elevation" in titles
    qtbot.waitUntil(
        lambda: all(not v.pixmap().isNull() for v in review.diagrams.views), timeout=5000
    )


def test_processors_follow_the_server_and_reach_the_design(qtbot, window, tmp_path, catalog):
    """The Processors list is the chosen server's CPU options, the usual build first and meant
    by no choice; a picked processor is saved, and a new server starts from its usual build."""
    _open(window, tmp_path, "llm-serving")  # Dell XE9680
    hw = window.wizard.page_of(PageId.HARDWARE)
    options = catalog.servers["dell-xe9680"].cpu_options
    assert hw.cpu.count() == len(options) and hw.cpu.isEnabled()
    assert hw.cpu.get() is None and options[0].name in hw.cpu.currentText()
    second = options[1].name
    pick(hw.cpu, second)
    assert window.doc.get("hardware").cpu == second
    assert f"{options[1].cores} cores each" in hw.specs.text()
    pick(hw.server, "supermicro-sys-821ge-tnhr")
    assert hw.cpu.get() is None
    assert window.doc.get("hardware").cpu is None


def test_removing_a_group_asks_first_and_cancel_keeps_it(qtbot, window, prompts, tmp_path):
    from wizard.gui.prompts import CANCEL, REMOVE

    _open(window, tmp_path, "mig-shared")
    page = window.wizard.page_of(PageId.WORKLOADS)
    page.table.selectRow(1)
    names = [g.name for g in window.doc.get("workloads")]
    prompts.answers.append(CANCEL)
    page.remove_button.click()
    assert [g.name for g in window.doc.get("workloads")] == names
    assert "Llama 3 8B assistant" in prompts.asked[-1].text
    prompts.answers.append(REMOVE)
    page.remove_button.click()
    assert [g.name for g in window.doc.get("workloads")] == [names[0], names[2]]


def test_the_page_gives_the_rule_books_words(qtbot, window, catalog):
    """The reason next to a disabled choice is the one check_design gives: the same function."""
    from wizard.engine.platform.compat import (
        gpudirect_reason,
        nic_reason,
        nvlink_reason,
        rdma_reason,
    )

    hw = window.wizard.page_of(PageId.HARDWARE)
    pick(hw.gpu, "l40s")
    pick(hw.server, "lenovo-sr675-v3")
    server = catalog.servers["lenovo-sr675-v3"]
    assert hw.nvlink_note.text() == nvlink_reason(catalog.gpus["l40s"], server)
    pick(hw.fabric, Fabric.IB_HDR)
    assert hw.rdma.reason(Rdma.ROCE).endswith(rdma_reason(Rdma.ROCE, Fabric.IB_HDR))
    assert hw.nic.reason("cx5-25g-2p").endswith(
        nic_reason(catalog.nics["cx5-25g-2p"], Fabric.IB_HDR)
    )
    pick(hw.fabric, Fabric.GBE_25)
    pick(hw.rdma, Rdma.NONE)
    assert hw.gdr_note.text() == f"Not available: {gpudirect_reason(Rdma.NONE, None)}"


def test_the_spec_sheet_shows_catalog_text_as_text(catalog):
    """A user catalog is data: markup in a model name or a source is shown, never run (an <img>
    would make the label read a file)."""
    from wizard.gui.pages.hardware_specs import spec_sheet

    gpu = catalog.gpus["l40s"].model_copy(
        update={"name": "<img src='/etc/passwd'>", "source": "<b>quote</b>"}
    )
    html = spec_sheet(gpu, None, None, None, "", None)
    assert "<img" not in html and "&lt;img src=" in html
    assert "<b>quote</b>" not in html


def test_review_compares_the_designs_options_side_by_side(qtbot, window, tmp_path, catalog):
    """docs/acme-options.json: the design as it stands (L40S), H100 NVL with MIG (proposed) and
    two clusters; the Options tab shows the comparison's own figures, only while on screen."""
    from tests.conftest import ROOT
    from wizard.app.io import load_design
    from wizard.engine import compare

    path = ROOT / "docs" / "acme-options.json"
    assert window.open_path(path)
    window.wizard.go_to(PageId.REVIEW)
    review = window.wizard.page_of(PageId.REVIEW)
    assert not review.options_job.running  # nothing compared while the tab is hidden
    review.tabs.setCurrentIndex(review.options_tab)
    qtbot.waitUntil(lambda: review.options.table.columnCount() == 3, timeout=30_000)
    t = review.options.table
    headers = [t.horizontalHeaderItem(i).text() for i in range(3)]
    assert headers == ["As designed", "H100 NVL with MIG\n(proposed)", "Split clusters"]
    rows = compare(load_design(path), catalog)
    labels = [t.verticalHeaderItem(y).text() for y in range(t.rowCount())]
    hosts = labels.index("Hosts")
    assert [t.item(hosts, x).text() for x in range(3)] == [f"{r.hosts:,}" for r in rows]
    assert review.options.sentence.text().startswith("Proposed: H100 NVL with MIG:")
    risky = [(y, x) for y in range(t.rowCount()) for x in range(3)
             if t.item(y, x).text().endswith("at risk")]  # fmt: skip
    assert risky and all(t.item(y, x).background().color().name() == "#fbefd5" for y, x in risky)


def test_review_shows_ranges_and_targets_at_risk(qtbot, window, tmp_path, catalog):
    """llm-serving carries its 2,000 output tokens/s at the pessimistic end of the decode
    efficiency too (its replicas hold the requests that carry it there): the Review page gives
    the range and says 'met'. hgx-h200-llm meets its 50 ms between tokens as estimated but not
    at the pessimistic end: 'at risk'."""
    from wizard.app.serving_text import spread_text
    from wizard.engine.decide.ranges import figure_ranges

    _open(window, tmp_path, "llm-serving")
    window.wizard.go_to(PageId.REVIEW)
    review = window.wizard.page_of(PageId.REVIEW)
    r, design = _sized(window), window.live.design
    tps = next(x for x in figure_ranges(design, catalog, r) if x.figure == "tokens_per_s_total")
    t = review.serving
    total = r.workloads[0].serving.tokens_per_s_total
    assert t.item(0, 3).text() == spread_text(total, tps, "tokens/s")
    assert "(" in t.item(0, 3).text()  # a range, not one number
    assert total >= tps.pessimistic >= 2000
    assert "met: throughput ≥ 2,000 output tokens/s" in t.item(0, 5).text()

    _open(window, tmp_path, "hgx-h200-llm")
    window.wizard.go_to(PageId.REVIEW)
    r, design = _sized(window), window.live.design
    chat = next(w for w in r.workloads if w.serving is not None)
    itl = next(
        x
        for x in figure_ranges(design, catalog, r)
        if x.figure == "itl_ms" and x.workload == chat.name
    )
    assert chat.serving.itl_ms <= 50 < itl.pessimistic
    assert "at risk: between tokens ≤ 50 ms" in review.serving.item(0, 5).text()


def test_recommend_for_me_weighs_the_price_list_chosen_for_export(qtbot, window, tmp_path, catalog):
    """With no GPU chosen and a price list on the Export page, Recommend for me takes the GPU of
    lowest cost of ownership among those the list prices (here the H200 at 20,000 a board
    against the H100 at 25,000, in the same server)."""
    from wizard.app.recommend import rank_by_cost

    _open(window, tmp_path, "llm-serving")
    project = window.doc.get("project")
    window.doc.set("project", project.model_copy(update={"currency": "EUR"}))
    prices = tmp_path / "p.toml"
    prices.write_text('currency = "EUR"\n[prices]\n"server:dell-xe9680" = 250000\n'
                      '"gpu:h100-sxm5-80gb" = 25000\n"gpu:h200-sxm-141gb" = 20000\n')  # fmt: skip
    window.wizard.export_page.set_prices(prices)
    ranked = rank_by_cost(window.doc.design(), catalog, window.wizard.export_page.prices())
    expected = ranked[0][0].gpu.id
    hw = window.wizard.page_of(PageId.HARDWARE)
    hw.gpu.setCurrentIndex(hw.gpu.index_of(None))  # "Choose a GPU…": let it choose
    hw.recommend()
    assert window.doc.get("hardware").gpu == expected
    assert "cost of ownership from your price list" in hw.explain.text()


def test_the_proposal_exports_as_an_editable_word_copy(qtbot, window, prompts, tmp_path):
    """Naming a .docx in the save dialog writes the Word copy of the proposal."""
    from docx import Document

    _open(window, tmp_path)
    window.wizard.go_to(PageId.EXPORT)
    page = window.wizard.page_of(PageId.EXPORT)
    target = tmp_path / "proposal.docx"
    prompts.answers.append(str(target))
    click(qtbot, page.pdf.button)
    qtbot.waitUntil(lambda: page.pdf.status.text().startswith("Wrote"), timeout=60_000)
    assert "Word document (*.docx)" in prompts.asked[-1].file_filter
    heads = [p.text for p in Document(str(target)).paragraphs if p.style.name == "Heading 1"]
    assert any("Executive summary" in h for h in heads)


def test_warnings_read_by_severity_most_severe_first(qtbot, window, tmp_path):
    """Review lists the proposal's risk register (one list for `size`, Review and the PDF): each
    risk starts with its severity word (risk, caution, note), most severe first, and its tooltip
    explains the word and gives the mitigation rather than showing an internal code."""
    from wizard.model.result import Severity
    from wizard.present.fields import in_words
    from wizard.present.risk_register import plan_risks

    _open(window, tmp_path)
    window.wizard.go_to(PageId.REVIEW)
    review = window.wizard.page_of(PageId.REVIEW)
    r = _sized(window)
    risks = plan_risks(window.live.plan)  # the register the proposal prints
    words = {Severity.ERROR: "Risk", Severity.WARNING: "Caution", Severity.INFO: "Note"}
    texts = [review.warnings.item(i).text() for i in range(review.warnings.count())]
    assert len(texts) == len(risks) >= len(r.warnings) and texts
    rank = {"Risk": 0, "Caution": 1, "Note": 2}
    seen = [rank[t.split(":")[0]] for t in texts]
    assert seen == sorted(seen)
    for w in r.warnings:
        assert f"{words[w.severity]}: {in_words(w.message)}" in texts
    tips = [review.warnings.item(i).toolTip() for i in range(review.warnings.count())]
    assert not set(tips) & {w.code for w in r.warnings}
    # each tooltip carries its risk's mitigation, as the proposal's risk register does
    for x, tip in zip(risks, tips, strict=True):
        assert tip.endswith(f"Mitigation: {x.mitigation}")


def test_an_edit_on_the_hardware_page_keeps_what_the_page_does_not_show(qtbot, window, tmp_path):
    """The Acme notebook cluster's service network is 100 GbE; changing GPUs per host on the
    form must not reset it to the default (25 GbE)."""
    from tests.conftest import ROOT
    from wizard.model.design import Fabric

    path = tmp_path / "acme.json"
    path.write_text((ROOT / "docs" / "acme-two-clusters.json").read_text(encoding="utf-8"))
    assert window.open_path(path)
    window.wizard.go_to(PageId.HARDWARE)
    hw = window.wizard.page_of(PageId.HARDWARE)
    assert window.doc.get("hardware").service_fabric is Fabric.GBE_100
    hw.gpus_per_host.setValue(2)
    after = window.doc.get("hardware")
    assert after.gpus_per_host == 2 and after.service_fabric is Fabric.GBE_100


def test_the_recommendations_reasons_are_kept_with_the_design(qtbot, window, prompts, tmp_path):
    """Recommend for me says why; saved and reopened, the page still says it; an edit drops it,
    as the hardware is then the user's choice. Reasons from a file are shown as text."""
    _open(window, tmp_path)
    window.wizard.go_to(PageId.HARDWARE)
    hw = window.wizard.page_of(PageId.HARDWARE)
    hw.recommend()
    reasons = window.doc.get("hardware").reasons
    assert reasons and "server" in reasons
    saved = tmp_path / "saved.json"
    prompts.answers.append(str(saved))
    assert window.save_as()
    window.doc.dirty = False
    assert window.open_path(saved)
    window.wizard.go_to(PageId.HARDWARE)
    assert window.doc.get("hardware").reasons == reasons
    assert hw.explain.isVisibleTo(hw) and hw.explain.text().startswith("Recommended.")
    hw.gpus_per_host.setValue(hw.gpus_per_host.value() - 1 or 2)
    assert window.doc.get("hardware").reasons == {}


def test_reasons_from_a_file_are_text_not_markup(qtbot, window, tmp_path):
    import json

    from wizard.base.bundled import example_text

    doc = json.loads(example_text("starter"))
    doc["hardware"]["reasons"] = {"gpu": "<img src='/etc/passwd'><b>bold</b>"}
    path = tmp_path / "d.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert window.open_path(path)
    window.wizard.go_to(PageId.HARDWARE)
    hw = window.wizard.page_of(PageId.HARDWARE)
    assert "&lt;img src=&#x27;/etc/passwd&#x27;&gt;&lt;b&gt;bold" in hw.explain.text()


def test_a_design_that_stops_sizing_shows_no_figure(qtbot, window, tmp_path):
    """llm-serving sized: its serving table, bill and racks are on the Review page. The design
    then stops sizing (its hardware removed): no latency, 'targets met', BOM line or rack of the
    earlier sizing may stay beside 'does not size yet'."""
    _open(window, tmp_path, "llm-serving")
    window.wizard.go_to(PageId.REVIEW)
    review = window.wizard.page_of(PageId.REVIEW)
    assert review.serving.rowCount() > 0 and review.bom.lines.rowCount() > 0
    window.doc.set("hardware", None)
    window.live.refresh()
    assert window.live.plan is None
    assert review.serving.rowCount() == 0 and not review.serving.isVisibleTo(review)
    assert review.bom.lines.rowCount() == 0
    assert review.power.racks.rowCount() == 0
    assert review.workloads.rowCount() == 0
    assert "does not size yet" in review.problem.text()


def test_the_bill_in_the_window_speaks_the_customers_words(qtbot, window, tmp_path):
    """Categories and sources as the proposal prints them: 'NVLink bridge', not
    'nvlink-bridge'; no 'catalog servers/…' key."""
    _open(window, tmp_path, "llm-serving")
    window.wizard.go_to(PageId.REVIEW)
    lines = window.wizard.page_of(PageId.REVIEW).bom.lines
    cells = [lines.item(r, c).text() for r in range(lines.rowCount())
             for c in range(lines.columnCount()) if lines.item(r, c)]  # fmt: skip
    assert "GPU" in cells and "gpu" not in cells and "nvlink-bridge" not in cells
    assert not any(c.startswith("catalog ") for c in cells)


def test_the_storage_needs_name_fields_by_their_labels(qtbot, window, tmp_path):
    """enterprise: its groups state no dataset; the Review page asks for 'Dataset size on the
    Hardware page', not for the field path 'data.dataset_gb'."""
    _open(window, tmp_path, "enterprise")
    window.wizard.go_to(PageId.REVIEW)
    needs = window.wizard.page_of(PageId.REVIEW).storage.needs
    cells = [needs.item(r, c).text() for r in range(needs.rowCount())
             for c in range(needs.columnCount()) if needs.item(r, c)]  # fmt: skip
    assert any("Dataset size on the Hardware page" in c for c in cells)
    assert not any("data.dataset_gb" in c or "data.read_gbs_per_gpu" in c for c in cells)


def test_a_card_label_agrees_with_its_number(qtbot, window, tmp_path):
    """enterprise fits one rack: the card reads '1' over 'rack', not 'racks'."""
    _open(window, tmp_path, "enterprise")
    window.wizard.go_to(PageId.REVIEW)
    card = window.wizard.page_of(PageId.REVIEW).cards.cards["racks"]
    assert (card.value.text(), card.label.text()) == ("1", "rack")


def test_the_proposal_states_the_plan_on_screen_priced_with_the_chosen_list(
    qtbot, window, prompts, tmp_path
):
    """The proposal is the window's live plan: an edit made just before Export (still waiting for
    the debounce) is in it, and the price list chosen on Export prices it. enterprise at N+2 has
    9 hosts where N+1 has 8 (white paper 9.4.1), so a proposal of the plan before the edit would
    bill one server, its GPUs and its cables fewer."""
    import io

    from pypdf import PdfReader

    from wizard.model.buildout import BomCategory

    _open(window, tmp_path)
    window.wizard.go_to(PageId.EXPORT)
    page = window.wizard.page_of(PageId.EXPORT)
    before = _sized(window)
    assert before is not None and before.cluster.hosts_total == 8
    prices = tmp_path / "prices.csv"
    unit = 1_000  # every item of the bill at one price, so the hardware is a count times 1,000
    design = window.doc.design()
    n2 = design.model_copy(update={"ha": design.ha.model_copy(update={"level": HaLevel.N2})})
    # the second rack of N+2 brings fibre and transceivers: the list prices both bills' items
    items = dict.fromkeys(ln.item for r in (before, size(n2, window.catalog)) for ln in r.bom.lines)
    cur = design.project.currency
    prices.write_text(
        "item,unit_price,currency\n" + "".join(f"{i},{unit},{cur}\n" for i in items),
        encoding="utf-8",
    )
    prompts.answers.append(str(prices))
    click(qtbot, page.prices_button)
    pick(window.wizard.page_of(PageId.HA).level, HaLevel.N2)  # no wait: Export sizes it first
    target = tmp_path / "proposal.pdf"
    prompts.answers.append(str(target))
    click(qtbot, page.pdf.button)
    qtbot.waitUntil(lambda: page.pdf.status.text().startswith("Wrote"), timeout=60_000)
    after = _sized(window)
    assert after is not None and after.cluster.hosts_total == 9
    # by hand: the hardware bought once is every line but the licences, at 1,000 a unit
    hardware = sum(ln.quantity * unit for ln in after.bom.lines
                   if ln.category != BomCategory.LICENCE)  # fmt: skip
    stale = sum(ln.quantity * unit for ln in before.bom.lines
                if ln.category != BomCategory.LICENCE)  # fmt: skip
    assert hardware > stale
    reader = PdfReader(io.BytesIO(target.read_bytes()))
    text = " ".join(" ".join(p.extract_text() for p in reader.pages).split())
    assert f"({cur} {hardware:,} of hardware once" in text
    assert f"{cur} {stale:,} of hardware" not in text
