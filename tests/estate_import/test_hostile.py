"""Files that are not what they claim, or are built to hurt the reader: each gets one line that
names the file and what is wrong, and the command exits 2; never a traceback, never an entity
expanded or an external file read."""

import io
import struct
import zipfile

import pytest

from wizard import cli
from wizard.estate_import import files, inventory, read_estate, rvtools
from wizard.estate_import.files import EstateFileError

from .conftest import DATA

BILLION_LAUGHS = (
    b'<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
    + b"".join(
        f'<!ENTITY lol{i} "{("&lol" + (str(i - 1) if i > 1 else "") + ";") * 10}">'.encode()
        for i in range(1, 10)
    )
    + b"]>\n<nvidia_smi_log><driver_version>&lol9;</driver_version></nvidia_smi_log>\n"
)
XXE = (
    b'<?xml version="1.0"?>\n<!DOCTYPE nvidia_smi_log [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
    b"<nvidia_smi_log><gpu><product_name>&x;</product_name></gpu></nvidia_smi_log>"
)


def _with_member(name: str, data: bytes) -> bytes:
    """A real RVTools workbook with one member replaced."""
    out = io.BytesIO()
    src = (DATA / "rvtools-4.7.1-bc.xlsx").read_bytes()
    with zipfile.ZipFile(io.BytesIO(src)) as zin, zipfile.ZipFile(out, "w") as zout:
        for info in zin.infolist():
            zout.writestr(info, data if info.filename == name else zin.read(info.filename))
    return out.getvalue()


def _declaring(size: int) -> bytes:
    """A zip whose directory declares a member of ``size`` bytes (a forged bomb)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/worksheets/sheet1.xml", b"<worksheet/>")
    data = bytearray(out.getvalue())
    central = data.index(b"PK\x01\x02")
    data[central + 24 : central + 28] = struct.pack("<I", size)
    return bytes(data)


CASES = {
    "broken-zip.xlsx": (b"PK\x03\x04" + b"\x00" * 64, "broken zip archive"),
    "truncated.xlsx": (
        (DATA / "rvtools-4.7.1-bc.xlsx").read_bytes()[:40_000],
        "broken zip archive",
    ),
    "bomb.xlsx": (_declaring(3_000_000_000), "refused as a zip bomb"),
    "laughs.xlsx": (
        _with_member("xl/sharedStrings.xml", BILLION_LAUGHS),
        "declares a document type",
    ),
    "laughs.xml": (BILLION_LAUGHS, "declares entities"),
    "xxe.xml": (XXE, "declares entities"),
    "report.pdf": (
        b"%PDF-1.7\n%\xe2\xe3\n1 0 obj\n",
        "not an RVTools workbook (.xlsx), nvidia-smi",
    ),
    "other.xml": (b"<?xml version='1.0'?><svg/>", "not nvidia-smi's <nvidia_smi_log>"),
    "broken.xml": (b"<nvidia_smi_log><gpu>", "not well-formed XML"),
    "nogpu.xml": (
        b"<nvidia_smi_log><driver_version>1</driver_version></nvidia_smi_log>",
        "no <gpu>",
    ),
    "binary.bin": (bytes(range(256)) * 4, "not an RVTools workbook (.xlsx), nvidia-smi"),
    "bad-utf16.txt": (b"\xff\xfe\x00\xd8", "marked UTF-16 but not UTF-16 text"),
    "garbled-vgpu.txt": (
        b"GPU 00000000:01:00.0\n    Active vGPUs                          : 1\nrm -rf /\n",
        "line 3 is not nvidia-smi vgpu -q output",
    ),
    "short.csv": (b"Record,Cluster,Host\nhost,c,h\n", "lacks the columns Vendor, Model"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_one_line_naming_the_file(tmp_path, capsys, name):
    data, words = CASES[name]
    path = tmp_path / name
    path.write_bytes(data)
    assert cli.main(["--no-user-catalog", "import-estate", str(path)]) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1, err
    assert str(path) in err[0] and words in err[0], err[0]
    assert "Traceback" not in err[0]


def test_an_entity_is_never_expanded(tmp_path, catalog):
    path = tmp_path / "laughs.xml"
    path.write_bytes(BILLION_LAUGHS)
    with pytest.raises(EstateFileError) as exc:
        read_estate([path], catalog)
    assert "lollol" not in str(exc.value)


def test_a_workbook_without_rvtools_sheets(tmp_path, capsys):
    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = "Budget"
    path = tmp_path / "budget.xlsx"
    book.save(path)
    assert cli.main(["--no-user-catalog", "import-estate", str(path)]) == cli.EXIT_BAD_INPUT
    (line,) = capsys.readouterr().err.splitlines()
    assert "without RVTools' vHost or vInfo sheet" in line and str(path) in line


def test_a_vhost_sheet_without_its_host_column(tmp_path, capsys):
    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = "vHost"
    book.active.append(["Name", "Vendor"])
    book.active.append(["esx01", "Dell Inc."])
    path = tmp_path / "edited.xlsx"
    book.save(path)
    assert cli.main(["--no-user-catalog", "import-estate", str(path)]) == cli.EXIT_BAD_INPUT
    (line,) = capsys.readouterr().err.splitlines()
    assert "sheet vHost has no 'Host' column" in line


def test_a_sheet_longer_than_the_limit_is_refused(monkeypatch, catalog):
    """The 4.4.3 export's vInfo has 124 VMs; with the limit at 50 rows it is refused."""
    monkeypatch.setattr(rvtools, "MAX_ROWS", 50)
    with pytest.raises(EstateFileError, match="sheet vInfo has more than 50 rows"):
        read_estate([DATA / "rvtools-4.4.3-ovh.xlsx"], catalog)


