"""Small input widgets: spin boxes with a 'none' value, and enum combo boxes with per-item
reasons (an item that cannot be chosen is disabled and its tooltip says why).

None of them changes on a mouse wheel unless it has the keyboard focus: scrolling a long form
must scroll the form, not silently turn Epochs from 1.00 into 0.01 under the pointer."""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import TypeVar

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QStandardItemModel, QValidator, QWheelEvent
from PySide6.QtWidgets import QComboBox, QDateEdit, QDoubleSpinBox, QSpinBox, QWidget

from wizard.base.numbers import num


class _WheelOnlyWhenFocused:
    """Mixin: the wheel changes the value only after a click or Tab gave the widget focus;
    otherwise the event goes to the scroll area around it."""

    def _setup_wheel(self) -> None:
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # type: ignore[attr-defined]

    def wheelEvent(self, event: QWheelEvent) -> None:
        if self.hasFocus():  # type: ignore[attr-defined]
            super().wheelEvent(event)  # type: ignore[misc]
        else:
            event.ignore()


class _Compact:
    """Mixin: a number box no wider than it needs for everyday values; Qt sizes it for its
    maximum (1,000,000,000,000.0), which would widen every form on a small screen."""

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()  # type: ignore[misc]
        return QSize(min(hint.width(), COMPACT_WIDTH), hint.height())

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()  # type: ignore[misc]
        return QSize(min(hint.width(), COMPACT_WIDTH * 2), hint.height())


COMPACT_WIDTH = 90


class _RefusedOutOfRange:
    """Mixin: a number typed outside the field's range is refused with the allowed range said
    (``refused`` carries the message), never silently cut to the maximum."""

    def _typed_number(self, text: str) -> float | None:
        spin = self  # a QSpinBox or QDoubleSpinBox
        body = text.removeprefix(spin.prefix()).removesuffix(spin.suffix())  # type: ignore[attr-defined]
        body = body.strip().replace(spin.locale().groupSeparator(), "")  # type: ignore[attr-defined]
        body = body.replace(spin.locale().decimalPoint(), ".")  # type: ignore[attr-defined]
        try:
            return float(body)
        except ValueError:
            return None

    def validate(self, text: str, pos: int) -> object:
        result = super().validate(text, pos)  # type: ignore[misc]
        state = result[0] if isinstance(result, tuple) else result
        if state == QValidator.State.Invalid:
            typed = self._typed_number(text)
            # an optional field's minimum means "not set"; its range starts one above
            low: float = getattr(self, "_low", self.minimum())  # type: ignore[attr-defined,assignment]
            high: float = self.maximum()  # type: ignore[attr-defined]
            if typed is not None and not low <= typed <= high:
                self.refused.emit(  # type: ignore[attr-defined]
                    f"{num(typed)} is not taken: the allowed range is {num(low)} to "
                    f"{num(high)}, so the field keeps {num(self.value())}"  # type: ignore[attr-defined]
                )
        return result


class Spin(_Compact, _RefusedOutOfRange, _WheelOnlyWhenFocused, QSpinBox):  # type: ignore[misc]
    refused = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._setup_wheel()


class Double(_Compact, _RefusedOutOfRange, _WheelOnlyWhenFocused, QDoubleSpinBox):  # type: ignore[misc]
    refused = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._setup_wheel()


class Combo(_WheelOnlyWhenFocused, QComboBox):
    """A plain combo box (e.g. editable) with the same wheel rule."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._setup_wheel()


class DateEdit(_WheelOnlyWhenFocused, QDateEdit):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._setup_wheel()


class OptionalSpin(Spin):
    """An integer where the minimum means 'not given' (shown as ``none_text``)."""

    def __init__(self, low: int, high: int, none_text: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setRange(low - 1, high)
        self.setSpecialValueText(none_text)
        self._low = low

    def get(self) -> int | None:
        v = self.value()
        return None if v < self._low else v

    def put(self, value: int | None) -> None:
        self.setValue(self.minimum() if value is None else value)


class OptionalDouble(Double):
    """A float where 0 means 'not given' (shown as ``none_text``)."""

    def __init__(self, high: float, decimals: int, none_text: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setDecimals(decimals)
        self.setRange(0, high)
        self.setSpecialValueText(none_text)
        self.setGroupSeparatorShown(True)

    def get(self) -> float | None:
        v = self.value()
        return None if v <= 0 else v

    def put(self, value: float | None) -> None:
        self.setValue(0 if value is None else value)


def int_spin(low: int, high: int, value: int = 1) -> QSpinBox:
    spin = Spin()
    spin.setRange(low, high)
    spin.setValue(value)
    spin.setGroupSeparatorShown(True)
    return spin


def double_spin(low: float, high: float, decimals: int, value: float) -> QDoubleSpinBox:
    spin = Double()
    spin.setDecimals(decimals)
    spin.setRange(low, high)
    spin.setValue(value)
    spin.setGroupSeparatorShown(True)
    return spin


E = TypeVar("E", bound=Enum)


class Choice(_WheelOnlyWhenFocused, QComboBox):
    """A combo box of (label, value) pairs that can disable items with a reason.

    Values live in a Python list (Qt would turn a StrEnum into a plain str); each item's data is
    its index in that list.
    """

    def __init__(self, items: list[tuple[str, object]] | None = None, parent=None):
        super().__init__(parent)
        self._setup_wheel()
        self._values: list[object] = []
        # Long item texts must not widen the page: the popup shows them whole.
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(16)
        for label, value in items or []:
            self.add(label, value)

    @classmethod
    def of(cls, enum: type[E], labels: Mapping[E, str] | None = None) -> Choice:
        return cls([((labels or {}).get(m, str(m.value)), m) for m in enum])

    def add(self, label: str, value: object) -> None:
        self._values.append(value)
        self.addItem(label, len(self._values) - 1)

    def clear(self) -> None:
        super().clear()
        self._values = []

    def value_at(self, index: int) -> object:
        key = self.itemData(index)
        return None if key is None else self._values[key]

    def index_of(self, value: object) -> int:
        for i in range(self.count()):
            key = self.itemData(i)
            if key is not None and self._values[key] == value:
                return i
        return -1

    def get(self) -> object:
        return self.value_at(self.currentIndex()) if self.currentIndex() >= 0 else None

    def put(self, value: object) -> None:
        i = self.index_of(value)
        if i >= 0:
            self.setCurrentIndex(i)

    def _item(self, value: object):
        i = self.index_of(value)
        model = self.model()
        if i < 0 or not isinstance(model, QStandardItemModel):
            return None
        return model.item(i)

    def set_reason(self, value: object, reason: str | None, base_tip: str = "") -> None:
        """Disable the item for ``value`` with ``reason``, or enable it again when None."""
        item = self._item(value)
        if item is None:
            return
        if reason:
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEnabled)
            item.setToolTip(f"Not available: {reason}")
        else:
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsEnabled)
            item.setToolTip(base_tip)

    def enabled(self, value: object) -> bool:
        item = self._item(value)
        return item is not None and bool(item.flags() & Qt.ItemFlag.ItemIsEnabled)

    def reason(self, value: object) -> str:
        item = self._item(value)
        return item.toolTip() if item is not None else ""
