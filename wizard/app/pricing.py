"""Reading a user's price list (TOML or CSV). Prices never ship with the program as fact.

TOML::

    currency = "EUR"
    source = "Quote 2024-117 from ..."
    [prices]
    "server:dell-xe9680" = 250000
    "MQM9700-NS2F" = 30000        # a part number works too

CSV: a header row ``item,unit_price,currency`` and one row per item; every row in one currency.
"""

from __future__ import annotations

import csv
import io
import tomllib
from pathlib import Path

from pydantic import ValidationError

from wizard.base.errors import UserError, describe_validation_error
from wizard.base.safe_read import decode_utf8, read_limited
from wizard.model.prices import PriceList

MAX_PRICE_FILE_BYTES = 5_000_000


def load_prices(path: str | Path) -> PriceList:
    p = Path(path)
    text = decode_utf8(read_limited(p, MAX_PRICE_FILE_BYTES, "price list"), str(p))
    if p.suffix.lower() == ".toml":
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise UserError(f"{p}: not valid TOML: {exc}") from None
        except (ValueError, RecursionError) as exc:  # huge integers, deep nesting
            raise UserError(f"{p}: cannot be read as a price list ({exc})") from None
    elif p.suffix.lower() == ".csv":
        doc = _csv(text, p)
    else:
        raise UserError(f"{p}: a price list is a .toml or .csv file")
    try:
        return PriceList.model_validate(doc)
    except ValidationError as exc:
        raise UserError(describe_validation_error(exc, prefix=f"{p}: ")) from None


def _csv(text: str, p: Path) -> dict:
    try:
        rows = list(csv.reader(io.StringIO(text)))
    except csv.Error as exc:  # e.g. a field longer than the csv module reads
        raise UserError(f"{p}: not a readable CSV file ({exc})") from None
    header = [h.strip().lower() for h in rows[0]] if rows else []
    if header[:2] != ["item", "unit_price"]:
        raise UserError(f"{p}: the first row must be 'item,unit_price,currency' (got {rows[:1]})")
    prices: dict[str, float] = {}
    currencies: set[str] = set()
    for n, row in enumerate(rows[1:], start=2):
        if not row or not any(cell.strip() for cell in row):
            continue
        if len(row) < 3:
            raise UserError(f"{p}: line {n}: needs item, unit_price and currency (got {row})")
        item, price, currency = (cell.strip() for cell in row[:3])
        if item in prices:
            raise UserError(f"{p}: line {n}: '{item}' is priced twice; give each item one price")
        try:
            prices[item] = float(price)
        except ValueError:
            raise UserError(f"{p}: line {n}: unit_price is not a number (got {price!r})") from None
        currencies.add(currency)
    if len(currencies) > 1:
        raise UserError(f"{p}: one currency per price list (got {', '.join(sorted(currencies))})")
    return {"currency": currencies.pop() if currencies else "", "prices": prices}


def check_currency(prices: PriceList, design_currency: str, where: str) -> None:
    if prices.currency != design_currency:
        raise UserError(
            f"{where}: prices are in {prices.currency}, but the design's project.currency is "
            f"{design_currency}"
        )
