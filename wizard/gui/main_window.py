"""The main window: the File menu, the title with the unsaved marker, the wizard, and safety
(ask before losing changes, autosave, recovery)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QGuiApplication, QKeySequence, QPaintEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QToolButton,
    QWidget,
)

from wizard import __version__
from wizard.app.io import design_from_text, load_design, save_design
from wizard.base.bundled import example_names, example_text
from wizard.base.errors import DesignError, UserError
from wizard.base.numbers import count
from wizard.gui import autosave
from wizard.gui.document import DesignDocument
from wizard.gui.icons import icon
from wizard.gui.pages.base import Page
from wizard.gui.prompts import (
    CANCEL,
    DISCARD,
    KEEP,
    OPEN,
    RECOVER,
    REPLACE,
    SAVE,
    Prompt,
    PromptKind,
)
from wizard.gui.proposal import ProposalFollower
from wizard.gui.sizing import LiveResult
from wizard.gui.text_undo import TextUndo
from wizard.gui.wizard import TITLES, GpuWizard, PageId
from wizard.present.severity import tally

if TYPE_CHECKING:
    from wizard.gui.help import HelpWindow
    from wizard.model.catalog import Catalog

RECENT_KEY = "recent_files"
MAX_RECENT = 8
DESIGN_FILTER = "gpuwizard designs (*.json);;All files (*)"


def _lock_file(path: Path) -> Path:
    """The lock beside a design, hidden like an office suite's ``.~lock.NAME#``."""
    return path.with_name(f".~lock.{path.name}#")


