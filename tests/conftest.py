import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

# Qt must never try to open a real display in tests.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# The parsed-catalog cache of a test run stays out of the real user cache directory (set here,
# not in a fixture: session fixtures load the catalog before any function fixture runs).
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="gpuwizard-test-cache-")
atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], True)

ROOT = Path(__file__).resolve().parents[1]


def pytest_addoption(parser: pytest.Parser) -> None:
    """The core test run (make test-core) has no pytest-qt; its Qt setting is then declared
    here, so the strict configuration still accepts the one shared pyproject.toml."""
    try:
        import pytestqt  # noqa: F401
    except ImportError:
        parser.addini("qt_log_level_fail", "pytest-qt's setting, unused without Qt")


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path_factory, monkeypatch):
    """Keep tests away from the real user catalog directory and settings."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.delenv("GPUWIZARD_CATALOG_DIR", raising=False)


@pytest.fixture(scope="session")
def catalog():
    from wizard.app.catalog_loader import load_catalog

    return load_catalog(include_user=False)


def acme_with_more_clusters(more: int) -> dict:
    """docs/acme-two-clusters.json (a notebook cluster, an HGX cluster and a management domain)
    with GPU clusters 3, 4, ... added, ``more`` of them, each like its first GPU cluster and
    running a copy of its chat service: an estate as large as a test needs."""
    import copy
    import json

    doc = json.loads((ROOT / "docs" / "acme-two-clusters.json").read_text(encoding="utf-8"))
    base = next(c for c in doc["clusters"] if c["role"] == "gpu-cluster")
    chat = next(w for w in doc["workloads"] if "chat" in w["name"].lower())
    for i in range(3, 3 + more):
        doc["clusters"].append(dict(copy.deepcopy(base), name=f"GPU cluster {i}"))
        doc["workloads"].append(
            dict(copy.deepcopy(chat), name=f"Chat {i}", cluster=f"GPU cluster {i}")
        )
    return doc


def run_cli(*args: str, cwd: Path | None = None, env: dict | None = None, clear: bool = False):
    """Run the CLI in a subprocess, as a user would (``clear``: with exactly ``env``)."""
    import subprocess

    full_env = dict(env or {}) if clear else {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "wizard", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=full_env,
        timeout=120,
    )
