"""Page 7: the PDF proposal, the design file and the bill of materials.

Every write is atomic (a temporary file renamed over the target), so a failed export (an
unwritable folder, a full disk) leaves any earlier file intact; the failure is shown on the page
and in a message, and the design in the window is untouched.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
)

from reports.bom_export import bom_csv, bom_xlsx
from wizard.app.io import atomic_write_bytes, save_design
from wizard.app.output_paths import catalog_files, refuse_an_input
from wizard.app.pricing import check_currency, load_prices
from wizard.base.errors import UserError
from wizard.gui.icons import icon
from wizard.gui.jobs import Job
from wizard.gui.pages import titles
from wizard.gui.pages.base import Page
from wizard.gui.prompts import Prompt, PromptKind
from wizard.gui.reporting import WrittenPdf, page_sizes, write_pdf
from wizard.gui.widgets.inputs import Choice
from wizard.model.prices import PriceList

if TYPE_CHECKING:
    from wizard.engine import ClusterPlan


class ExportRow:
    """A button that writes one file, a progress bar, a status line and an Open button."""

    def __init__(self, grid: QGridLayout, row: int, icon_name: str, text: str, what: str):
        self.what = what
        self.button = QPushButton(icon(icon_name), text)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.setTextVisible(False)
        self.progress.setMaximumWidth(160)
        self.progress.hide()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setObjectName("muted")
        self.open_button = QPushButton(icon("folder"), "Open")
        self.open_button.hide()
        self.path: Path | None = None
        grid.addWidget(self.button, row, 0)
        grid.addWidget(self.progress, row, 1)
        grid.addWidget(self.status, row, 2)
        grid.addWidget(self.open_button, row, 3)
        self.open_button.clicked.connect(self.open)

    def busy(self) -> None:
        self.progress.show()
        self.button.setEnabled(False)
        self.open_button.hide()
        self.status.setObjectName("muted")
        self.status.setText(f"Writing the {self.what}…")
        self._restyle()

    def done(self, path: Path) -> None:
        self.path = path
        self.progress.hide()
        self.button.setEnabled(True)
        self.status.setObjectName("muted")
        self.status.setText(f"Wrote {path}")
        self.open_button.show()
        self._restyle()

    def failed(self, message: str) -> None:
        self.progress.hide()
        self.button.setEnabled(True)
        self.status.setObjectName("fieldError")
        self.status.setText(f"Not written: {message}")
        self._restyle()

    def unavailable(self, reason: str) -> None:
        self.button.setEnabled(False)
        self.status.setObjectName("note")
        self.status.setText(f"Not available: {reason}")
        self._restyle()

    def open(self) -> None:
        if self.path is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.path)))

    def _restyle(self) -> None:
        self.status.style().unpolish(self.status)
        self.status.style().polish(self.status)


class ExportPage(Page):
    def __init__(self, doc, catalog, live, prompt: Callable[[Prompt], object]) -> None:
        super().__init__(doc, catalog, live, *titles.EXPORT)
        self.prompt = prompt
        self.named_logos: Callable[[], list[str]] = list  # logo files the user named (window)
        box = QGroupBox("Files")
        grid = QGridLayout(box)
        grid.setColumnStretch(2, 1)
        self.pdf = ExportRow(grid, 0, "pdf", "Proposal (PDF, Word)…", "proposal")
        self.pdf.button.setToolTip(
            "The proposal as PDF, or as an editable Word document (.docx) with the same "
            "sections, tables and diagrams, to finish in Word"
        )
        self.page_size = Choice([(size.upper() if size == "a4" else size.title(), size)
                                 for size in page_sizes()])  # fmt: skip
        self.page_size.setToolTip("Paper size of the PDF proposal")
        self.page_size.setMinimumContentsLength(6)
        grid.addWidget(self.page_size, 0, 4)
        self.json = ExportRow(grid, 1, "json", "Design file (JSON)…", "design file")
        self.bom = ExportRow(grid, 2, "table", "Bill of materials (CSV, XLSX)…",
                             "bill of materials")  # fmt: skip
        self.steps = ExportRow(grid, 3, "table", "vSphere host and VM steps (PowerCLI)…",
                               "vSphere steps")  # fmt: skip
        self.steps.button.setToolTip(
            "A PowerCLI script of what the administrator applies on vSphere: the NVIDIA host "
            "driver, graphics and vGPU mode, MIG mode, and each VM's vGPUs, MMIO and memory "
            "reservation (it only says what it would change unless run with -Apply)"
        )
        self.body.addWidget(box)
        prices = QGroupBox("Prices for the bill of materials (optional)")
        pl = QHBoxLayout(prices)
        self.prices_button = QPushButton(icon("open"), "Price list…")
        self.prices_button.setToolTip(
            "A .toml or .csv file of your own prices, in the design's currency; none ship with "
            "the program"
        )
        self.prices_clear = QPushButton("No prices")
        self.prices_label = QLabel("No price list: the BOM is written without prices.")
        self.prices_label.setObjectName("muted")
        self.prices_label.setWordWrap(True)
        pl.addWidget(self.prices_button)
        pl.addWidget(self.prices_clear)
        pl.addWidget(self.prices_label, 1)
        self.body.addWidget(prices)
        self.price_list: Path | None = None
        self.prices_button.clicked.connect(self.choose_prices)
        self.prices_clear.clicked.connect(lambda: self.set_prices(None))
        self.summary = QLabel()
        self.summary.setObjectName("muted")
        self.summary.setWordWrap(True)
        self.body.addWidget(self.summary)
        self.body.addStretch(1)
        self.pdf_job = Job(self)
        self.pdf_job.finished.connect(self._pdf_written)
        self.pdf_job.failed.connect(lambda msg: self._failed(self.pdf, msg))
        self.pdf.button.clicked.connect(self.export_pdf)
        self.json.button.clicked.connect(self.export_json)
        self.bom.button.clicked.connect(self.export_bom)
        self.steps.button.clicked.connect(self.export_steps)
        self.live.updated.connect(self._show_state)
        self._show_state()

    def _show_state(self) -> None:
        design = self.live.design
        self.json.button.setEnabled(design is not None)
        # an error of the rule book keeps the proposal and the order from being written
        sized = self.live.sized() and not self.live.errors
        self.bom.button.setEnabled(sized)
        if not self.pdf_job.running:
            self.pdf.button.setEnabled(sized)
        self.steps.button.setEnabled(sized and bool(self._step_clusters()))
        if self.live.errors:
            self.summary.setText(
                "The design cannot be built as it stands, so the proposal and the bill of "
                "materials are not written until this is resolved: "
                + "; ".join(self._said(str(p)) for p in self.live.errors[:3])
            )
        elif design is None:
            self.summary.setText(
                "The design is not complete yet, so there is nothing to export: "
                + "; ".join(self.live.problems[:3])
            )
        else:
            name = design.project.project_name or "this design"
            if design.proposed is None:
                self.summary.setText(f"Exports of {name}, as it is now in the window.")
            else:
                self.summary.setText(
                    f"Exports of {name}: the proposal, the bill of materials and the vSphere "
                    f"steps specify the proposed option, '{design.proposed}'; the design file "
                    "keeps the design as it stands and every option."
                )

    def _said(self, problem: str) -> str:
        wizard = self.wizard()
        return wizard.said(problem) if hasattr(wizard, "said") else problem

    def _ask_path(self, title: str, suggestion: str, file_filter: str) -> Path | None:
        start = self.doc.path.parent if self.doc.path else Path.home()
        answer = self.prompt(
            Prompt(PromptKind.SAVE_FILE, title, path=str(start / suggestion),
                   file_filter=file_filter)
        )  # fmt: skip
        return Path(str(answer)) if answer else None

    def _stem(self) -> str:
        if self.doc.path:
            return self.doc.path.stem
        p = self.doc.get("project")
        return _file_word(p.project_name or "design")

    def _read_files(self, design_file: bool) -> list[str]:
        """Every file the wizard read for what it exports: the user's catalog folder, the price
        list, the logos named and the design's own logo, and (``design_file``) the design file,
        which an export of the design itself may replace, as Save does."""
        from wizard.app.catalog_loader import user_catalog_dir

        files = catalog_files(user_catalog_dir())
        files += [str(self.price_list)] if self.price_list is not None else []
        files += list(self.named_logos())
        if self.doc.path is not None:
            logo = self.doc.get("project").logo_path
            files += [str(self.doc.path.parent / logo)] if logo else []
            files += [str(self.doc.path)] if design_file else []
        return files

    def _an_input(self, row: ExportRow, path: Path, design_file: bool = True) -> bool:
        """Whether ``path`` is a file the wizard read (then said on the row, nothing written):
        the command line's rule, by path, symbolic link or hard link."""
        try:
            refuse_an_input(
                path, str(path), self._read_files(design_file), who="",
                what="a file the wizard reads", advice="choose another file",
            )  # fmt: skip
        except UserError as exc:
            self._failed(row, exc.problems[0])
            return True
        return False

    def export_json(self) -> Path | None:
        design = self.doc.design()
        if design is None:
            return None
        path = self._ask_path("Export the design file", f"{self._stem()}.json", "Design (*.json)")
        if path is None or self._an_input(self.json, path, design_file=False):
            return None
        self.json.busy()
        try:
            save_design(design, path)
        except UserError as exc:
            self._failed(self.json, exc.problems[0])
            return None
        self.json.done(path)
        return path

    def export_pdf(self) -> None:
        """Write the proposal in the background; the page shows progress, then an Open button."""
        design = self.doc.design()
        self.live.current()
        live = self.live.plan
        if design is None or not self.live.sized() or live is None:
            return
        path = self._ask_path(
            "Export the proposal", f"{self._stem()}.pdf", "PDF (*.pdf);;Word document (*.docx)"
        )
        if path is None:
            return
        if path.suffix.lower() not in (".pdf", ".docx"):
            path = path.with_name(path.name + ".pdf")
        if self._an_input(self.pdf, path):
            return
        self.pdf.busy()
        size = str(self.page_size.get())
        base = self.doc.path.parent if self.doc.path else None
        named = tuple(self.named_logos())
        # the plan on screen, priced as the bill of materials is; a fresh Plan keeps its own caches
        plan = live.priced_with(self.prices())
        self.pdf_job.start(lambda: write_pdf(plan, path, size, base, named))

    def _pdf_written(self, written: object) -> None:
        assert isinstance(written, WrittenPdf)
        self.pdf.done(written.path)
        if written.notices:
            self.pdf.status.setText(
                f"Wrote {written.path} ({written.size_bytes / 1e6:,.1f} MB). Note: "
                + "; ".join(written.notices)
            )

    def _step_clusters(self) -> list[ClusterPlan]:
        """The GPU clusters of the live plan that have vSphere steps (GPU VMs to configure)."""
        plan = self.live.plan
        if plan is None:
            return []
        return [c for c in plan.clusters
                if c.result.software is not None and c.result.software.vsphere_steps is not None]  # fmt: skip

    def export_steps(self) -> Path | None:
        """The PowerCLI script of the design's one GPU cluster, or of the one the user picks
        when there are several (each cluster has its own script)."""
        from reports.exports.powercli import powercli_script

        self.live.current()
        plan, design = self.live.plan, self.live.shown  # the steps configure the proposed option
        clusters = self._step_clusters()
        if plan is None or design is None or not clusters:
            return None
        chosen = clusters[0]
        if len(clusters) > 1:  # each GPU cluster has its own script: which one
            names = [c.name for c in clusters]
            answer = self.prompt(
                Prompt(PromptKind.CHOICE, "Export the vSphere host and VM steps",
                       "The GPU cluster to configure (each cluster has its own script):",
                       buttons=tuple(names))
            )  # fmt: skip
            if answer is None or answer not in names:
                return None
            chosen = clusters[names.index(str(answer))]
        # a cluster built with others is named in the script and its file
        cluster = chosen.name if chosen.shared else ""
        stem = self._stem() + (f"-{_file_word(cluster)}" if cluster else "")
        path = self._ask_path("Export the vSphere host and VM steps",
                              f"{stem}-vsphere-steps.ps1", "PowerCLI script (*.ps1)")  # fmt: skip
        if path is None or self._an_input(self.steps, path):
            return None
        self.steps.busy()
        try:
            text = powercli_script(
                chosen.result, design.project.project_name, cluster, plan.catalog
            )
            atomic_write_bytes(path, text.encode("utf-8"))
        except UserError as exc:
            self._failed(self.steps, exc.problems[0])
            return None
        except OSError as exc:
            self._failed(self.steps, f"{path}: cannot be written: {exc.strerror or exc}")
            return None
        self.steps.done(path)
        return path

    def choose_prices(self) -> None:
        answer = self.prompt(
            Prompt(PromptKind.OPEN_FILE, "Choose a price list", path=str(Path.home()),
                   file_filter="Price lists (*.toml *.csv)")
        )  # fmt: skip
        if answer:
            self.set_prices(Path(str(answer)))

    def prices(self) -> PriceList | None:
        """The chosen price list, read now (None without one, or when it cannot be used), so
        *Recommend for me* can weigh the cost of ownership."""
        if self.price_list is None:
            return None
        try:
            prices = load_prices(self.price_list)
            check_currency(prices, self.doc.get("project").currency, str(self.price_list))
        except UserError:
            return None
        return prices

    def set_prices(self, path: Path | None) -> None:
        self.price_list = path
        self.prices_label.setText(
            f"Prices from {path}" if path else "No price list: the BOM is written without prices."
        )

    def export_bom(self) -> Path | None:
        self.live.current()
        design, p = self.live.shown, self.live.plan  # the order is for the proposed option
        if design is None or p is None:
            return None
        path = self._ask_path(
            "Export the bill of materials", f"{self._stem()}-bom.csv",
            "CSV (*.csv);;Excel workbook (*.xlsx)",
        )  # fmt: skip
        if path is None:
            return None
        if path.suffix.lower() not in (".csv", ".xlsx"):
            path = path.with_name(path.name + ".csv")
        if self._an_input(self.bom, path):
            return None
        self.bom.busy()
        try:
            bom = p.estate.bom
            if self.price_list is not None:
                prices = load_prices(self.price_list)
                check_currency(prices, design.project.currency, str(self.price_list))
                bom = p.priced_with(prices).priced or bom
            links = p.port_map
            xlsx = path.suffix.lower() != ".csv"
            kept = p.estate.kept
            data = bom_xlsx(bom, links, kept) if xlsx else bom_csv(bom, kept).encode("utf-8")
            atomic_write_bytes(path, data)
        except UserError as exc:
            self._failed(self.bom, exc.problems[0])
            return None
        except OSError as exc:
            self._failed(self.bom, f"{path}: cannot be written: {exc.strerror or exc}")
            return None
        self.bom.done(path)
        return path

    def _failed(self, row: ExportRow, message: str) -> None:
        row.failed(message)
        self.prompt(Prompt(PromptKind.ERROR, f"The {row.what} was not written", message))


def _file_word(name: str) -> str:
    """A name as part of a file name: letters and digits kept, the rest dashes."""
    return "".join(ch if ch.isalnum() else "-" for ch in name).strip("-") or "design"
