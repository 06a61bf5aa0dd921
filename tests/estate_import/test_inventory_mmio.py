"""The inventory script's CSV, read back, carries the kept VMs' 64-bit MMIO settings into the
plan: a VM below NVIDIA's window for its GPU (256 GB for the A100 80GB, NVIDIA AI Enterprise 6,
'Using NVIDIA vGPU (C-Series) on GPUs Requiring 64GB or More of MMIO Space with Large-Memory
VMs') is work with one power cycle. Beside the script's grammar tests, whose CSV writer it uses."""

from __future__ import annotations

from tests.engine.test_existing_mmio import _mmio, _sample
from wizard.app.io import design_from_dict
from wizard.engine.decide.planning import plan


def test_the_inventory_csv_carries_the_settings_into_the_plan(tmp_path, catalog):
    from tests.estate_import.test_inventory_script import _export_csv
    from wizard.estate_import import read_estate
    from wizard.estate_import.to_design import existing_estate

    rows = [{"Record": "host", "Cluster": "Notebooks", "Host": "esx01", "Vendor": "Dell Inc.",
             "Model": "PowerEdge R750xa"}]  # fmt: skip
    rows += [
        {"Record": "gpu", "Cluster": "Notebooks", "Host": "esx01", "GpuPciId": f"0000:{s:02x}:00.0",
         "GpuName": "GA100 [A100 PCIe 80GB]", "GpuMemoryMiB": "81920"}
        for s in (0x17, 0x31, 0xB1, 0xCA)
    ]  # fmt: skip
    rows += [
        {"Record": "vm", "Cluster": "Notebooks", "Host": "esx01", "VM": "nb-1",
         "VgpuType": "grid_a100d-3-40c", "Use64bitMMIO": "TRUE", "MMIOSizeGB": "128"},
        {"Record": "vm", "Cluster": "Notebooks", "Host": "esx01", "VM": "nb-2",
         "VgpuType": "grid_a100d-3-40c", "Use64bitMMIO": "TRUE", "MMIOSizeGB": "256"},
    ]  # fmt: skip
    path = tmp_path / "estate.csv"
    path.write_bytes(_export_csv(rows))
    estate = existing_estate(read_estate([path], catalog))
    uses = estate.clusters[0].hosts[0].in_use
    assert [(u.vm, u.mmio_64bit, u.mmio_size_gb) for u in uses] == [
        ("nb-1", True, 128), ("nb-2", True, 256)
    ]  # fmt: skip
    d = _sample() | {"existing": estate.model_dump(mode="json")}
    for u in d["existing"]["clusters"][0]["hosts"][0]["in_use"]:
        u["workload"] = "Notebooks"
    d["workloads"][0]["count"] = 2
    (w,) = _mmio(plan(design_from_dict(d), catalog))
    assert w.vms == ["nb-1"] and w.vm_restarts == 1
