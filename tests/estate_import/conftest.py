from pathlib import Path

import pytest

from wizard.app.catalog_loader import load_catalog

DATA = Path(__file__).resolve().parents[1] / "data" / "estate"


@pytest.fixture(scope="session")
def catalog():
    return load_catalog(include_user=False)
