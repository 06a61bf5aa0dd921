"""Form rows with an inline error under the widget, and routing of pydantic errors to them.

A page validates its part of the Design with pydantic; each error's location (a field path such as
``inference.context_length``) finds the row that edits that field, and the message appears right
under that widget, naming the field.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import ValidationError
from PySide6.QtWidgets import QFormLayout, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from wizard.base.errors import field_path
from wizard.present.glossary import tip


def clean_message(msg: str) -> str:
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            return msg[len(prefix) :]
    return msg


def _number(value: object) -> str:
    return f"{value:,}" if isinstance(value, int | float) else str(value)


def plain_message(err: dict) -> str:
    """A validation problem in plain words, as a form says it under the field's label: "give a
    value", "at least 1", not the validator's "String should have at least 1 character"."""
    kind, ctx = err["type"], err.get("ctx") or {}
    value = err.get("input")
    got = f" (got {_number(value)})" if isinstance(value, int | float) else ""
    if kind == "missing" or (kind == "string_too_short" and ctx.get("min_length") == 1):
        return "give a value"
    words = {
        "string_too_short": lambda: f"at least {ctx['min_length']:,} characters",
        "string_too_long": lambda: f"at most {ctx['max_length']:,} characters",
        "too_long": lambda: f"at most {ctx['max_length']:,} entries",
        "greater_than_equal": lambda: f"at least {_number(ctx['ge'])}{got}",
        "less_than_equal": lambda: f"at most {_number(ctx['le'])}{got}",
        "greater_than": lambda: f"more than {_number(ctx['gt'])}{got}",
        "less_than": lambda: f"less than {_number(ctx['lt'])}{got}",
        "int_parsing": lambda: "a whole number is needed",
        "int_from_float": lambda: f"a whole number is needed{got}",
        "float_parsing": lambda: "a number is needed",
        "finite_number": lambda: "a finite number is needed",
    }
    if kind in words:
        try:
            return words[kind]()
        except KeyError:  # a context pydantic did not give
            pass
    msg = clean_message(err["msg"])
    quoted = value is not None and not isinstance(value, dict | list)
    if kind not in ("value_error", "assertion_error") and quoted:
        msg += f" (got {value!r})"
    return msg


def error_items(exc: ValidationError) -> list[tuple[str, str]]:
    """``(field path, message)`` per problem, in plain words with the offending value where it
    helps."""
    out = []
    for err in exc.errors(include_url=False):
        path = field_path(err["loc"]) if err["loc"] else ""
        out.append((path, plain_message(dict(err))))
    return out


