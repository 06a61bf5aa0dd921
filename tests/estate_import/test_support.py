"""An imported HGX estate that runs MIG-backed vGPU (or gives GPUs whole) on an NVSwitch board is
reported as outside NVIDIA's support, in NVIDIA's words; the same on boards without NVSwitch, or
with time-sliced vGPU, is not."""

import re

import pytest

from wizard.estate_import import read_estate
from wizard.estate_import.support import support_findings

from .conftest import DATA
from .test_inventory_script import _export_csv

# NVIDIA AI Enterprise 8.0, 'NVIDIA NVSwitch' (docs.nvidia.com/ai-enterprise/release-8/8.0/
# infra-software/vgpu/features/nvswitch.html):
NVIDIA_SAYS = (
    "'Only time-sliced vGPUs are supported. MIG-backed vGPUs are not supported. GPU passthrough "
    "is not supported on NVIDIA Systems that include NVSwitch when using VMware vSphere.'"
)


def _estate(tmp_path, catalog, vendor, model, gpus, vm_rows):
    rows = [{"Record": "host", "Cluster": "HGX", "Host": "hgx01", "Vendor": vendor, "Model": model}]
    # PCI ID database names of the A100 SXM4 80GB (10de:20b2): 'GA100 [A100 SXM4 80GB]'.
    rows += [
        {"Record": "gpu", "Cluster": "HGX", "Host": "hgx01", "GpuPciId": f"0000:{i:02x}:00.0",
         "GpuName": "GA100 [A100 SXM4 80GB]", "GpuMemoryMiB": "81920"}
        for i in range(gpus)
    ]  # fmt: skip
    rows += [{"Record": "vm", "Cluster": "HGX", "Host": "hgx01", "VM": f"vm{i}", **r}
             for i, r in enumerate(vm_rows)]  # fmt: skip
    path = tmp_path / "estate.csv"
    path.write_bytes(_export_csv(rows))
    inv = read_estate([path], catalog)
    return support_findings(inv, catalog)


MIG_BACKED = [{"VgpuType": "grid_a100dx-3-40c"}] * 3  # A100DX: the A100 SXM4 80GB's type prefix
TIME_SLICED = [{"VgpuType": "grid_a100dx-40c"}] * 3


def test_mig_backed_vgpu_on_an_hgx_8_gpu_board(tmp_path, catalog):
    # Dell PowerEdge XE9680: an HGX server of eight SXM GPUs (catalogs/servers.toml).
    (line,) = _estate(tmp_path, catalog, "Dell Inc.", "PowerEdge XE9680", 8, MIG_BACKED)
    assert line.startswith(
        "host hgx01: the NVSwitch board of its 8 NVIDIA A100 SXM4 80GB GPUs runs MIG-backed vGPU "
        "(3 in use), which NVIDIA does not support under vSphere"
    )
    assert NVIDIA_SAYS in line


def test_passthrough_on_an_hgx_8_gpu_board(tmp_path, catalog):
    whole = [{"PassthroughDevice": "0000:00:00.0"}, {"PassthroughDevice": "0000:01:00.0"}]
    (line,) = _estate(tmp_path, catalog, "Dell Inc.", "PowerEdge XE9680", 8, whole)
    assert "gives 2 GPUs whole to VMs by passthrough" in line and NVIDIA_SAYS in line


@pytest.mark.parametrize(
    "vendor, model, gpus, vms",
    [
        ("Dell Inc.", "PowerEdge XE9680", 8, TIME_SLICED),  # time-sliced vGPU is supported
        ("Dell Inc.", "PowerEdge XE8545", 4, MIG_BACKED),  # the 4-GPU HGX board has no NVSwitch
        ("Acme", "Unknown 4U", 4, MIG_BACKED),  # four SXM GPUs: no 8-GPU NVSwitch board
    ],
)
def test_not_reported(tmp_path, catalog, vendor, model, gpus, vms):
    assert _estate(tmp_path, catalog, vendor, model, gpus, vms) == []


def test_a_server_not_in_the_catalog_with_eight_sxm_gpus(tmp_path, catalog):
    (line,) = _estate(tmp_path, catalog, "Acme", "Unknown 8U", 8, MIG_BACKED)
    assert "runs MIG-backed vGPU (3 in use)" in line


def test_mig_on_in_a_vgpu_hosts_report(tmp_path, catalog):
    """The real A100 SXM4 report (MIG Enabled, two instances), as a vGPU host would print it
    ('Host VGPU'), eight times over on one host: MIG-backed vGPU on an NVSwitch board."""
    xml = (DATA / "nvidia-smi-a100-sxm4-40gb-mig.xml").read_text()
    xml = xml.replace("<virtualization_mode>Pass-Through<", "<virtualization_mode>Host VGPU<")
    start, end = xml.index("    <gpu id="), xml.index("</gpu>") + len("</gpu>\n")
    gpu = xml[start:end]
    gpus = "".join(re.sub(r"00000000:00:04\.0", f"00000000:{i:02X}:00.0", gpu) for i in range(8))
    path = tmp_path / "hgx02.xml"
    path.write_text(xml[:start] + gpus + xml[end:])
    inv = read_estate([path], catalog)
    inv.gpus = [g.__class__(**{**g.__dict__, "host": "hgx02"}) for g in inv.gpus]
    (line,) = support_findings(inv, catalog)
    assert "8 NVIDIA A100 SXM4 40GB GPUs runs MIG-backed vGPU (8 in use)" in line


def test_the_real_report_of_one_gpu_in_a_guest_is_not_reported(catalog):
    """The same file as written: one A100 given to a VM (Pass-Through), MIG on inside it."""
    inv = read_estate([DATA / "nvidia-smi-a100-sxm4-40gb-mig.xml"], catalog)
    inv.gpus = [g.__class__(**{**g.__dict__, "host": "vm01"}) for g in inv.gpus]
    assert support_findings(inv, catalog) == []
