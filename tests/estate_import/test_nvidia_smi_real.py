"""Real nvidia-smi reports (tests/data/estate/SOURCES.md); expected values read from the files."""

from wizard.estate_import.nvidia_smi import read_smi_xml, read_vgpu_query

from .conftest import DATA


def _gpus(name, catalog):
    path = DATA / name
    return read_smi_xml(path, path.read_bytes(), catalog)


def test_a100_sxm4_with_mig_on(catalog):
    (gpu,) = _gpus("nvidia-smi-a100-sxm4-40gb-mig.xml", catalog)
    # <product_name>NVIDIA A100-SXM4-40GB</product_name>, <fb_memory_usage><total>40960 MiB,
    # <current_mig>Enabled</current_mig> <pending_mig>Enabled</pending_mig>, two <mig_device>,
    # <driver_version>510.47.03</driver_version>, <virtualization_mode>Pass-Through.
    assert gpu.product_name == "NVIDIA A100-SXM4-40GB"
    assert (gpu.memory_mib, gpu.mig_current, gpu.mig_pending, gpu.mig_instances) == (
        40960, "Enabled", "Enabled", 2
    )  # fmt: skip
    assert (gpu.driver_version, gpu.virtualization_mode) == ("510.47.03", "Pass-Through")
    assert gpu.bus_id == "00000000:00:04.0"  # <pci_bus_id>
    # The catalog's 'NVIDIA A100 SXM4 40GB' has the same words.
    assert (gpu.gpu.catalog_id, gpu.gpu.how) == ("a100-sxm4-40gb", "by name")


def test_gpus_the_catalog_does_not_hold_are_listed_not_guessed(catalog):
    (p100,) = _gpus("nvidia-smi-tesla-p100.xml", catalog)
    (rtx,) = _gpus("nvidia-smi-rtx-4090-driver-535.xml", catalog)
    # <product_name>Tesla P100-PCIE-16GB</product_name>, 16384 MiB, MIG N/A, driver 510.47.03.
    assert (p100.product_name, p100.memory_mib, p100.mig_current) == (
        "Tesla P100-PCIE-16GB", 16384, "N/A"
    )  # fmt: skip
    # <product_name>NVIDIA GeForce RTX 4090</product_name>, 24564 MiB, driver 535.86.05.
    assert (rtx.product_name, rtx.memory_mib, rtx.driver_version) == (
        "NVIDIA GeForce RTX 4090", 24564, "535.86.05"
    )  # fmt: skip
    for g in (p100, rtx):
        assert g.gpu.catalog_id is None
        assert g.gpu.how == "no catalog GPU has this name"


def test_vgpu_query_lists_each_vgpu_with_its_vm_and_type(catalog):
    path = DATA / "nvidia-smi-vgpu-q-rtx-pro-6000.txt"
    vgpus = read_vgpu_query(path, path.read_bytes(), catalog)
    # 'Active vGPUs : 2' on GPU 00000001:C8:00.0; VM Names instance-00000004 and -05, each
    # 'vGPU Name : NVIDIA RTX Pro 6000 Blackwell DC-3Q', 'GPU Instance ID : N/A'.
    assert [(v.gpu_bus_id, v.vm) for v in vgpus] == [
        ("00000001:C8:00.0", "instance-00000004"), ("00000001:C8:00.0", "instance-00000005")
    ]  # fmt: skip
    for v in vgpus:
        assert (v.vgpu.name, v.vgpu.series, v.vgpu.mig_backed) == ("DC-3Q", "Q", False)
        assert v.gpu_instance_id == "N/A"
        # DC- is the type prefix of both RTX PRO Blackwell boards in the catalog; the board
        # words nvidia-smi prints before the type ('RTX Pro 6000 Blackwell') pick one.
        assert v.vgpu.gpus == ("rtx-pro-6000-bse",)


def test_a_vgpu_host_report(catalog):
    """A Tesla M10 host running the NVIDIA vGPU Manager: the driver version is the Manager's."""
    gpus = _gpus("nvidia-smi-tesla-m10-host-vgpu.xml", catalog)
    # <attached_gpus>4</attached_gpus>, each <product_name>Tesla M10</product_name>,
    # <virtualization_mode>Host VGPU</virtualization_mode>, <driver_version>390.94</driver_version>;
    # the first <gpu id="00000000:1A:00.0"> has <fb_memory_usage><total>8191 MiB.
    assert len(gpus) == 4
    assert {(g.product_name, g.virtualization_mode, g.driver_version) for g in gpus} == {
        ("Tesla M10", "Host VGPU", "390.94")
    }
    assert (gpus[0].bus_id, gpus[0].memory_mib) == ("00000000:1A:00.0", 8191)
    # No MIG on a Maxwell board: the report has no <mig_mode> at all.
    assert gpus[0].mig_current == ""
    # The catalog holds no Tesla M10 (a virtual-desktop board): listed, not guessed.
    assert {g.gpu.how for g in gpus} == {"no catalog GPU has this name"}
