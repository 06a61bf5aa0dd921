"""What to do about each risk the sizing raises: the mitigation column of the proposal's risk
register (severity, risk, mitigation), keyed by the warning's code. The warning says what is at
stake in this design; the mitigation says which change or check removes or contains it."""

from __future__ import annotations

import re

MITIGATIONS: dict[str, str] = {
    # capacity and high availability
    "capacity-below-demand-after-failure": "Add a host per failure to survive (N+1 or more) on "
    "the HA policy page, or accept that workloads on a failed host wait for its repair.",
    "failure-during-maintenance": "Add a maintenance host, or schedule maintenance in windows "
    "when part of the demand can stop.",
    "passthrough-no-restart-spares": "Keep spare GPUs for passthrough VMs on the HA policy page, "
    "or run these groups on vGPU so vSphere HA can restart them elsewhere.",
    "rack-domain-smaller-than-planned": "Lower Hosts per rack on the HA policy page to what a "
    "rack holds, or raise the rack power limit.",
    "rack-domain-unsized": "Set Hosts per rack on the HA policy page, so the reserve covers a "
    "whole rack.",
    "rack-failure-exceeds-ha": "Spread the hosts over more racks, or raise the failures to "
    "survive to a rack's worth of hosts.",
    "cluster-without-workloads": "Assign a workload group to the cluster, or remove it.",
    "no-management-domain": "Add a management cluster of at least four hosts, or state that an "
    "existing VMware Cloud Foundation management domain is used.",
    # power, cooling, racks
    "host-power-over-psu": "Choose a server or power supply rated for the host's draw, or fewer "
    "or lower-power GPUs per host.",
    "host-power-over-psu-redundancy": "Order the higher-rated power supplies the vendor offers "
    "for this GPU configuration, or cap the GPUs' power.",
    "rack-power-over-limit": "Confirm the rack power and cooling with the facility, or plan "
    "fewer hosts per rack (more racks) or liquid-cooled racks.",
    "liquid-cooled-hosts": "Confirm facility water, coolant distribution units and the "
    "rack power with the facility before ordering.",
    "cdu-over-capacity": "Plan fewer hosts per rack, a larger coolant distribution unit or "
    "in-row units sized with the facility.",
    "no-cdu-in-catalog": "Add the coolant distribution unit the facility uses to the catalog, or "
    "size the CDUs with the facility.",
    "storage-power-unknown": "Ask the storage vendor for the per-node power and add it before "
    "quoting power and cooling.",
    "storage-not-racked": "Plan the storage rows and their power with the storage vendor.",
    # network
    "nic-below-storage-need": "Add NICs or dedicated storage NICs per host, or choose a faster "
    "fabric.",
    "nic-slower-than-fabric": "Choose a NIC whose ports run at the fabric's speed.",
    "nic-slots-exceeded": "Fewer NICs per host, dual-port NICs, or a server with more slots.",
    "no-switch-for-speed": "Choose the switches with the network vendor and add them to the bill "
    "of materials.",
    "fabric-exceeds-two-tiers": "Plan a three-tier fabric or larger spine switches with the "
    "network vendor; the counts shown are a lower bound.",
    "fabric-oversubscribed-training": "Build the GPU fabric non-blocking (1:1) for training that "
    "spans hosts.",
    "remote-network-bandwidth": "Add NICs to the GPU pool hosts or choose a faster fabric.",
    "remote-without-rdma": "Use RDMA-capable adapters (RoCE v2 or InfiniBand) between the GPU "
    "pool and its clients.",
    "gpudirect-rdma-no-local-nic": "Place a NIC under each GPU's PCIe switch, or choose a server "
    "whose board pairs every GPU with a NIC.",
    "gpudirect-rdma-unavailable": "Choose a server with PCIe switch boards that pair GPUs with "
    "NICs, or keep training within one host.",
    "gpudirect-storage-unavailable": "Accept reads through host memory, or meet the conditions "
    "listed (RDMA fabric, supported GPU and sharing mode).",
    # storage
    "storage-not-chosen": "Choose a storage system on the Hardware page, or state the existing "
    "storage the design will use.",
    "storage-below-minimum-nodes": "Order at least the storage system's minimum number of nodes.",
    "storage-capacity-below-need": "Add storage nodes to the number the warning gives.",
    "storage-throughput-below-need": "Add storage nodes to the number the warning gives, or a "
    "faster storage system.",
    "storage-need-not-modelled": "Give the read throughput per GPU of these groups on the "
    "Hardware page.",
    "storage-dataset-not-known": "Give these groups' dataset in samples or tokens, or the "
    "Dataset size on the Hardware page.",
    "storage-kept-not-known": "Size these groups from the answers (Sizing, on the Workloads "
    "page) with their model named, or add what they keep to the Dataset size on the Hardware "
    "page.",
    # GPUs, servers, platform
    "bitfusion-end-of-availability": "Give the pooled users vGPU or MIG on a GPU cluster; keep a "
    "network-attached pool only for an existing, supported Bitfusion estate.",
    "gpu-not-nvaie-supported": "Choose a GPU that NVIDIA AI Enterprise supports, or plan without "
    "vGPU and NVIDIA enterprise support.",
    "server-not-certified": "Choose an NVIDIA-Certified System, or obtain the vendor's "
    "qualification for this GPU configuration.",
    "server-qualified-not-certified": "Confirm with the vendor that NVIDIA AI Enterprise support "
    "covers this qualified configuration.",
    "server-certification-unknown": "Check the NVIDIA-Certified Systems list before proposing the "
    "server.",
    "mmio-setting-needed": "Apply the host BIOS and VM settings listed in the platform "
    "checklist before the GPUs are assigned.",
    "no-service-adapter": "Add an Ethernet adapter of the service network's speed to the NIC "
    "catalog (or the server's onboard ports to its entry), or choose a service speed the "
    "catalog has a card for.",
    "nvlink-bridge-2u": "Confirm with the server vendor that the bridged GPU pairs fit its "
    "risers, or choose a larger server.",
    "licence-cores-assumed": "State the processor ordered, so the licences are counted from its "
    "cores.",
    "hgx-passthrough-unsupported": "Give these VMs time-sliced full-frame-buffer vGPUs.",
    "hgx-mig-vgpu-unsupported": "Use time-sliced vGPU on the HGX board, or a PCIe-GPU cluster "
    "for MIG.",
    "hgx-vm-size": "Size the VMs at 1, 2, 4 or 8 GPUs.",
    "nvswitch-partition-rounded": "None needed: the extra GPUs shorten the run; a shorter "
    "target time uses them fully.",
    "vgpu-mixed-sizes-unsupported": "Turn off mixed vGPU sizes on the Hardware page, or choose a "
    "GPU that supports them.",
    "vgpu-no-peer-to-peer": "Give each replica full-frame-buffer vGPUs on GPUs joined by "
    "NVLink, or run it on one GPU.",
    "idle-vms-hold-their-vgpu": "Power off idle users' VMs (for example a desktop pool that "
    "powers VMs off on log-off), or plan for every user active at once.",
    "vmotion-large-vgpu": "Use a faster vMotion network, set the VMs' stun time limit above the "
    "estimate, or plan maintenance with these VMs restarted elsewhere instead of migrated.",
    "vmotion-unified-memory": "Keep unified memory off on VMs that must live-migrate, or accept "
    "that VMs using NVLink multicast are restarted, not migrated, during maintenance.",
    "dgx-not-vgpu-host": "Choose an NVIDIA-Certified HGX server for vGPU, or run the DGX system "
    "outside vSphere.",
    "hgx-blackwell-release": "Plan NVIDIA AI Enterprise Infra 8.2 with the Fabric Manager "
    "component for ESXi on the HGX B200/B300 hosts.",
    "hgx-blackwell-multi-vgpu": "Give these VMs one GPU or the whole board.",
    "vgpus-per-vm-over-limit": "Plan at most eight vGPUs per VM, or give the VM whole GPUs by "
    "passthrough.",
    "nvswitch-vgpu-esxi-minimum": "Run the GPU hosts on vSphere 8.0 Update 2 or later.",
    "nvswitch-vgpu-esxi-minimum-ampere": "Run the GPU hosts on vSphere 8.0 Update 1 or later.",
    "gpudirect-rdma-vgpu-nic": "Choose a NIC NVIDIA lists for GPUDirect RDMA with vGPU, or plan "
    "without GPUDirect RDMA.",
    "release-support-ended": "Choose an NVIDIA AI Enterprise release whose branch is still "
    "supported.",
    "release-support-ends-in-service": "Plan the upgrade to the next long-term support branch "
    "before the current one ends.",
    # an expansion of an existing estate
    "existing-outside-support": "Move the cluster to time-sliced vGPU (the mode NVIDIA supports on "
    "the board under vSphere) before new work is planned on it, or leave it out of the expansion.",
    "existing-cluster-kept-as-is": "Import the cluster's hosts with their server and GPU mapped to "
    "the catalog, all alike, if new work should be placed on it.",
    "existing-workload-unknown": "Name the vGPUs in use as a workload group of the design, or "
    "confirm that the capacity they hold stays taken.",
    "existing-cluster-grows": "Confirm with the estate's owner the switch ports and rack room "
    "the added hosts take; where they join the design's new switches, uplink those to the "
    "network the kept hosts are on.",
    "mig-two-ways": "Run every MIG group one way: all as MIG-backed vGPU, or all in the guest; "
    "or put the two kinds in clusters of their own.",
    "release-support-window": "Have the customer accept the support gap in writing, or choose "
    "a GPU that a long-term support branch runs under vSphere for the whole service period.",
    "mig-power-on-order": "Power on the VMs with the larger MIG instances first, or keep one GPU "
    "spare as margin.",
    # workloads and performance
    "model-does-not-fit": "Use a GPU with more memory, lower precision, or the memory savings "
    "the warning lists.",
    "calibration-at-bound": "Check the measured runs' setup (GPU, layout, precision, load) "
    "against the design, then calibrate again; until then treat the group's figures as unsure.",
    "replica-spans-gpus": "No action needed if the GPUs per replica are planned; a GPU with more "
    "memory serves the model on fewer GPUs.",
    "replica-spans-hosts": "Choose a server with more GPUs per host, or a smaller or quantised "
    "model, so a replica stays in one host.",
    "shared-need-exceeds-gpu": "Give these users whole GPUs, or a GPU with more memory.",
    "serving-target-missed": "Apply one of the changes the warning lists, then check the target "
    "again.",
    "serving-kv-cache-full": "Plan fewer requests in flight per replica, or more memory per "
    "replica (larger GPU, more GPUs per replica, FP8 KV cache).",
    "serving-pipeline": "Choose a server whose GPUs hold the model in one host, or a quantised "
    "model.",
    "serving-fp4-throughput-optimistic": "Plan replicas for the throughput divided by that "
    "margin, or size the group in FP8, whose figures match the published measurements; the "
    "customer's own benchmark results, calibrated into the plan, replace the assumption.",
    "communication-bound": "Use a faster fabric, NVLink or NVSwitch servers, or RDMA.",
    "ring-bottleneck-pcie": "Choose a server whose GPUs are joined by NVLink, or place them "
    "under one PCIe switch.",
    "target-time-missed": "Add GPUs per job, or relax the target.",
    "optimizer-in-backward-accumulates": "Make the global batch the micro-batch times the data "
    "parallelism, without pipeline stages, or plan the memory with every gradient kept.",
    "training-size-unknown": "Give the dataset size or iterations per epoch of the group.",
    "throughput-not-modelled": "Give a measured throughput for the model, or size from a "
    "benchmark on the proposed GPU.",
    "demand-from-people": "Confirm the share of people active in the busiest hour and their "
    "requests an hour from the service's logs or a pilot; the plan scales with both.",
    "service-members-not-multiplied": "Say how many use the service under People who use it "
    "(or give its requests in flight); for a second, separate copy of the service add a group.",
    "people-beyond-any-employer": "Confirm the number of people with the customer: the users of "
    "an internal service are at most its staff.",
    "replicas-beyond-load": "Leave the replicas to the sizing, or give the throughput target "
    "the replicas are meant to carry.",
    "global-batch-uneven": "Make the global batch a multiple of the micro-batch times the "
    "data-parallel copies, or state the data-parallel copies it divides over.",
}

_SERVING_TARGET = re.compile(r"^serving-[a-z0-9_]+-target-missed$")


def mitigation(code: str) -> str:
    """The mitigation for a warning of ``code``; every code the engine raises has one (a test
    reads the engine's sources for them)."""
    if _SERVING_TARGET.match(code):
        code = "serving-target-missed"
    return MITIGATIONS[code]
