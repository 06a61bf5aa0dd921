"""The memory chart draws what it says: each bar's length is its GB on the same scale as the
GPU's memory line (a group needing half the GPU's memory reaches half way to the line), and its
legend wraps to stay whole inside the chart, naming every part the bars use."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from PySide6.QtGui import QColor, QFontMetrics, QImage

from wizard.gui.style import MEMORY_COLOURS
from wizard.gui.widgets.memory_bars import PARTS, MemoryBars

KEYS = [key for key, _label in PARTS]


def _group(name: str, **gb: float) -> SimpleNamespace:
    parts = {key: gb.get(key, 0.0) for key in KEYS}
    return SimpleNamespace(name=name, memory_gb=SimpleNamespace(**parts, total=sum(parts.values())))


def _draw(qtbot, rows, gpu_gb: float, width: int, height: int):
    bars = MemoryBars()
    qtbot.addWidget(bars)
    bars.set_data(rows, gpu_gb)
    bars.resize(width, height)
    return bars, bars.grab().toImage(), QFontMetrics(bars.font()).height()


def _rgb(image):
    """The image as an array of rows of (r, g, b) (a copy: the image's bits go with it)."""
    image = image.convertToFormat(QImage.Format.Format_RGB888)
    w, h, stride = image.width(), image.height(), image.bytesPerLine()
    raw = np.array(image.constBits(), np.uint8, copy=True)[: h * stride]
    return raw.reshape(h, stride)[:, : w * 3].reshape(h, w, 3)


def _xs(image, y_range, test) -> list[int]:
    """The x of every pixel in rows ``y_range`` that passes ``test`` (an array of bools)."""
    rows = _rgb(image)[list(y_range)]
    return sorted(np.nonzero(test(rows))[1].tolist())


def _is(hex_colour: str):
    want = QColor(hex_colour)
    rgb = np.array([want.red(), want.green(), want.blue()], np.uint8)
    return lambda px: np.all(px == rgb, axis=-1)


def _red(px) -> np.ndarray:  # the dashed GPU line (#c62828), antialiased
    return (px[..., 0] > 150) & (px[..., 1] < 110) & (px[..., 2] < 110)


def test_a_group_needing_half_the_gpus_memory_reaches_half_way_to_the_line(qtbot):
    """40 GB of weights on an 80 GB GPU: 40 / 80 = 0.5 of the way from the bar's start to the
    dashed GPU line; 20 GB of weights: 0.25 of the way."""
    rows = [_group("A", weights=40.0), _group("B", weights=20.0)]
    _bars, image, line = _draw(qtbot, rows, 80.0, 700, 300)
    weights = _is(MEMORY_COLOURS["weights"])
    gpu_line = _xs(image, range(0, int(line * 4)), _red)
    assert gpu_line
    gx = sorted(gpu_line)[len(gpu_line) // 2]
    for row, share in ((0, 0.5), (1, 0.25)):
        y_mid = int(row * line * 2.0 + line * 0.8)
        bar = _xs(image, [y_mid], weights)
        start, end = min(bar), max(bar) + 1
        assert abs((end - start) - share * (gx - start)) <= 2, (row, start, end, gx)


def test_the_legend_wraps_to_stay_whole_inside_the_chart(qtbot):
    """Every one of the seven parts in use, at every width from 300 to 800 px: the legend
    wraps where an entry would not fit, so every part's swatch is drawn and the swatch followed
    by its label's full width (the font's advance) ends inside the chart."""
    rows = [_group("A", **{key: 1.0 for key in KEYS})]
    bars = MemoryBars()
    qtbot.addWidget(bars)
    bars.set_data(rows, 80.0)
    fm = QFontMetrics(bars.font())
    legend = range(int(fm.height() * 3.3), 600)  # below the bar and the GPU line's label
    for width in range(300, 801, 4):
        bars.resize(width, 600)
        image = bars.grab().toImage()
        for key, label in PARTS:
            swatch = _xs(image, legend, _is(MEMORY_COLOURS[key]))
            assert swatch, (width, key)
            assert max(swatch) + 1 + fm.horizontalAdvance(label) <= width, (width, key)


def test_the_chart_asks_for_room_for_every_bar_and_its_legend(qtbot):
    """Sized to the height it asks for, the chart shows all five groups' bars and the legend:
    a bar takes 2 lines, so five take 10, and the legend's swatch is drawn 1.3 lines below the
    last bar (0.2 down into its 1.2-line row), from y = 11.5 lines on. A hint that did not grow
    with the rows (a fixed 4 lines) would cut off the last three bars and the legend."""
    rows = [_group(name, weights=10.0 * (i + 1)) for i, name in enumerate("ABCDE")]
    bars = MemoryBars()
    qtbot.addWidget(bars)
    bars.set_data(rows, 80.0)
    hint = bars.sizeHint()
    bars.resize(hint)
    image = bars.grab().toImage()
    line = QFontMetrics(bars.font()).height()
    weights = _is(MEMORY_COLOURS["weights"])
    for row in range(5):
        assert _xs(image, [int(row * line * 2.0 + line * 0.8)], weights), row
    legend_top = int(line * 11.5)
    assert hint.height() > legend_top + line * 0.8
    assert _xs(image, range(legend_top, hint.height()), weights)


def test_a_bars_parts_follow_one_another_on_the_same_scale(qtbot):
    """20 GB of weights then 20 GB of KV cache on an 80 GB GPU: the weights run from the bar's
    start to a quarter of the way to the GPU line, and the KV cache from there to half way
    (each part starts where the one before it ends)."""
    rows = [_group("A", weights=20.0, kv_cache=20.0)]
    _bars, image, line = _draw(qtbot, rows, 80.0, 700, 300)
    gpu_line = _xs(image, range(0, int(line * 2)), _red)
    gx = sorted(gpu_line)[len(gpu_line) // 2]
    y_mid = int(line * 0.8)
    weights = _xs(image, [y_mid], _is(MEMORY_COLOURS["weights"]))
    kv = _xs(image, [y_mid], _is(MEMORY_COLOURS["kv_cache"]))
    start = min(weights)
    quarter = start + 0.25 * (gx - start)
    assert abs((max(weights) + 1) - quarter) <= 2
    assert abs(min(kv) - quarter) <= 2
    assert abs((max(kv) + 1) - (start + 0.5 * (gx - start))) <= 2
