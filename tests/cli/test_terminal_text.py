"""What the command line sends to a terminal. ECMA-48 control functions: C0 (U+0000 to U+001F),
DEL (U+007F) and C1 (U+0080 to U+009F) can move the cursor, clear the screen or recolour it, so
each is shown as an escape; newline and tab lay out the output and pass; every other character,
U+007E and U+00A0 beside the ranges included, passes as it is."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

from wizard.cli.common import _out_json, terminal_text

CONTROLS = [*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)]
KEPT = (0x09, 0x0A)


def test_every_control_but_newline_and_tab_is_escaped_for_the_terminal():
    for c in range(0x00, 0x100):
        ch = chr(c)
        escaped = c in CONTROLS and c not in KEPT
        assert terminal_text(ch) == (f"\\x{c:02x}" if escaped else ch), hex(c)


def test_a_json_document_stays_json_and_keeps_controls_off_the_terminal():
    """Inside JSON the same characters are written as JSON's own \\uXXXX escapes, so the
    document reads back to the same text."""
    text = "".join(chr(c) for c in range(0x00, 0x100))
    out = io.StringIO()
    with redirect_stdout(out):
        _out_json(json.dumps({"name": text}, ensure_ascii=False))
    written = out.getvalue()
    assert not any(chr(c) in written for c in CONTROLS if c not in KEPT)
    assert json.loads(written)["name"] == text
    assert "\\u007f" in written and "\\u009f" in written and "\u00a0" in written


def test_the_whitespace_that_lays_out_json_passes():
    """Newline and tab between a document's tokens are JSON's own whitespace (RFC 8259, section
    2): written as escapes they would no longer be JSON, so they pass, in a document indented by
    spaces or by tabs."""
    for indent in (2, "\t"):
        out = io.StringIO()
        with redirect_stdout(out):
            _out_json(json.dumps({"a": [1, 2]}, indent=indent))
        written = out.getvalue()
        assert json.loads(written) == {"a": [1, 2]}
        assert len(written.splitlines()) == 6
