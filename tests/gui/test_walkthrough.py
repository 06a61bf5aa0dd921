"""A user drives the whole wizard, from an empty design to a written PDF and design file."""

from __future__ import annotations

from pypdf import PdfReader
from PySide6.QtCore import Qt

from tests.gui.helpers import click, go_next, next_button, pick, type_into
from wizard.app.io import load_design
from wizard.engine.size import size
from wizard.gui.prompts import PromptKind
from wizard.gui.wizard import PageId
from wizard.model.design import HaLevel, SharingMode, WorkloadKind


def test_empty_design_to_written_pdf_and_saved_design(qtbot, window, prompts, tmp_path):
    w = window
    wiz = w.wizard
    assert wiz.currentId() == PageId.PROJECT
    assert w.windowTitle().startswith("Untitled design")

    # 1. Project: the name is required, and the reason is on screen.
    project = wiz.page_of(PageId.PROJECT)
    assert not next_button(w).isEnabled()
    assert project.reason.isVisible() and "name" in project.reason.text()
    type_into(qtbot, project.customer, "Acme Research")
    type_into(qtbot, project.project_name, "Acme chat platform")
    assert w.isWindowModified()
    go_next(qtbot, w)

    # 2. Workloads: one inference group, through the editor.
    page = wiz.page_of(PageId.WORKLOADS)
    assert not next_button(w).isEnabled()
    assert "add at least one workload group" in page.reason.text()
    click(qtbot, page.add_button)
    ed = page.editor
    type_into(qtbot, ed.name, "Chat service")
    pick(ed.kind, WorkloadKind.INFERENCE)
    assert ed.inf_box.isVisibleTo(ed) and not ed.train_box.isVisibleTo(ed)
    pick(ed.preset, "llama-3-8b")
    pick(ed.tput_kind, "target_tokens_per_s")
    type_into(qtbot, ed.tput_value, "500")
    type_into(qtbot, ed.concurrent, "16")
    click(qtbot, ed.migration)  # live migration required: passthrough no longer fits
    assert not next_button(w).isEnabled()
    assert "live-migrate" in page.reason.text()
    pick(ed.mode, SharingMode.VGPU)
    go_next(qtbot, w)

    # 3. Hardware: nothing chosen yet.
    hw = wiz.page_of(PageId.HARDWARE)
    assert not next_button(w).isEnabled()
    assert "choose a GPU" in hw.reason.text()
    pick(hw.gpu, "l40s")
    first_server = next(
        hw.server.value_at(i) for i in range(1, hw.server.count()) if hw.server.value_at(i)
    )
    pick(hw.server, first_server)
    go_next(qtbot, w)

    # 4. Sharing: the group's mode is there; MIG is disabled on an L40S, with the reason.
    sharing = wiz.page_of(PageId.SHARING)
    combo = sharing.combos[0]
    assert combo.get() is SharingMode.VGPU
    assert not combo.enabled(SharingMode.MIG)
    assert "does not support MIG" in combo.reason(SharingMode.MIG)
    go_next(qtbot, w)

    # 5. HA: N+2.
    ha = wiz.page_of(PageId.HA)
    pick(ha.level, HaLevel.N2)
    go_next(qtbot, w)

    # 6. Review shows the engine's numbers for exactly this design.
    review = wiz.page_of(PageId.REVIEW)
    design = w.doc.design()
    assert design is not None and design.ha.level is HaLevel.N2
    expected = size(design, w.catalog)
    assert review.cards.cards["hosts"].value.text() == f"{expected.cluster.hosts_total:,}"
    assert review.cards.cards["gpus"].value.text() == f"{expected.cluster.gpus_total:,}"
    assert review.workloads.item(0, 0).text() == "Chat service"
    go_next(qtbot, w)

    # 7. Export the design file.
    export = wiz.page_of(PageId.EXPORT)
    out = tmp_path / "exported.json"
    prompts.answers.append(str(out))
    click(qtbot, export.json.button)
    assert load_design(out) == design
    assert export.json.open_button.isVisible()

    # The PDF proposal is written in the background, with progress, then an Open button.
    pdf = tmp_path / "acme.pdf"
    prompts.answers.append(str(pdf))
    click(qtbot, export.pdf.button)
    assert export.pdf.progress.isVisible() and not export.pdf.button.isEnabled()
    qtbot.waitUntil(export.pdf.open_button.isVisible, timeout=60_000)
    assert export.pdf.status.text().startswith(f"Wrote {pdf}")
    text = "".join(page.extract_text() for page in PdfReader(pdf).pages)
    assert "Acme chat platform" in text and "Chat service" in text

    # Save (Ctrl+S asks for a name the first time); the unsaved marker goes away.
    saved = tmp_path / "acme.json"
    prompts.answers.append(str(saved))
    qtbot.keyClick(w, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert load_design(saved) == design
    assert not w.isWindowModified()
    assert w.windowTitle().startswith("acme.json")
    assert PromptKind.SAVE_FILE in prompts.kinds()
