"""The customer logo in the wizard: a design that names a picture outside its folder does not
get it previewed or put on the proposal until the user chooses that file themselves."""

from __future__ import annotations

import io
import json

from PIL import Image
from pypdf import PdfReader

from tests.gui.helpers import click
from wizard.base.bundled import example_text
from wizard.gui.prompts import PromptKind
from wizard.gui.wizard import PageId


def _design_naming(tmp_path, logo_path: str):
    (tmp_path / "designs").mkdir()
    doc = json.loads(example_text("starter"))
    doc["project"]["logo_path"] = logo_path
    path = tmp_path / "designs" / "received.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _export(qtbot, window, prompts, target):
    window.wizard.go_to(PageId.EXPORT)
    page = window.wizard.page_of(PageId.EXPORT)
    prompts.answers.append(str(target))
    click(qtbot, page.pdf.button)
    qtbot.waitUntil(lambda: page.pdf.status.text().startswith("Wrote"), timeout=60_000)
    return page.pdf.status.text(), len(PdfReader(io.BytesIO(target.read_bytes())).pages[0].images)


def test_an_outside_logo_is_used_only_once_the_user_chooses_it(qtbot, make_window, prompts,
                                                               tmp_path):  # fmt: skip
    private = tmp_path / "private.png"
    Image.new("RGB", (300, 100), (0, 150, 0)).save(private)
    design = _design_naming(tmp_path, str(private))
    window = make_window()
    assert window.open_path(design, ask=False)
    project = window.wizard.page_of(PageId.PROJECT)
    assert project.logo_preview.pixmap().isNull()
    assert "outside its folder" in project.logo_preview.text() and project.problems() == []

    status, images = _export(qtbot, window, prompts, tmp_path / "a.pdf")
    assert images == 0 and "outside the design file's folder" in status

    window.wizard.go_to(PageId.PROJECT)
    prompts.answers.append(str(private))
    click(qtbot, project.logo_button)
    assert prompts.asked[-1].kind is PromptKind.OPEN_FILE
    assert not project.logo_preview.pixmap().isNull() and project.logo_preview.text() == ""
    status, images = _export(qtbot, window, prompts, tmp_path / "b.pdf")
    assert images == 1 and "Note:" not in status

    # Chosen once on this machine, the file stays named for every later window.
    assert str(private) in make_window().named_logos()


def test_a_typed_logo_path_is_one_the_user_named(qtbot, window, tmp_path):
    private = tmp_path / "typed.png"
    Image.new("RGB", (300, 100)).save(private)
    project = window.wizard.page_of(PageId.PROJECT)
    window.wizard.go_to(PageId.PROJECT)
    project.logo.setFocus()
    qtbot.keyClicks(project.logo, str(private))
    project.logo.editingFinished.emit()
    assert str(private) in window.named_logos()
    assert not project.logo_preview.pixmap().isNull()
