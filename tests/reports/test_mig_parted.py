"""The per-host MIG config in nvidia-mig-parted's format (version v1, mig-configs, devices,
mig-enabled, mig-devices: github.com/NVIDIA/mig-parted, examples/config.yaml)."""

import pytest

from reports.exports.mig_parted import mig_parted_yaml
from wizard.base.errors import UserError
from wizard.model.result import GpuAssignment, HostAssignment, Packing, Slot


def _mig(host, gpu, profiles):
    slots = [
        Slot(workload="w", kind="mig", profile=p, start=s, memory_gb=10, compute_share=0.1,
             demand_share=0.1)
        for p, s in profiles
    ]  # fmt: skip
    return GpuAssignment(host=host, gpu=gpu, mode="mig", layout="x", slots=slots,
                         memory_used_gb=10, compute_used=0.1, utilization=0.5)  # fmt: skip


def _whole(host, gpu):
    slot = Slot(workload="t", kind="whole", memory_gb=80, compute_share=1, demand_share=1)
    return GpuAssignment(host=host, gpu=gpu, mode="passthrough", layout="whole GPU",
                         slots=[slot], memory_used_gb=80, compute_used=1, utilization=1)  # fmt: skip


def _result(example_data, packing):
    """A result whose MIG GPUs a Linux host or guest partitions itself: no vSphere steps (on
    vSphere, where vSphere creates the instances, the writer refuses: see the last test)."""
    r = example_data("starter").result
    software = r.software.model_copy(update={"vsphere_steps": None})
    return r.model_copy(update={"packing": packing, "software": software})


def test_hosts_with_mig_get_one_config_each(example_data):
    three = [("3g.40gb", 0), ("2g.20gb", 4), ("1g.10gb", 6)]
    packing = Packing(
        hosts=[
            HostAssignment(host=0, gpus=[_mig(0, 0, three), _mig(0, 1, three), _whole(0, 2)]),
            HostAssignment(host=1, gpus=[_whole(1, 0), _whole(1, 1)]),
            HostAssignment(host=2, gpus=[_mig(2, 0, [("1g.10gb", i) for i in range(7)])]),
        ],
        gpus_used=6,
        hosts_used=3,
        mean_utilization=0.7,
    )
    text = mig_parted_yaml(_result(example_data, packing), "Lab\nCluster")
    body = text.split("version: v1\n", 1)[1]
    assert text.startswith("# MIG partitions per host: Lab Cluster\n")
    assert body == (
        "mig-configs:\n"
        "  all-disabled:\n"
        "    - devices: all\n"
        "      mig-enabled: false\n"
        "\n"
        "  host-1:\n"
        "    - devices: [0, 1]\n"
        "      mig-enabled: true\n"
        "      mig-devices:\n"
        '        "1g.10gb": 1\n'
        '        "2g.20gb": 1\n'
        '        "3g.40gb": 1\n'
        "    - devices: [2]\n"
        "      mig-enabled: false\n"
        "\n"
        "  host-3:\n"
        "    - devices: [0]\n"
        "      mig-enabled: true\n"
        "      mig-devices:\n"
        '        "1g.10gb": 7\n'
    )


def test_no_mig_is_refused_plainly(example_data):
    packing = Packing(hosts=[HostAssignment(host=0, gpus=[_whole(0, 0)])], gpus_used=1,
                      hosts_used=1, mean_utilization=1)  # fmt: skip
    with pytest.raises(UserError, match="no workload group in this design runs on MIG instances"):
        mig_parted_yaml(_result(example_data, packing))


def test_a_vsphere_design_is_refused_with_the_reason(example_data):
    """NVIDIA AI Enterprise, 'Creating GPU Instances on a MIG-Enabled GPU': "If you are using
    VMware vSphere, omit this task. VMware vSphere creates the GPU instances automatically." """
    r = example_data("mig-shared").result
    assert r.software.vsphere_steps is not None
    with pytest.raises(UserError) as info:
        mig_parted_yaml(r)
    (message,) = info.value.problems
    assert "omit this task" in message and "vsphere-steps" in message
