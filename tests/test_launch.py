"""What `make run` does before Qt starts: display and library checks, the headless fallback."""

from tests.conftest import run_cli
from wizard import launch
from wizard.base import preflight


def test_display_detection():
    assert not preflight.has_display({})
    assert preflight.has_display({"DISPLAY": ":0"})
    assert preflight.has_display({"WAYLAND_DISPLAY": "wayland-0"})
    assert preflight.has_display({"QT_QPA_PLATFORM": "offscreen"})


def test_missing_libraries_become_one_apt_line():
    missing = preflight.missing_packages(find=lambda name: None if "cursor" in name else "lib.so")
    assert missing == ["libxcb-cursor0"]
    assert preflight.apt_line(missing) == "sudo apt-get install -y libxcb-cursor0"


def test_run_without_display_says_so_and_runs_headless(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(launch, "has_display", lambda: False)
    calls = []
    monkeypatch.setattr(launch, "run_headless", lambda out: calls.append(out) or 0)
    assert launch.main([]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("No display found")
    assert calls


def test_run_with_missing_libraries_prints_the_install_line(monkeypatch, capsys):
    monkeypatch.setattr(launch, "has_display", lambda: True)
    monkeypatch.setattr(launch, "missing_packages", lambda: ["libxcb-cursor0", "libxcb-icccm4"])
    assert launch.main([]) == 1
    assert "sudo apt-get install -y libxcb-cursor0 libxcb-icccm4" in capsys.readouterr().out


def test_headless_job_sizes_the_enterprise_example_and_writes_its_report(tmp_path, capsys):
    code = launch.run_headless(tmp_path)
    assert code == 0
    assert (tmp_path / "enterprise.json").is_file()
    pdf = tmp_path / "enterprise.pdf"
    assert pdf.read_bytes().startswith(b"%PDF-")
    out = capsys.readouterr().out
    assert "GPUs total            32" in out
    assert out.rstrip().splitlines()[-1] == f"PDF report: {pdf}"


def test_gui_entry_without_a_display_says_so(tmp_path):
    import os

    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}  # fmt: skip
    proc = run_cli(env=env, clear=True)
    assert proc.returncode == 1
    assert "No display found" in proc.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    proc = run_cli(str(bad))
    assert proc.returncode == 2 and "not valid JSON" in proc.stderr


def test_offscreen_rendering_needs_no_xcb_libraries():
    assert not preflight.uses_xcb({"QT_QPA_PLATFORM": "offscreen"})
    assert preflight.uses_xcb({"DISPLAY": ":0"})
