"""Which face markup sets text in: <b> and <i> in the proposal's sans-serif text pick DejaVu
Sans Bold, Oblique and Bold Oblique; the monospace text (settings, commands) has one face, so
bold or italic markup there stays DejaVu Sans Mono rather than falling back to a face the
document does not embed."""

from __future__ import annotations

import pytest
from reportlab.lib.fonts import tt2ps
from reportlab.pdfbase import pdfmetrics

from reports.fonts import MONO, SANS, register_fonts


@pytest.mark.parametrize(
    ("family", "bold", "italic", "face"),
    [
        (SANS, 0, 0, "DejaVuSans"),
        (SANS, 1, 0, "DejaVuSans-Bold"),
        (SANS, 0, 1, "DejaVuSans-Oblique"),
        (SANS, 1, 1, "DejaVuSans-BoldOblique"),
        (MONO, 0, 0, "DejaVuSansMono"),
        (MONO, 1, 0, "DejaVuSansMono"),
        (MONO, 0, 1, "DejaVuSansMono"),
        (MONO, 1, 1, "DejaVuSansMono"),
    ],
)
def test_bold_and_italic_markup_pick_an_embedded_face(family, bold, italic, face):
    register_fonts()
    assert tt2ps(family, bold, italic) == face
    assert face in pdfmetrics.getRegisteredFontNames()
