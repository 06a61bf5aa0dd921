"""The layering in ARCHITECTURE.md: gui -> reports -> engine -> model -> catalogs data.

Nothing but wizard/gui imports PySide6; nothing but reports imports reportlab; the engine and the
model import neither, nor anything above them.
"""

import ast
from pathlib import Path

from tests.conftest import ROOT


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def _sources(*dirs: str) -> list[Path]:
    return [p for d in dirs for p in (ROOT / d).rglob("*.py")]


def _offenders(files: list[Path], forbidden: tuple[str, ...]) -> list[str]:
    bad = []
    for path in files:
        for name in _imports(path):
            if name.split(".")[0] in forbidden or name.startswith(forbidden):
                bad.append(f"{path.relative_to(ROOT)} imports {name}")
    return bad


def test_only_gui_imports_qt():
    files = [p for p in _sources("wizard", "reports") if "gui" not in p.parts]
    assert _offenders(files, ("PySide6", "shiboken6")) == []


def test_only_reports_imports_reportlab():
    files = _sources("wizard")
    assert _offenders(files, ("reportlab",)) == []


def test_engine_and_model_import_nothing_above_them():
    files = _sources("wizard/engine", "wizard/model")
    assert _offenders(files, ("wizard.gui", "reports", "wizard.cli", "wizard.app.io")) == []


def test_model_does_not_import_engine():
    assert _offenders(_sources("wizard/model"), ("wizard.engine",)) == []


def test_engine_does_no_file_io():
    """The engine is pure: no open(), no pathlib, no importlib.resources."""
    bad = []
    for path in _sources("wizard/engine"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "open":
                bad.append(f"{path.name} calls open()")
        bad += [
            f"{path.name} imports {n}"
            for n in _imports(path)
            if n in {"pathlib", "importlib.resources", "os"}
        ]
    assert bad == []


def _contracts() -> list[dict]:
    import tomllib

    doc = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return doc["tool"]["importlinter"]["contracts"]


def test_import_linter_contracts_hold():
    """Direct and indirect imports against the contracts in pyproject.toml (import-linter):
    a chain such as cli -> reports -> gui, which the direct check above cannot see, fails here."""
    import shutil
    import subprocess

    exe = shutil.which("lint-imports", path=str(ROOT / ".venv" / "bin")) or shutil.which(
        "lint-imports"
    )
    assert exe, "import-linter is a test dependency (pip install -e '.[test]')"
    proc = subprocess.run([exe], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_every_top_level_module_has_a_layer():
    """A new module under wizard/ must be placed in the layers contract, or nothing checks it."""
    (layers,) = [
        c["layers"] for c in _contracts() if c["type"] == "layers" and "containers" not in c
    ]
    placed = {m.strip() for layer in layers for m in layer.split("|")}
    modules = {
        f"wizard.{p.stem}" if p.is_file() else f"wizard.{p.name}"
        for p in (ROOT / "wizard").iterdir()
        if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").exists()
    }
    assert modules - placed == set()
