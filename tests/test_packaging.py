"""A non-editable install works from any directory: data files ship inside the wheel."""

import fcntl
import os
import subprocess
import sys
import zipfile

import pytest

from tests.conftest import ROOT
from wizard.model.catalog import CATALOG_KINDS


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """One wheel per test session. Under pytest-xdist each worker runs this module fixture, and
    two builds of the same tree at once collide in its build directory, so the workers share
    the session's directory and build under a lock: the first builds, the others reuse it."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    out = shared / "wheel"
    with open(shared / "wheel.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not list(out.glob("gpuwizard-*.whl")):
            out.mkdir(exist_ok=True)
            proc = subprocess.run(
                [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                 "-w", str(out), str(ROOT)],
                capture_output=True, text=True, timeout=300,
            )  # fmt: skip
            assert proc.returncode == 0, proc.stdout + proc.stderr
    (path,) = out.glob("gpuwizard-*.whl")
    return path


def test_wheel_carries_catalogs_examples_and_resources(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for kind in CATALOG_KINDS:
        assert f"wizard/catalogs/{kind}.toml" in names
    shipped = sorted(p.name for p in (ROOT / "resources" / "examples").glob("*.json"))
    assert shipped, "no example designs"
    for name in shipped:
        assert f"wizard/resources/examples/{name}" in names
    assert "wizard/cli/__init__.py" in names and "wizard/cli/design_commands.py" in names
    icons = sorted(p.name for p in (ROOT / "resources" / "icons").glob("*.svg"))
    assert "app.svg" in icons
    for name in icons:
        assert f"wizard/resources/icons/{name}" in names
    for font in (
        "DejaVuSans.ttf",
        "DejaVuSans-Bold.ttf",
        "LICENSE-DejaVu.txt",
        "DroidSansFallback.ttf",
        "LICENSE-DroidSansFallback.txt",
    ):
        assert f"wizard/resources/fonts/{font}" in names
    assert not any(n.startswith("tests/") for n in names)


def test_installed_wheel_runs_from_another_directory(wheel, tmp_path):
    target = tmp_path / "site"
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--target", str(target), str(wheel)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    code = (
        "import wizard, wizard.catalogs, sys; "
        f"assert wizard.__file__.startswith({str(target)!r}), wizard.__file__; "
        "from wizard.cli import main; sys.exit(main(['example', '--list']) or "
        "main(['--no-user-catalog', 'catalog', 'gpus']))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=elsewhere, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "enterprise" in proc.stdout and "h100-sxm5-80gb" in proc.stdout


def test_every_package_of_the_checkout_is_installed():
    """The packages are listed in pyproject.toml (the catalogs and resources map from the top
    level into `wizard`): a new subpackage left out of the list would be missing from the wheel."""
    import tomllib

    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    on_disk = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for top in ("wizard", "reports")
        for p in (ROOT / top).rglob("__init__.py")
    } | {"wizard.catalogs", "wizard.resources"}
    # the resources' folders are data packages of their own (examples, fonts, icons)
    on_disk |= {
        f"wizard.resources.{d.name}"
        for d in (ROOT / "resources").iterdir()
        if d.is_dir() and d.name != "__pycache__"
    }
    assert listed == on_disk
    assert (ROOT / "catalogs" / "__init__.py").is_file() and (ROOT / "resources").is_dir()
    assert (
        not (ROOT / "wizard" / "catalogs").exists() and not (ROOT / "wizard" / "resources").exists()
    )


def test_the_data_packages_import_nothing():
    """The bottom of the layering: the catalogs and resources packages are data only."""
    import ast

    for init in (ROOT / "catalogs" / "__init__.py", ROOT / "resources" / "__init__.py"):
        tree = ast.parse(init.read_text())
        assert not [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)], init