def test_a_file_larger_than_the_limit_is_refused_before_it_is_read(monkeypatch, catalog):
    monkeypatch.setattr(inventory, "MAX_WORKBOOK_BYTES", 1000)
    with pytest.raises(EstateFileError, match="more than the 1,000 bytes"):
        read_estate([DATA / "rvtools-4.7.1-bc.xlsx"], catalog)


def test_a_folder_or_a_missing_file(tmp_path, catalog):
    with pytest.raises(EstateFileError, match="not a regular file"):
        read_estate([tmp_path], catalog)
    with pytest.raises(EstateFileError, match="cannot be read"):
        read_estate([tmp_path / "absent.xlsx"], catalog)


def test_the_bomb_limits_hold_a_real_export(catalog):
    """The real exports pass the limits the bombs fail: the kubev2v sheets inflate about 10 to 1."""
    data = (DATA / "rvtools-4-kubev2v-example1.xlsx").read_bytes()
    archive = files.checked_zip(DATA / "x.xlsx", data, "RVTools workbook")
    assert max(m.file_size / max(m.compress_size, 1) for m in archive.infolist()) < 20


def test_a_report_saved_by_windows_powershell_in_utf16_is_read(tmp_path, catalog):
    """'nvidia-smi vgpu -q > host.txt' in Windows PowerShell writes UTF-16 with a byte-order mark."""
    path = tmp_path / "esx01.txt"
    path.write_bytes((DATA / "nvidia-smi-vgpu-q-rtx-pro-6000.txt").read_text().encode("utf-16"))
    inv = read_estate([path], catalog)
    assert [v.vm for v in inv.vgpus] == ["instance-00000004", "instance-00000005"]


def test_a_count_that_is_no_number_is_left_unknown(tmp_path, catalog):
    """'# Cores' holding a word, NaN or an infinity (an edited export) is not a count: the host
    is read with its cores unknown, not refused and not guessed."""
    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = "vHost"
    book.active.append(["Host", "# Cores", "# CPU", "# Memory"])
    book.active.append(["esx01", "many", "inf", "nan"])
    path = tmp_path / "edited.xlsx"
    book.save(path)
    (host,) = read_estate([path], catalog).hosts
    assert (host.cores, host.sockets, host.memory_mib) == (None, None, None)
