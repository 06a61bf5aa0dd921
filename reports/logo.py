"""The customer's logo on the cover: checked before use, so a missing, corrupt or huge file gives
a one-line notice and a cover without a logo, never a crash."""

from __future__ import annotations

from collections.abc import Iterable
from io import BytesIO
from pathlib import Path

from reportlab.lib.utils import ImageReader

from reports.doctree import Picture
from wizard.base.safe_read import logo_file, may_read_logo

MAX_BYTES = 10 * 1024 * 1024
MAX_PIXELS = 25_000_000


def load_logo(
    path_text: str,
    base: Path | None,
    max_w: float,
    max_h: float,
    named: Iterable[str | Path] = (),
) -> tuple[Picture | None, str | None]:
    """The logo as a picture of the document tree fitted into ``max_w`` x ``max_h`` points, or a notice saying why
    there is none. A relative path is taken from ``base`` (the design file's folder); a file
    elsewhere is read only when it is in ``named`` (see ``may_read_logo``)."""
    where = f"project.logo_path: {path_text!r}"
    path = logo_file(path_text, base)
    if not may_read_logo(path, base, named):
        return None, (
            f"{where} is outside the design file's folder, and a design file cannot make the "
            "proposal read a file elsewhere; name the logo yourself (report --logo FILE, or "
            "Browse… on the wizard's Project page) or put it beside the design. The cover has "
            "no logo"
        )
    try:
        size = path.stat().st_size
        if not path.is_file():
            return None, f"{where} is not a file; the cover has no logo"
        if size > MAX_BYTES:
            return None, (
                f"{where} is {size / 1e6:.1f} MB, more than the {MAX_BYTES // 2**20} MB a "
                "logo may be; the cover has no logo"
            )
        data = path.read_bytes()
    except OSError as exc:
        return None, f"{where} cannot be read ({exc.strerror or exc}); the cover has no logo"
    try:
        reader = ImageReader(BytesIO(data))
        w, h = reader.getSize()
        if w <= 0 or h <= 0 or w * h > MAX_PIXELS:
            return None, (
                f"{where} is {w} x {h} pixels, more than a logo needs; the cover has no logo"
            )
        reader.getRGBData()  # decode now: a corrupt file fails here, not while drawing
    except Exception as exc:  # PIL raises many types for a bad image
        return None, (
            f"{where} is not a readable PNG or JPEG image ({type(exc).__name__}); "
            "the cover has no logo"
        )
    scale = min(max_w / w, max_h / h, 1.0)
    return Picture(_downscaled(data, w, h, w * scale, h * scale), w * scale, h * scale), None


PRINT_DPI = 300  # a logo is embedded at most at this resolution for the size it prints at


def _downscaled(data: bytes, w: int, h: int, width_pt: float, height_pt: float) -> bytes:
    """The image resampled to what it prints at (300 dpi): a 9.7 MB photograph as a logo no
    longer makes a 12 MB proposal that takes half a minute to write."""
    from PIL import Image as Pil

    most_w, most_h = round(width_pt / 72 * PRINT_DPI), round(height_pt / 72 * PRINT_DPI)
    if w <= most_w and h <= most_h:
        return data
    with Pil.open(BytesIO(data)) as im:
        small = im.convert("RGBA" if im.mode in ("RGBA", "LA", "P") else "RGB")
        small.thumbnail((max(most_w, 1), max(most_h, 1)), Pil.Resampling.LANCZOS)
        out = BytesIO()
        small.save(out, format="PNG", optimize=True)
        return out.getvalue()
