"""Where the software list puts NVIDIA Fabric Manager. NVIDIA's Fabric Manager User Guide: the
NVSwitch fabric of an HGX board is configured by Fabric Manager before NVLink traffic flows;
under vGPU it runs on the ESXi host with the host driver, under passthrough in the VM that holds
the board's GPUs. A PCIe server has no NVSwitch, so it needs no Fabric Manager."""

from __future__ import annotations

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine.size import size

FM = "NVIDIA Fabric Manager"


def _fabric_manager(doc: dict, catalog, refused: set[str] = frozenset()) -> list[tuple[str, str]]:
    r = size(design_from_dict(doc), catalog)
    assert {w.code for w in r.warnings if w.severity == "error"} == refused
    return [(c.layer, c.version) for c in r.software.components if c.name.startswith(FM)]


def _all(doc: dict, mode: str) -> dict:
    for w in doc["workloads"]:
        w["sharing_mode"] = mode
        w.pop("constraints", None)
    return doc


def test_vgpu_on_an_hgx_h100_board_runs_fabric_manager_on_the_host(catalog):
    """gpt3-175b: vGPU on the Dell XE9680's HGX H100 board. Hopper is not Blackwell, so Fabric
    Manager ships with the host driver, not as a component of the release (Blackwell's CRX)."""
    assert _fabric_manager(design_dict("gpt3-175b"), catalog) == [
        ("esxi-host", "as the host driver's release")
    ]


def test_passthrough_on_an_hgx_board_runs_fabric_manager_in_the_vm(catalog):
    """The same HGX board in passthrough: the NVSwitches go to the VM with the GPUs, so Fabric
    Manager runs in the guest, at the guest driver's version, and not on the host. vSphere does
    not support passthrough on an NVSwitch board, so the design is sized but refused with an
    error (the sizing still runs so that a bare-metal measurement can be reproduced)."""
    doc = _all(design_dict("gpt3-175b"), "passthrough")
    ((layer, version),) = _fabric_manager(doc, catalog, {"hgx-passthrough-unsupported"})
    assert layer == "vm-guest" and version.startswith("same version as the driver")


def test_a_pcie_server_needs_no_fabric_manager_in_either_mode(catalog):
    """rtx-pro-vsphere: RTX PRO 6000 on a PCIe-switch server, with no NVSwitch: neither its vGPU
    design nor eight GPUs a host in passthrough list Fabric Manager."""
    assert _fabric_manager(design_dict("rtx-pro-vsphere"), catalog) == []
    eight = _all(design_dict("rtx-pro-vsphere"), "passthrough")
    eight["hardware"]["gpus_per_host"] = 8
    assert _fabric_manager(eight, catalog) == []