class FieldRow(QWidget):
    """A widget (plus optional trailing widgets) with an error line beneath it."""

    def __init__(self, widget: QWidget, *extra: QWidget, below: QWidget | None = None,
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.widget = widget
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(2)
        line = QHBoxLayout()
        line.setContentsMargins(0, 0, 0, 0)
        line.addWidget(widget, 1)
        for w in extra:
            line.addWidget(w)
        outer.addLayout(line)
        if below is not None:
            outer.addWidget(below)
        self.error = QLabel()
        self.error.setObjectName("fieldError")
        self.error.setWordWrap(True)
        self.error.hide()
        outer.addWidget(self.error)
        # a plausibility caution of the sizing: the value sizes, but is unlikely to be meant
        self.caution = QLabel()
        self.caution.setObjectName("reason")
        self.caution.setWordWrap(True)
        self.caution.hide()
        outer.addWidget(self.caution)
        self.label = ""
        self._refusal = False
        refused = getattr(widget, "refused", None)
        if refused is not None:  # a number box: say why typed input was not taken
            refused.connect(self._refused)
            widget.valueChanged.connect(self._taken)  # type: ignore[attr-defined]
            # text typed and taken clears it too, also when it is the value already held
            widget.lineEdit().textChanged.connect(self._taken)  # type: ignore[attr-defined]

    def _refused(self, message: str) -> None:
        self.set_error(f"{self.label}: {message}" if self.label else message)
        self._refusal = True

    def _taken(self) -> None:
        if self._refusal:
            self._refusal = False
            self.set_error(None)

    def set_caution(self, message: str | None) -> None:
        self.caution.setText(message or "")
        self.caution.setVisible(bool(message))

    def set_error(self, message: str | None) -> None:
        self.error.setText(message or "")
        self.error.setVisible(bool(message))
        self.widget.setProperty("invalid", bool(message))
        self.widget.style().unpolish(self.widget)
        self.widget.style().polish(self.widget)


class FormErrors:
    """Rows keyed by field path, each with its human label, receiving errors by path prefix."""

    def __init__(self) -> None:
        self.rows: dict[str, tuple[str, FieldRow]] = {}
        self.fallback: QLabel | None = None
        # Whole-model errors have no field path; a keyword in the message picks the row instead.
        self.keyword_routes: list[tuple[str, str]] = []

    def add(
        self,
        form: QFormLayout,
        path: str,
        label: str,
        widget: QWidget,
        *extra: QWidget,
        term: str | None = None,
        below: QWidget | None = None,
    ) -> FieldRow:
        row = FieldRow(widget, *extra, below=below)
        row.label = label
        text = tip(term or path.split(".")[-1])
        label_widget = QLabel(label + ":")
        label_widget.setBuddy(widget)
        if text:
            label_widget.setToolTip(text)
            widget.setToolTip(text)
        form.addRow(label_widget, row)
        self.rows[path] = (label, row)
        return row

    def clear(self) -> None:
        for _, row in self.rows.values():
            row.set_error(None)
        if self.fallback is not None:
            self.fallback.hide()

    def show(self, items: Iterable[tuple[str, str]]) -> list[str]:
        """Put each message under its row (the longest matching path); return readable lines."""
        self.clear()
        lines: list[str] = []
        shown: dict[str, list[str]] = {}
        for path, msg in items:
            if not path:
                path = next((p for word, p in self.keyword_routes if word in msg), "")
            key = self._match(path)
            label = self.rows[key][0] if key else ""
            lines.append(f"{label}: {msg}" if label else msg)
            shown.setdefault(key, []).append(msg)
        for key, msgs in shown.items():
            if key:
                label = self.rows[key][0]
                self.rows[key][1].set_error("\n".join(f"{label}: {m}" for m in msgs))
            elif self.fallback is not None:
                self.fallback.setText("\n".join(msgs))
                self.fallback.show()
        return lines

    def caution(self, items: Iterable[tuple[str, str]]) -> list[str]:
        """Put each caution under its row (cautions only advise; nothing is refused); return
        the readable lines."""
        for _, row in self.rows.values():
            row.set_caution(None)
        lines: list[str] = []
        shown: dict[str, list[str]] = {}
        for path, msg in items:
            key = self._match(path)
            label = self.rows[key][0] if key else ""
            lines.append(f"{label}: {msg}" if label else msg)
            shown.setdefault(key, []).append(msg)
        for key, msgs in shown.items():
            if key:
                self.rows[key][1].set_caution("\n".join(msgs))
        return lines

    def _match(self, path: str) -> str:
        best = ""
        for key in self.rows:
            if (path == key or path.startswith(key + ".") or path.startswith(key + "[")) and len(
                key
            ) > len(best):
                best = key
        return best


def align_labels(*forms: QFormLayout) -> None:
    """Give the label columns of several forms one width, so stacked boxes line up."""
    labels = [
        label
        for form in forms
        for row in range(form.rowCount())
        if (item := form.itemAt(row, QFormLayout.ItemRole.LabelRole)) is not None
        and (label := item.widget()) is not None
    ]
    if labels:
        width = max(label.sizeHint().width() for label in labels)
        for label in labels:
            label.setMinimumWidth(width)
