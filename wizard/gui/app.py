"""Start the wizard window: ``gpuwizard`` or ``gpuwizard DESIGN.json``."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from wizard.base.errors import CatalogError

if TYPE_CHECKING:
    from wizard.model.catalog import Catalog


def main(design_path: str | None = None, argv: list[str] | None = None) -> int:
    from PySide6.QtWidgets import QApplication, QMessageBox

    from wizard.app.catalog_loader import load_catalog, user_catalog_dir
    from wizard.gui import style
    from wizard.gui.icons import icon
    from wizard.gui.main_window import MainWindow

    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv[:1])
    assert isinstance(app, QApplication), "the wizard needs a widgets application"
    app.setOrganizationName("gpuwizard")
    app.setApplicationName("gpuwizard")
    app.setApplicationDisplayName("gpuwizard")
    app.setDesktopFileName("gpuwizard")
    style.apply(app)
    app.setWindowIcon(icon("app"))

    def cannot_start(exc: CatalogError) -> None:
        for line in exc.problems:
            sys.stderr.write(f"error: {line}\n")
        QMessageBox.critical(None, "gpuwizard cannot start", "\n".join(exc.problems[:20]))

    def read_later() -> Catalog:
        try:
            return load_catalog()
        except CatalogError as exc:  # only a damaged installation: the shipped files are tested
            cannot_start(exc)
            app.exit(2)
            raise

    # The user's own catalog files are read and checked before the window opens, so a mistake
    # in them stops the start with its reasons. Without them the catalog is only the shipped
    # one, which the first page does not need: the window reads it once that page is shown.
    catalog: Catalog | Callable[[], Catalog] = read_later
    if user_catalog_dir().is_dir():
        try:
            catalog = load_catalog()
        except CatalogError as exc:
            cannot_start(exc)
            return 2
    window = MainWindow(catalog)
    window.show()
    recovered = window.offer_recovery()
    if design_path and not recovered:
        window.open_path(Path(design_path), ask=False)
    return app.exec()
