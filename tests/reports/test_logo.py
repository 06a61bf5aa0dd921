"""The customer logo: shown when usable; a missing, corrupt or huge file gives a notice naming
the field and a cover without a logo, never a crash."""

import dataclasses
import io

import pytest
from PIL import Image
from pypdf import PdfReader

from reports.document import ReportOptions, build_pdf
from reports.logo import load_logo


def _with_logo(data, path: str):
    design = data.design
    project = design.project.model_copy(update={"logo_path": path})
    return dataclasses.replace(data, design=design.model_copy(update={"project": project}))


def _images_on_cover(pdf: bytes) -> int:
    return len(PdfReader(io.BytesIO(pdf)).pages[0].images)


def test_a_good_logo_is_on_the_cover(example_data, tmp_path):
    Image.new("RGB", (400, 100), (200, 30, 30)).save(tmp_path / "logo.png")
    options = ReportOptions(logo_base=tmp_path)
    pdf = build_pdf(_with_logo(example_data("starter"), "logo.png"), options)
    assert options.notices == []
    assert _images_on_cover(pdf) == 1


def test_the_word_copy_has_the_logo_on_its_cover(example_data, tmp_path):
    """The same picture opens the Word copy, at the PDF's width: 400 x 100 pixels fitted into
    70 x 28 mm at most is 70 mm (198.4 pt, 2,520,000 EMU) wide; the PNG is the file's own."""
    from docx import Document

    png = tmp_path / "logo.png"
    Image.new("RGB", (400, 100), (200, 30, 30)).save(png)
    options = ReportOptions(logo_base=tmp_path, word=True)
    doc = Document(io.BytesIO(build_pdf(_with_logo(example_data("starter"), "logo.png"), options)))
    assert options.notices == []
    first = doc.inline_shapes[0]
    assert first.width == pytest.approx(2_520_000, abs=12_700)
    blob = first._inline.graphic.graphicData.pic.blipFill.blip.embed
    assert doc.part.related_parts[blob].blob == png.read_bytes()
    body = doc.element.body
    assert body.index(first._inline.getparent().getparent().getparent()) == 0  # the cover's top


def _corrupt(tmp_path):
    (tmp_path / "bad.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"garbage" * 100)
    return "bad.png", "not a readable PNG or JPEG image"


def _missing(tmp_path):
    return "nowhere.png", "cannot be read"


def _huge_pixels(tmp_path):
    Image.new("1", (6000, 5000)).save(tmp_path / "huge.png")
    return "huge.png", "6000 x 5000 pixels"


def _huge_file(tmp_path):
    (tmp_path / "big.png").write_bytes(b"\0" * (11 * 1024 * 1024))
    return "big.png", "MB, more than"


def _directory(tmp_path):
    (tmp_path / "dir.png").mkdir()
    return "dir.png", "is not a file"


@pytest.mark.parametrize("case", [_corrupt, _missing, _huge_pixels, _huge_file, _directory])
def test_unusable_logo_gives_a_notice_and_a_cover_without_it(example_data, tmp_path, case):
    path, expected = case(tmp_path)
    options = ReportOptions(logo_base=tmp_path)
    pdf = build_pdf(_with_logo(example_data("starter"), path), options)
    assert len(options.notices) == 1
    assert options.notices[0].startswith(f"project.logo_path: {path!r}")
    assert expected in options.notices[0]
    assert _images_on_cover(pdf) == 0


def test_logo_is_fitted_into_its_box(tmp_path):
    Image.new("RGB", (3000, 300)).save(tmp_path / "wide.png")
    picture, notice = load_logo(str(tmp_path / "wide.png"), tmp_path, 200, 80)
    assert notice is None
    assert picture.width == pytest.approx(200)
    assert picture.height == pytest.approx(20)


def test_a_huge_logo_is_embedded_at_the_size_it_prints(example_data, tmp_path):
    """A 9 MB, 2,000 x 1,500 photograph as a logo is resampled to 300 dpi at its printed size
    (70 x 28 mm at most: 331 pixels high), not below it, so the proposal stays small and the
    logo sharp."""
    import os as _os

    noise = Image.frombytes("RGB", (2000, 1500), _os.urandom(2000 * 1500 * 3))
    noise.save(tmp_path / "photo.png")
    assert (tmp_path / "photo.png").stat().st_size > 8_000_000
    options = ReportOptions(logo_base=tmp_path)
    pdf = build_pdf(_with_logo(example_data("starter"), "photo.png"), options)
    (img,) = PdfReader(io.BytesIO(pdf)).pages[0].images
    # 4:3 fills the 28 mm height before the 70 mm width: 28 / 25.4 x 300 = 330.7, 331 pixels
    assert img.image.height == round(28 / 25.4 * 300) and len(pdf) < 2_000_000


# ------------------------------------------------------------- a file the design cannot name


def _private_picture(tmp_path):
    """A picture on the reader's machine, outside the folder the design file came in."""
    home, designs = tmp_path / "Pictures", tmp_path / "designs"
    home.mkdir()
    designs.mkdir()
    Image.new("RGB", (300, 100), (10, 200, 10)).save(home / "private.png")
    return home / "private.png", designs


@pytest.mark.parametrize("how", ["absolute", "relative", "link", "below"])
def test_a_design_cannot_put_a_file_from_outside_its_folder_on_the_cover(example_data, tmp_path,
                                                                         how):  # fmt: skip
    """A design file that travels between people names '/home/user/Pictures/private.png' (or
    '../Pictures/private.png', or a link beside it pointing there): the proposal sent out must
    not carry that picture."""
    private, designs = _private_picture(tmp_path)
    if how == "absolute":
        path = str(private)
    elif how == "relative":
        path = "../Pictures/private.png"
    elif how == "below":
        # a design saved in the home folder reaching into a folder below it
        designs = tmp_path
        path = "Pictures/private.png"
    else:
        (designs / "logo.png").symlink_to(private)
        path = "logo.png"
    options = ReportOptions(logo_base=designs)
    pdf = build_pdf(_with_logo(example_data("starter"), path), options)
    assert _images_on_cover(pdf) == 0
    (notice,) = options.notices
    assert notice.startswith(f"project.logo_path: {path!r} is outside the design file's folder")


def test_a_logo_the_user_named_is_read_wherever_it_is(example_data, tmp_path):
    """The negative case of the rule above: the same file, named by the person writing the
    proposal (report --logo, Browse… in the wizard), is on the cover."""
    private, designs = _private_picture(tmp_path)
    options = ReportOptions(logo_base=designs, named_logos=(str(private),))
    pdf = build_pdf(_with_logo(example_data("starter"), str(private)), options)
    assert options.notices == [] and _images_on_cover(pdf) == 1


def test_a_logo_beside_the_design_is_read(example_data, tmp_path):
    """The negative case of 'below': the same picture in the design file's own folder."""
    Image.new("RGB", (300, 100)).save(tmp_path / "logo.png")
    options = ReportOptions(logo_base=tmp_path)
    pdf = build_pdf(_with_logo(example_data("starter"), "logo.png"), options)
    assert options.notices == [] and _images_on_cover(pdf) == 1
