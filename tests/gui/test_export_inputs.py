"""The Export page keeps the command line's rule: no export replaces a file the wizard read (a
file of the user's catalog folder, the price list, the design file for anything but the design
itself), whether chosen by its path, a symbolic link or a hard link (issue 53). The refusal is
said on the row and in a message; the file read is left as it was."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from tests.conftest import ROOT
from tests.gui.helpers import click
from wizard.app.catalog_loader import user_catalog_dir
from wizard.base.bundled import example_text
from wizard.gui.prompts import PromptKind
from wizard.gui.wizard import PageId


def _export_page(window, tmp_path: Path, name: str = "mig-shared"):
    design = tmp_path / f"{name}.json"
    design.write_text(example_text(name))
    window.doc.dirty = False
    assert window.open_path(design)
    assert window.wizard.go_to(PageId.EXPORT)
    return window.wizard.page_of(PageId.EXPORT), design


def _user_catalog_file() -> Path:
    """A file in the user's catalog folder (the shipped GPUs, read as the user's)."""
    folder = user_catalog_dir()
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "gpus.toml"
    shutil.copy(ROOT / "catalogs" / "gpus.toml", target)
    return target


def _refused(row, prompts, given: Path) -> None:
    assert row.status.text().startswith("Not written: "), row.status.text()
    assert "is also a file the wizard reads" in row.status.text()
    assert str(given) in row.status.text()
    assert prompts.asked[-1].kind is PromptKind.ERROR
    assert not row.open_button.isVisible()


def test_the_bill_is_not_written_over_a_catalog_file_through_a_hard_link(
    qtbot, window, prompts, tmp_path
):
    page, _ = _export_page(window, tmp_path)
    catalog = _user_catalog_file()
    before = catalog.read_bytes()
    link = tmp_path / "gpus.csv"
    os.link(catalog, link)
    prompts.answers.append(str(link))
    click(qtbot, page.bom.button)
    _refused(page.bom, prompts, catalog)
    assert catalog.read_bytes() == before


def test_the_steps_are_not_written_over_the_price_list_through_a_symlink(
    qtbot, window, prompts, tmp_path
):
    page, _ = _export_page(window, tmp_path)
    prices = tmp_path / "prices.toml"
    shutil.copy(ROOT / "resources" / "examples" / "prices-sample.toml", prices)
    page.set_prices(prices)
    before = prices.read_bytes()
    link = tmp_path / "steps.ps1"
    link.symlink_to(prices)
    prompts.answers.append(str(link))
    click(qtbot, page.steps.button)
    _refused(page.steps, prompts, prices)
    assert prices.read_bytes() == before


def test_the_proposal_is_not_written_over_the_design_file(qtbot, window, prompts, tmp_path):
    page, design = _export_page(window, tmp_path)
    pdf = design.with_suffix(".pdf")
    os.link(design, pdf)
    before = design.read_bytes()
    prompts.answers.append(str(pdf))
    click(qtbot, page.pdf.button)
    _refused(page.pdf, prompts, design)
    assert design.read_bytes() == before and not page.pdf_job.running


def test_the_design_file_may_replace_itself_but_not_a_catalog_file(
    qtbot, window, prompts, tmp_path
):
    """Exporting the design over its own file is a save (the negative case); over a file of the
    catalog folder it is refused."""
    page, design = _export_page(window, tmp_path)
    catalog = _user_catalog_file()
    before = catalog.read_bytes()
    prompts.answers.append(str(catalog))
    click(qtbot, page.json.button)
    _refused(page.json, prompts, catalog)
    assert catalog.read_bytes() == before
    prompts.answers.append(str(design))
    click(qtbot, page.json.button)
    assert page.json.status.text() == f"Wrote {design}"


def test_a_fresh_file_is_written(qtbot, window, prompts, tmp_path):
    """The negative case: with a catalog folder and a price list in use, a new file is written."""
    page, _ = _export_page(window, tmp_path)
    _user_catalog_file()
    out = tmp_path / "bill.csv"
    prompts.answers.append(str(out))
    click(qtbot, page.bom.button)
    assert out.read_text(encoding="utf-8").startswith("category,item,")
