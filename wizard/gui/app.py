"""Start the wizard window: ``gpuwizard`` or ``gpuwizard DESIGN.json``."""

from __future__ import annotations

import sys
from pathlib import Path

from wizard.errors import CatalogError


def main(design_path: str | None = None, argv: list[str] | None = None) -> int:
    from PySide6.QtWidgets import QApplication, QMessageBox

    from wizard.catalog_loader import load_catalog
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
    try:
        catalog = load_catalog()
    except CatalogError as exc:
        for line in exc.problems:
            sys.stderr.write(f"error: {line}\n")
        QMessageBox.critical(None, "gpuwizard cannot start", "\n".join(exc.problems[:20]))
        return 2
    window = MainWindow(catalog)
    window.show()
    recovered = window.offer_recovery()
    if design_path and not recovered:
        window.open_path(Path(design_path), ask=False)
    return app.exec()
