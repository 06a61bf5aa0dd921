"""An error is an error everywhere: every error-level rule of the rule book
(wizard.engine.basis.error_rules) makes ``gpuwizard validate`` exit 2 naming the field, and the same
design without the one change that breaks the rule validates. The table below must name every
code the rule book has, so a new error rule cannot go untested."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from wizard.base.bundled import example_text
from wizard.cli import main
from wizard.engine.basis.error_rules import ERROR_RULES

Change = Callable[[dict], None]


def _hw(**values) -> Change:
    return lambda d: d["hardware"].update(values)


def _group(**values) -> Change:
    return lambda d: d["workloads"][0].update(values)


def _both(*changes: Change) -> Change:
    def apply(d: dict) -> None:
        for c in changes:
            c(d)

    return apply


def _b200(server: str) -> Change:
    return _hw(gpu="b200-sxm", server=server, gpus_per_host=8)


def _one_group(group: dict) -> Change:
    return lambda d: d.update(workloads=[group])


_HUGE = {
    "name": "Huge", "kind": "training", "count": 1, "sharing_mode": "passthrough",
    "model": {"custom": {"parameters": 2e12, "layers": 200, "hidden_size": 40960,
                         "heads": 320, "vocab_size": 50000}},
    "parallelism": {"tensor_parallel": 1, "pipeline_parallel": 1, "data_parallel": 1,
                    "zero_stage": 0},
}  # fmt: skip

# code -> (example, the change that breaks the rule, the field the error names)
CASES: dict[str, tuple[str, Change, str]] = {
    "hgx-passthrough-unsupported": (
        "gpt3-175b", _group(sharing_mode="passthrough", precision="bf16"),
        "workloads[0].sharing_mode"),
    "hgx-mig-vgpu-unsupported": (
        "mig-shared", _hw(gpu="h100-sxm5-80gb", server="dell-xe9680", gpus_per_host=8),
        "workloads[0].sharing_mode"),
    "hgx-blackwell-release": (
        "hgx-h200-llm",
        _both(_b200("supermicro-sys-a22ga-nbrt"),
              lambda d: d.setdefault("platform", {}).update(nvaie_release="nvaie-9")),
        "platform.nvaie_release"),
    "hgx-blackwell-multi-vgpu": (
        "hgx-h200-llm",
        _both(_b200("supermicro-sys-a22ga-nbrt"),
              _one_group({"name": "Pairs", "kind": "training", "gpus_per_member": 2,
                          "sharing_mode": "vgpu"})),
        "workloads[0].sharing_mode"),
    "dgx-not-vgpu-host": ("hgx-h200-llm", _b200("nvidia-dgx-b200"), "hardware.server"),
    "vgpus-per-vm-over-limit": (
        "rtx-pro-vsphere",
        _both(_hw(gpu="a16", server="lenovo-sr670-v2", gpus_per_host=16),
              _one_group({"name": "Tens", "kind": "training", "gpus_per_member": 10,
                          "sharing_mode": "vgpu"})),
        "workloads[0].sharing_mode"),
    "nvswitch-vgpu-esxi-minimum": (
        "llm-serving", lambda d: d.setdefault("platform", {}).update(vsphere="8.0"),
        "platform.vsphere"),
    "gpudirect-rdma-vgpu-nic": (
        "llm-serving",
        _both(_hw(nic="bf3-400g-2p", fabric="400gbe", rdma="roce-v2", gpudirect_rdma=True),
              lambda d: d.setdefault("platform", {}).update(nvaie_release="nvaie-6")),
        "hardware.gpudirect_rdma"),
    "mig-two-ways": (
        "mig-shared", lambda d: d["workloads"][2].update(sharing_mode="mig-guest"),
        "workloads[2].sharing_mode"),
    "model-does-not-fit": ("starter", _one_group(_HUGE), "workloads[0].model"),
    "nic-slower-than-fabric": ("enterprise", _hw(nic="cx5-25g-2p", fabric="100gbe"),
                               "hardware.nic"),
    "nic-slots-exceeded": ("enterprise", _hw(nics_per_host=16), "hardware.nics_per_host"),
    "host-power-over-psu": ("enterprise", _hw(server="weak-psu-c4140"),
                            "hardware.gpus_per_host"),
}  # fmt: skip


def _weak_psu_catalog(folder: Path) -> Path:
    """A user catalog with the Dell C4140 of the shipped catalog on one 1,000 W supply."""
    text = (Path(__file__).parents[2] / "catalogs/servers.toml").read_text()
    block = text[text.index('id = "dell-c4140"') :]
    block = block[: block.index("\n[[servers]]")] if "\n[[servers]]" in block else block
    block = block.replace('id = "dell-c4140"', 'id = "weak-psu-c4140"', 1)
    block = re.sub(r"(?m)^psu_count = \d+", "psu_count = 1", block, count=1)
    block = re.sub(r"(?m)^psu_w = [\d.]+", "psu_w = 1000", block, count=1)
    folder.mkdir()
    (folder / "servers.toml").write_text("[[servers]]\n" + block)
    return folder


def test_every_error_rule_has_a_case():
    assert set(CASES) == set(ERROR_RULES)


def _validate(tmp_path: Path, doc: dict, capsys) -> tuple[int, str]:
    path = tmp_path / "d.json"
    path.write_text(json.dumps(doc))
    catalog = tmp_path / "cat"
    if not catalog.exists():
        _weak_psu_catalog(catalog)
    rc = main(["--no-user-catalog", "--catalog-dir", str(catalog), "validate", str(path)])
    return rc, capsys.readouterr().err


@pytest.mark.parametrize("code", sorted(CASES))
def test_validate_refuses_each_error_rule(code, tmp_path, capsys):
    example, change, field = CASES[code]
    doc = json.loads(example_text(example))
    rc, err = _validate(tmp_path, doc, capsys)
    assert rc == 0, f"{example} as shipped must validate: {err}"
    change(doc)
    rc, err = _validate(tmp_path, doc, capsys)
    assert rc == 2, err
    assert f"d.json: {field}: " in err, err
