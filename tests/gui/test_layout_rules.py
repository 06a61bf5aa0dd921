"""Layout rules the forms keep on any screen: a field row adds no frame of its own (its input
spans the row, so inputs line up with the row's edges), a number box never prefers less room
than it needs, the Hardware page stacks its columns below 1,000 pixels, and the base font is
raised to 10 points only when the system's is smaller."""

from __future__ import annotations

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QBoxLayout

from wizard.base.bundled import example_text
from wizard.gui.forms import FieldRow
from wizard.gui.wizard import PageId


def _show(window, target: PageId, tmp_path):
    """Open the starter example and walk its pages up to ``target``, as a user would; return
    that page, shown."""
    path = tmp_path / "starter.json"
    path.write_text(example_text("starter"), encoding="utf-8")
    assert window.open_path(path)
    window.wizard.restart_at_start()
    for pid in PageId:
        assert window.wizard.go_to(pid), f"stopped before {pid.name}"
        QApplication.processEvents()
        if pid is target:
            return window.wizard.page_of(pid)
    raise AssertionError(target)


def _editor(window, tmp_path):
    """The Workloads page's editor in a shown window, holding a new group."""
    page = _show(window, PageId.WORKLOADS, tmp_path)
    page.add_group()
    QApplication.processEvents()  # let the layouts settle
    return page.editor


def test_a_field_rows_input_spans_the_row_edge_to_edge(qtbot, window, tmp_path):
    """Every field row of the workload editor that holds one input: the input starts at the
    row's left edge and ends at its right edge (x = 0, x + width = the row's width)."""
    editor = _editor(window, tmp_path)
    checked = 0
    for row in editor.findChildren(FieldRow):
        if not row.isVisible():
            continue
        line = row.layout().itemAt(0).layout()
        if line.count() != 1:  # trailing widgets beside the input
            continue
        g = row.widget.geometry()
        assert (g.x(), g.x() + g.width()) == (0, row.width()), row.widget.accessibleName()
        checked += 1
    assert checked >= 5


def test_no_number_box_prefers_less_width_than_its_minimum(qtbot, window, tmp_path):
    """A number box's preferred width is capped to keep forms narrow, but never below the width
    it needs at least (Qt lays a widget out no narrower than its minimum, so a preferred size
    under it is a contradiction the layout resolves unpredictably)."""
    editor = _editor(window, tmp_path)
    boxes = editor.findChildren(QAbstractSpinBox)
    assert len(boxes) >= 10
    for box in boxes:
        assert box.sizeHint().width() >= box.minimumSizeHint().width(), box.accessibleName()


def test_the_hardware_page_stacks_its_columns_below_1000_pixels(qtbot, window, tmp_path):
    """1,000 pixels wide: the columns side by side; 999: one above the other."""
    page = _show(window, PageId.HARDWARE, tmp_path)
    layouts = [layout for layout, _narrow in page._reflow]
    assert layouts
    page.resize(1000, 700)
    assert {lay.direction() for lay in layouts} == {QBoxLayout.Direction.LeftToRight}
    page.resize(999, 700)
    assert {lay.direction() for lay in layouts} == {QBoxLayout.Direction.TopToBottom}


class _App:
    """What style.apply asks of the application: a font to read and set, the rest ignored."""

    def __init__(self, size: float) -> None:
        self._font = QFont()
        self._font.setPointSizeF(size)

    def font(self) -> QFont:
        return self._font

    def setFont(self, font: QFont) -> None:
        self._font = font

    def setStyle(self, _style) -> None: ...

    def setPalette(self, _palette) -> None: ...

    def setStyleSheet(self, _sheet) -> None: ...


def test_the_base_font_is_raised_to_10_points_only_when_smaller():
    """9 pt becomes 10 pt; 10 pt and 10.5 pt are kept as the system gives them."""
    from wizard.gui import style

    for given, kept in ((9.0, 10.0), (10.0, 10.0), (10.5, 10.5)):
        app = _App(given)
        style.apply(app)  # type: ignore[arg-type]
        assert app.font().pointSizeF() == kept, given
