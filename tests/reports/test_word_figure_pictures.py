"""A figure in the Word copy is pictured whole: the picture is the drawing's page at 200 dpi,
its shapes where the drawing puts them, none cut at an edge or shifted off the picture."""

from __future__ import annotations

from io import BytesIO

from PIL import Image
from reportlab.graphics.shapes import Drawing, Rect
from reportlab.lib.colors import Color

from reports.word import DPI, _pngs

RED = Color(1, 0, 0)
BLUE = Color(0, 0, 1)


def test_a_figure_is_pictured_corner_to_corner():
    """A 144 x 72 pt drawing with a 12-pt red square in its bottom-left corner and a blue one in
    its top-right: at 200 dpi the picture is 144 x 200 / 72 = 400 by 72 x 200 / 72 = 200 pixels,
    its bottom-left pixel red and its top-right pixel blue (a drawing placed a point up or right
    on its page would leave those corners white and cut the opposite edges)."""
    drawing = Drawing(144, 72)
    drawing.add(Rect(0, 0, 12, 12, fillColor=RED, strokeColor=None))
    drawing.add(Rect(132, 60, 12, 12, fillColor=BLUE, strokeColor=None))
    picture = Image.open(BytesIO(_pngs([drawing])[id(drawing)])).convert("RGB")
    assert DPI == 200
    assert picture.size == (400, 200)
    red = picture.getpixel((0, 199))
    blue = picture.getpixel((399, 0))
    assert red[0] > 200 and red[1] < 60 and red[2] < 60, red
    assert blue[2] > 200 and blue[0] < 60 and blue[1] < 60, blue