def _disk_stamp(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size


DEFAULT_SIZE = (1280, 800)
MINIMUM_SIZE = (1024, 680)
FRAME = (16, 40)  # what a window manager's frame and title bar take, at most


def fitted_size(free_w: int, free_h: int, saved: list[str] | None = None) -> tuple[int, int]:
    """The window's size on a screen whose free area is ``free_w`` x ``free_h``: the size last
    used there when it still fits, else the default, shrunk to the free area less the frame."""
    most_w, most_h = free_w - FRAME[0], free_h - FRAME[1]
    try:
        w, h = (int(v) for v in saved or [])
    except ValueError:
        w, h = DEFAULT_SIZE
    if not (0 < w <= most_w and 0 < h <= most_h):
        w, h = DEFAULT_SIZE
    return min(w, most_w), min(h, most_h)


class MainWindow(QMainWindow):
    # The lock file beside the open design, once _hold takes one
    _lock_fd: int | None
    _lock_path: Path

    def __init__(self, catalog: Catalog | Callable[[], Catalog], settings: QSettings | None = None,
                 state_dir: Path | None = None, autosave_ms: int = autosave.AUTOSAVE_MS,
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        # A loader in place of the catalog reads it on first need: the first page needs none
        self._catalog = None if callable(catalog) else catalog
        self._catalog_loader = catalog if callable(catalog) else None
        self._painted = False
        self.settings = settings or QSettings()
        self.state_dir = state_dir or autosave.state_dir()
        self.doc = DesignDocument(self)
        self.live = LiveResult(self.doc, lambda: self.catalog, self)
        self._build_actions()
        # Pages reach the prompt through the window, so replacing window.prompt covers them too.
        self.wizard = GpuWizard(
            self.doc,
            lambda: self.catalog,
            self.live,
            lambda request: self.prompt(request),
            self._file_buttons(),
            parent=self,
        )
        self.setCentralWidget(self.wizard)
        project_page = self.wizard.project_page
        project_page.browse_logo.connect(self._browse_logo)
        project_page.logo_named.connect(self._name_logo)
        self.wizard.named_logos = self.named_logos
        self._build_menus()
        self.autosaver = autosave.Autosaver(self.doc, self.state_dir, autosave_ms, self)
        self.help_window: HelpWindow | None = None  # the guide, made on first use
        self.status = QLabel()
        self.statusBar().addPermanentWidget(self.status)
        self.doc.state_changed.connect(self._update_title)
        self.live.updated.connect(self._update_status)
        # one design on screen: the proposed option's, and no option changed unasked
        self.proposal = ProposalFollower(self.doc, self.live, lambda r: self.prompt(r), self)
        self.setWindowIcon(icon("app"))
        self._fit_to_screen()
        self._update_title()
        self.live.refresh()

    def _fit_to_screen(self) -> None:
        """The first size: the last one used on this screen, else 1280 x 800 where the screen
        has room for it, else the screen's free area less the window frame, so Next and the
        status bar stay on screen (an offscreen platform has no real screen to fit)."""
        screen = self.screen()
        if screen is None or QGuiApplication.platformName() == "offscreen":
            self.resize(*DEFAULT_SIZE)
            self.setMinimumSize(*MINIMUM_SIZE)
            return
        free = screen.availableGeometry()
        saved = cast("list", self.settings.value(f"window/size/{screen.name()}", [], type=list))
        w, h = fitted_size(free.width(), free.height(), [str(v) for v in saved or []])
        self.setMinimumSize(min(MINIMUM_SIZE[0], w), min(MINIMUM_SIZE[1], h))
        self.resize(w, h)

    def _remember_size(self) -> None:
        screen = self.screen()
        if screen is not None:
            self.settings.setValue(
                f"window/size/{screen.name()}", [str(self.width()), str(self.height())]
            )

    @property
    def catalog(self) -> Catalog:
        return self.read_catalog()

    def read_catalog(self) -> Catalog:
        """The catalog, read now if the window was given a loader and has not used it yet."""
        if self._catalog is None:
            assert self._catalog_loader is not None
            self._catalog = self._catalog_loader()
        return self._catalog

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            QTimer.singleShot(0, self, self._after_first_paint)

    def _after_first_paint(self) -> None:
        """The first page is on screen: read the catalog if it is not yet, then make the other
        pages, one per idle moment (each is also made at once when something needs it)."""
        self.read_catalog()
        QTimer.singleShot(0, self.wizard, self.wizard.make_rest)

    # ------------------------------------------------------------------ the one prompt

    def prompt(self, request: Prompt) -> object:
        """Every dialog goes through here (tests replace this method)."""
        k = request.kind
        if k is PromptKind.OPEN_FILE:
            path, _ = QFileDialog.getOpenFileName(
                self, request.title, request.path, request.file_filter
            )
            return path or None
        if k is PromptKind.SAVE_FILE:
            path, _ = QFileDialog.getSaveFileName(
                self, request.title, request.path, request.file_filter
            )
            return path or None
        if k is PromptKind.OPEN_FILES:
            paths, _ = QFileDialog.getOpenFileNames(
                self, request.title, request.path, request.file_filter
            )
            return list(paths)
        if k is PromptKind.TEXT:
            text, ok = QInputDialog.getText(
                self, request.title, request.text, text=request.default or ""
            )
            return text if ok else None
        if k is PromptKind.CHOICE:
            item, ok = QInputDialog.getItem(
                self, request.title, request.text, list(request.buttons), 0, False
            )
            return item if ok else None
        if k is PromptKind.TEXT_BLOCK:
            text, ok = QInputDialog.getMultiLineText(
                self, request.title, request.text, text=request.default or ""
            )
            return text if ok else None
        box = QMessageBox(self)
        box.setWindowTitle(request.title)
        box.setText(request.text)
        if request.details:
            box.setDetailedText("\n".join(request.details))
        box.setIcon(
            {
                PromptKind.QUESTION: QMessageBox.Icon.Question,
                PromptKind.INFO: QMessageBox.Icon.Information,
                PromptKind.ERROR: QMessageBox.Icon.Critical,
            }[k]
        )
        buttons: dict[QAbstractButton, str] = {}
        for text in request.buttons or ("OK",):
            role = (
                QMessageBox.ButtonRole.RejectRole
                if text == CANCEL
                else QMessageBox.ButtonRole.DestructiveRole
                if text == DISCARD
                else QMessageBox.ButtonRole.AcceptRole
            )
            button = box.addButton(text, role)
            buttons[button] = text
            if text == request.default:
                box.setDefaultButton(button)
        box.exec()
        return buttons.get(box.clickedButton(), CANCEL)

    def _error(self, title: str, problems: list[str]) -> None:
        text = problems[0] if len(problems) == 1 else f"{len(problems)} problems:"
        self.prompt(Prompt(PromptKind.ERROR, title, text, details=problems[:200]))

    # ------------------------------------------------------------------ actions and menus

    def _action(self, text: str, icon_name: str | None, slot, shortcut=None, tip="") -> QAction:
        action = QAction(icon(icon_name) if icon_name else icon("none"), text, self)
        if shortcut is not None:
            action.setShortcut(shortcut)
        action.setStatusTip(tip)
        action.setToolTip(tip or text.replace("&", "").replace("…", ""))
        action.triggered.connect(slot)
        return action

    def _build_actions(self) -> None:
        K = QKeySequence.StandardKey
        self.new_action = self._action("&New", "new", self.new_design, K.New, "Start a new design")
        self.open_action = self._action("&Open…", "open", self.open_dialog, K.Open,
                                        "Open a design file")  # fmt: skip
        self.save_action = self._action("&Save", "save", self.save, K.Save, "Save the design")
        self.save_as_action = self._action("Save &As…", "save-as", self.save_as, K.SaveAs,
                                           "Save the design under a new name")  # fmt: skip
        self.export_action = self._action("&Export…", "export", self.show_export,
                                          QKeySequence("Ctrl+E"), "Go to the export page")  # fmt: skip
        self.quit_action = self._action("&Quit", "quit", self.close, K.Quit, "Close the window")
        # Undo and redo every edit of the design, whichever page made it
        self.undo_action = self.doc.undo_stack.createUndoAction(self, "&Undo")
        self.undo_action.setShortcuts([QKeySequence(K.Undo)])
        self.redo_action = self.doc.undo_stack.createRedoAction(self, "&Redo")
        # Ctrl+Y as on Windows and KDE, Ctrl+Shift+Z as on GNOME and macOS, whatever the platform
        keys = [QKeySequence(K.Redo), QKeySequence("Ctrl+Y"), QKeySequence("Ctrl+Shift+Z")]
        self.redo_action.setShortcuts(list(dict.fromkeys(keys)))
        # in a text field that can undo itself, the keys undo and redo the typing there
        self.text_undo = TextUndo(self)
        self.recent_menu = QMenu("Open &Recent", self)
        self.recent_menu.setIcon(icon("recent"))
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        self.examples_menu = QMenu("Open E&xample", self)
        for name in example_names():
            self.examples_menu.addAction(name, partial(self.open_example, name))

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        file_menu.addAction(self.new_action)
        file_menu.addAction(self.open_action)
        file_menu.addMenu(self.recent_menu)
        file_menu.addMenu(self.examples_menu)
        file_menu.addSeparator()
        file_menu.addAction(self.save_action)
        file_menu.addAction(self.save_as_action)
        file_menu.addSeparator()
        file_menu.addAction(self.export_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        edit = self.menuBar().addMenu("&Edit")
        edit.addAction(self.undo_action)
        edit.addAction(self.redo_action)
        go = self.menuBar().addMenu("&Go")
        for pid in PageId:
            title = TITLES[pid][0]
            go.addAction(f"&{pid + 1}  {title}", QKeySequence(f"Alt+{pid + 1}"),
                         partial(self.wizard.go_to, pid))  # fmt: skip
        help_menu = self.menuBar().addMenu("&Help")
        self.help_action = help_menu.addAction(
            "&User guide", QKeySequence(QKeySequence.StandardKey.HelpContents), self.show_help
        )
        help_menu.addAction("&Glossary", lambda: self.show_help("glossary"))
        help_menu.addSeparator()
        help_menu.addAction("&About gpuwizard", self._about)
        self.wizard.helpRequested.connect(self.show_help)

    def _file_buttons(self) -> list[QWidget]:
        """The File actions as buttons on the Project page."""
        out: list[QWidget] = []
        for action in (self.new_action, self.open_action, self.save_action, self.save_as_action):
            b = QToolButton()
            b.setDefaultAction(action)
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            out.append(b)
        for menu in (self.recent_menu, self.examples_menu):
            b = QToolButton()
            b.setText(menu.title().replace("&", ""))
            b.setIcon(menu.icon())
            b.setMenu(menu)
            b.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            out.append(b)
        return out

    # ------------------------------------------------------------------ title and status

    def _update_title(self) -> None:
        self.setWindowTitle(f"{self.doc.display_name}[*] — gpuwizard")
        self.setWindowModified(self.doc.dirty)

    def _update_status(self) -> None:
        p = self.live.plan
        why = self.live.why_no_figures() if self.live.sized() else []
        if why:  # the reason, never the figures of a plan the pages have moved away from
            more = f" (and {len(why) - 1} more)" if len(why) > 1 else ""
            text = f"No figures: {self.wizard.said(why[0])}{more}"
        elif p is not None:
            from wizard.present.risk_register import plan_risks

            # the design's risk register, as the Review and the proposal list it
            e = p.estate
            every = [x.severity for x in plan_risks(p)]
            text = (
                f"{count(len(e.clusters), 'cluster')} · " if len(e.clusters) > 1 else ""
            ) + f"{count(e.totals.hosts, 'host')} · {count(e.totals.gpus, 'GPU')} · {tally(every)}"
        else:
            text = "not sized yet"
        design = self.live.design
        if design is not None and design.proposed is not None and self.live.sized():
            text = f"Proposed option '{design.proposed}': {text}"
        if self.autosaver.last_error:
            text += f" · autosave failed: {self.autosaver.last_error}"
        self.status.setText(text)

    def show_help(self, anchor: str | None = None) -> None:
        """The guide at ``anchor``, or at the page in use (F1, the page's Help button)."""
        from wizard.present.guide import PAGE_ANCHORS

        if self.help_window is None:
            from wizard.gui.help import HelpWindow

            self.help_window = HelpWindow(self)
        if not anchor:
            page = self.wizard.currentId()
            anchor = PAGE_ANCHORS[page] if 0 <= page < len(PAGE_ANCHORS) else "start"
        self.help_window.show_at(anchor)

    def _about(self) -> None:
        self.prompt(
            Prompt(
                PromptKind.INFO,
                "About gpuwizard",
                f"gpuwizard {__version__}: design GPU infrastructure for machine learning on "
                "virtualized platforms. Every catalog figure carries its source.",
            )
        )

    # ------------------------------------------------------------------ files

    def maybe_save(self) -> bool:
        """Ask before unsaved changes are lost. True when it is fine to go on."""
        if not self.doc.dirty:
            return True
        answer = self.prompt(
            Prompt(
                PromptKind.QUESTION,
                "Unsaved changes",
                f"Save the changes to {self.doc.display_name} first?",
                buttons=(SAVE, DISCARD, CANCEL),
                default=SAVE,
            )
        )
        if answer == SAVE:
            return self.save()
        return answer == DISCARD

    def new_design(self) -> None:
        if self.maybe_save():
            self._release()
            self.doc.new()
            self.autosaver.clear()
            self.wizard.restart_at_start()

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        start = str(self.doc.path.parent) if self.doc.path else str(Path.home())
        path = self.prompt(Prompt(PromptKind.OPEN_FILE, "Open a design", path=start,
                                  file_filter=DESIGN_FILTER))  # fmt: skip
        if path:
            self.open_path(Path(str(path)), ask=False)

    def open_path(self, path: Path, ask: bool = True) -> bool:
        if ask and not self.maybe_save():
            return False
        try:
            design = load_design(path)
        except DesignError as exc:
            self._error(f"{path.name} cannot be opened", exc.problems)
            self._forget_recent(path)
            return False
        if not self._hold(path.resolve()):
            return False
        self.doc.load(design, path.resolve())
        self._stamp = _disk_stamp(path.resolve())
        self.autosaver.clear()
        self._remember(path.resolve())
        self.wizard.restart_at_start()
        return True

    # ------------------------------------------------------------------ one file, two windows

    def _hold(self, path: Path) -> bool:
        """Lock ``path`` for this window, as office suites do with a lock file beside the
        document; when another window holds it, ask first. False when the user cancels."""
        self._release()
        fd = autosave.lock(_lock_file(path))
        if fd is None and not os.access(path.parent, os.W_OK):
            return True  # a read-only folder holds no lock file: nothing to ask
        if fd is None:
            answer = self.prompt(
                Prompt(
                    PromptKind.QUESTION,
                    "Open in another window",
                    f"{path.name} is open in another gpuwizard window. Open it here too? "
                    "Saving in either window then asks before replacing the other's changes.",
                    buttons=(OPEN, CANCEL),
                    default=CANCEL,
                )
            )
            return answer == OPEN
        self._lock_fd, self._lock_path = fd, _lock_file(path)
        return True

    def _release(self) -> None:
        fd = getattr(self, "_lock_fd", None)
        if fd is not None:
            with contextlib.suppress(OSError):
                self._lock_path.unlink()
            os.close(fd)
        self._lock_fd = None

    def _changed_on_disk(self, path: Path) -> bool:
        """Whether someone saved ``path`` since this window opened or saved it."""
        if self.doc.path is None or path.resolve() != self.doc.path:
            return False
        now = _disk_stamp(path)
        return now is not None and now != getattr(self, "_stamp", None)

    def open_example(self, name: str) -> None:
        if not self.maybe_save():
            return
        self._release()
        self.doc.load(design_from_text(example_text(name), name), None)
        self.wizard.restart_at_start()

    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        return self._write(self.doc.path)

    def save_as(self) -> bool:
        if not self._complete_for_saving():
            return False
        start = self.doc.path or Path.home() / f"{self._suggested_stem()}.json"
        path = self.prompt(Prompt(PromptKind.SAVE_FILE, "Save the design as", path=str(start),
                                  file_filter=DESIGN_FILTER))  # fmt: skip
        if not path:
            return False
        target = Path(str(path))
        if target.suffix.lower() != ".json":
            target = target.with_name(target.name + ".json")
            # the file dialog confirmed the name as typed; the added suffix may name a file it
            # never asked about
            if target.exists() and not self._replace(target):
                return False
        return self._write(target)

    def _replace(self, target: Path) -> bool:
        answer = self.prompt(
            Prompt(
                PromptKind.QUESTION,
                "Replace the file?",
                f"{target.name} already exists in {target.parent}. Replace it with this design?",
                buttons=(REPLACE, CANCEL),
                default=CANCEL,
            )
        )
        return answer == REPLACE

    def _complete_for_saving(self) -> bool:
        if self.doc.design() is not None:
            return True
        self._error(
            "The design cannot be saved yet",
            ["A design file needs every section; still missing or invalid:",
             *self.doc.design_problems()],
        )  # fmt: skip
        return False

    def _write(self, path: Path) -> bool:
        design = self.doc.design()
        if design is None:
            self._complete_for_saving()
            return False
        if self._changed_on_disk(path):
            answer = self.prompt(
                Prompt(
                    PromptKind.QUESTION,
                    "The file changed on disk",
                    f"{path.name} was saved by another window or program since you opened it. "
                    "Replace it with this design, losing those changes?",
                    buttons=(REPLACE, CANCEL),
                    default=CANCEL,
                )
            )
            if answer != REPLACE:
                return False
        try:
            save_design(design, path)
        except UserError as exc:
            self._error(f"{path.name} was not saved", exc.problems)
            return False
        if path.resolve() != self.doc.path:
            self._hold(path.resolve())
        self.doc.mark_saved(path.resolve())
        self._stamp = _disk_stamp(path.resolve())
        self.autosaver.clear()
        self._remember(path.resolve())
        self.statusBar().showMessage(f"Saved {path}", 5000)
        return True

    def _suggested_stem(self) -> str:
        name = self.doc.get("project").project_name or "design"
        return "".join(ch if ch.isalnum() else "-" for ch in name).strip("-") or "design"

    def _browse_logo(self) -> None:
        path = self.prompt(Prompt(PromptKind.OPEN_FILE, "Choose the customer's logo",
                                  path=str(Path.home()),
                                  file_filter="Images (*.png *.jpg *.jpeg *.svg)"))  # fmt: skip
        if path:
            self._name_logo(str(path))
            self.wizard.project_page.set_logo(str(path))

    NAMED_LOGOS_KEPT = 50

    def named_logos(self) -> list[str]:
        """Logo files this user chose or typed (on this machine, in any window): the proposal
        reads these wherever they are, and no other file a design names outside its folder."""
        value = self.settings.value("logos/named", [], type=list)
        return [str(v) for v in value] if isinstance(value, list) else []

    def _name_logo(self, path: str) -> None:
        kept = [p for p in self.named_logos() if p != path]
        self.settings.setValue("logos/named", [path, *kept][: self.NAMED_LOGOS_KEPT])

    def show_export(self) -> None:
        if not self.wizard.go_to(PageId.EXPORT):
            page = self.wizard.currentPage()
            assert isinstance(page, Page)
            self.statusBar().showMessage(
                f"Export needs a complete design first: {page.reason.text()}", 8000
            )

    # ------------------------------------------------------------------ recent files

    def recent_files(self) -> list[str]:
        value = self.settings.value(RECENT_KEY, [], type=list)
        return [str(v) for v in value if v] if isinstance(value, list) else []

    def _remember(self, path: Path) -> None:
        files = [str(path)] + [f for f in self.recent_files() if f != str(path)]
        self.settings.setValue(RECENT_KEY, files[:MAX_RECENT])
        self.settings.sync()

    def _forget_recent(self, path: Path) -> None:
        files = [f for f in self.recent_files() if Path(f) != path.resolve()]
        self.settings.setValue(RECENT_KEY, files)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        for i, f in enumerate(files):
            action = self.recent_menu.addAction(f"&{i + 1}  {Path(f).name}",
                                                partial(self.open_path, Path(f)))  # fmt: skip
            action.setToolTip(f)
            action.setStatusTip(f)
        if not files:
            self.recent_menu.addAction("No recent designs").setEnabled(False)

    # ------------------------------------------------------------------ crash recovery

    def offer_recovery(self) -> bool:
        """Offer every draft that crashed windows left, newest first: the first one recovered
        opens here; the others can be kept for the next start or discarded, one at a time.
        True when a design was recovered."""
        recovered = False
        for orphan in autosave.find_orphans(self.state_dir):
            what = orphan.design_path.name if orphan.design_path else "an untitled design"
            when = orphan.saved_at.replace("T", " ")
            if recovered:
                answer = self.prompt(
                    Prompt(
                        PromptKind.QUESTION,
                        "Another unsaved draft",
                        f"Another window also closed without saving: changes to {what} "
                        f"autosaved at {when}. Keep the draft for the next start, or discard it?",
                        buttons=(KEEP, DISCARD),
                        default=KEEP,
                    )
                )
                if answer == DISCARD:
                    autosave.discard([orphan])
                continue
            answer = self.prompt(
                Prompt(
                    PromptKind.QUESTION,
                    "Recover unsaved work?",
                    f"gpuwizard did not close cleanly last time. Recover the changes to {what} "
                    f"autosaved at {when}?",
                    buttons=(RECOVER, DISCARD),
                    default=RECOVER,
                )
            )
            if answer != RECOVER:
                autosave.discard([orphan])
                continue
            try:
                self.doc.load_partial(orphan.sections, orphan.design_path, dirty=True)
            except UserError as exc:
                self._error(f"The autosave {orphan.path} cannot be recovered", exc.problems)
                continue
            self.autosaver.save_now()
            autosave.discard([orphan])
            self.wizard.restart_at_start()
            recovered = True
        return recovered

    # ------------------------------------------------------------------ closing

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.maybe_save():
            self._remember_size()
            self.autosaver.clear()
            self.autosaver.release()
            self._release()
            event.accept()
        else:
            event.ignore()
