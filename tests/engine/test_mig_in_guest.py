"""MIG inside a passthrough VM: the GPUs go whole to a Linux VM (a Kubernetes worker) that cuts
them into MIG instances itself. NVIDIA Multi-Instance GPU User Guide, 'Virtualization': 'Under
Linux guests on supported hypervisors, when MIG-supported GPUs are in GPU pass-through, the same
workflows, tools, and Supported MIG Profiles available on bare-metal can be used.' The sizing
packs as MIG-backed vGPU does; the deployment is passthrough, and the MIG configuration file is
written for the VMs."""

from __future__ import annotations

import pytest

from reports.exports.mig_parted import mig_parted_yaml
from reports.exports.powercli import powercli_script
from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine.size import size


def _guest(name: str = "mig-shared", kubernetes: str = "upstream") -> dict:
    doc = design_dict(name)
    for w in doc["workloads"]:
        if w.get("sharing_mode") == "mig":
            w["sharing_mode"] = "mig-guest"
    doc.setdefault("platform", {})["kubernetes"] = kubernetes
    return doc


def _errors(r) -> dict[str, tuple[str, str]]:
    return {w.code: (w.field, w.message) for w in r.warnings if w.severity == "error"}


def test_the_same_instances_as_mig_backed_vgpu_without_vgpu(catalog):
    """mig-shared's three MIG groups partitioned in the guest take the same instances as under
    vSphere (the packing is the same), but no group has a vGPU type, the hosts need no vGPU
    driver, graphics type or MIG-mode step, and the VMs are given whole GPUs."""
    vsphere = size(design_from_dict(design_dict("mig-shared")), catalog)
    guest = size(design_from_dict(_guest()), catalog)
    assert not _errors(guest)
    assert [w.sharing.slot_profile for w in guest.workloads] == [
        w.sharing.slot_profile for w in vsphere.workloads
    ]
    assert all(w.sharing.vgpu_type is None for w in guest.workloads)
    steps = guest.software.vsphere_steps
    actions = {h.action for h in steps.hosts}
    assert not actions & {"driver", "graphics", "mig-mode", "vgpu-mode"}
    # one VM per host that holds instances, given every GPU with an instance on that host
    held = [
        sum(1 for g in h.gpus if g.mode == "mig-guest") for h in guest.packing.hosts
    ]  # fmt: skip
    shapes = sorted((len(v.gpu_devices), v.vms) for v in steps.vms)
    assert shapes == sorted((n, held.count(n)) for n in set(held) if n)
    assert all(set(v.gpu_devices) == {"passthrough"} for v in steps.vms)
    names = {c.name for c in guest.software.components}
    assert "NVIDIA Data Center GPU driver" in names
    assert "MIG Manager (part of the GPU Operator)" in names
    assert not any("host driver for ESXi" in c.name for c in guest.software.components)


def test_mig_config_writes_the_file_for_the_vms(catalog):
    """The refusal that holds for MIG-backed vGPU ('VMware vSphere creates the GPU instances
    automatically') does not hold here: the file is written, says how the VM applies it (the
    MIG Manager's node label, or nvidia-mig-parted), and numbers each VM's GPUs from 0."""
    r = size(design_from_dict(_guest()), catalog)
    text = mig_parted_yaml(r)
    assert "label the node nvidia.com/mig.config=host-N" in text
    assert "nvidia-mig-parted apply -f THIS_FILE -c host-N" in text
    assert "version: v1" in text and "  host-1:" in text
    for block in text.split("  host-")[1:]:
        first = block.split("devices: [", 1)[1].split("]", 1)[0]
        assert first.split(",")[0].strip() == "0"


def test_the_script_passes_the_gpus_through(catalog):
    """The vSphere steps give the VMs their GPUs by Dynamic DirectPath I/O (passthrough on every
    GPU with an instance) and set no MIG mode on ESXi."""
    r = size(design_from_dict(_guest()), catalog)
    text = powercli_script(r, catalog=catalog)
    (host,) = [ln for ln in text.splitlines() if ln.strip().startswith("Set-GpuHost -VMHost")]
    assert "-MigTypes @()" in host and "-Graphics $false" in host
    most = max(sum(1 for g in h.gpus if g.mode == "mig-guest") for h in r.packing.hosts)
    assert f"-Passthrough {most} " in host


def test_an_nvswitch_board_refuses_it_as_passthrough(catalog):
    """NVIDIA AI Enterprise, 'NVIDIA NVSwitch': on an HGX board vSphere supports time-sliced vGPU
    only, so GPUs passed through to a VM that partitions them are refused there like any
    passthrough; the same groups on H100 PCIe (mig-shared's server) are not."""
    doc = _guest("hgx-h200-llm", "vks")
    doc["workloads"][1]["sharing_mode"] = "mig-guest"
    field, message = _errors(size(design_from_dict(doc), catalog))["hgx-passthrough-unsupported"]
    assert field == "workloads[1].sharing_mode" and "time-sliced vGPU only" in message
    assert "hgx-passthrough-unsupported" not in _errors(size(design_from_dict(_guest()), catalog))


def test_one_way_of_mig_per_design(catalog):
    """A GPU is partitioned either by ESXi's driver (MIG-backed vGPU) or by the guest's: a design
    with groups of both is an error at the first guest group; all one way is not."""
    doc = design_dict("mig-shared")
    doc["workloads"][2]["sharing_mode"] = "mig-guest"
    field, message = _errors(size(design_from_dict(doc), catalog))["mig-two-ways"]
    assert field == "workloads[2].sharing_mode" and "GPU pass-through" in message
    assert "mig-two-ways" not in _errors(size(design_from_dict(_guest()), catalog))


def test_a_replica_over_several_gpus_is_refused(catalog):
    """MIG instances have no peer-to-peer transfers between GPUs, in a guest as on bare metal."""
    doc = _guest()
    w = doc["workloads"][0]
    w["gpus_per_member"] = 2
    from wizard.base.errors import DesignError

    with pytest.raises(DesignError, match="MIG instances have no peer-to-peer transfers"):
        size(design_from_dict(doc), catalog)


def test_a_group_that_must_live_migrate_cannot_use_it():
    """The VM holds its GPUs by passthrough, which cannot vMotion."""
    doc = _guest()
    doc["workloads"][0].setdefault("constraints", {})["live_migration_required"] = True
    with pytest.raises(Exception, match="gives the VM whole GPUs by passthrough"):
        design_from_dict(doc)


def test_mig_parted_is_listed_only_where_no_gpu_operator_applies_the_configuration(catalog):
    """Without Kubernetes nothing in the VMs applies the MIG configuration, so the MIG Partition
    Editor is listed for the VMs; under Kubernetes the GPU Operator's MIG Manager does it. A design
    whose groups keep MIG-backed vGPU (MIG under vSphere) needs neither in its guests."""
    editor = "NVIDIA MIG Partition Editor (nvidia-mig-parted)"

    def names(doc: dict) -> set[str]:
        return {c.name for c in size(design_from_dict(doc), catalog).software.components}

    assert editor in names(_guest(kubernetes="none"))
    assert editor not in names(_guest(kubernetes="upstream"))
    vsphere_mig = design_dict("mig-shared")
    vsphere_mig.setdefault("platform", {})["kubernetes"] = "none"
    assert editor not in names(vsphere_mig)
