"""A folder of received files is not code: ``python -m wizard`` run inside one does not import
a module from it (reportlab looks for ``reportlab_mods`` on the import path and runs it)."""

from tests.conftest import run_cli


def test_a_module_in_the_working_folder_is_not_run(tmp_path):
    marker = tmp_path / "ran"
    (tmp_path / "reportlab_mods.py").write_text(f"open({str(marker)!r}, 'w').write('x')\n")
    assert run_cli("example", "starter", "-o", "d.json", cwd=tmp_path).returncode == 0
    proc = run_cli("report", "d.json", "-o", "p.pdf", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "p.pdf").exists() and not marker.exists()


def test_the_project_checkout_stays_importable():
    """The negative case: from the project's own folder the package still runs."""
    from wizard.base.import_path import PROJECT

    proc = run_cli("--version", cwd=PROJECT)
    assert proc.returncode == 0 and proc.stdout.strip()
