"""User catalogs: a typo is reported with its file, entry and field, never a crash or a hang;
a catalog directory that is missing or holds misnamed files is reported, not ignored."""

from __future__ import annotations

import os

import pytest

from wizard.app.catalog_loader import load_catalog
from wizard.base.errors import CatalogError

SWITCH = """[[switches]]
id = "my-switch"
vendor = "Acme"
model = "One Port"
kind = "ethernet"
ports = {ports}
port_speed_gbps = 100
rack_units = 1
power_w = 300
source = "Acme datasheet"
"""


def _problems(tmp_path, name: str, text: str) -> list[str]:
    (tmp_path / name).write_text(text)
    with pytest.raises(CatalogError) as info:
        load_catalog(tmp_path)
    return info.value.problems


def test_a_one_port_switch_is_refused(tmp_path):
    (line,) = _problems(tmp_path, "switches.toml", SWITCH.format(ports=1))
    assert "my-switch" in line and "ports" in line


def test_an_absurd_gpu_memory_is_refused(tmp_path):
    from wizard.app.catalog_loader import shipped_text as catalog_text  # the shipped file

    text = catalog_text("gpus").replace("memory_gb = 80\n", "memory_gb = 1e308\n", 1)
    problems = _problems(tmp_path, "gpus.toml", text)
    assert any("memory_gb" in p and "1e+308" in p for p in problems), problems


def test_a_model_with_a_quadrillion_layers_is_refused(tmp_path):
    from wizard.app.catalog_loader import shipped_text as catalog_text

    text = catalog_text("models").replace("layers = 32\n", "layers = 1000000000000000\n", 1)
    problems = _problems(tmp_path, "models.toml", text)
    assert any("layers" in p for p in problems), problems


def test_a_missing_catalog_directory_is_named(tmp_path):
    with pytest.raises(CatalogError) as info:
        load_catalog(tmp_path / "nowhere")
    assert "no such catalog directory" in info.value.problems[0]


def test_a_misnamed_catalog_file_is_named(tmp_path):
    (line,) = _problems(tmp_path, "gpu.toml", "")
    assert "gpu.toml" in line and "gpus.toml" in line


def test_a_pipe_in_place_of_a_catalog_file_is_named(tmp_path):
    os.mkfifo(tmp_path / "gpus.toml")
    with pytest.raises(CatalogError) as info:
        load_catalog(tmp_path)
    assert "not a regular file" in info.value.problems[0]


def test_a_named_catalog_folder_is_read_even_with_no_user_catalog(tmp_path):
    """--no-user-catalog leaves out the default folder only; a folder the user names with
    --catalog-dir is read (here: its one-port switch is refused), never silently ignored."""
    from tests.conftest import run_cli

    (tmp_path / "switches.toml").write_text(SWITCH.format(ports=1))
    proc = run_cli("--no-user-catalog", "--catalog-dir", str(tmp_path), "catalog", "switches")
    assert proc.returncode == 2 and "my-switch" in proc.stderr, proc.stderr


def test_no_user_catalog_leaves_out_the_environment_folder(tmp_path):
    """The negative case of the rule above: GPUWIZARD_CATALOG_DIR is the default folder, so
    --no-user-catalog leaves it out (exit 0); without the flag its broken switch is refused."""
    from tests.conftest import run_cli

    (tmp_path / "switches.toml").write_text(SWITCH.format(ports=1))
    env = {"GPUWIZARD_CATALOG_DIR": str(tmp_path)}
    assert run_cli("--no-user-catalog", "catalog", "switches", env=env).returncode == 0
    proc = run_cli("catalog", "switches", env=env)
    assert proc.returncode == 2 and "my-switch" in proc.stderr, proc.stderr
