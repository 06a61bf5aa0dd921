"""The vendor's own words behind each rule of the platform (vSphere, NVIDIA AI Enterprise, vGPU,
MIG): the rule book, the checklist and the deployment steps cite these, and the tests quote them."""

NVSWITCH_PAGE = (
    "NVIDIA AI Enterprise 8.0, 'NVIDIA NVSwitch' (docs.nvidia.com/ai-enterprise/release-8/8.0/"
    "infra-software/vgpu/features/nvswitch.html): 'Only time-sliced vGPUs are supported. "
    "MIG-backed vGPUs are not supported. GPU passthrough is not supported on NVIDIA Systems that "
    "include NVSwitch when using VMware vSphere.'"
)
FM_CRX = (
    "NVIDIA AI Enterprise 8.1, 'Multi-vGPU' (docs.nvidia.com/ai-enterprise/release-8/8.1/"
    "infra-software/vgpu/features/multi-vgpu.html): NVIDIA HGX B300 and HGX B200 list 'Generic "
    "Linux with KVM hypervisors, Red Hat Enterprise Linux KVM, and Ubuntu' only; NVIDIA AI "
    "Enterprise 9.0, 'NVIDIA NVSwitch': HGX B200 and B300 under VMware vSphere need the Fabric "
    "Manager component for ESXi, which 9.0 does not include, so such deployments use NVIDIA AI "
    "Enterprise Infra 8.2"
)
DGX_VGPU = (
    "NVIDIA DGX systems run NVIDIA's DGX software stack (DGX OS or a supported Linux) on the "
    "whole system; NVIDIA AI Enterprise's vGPU supported-hardware lists name NVIDIA-Certified "
    "HGX systems, not DGX systems, as vGPU hosts"
)
ESXI_NVSWITCH = (
    "NVIDIA AI Enterprise, 'NVIDIA NVSwitch': time-sliced multi-vGPU VMs over NVSwitch need VMware "
    "vSphere 8.0 Update 2 or later on HGX H100/H200 (Hopper) and 8.0 Update 1 or later on HGX "
    "A100 (Ampere)"
)
VGPUS_PER_VM = (
    "VMware, 'vSphere 8 Expands Machine Learning Support: Device Groups for NVIDIA GPUs and NICs' "
    "(2022), https://blogs.vmware.com/cloud-foundation/2022/08/16/vsphere-8-expands-machine-"
    "learning-support-device-groups-for-nvidia-gpus-and-nics: 'With vSphere 8, you have the "
    "capability to add up to 8 virtual GPUs (vGPUs) to one VM. You can have even more than that "
    "with Passthrough (DirectPath I/O) mode'"
)
GPUDIRECT_VGPU = (
    "NVIDIA AI Enterprise 6, 'NVIDIA AI Enterprise and NVIDIA vGPU (C-Series)', GPUDirect RDMA "
    "and GPUDirect Storage: 'Linux only.' 'GPUDirect technology is supported on the following "
    "network interface cards: NVIDIA ConnectX- 7 SmartNIC; Mellanox Connect-X 6 SmartNIC; "
    "Mellanox Connect-X 5 Ethernet adapter card', https://docs.nvidia.com/ai-enterprise/"
    "release-6/latest/appendix/vgpu.html"
)
MIG_ON_VSPHERE = (
    "NVIDIA AI Enterprise, 'Configuring a GPU for MIG-Backed vGPUs': 'For VMware vSphere, only "
    "enabling MIG mode is required because VMware vSphere creates the GPU Instances and Compute "
    "Instances' (4.9); 'Creating GPU Instances on a MIG-Enabled GPU - Note: If you are using "
    "VMware vSphere, omit this task. VMware vSphere creates the GPU instances automatically.' "
    "(6.x), https://docs.nvidia.com/ai-enterprise/release-6/latest/appendix/vgpu.html"
)
MIG_REBOOT = (
    "NVIDIA AI Enterprise 6, 'Configuring a GPU for MIG-Backed vGPUs', step 4: 'VMware vSphere "
    "ESXi with GPUs based only on the NVIDIA Ampere architecture: Reboot the hypervisor host. If "
    "you are using a different hypervisor or GPUs based on the NVIDIA Hopper GPU architecture or "
    "a later architecture, omit this step.' Command: 'nvidia-smi -i [gpu-ids] -mig 1'"
)
MIG_PLACEMENT = (
    "F. Denneman (VMware), 'MIG Partitioning, Placement Geometry, and Stranded Capacity' (2026): "
    "'vSphere doesn't use host-level GPU placement policies when GPUs are in MIG mode ... it fills "
    "one GPU before moving to the next, while keeping as many placement options open as possible "
    "for future workloads'; 'existing instances are never rearranged ... the order you start "
    "workloads matters'"
)
VGPU_MODE = (
    "VMware vSphere API, HostGraphicsConfigVgpuMode: 'sameSize: vGPU time-sliced same size. "
    "mixedSize: vGPU time-sliced mixed size. Since: vSphere API Release 8.0.3.0' (the vgpuMode of "
    "each graphics device in HostGraphicsConfig), https://developer.broadcom.com/xapis/virtual-"
    "infrastructure-json-api/latest/data-structures/HostGraphicsConfigVgpuMode_enum ; NVIDIA: 'By "
    "default, a GPU supports only vGPUs with the same amount of frame buffer and, therefore, is in "
    "equal-size mode. To support vGPUs with different amounts of frame buffer, the GPU must be put "
    "into mixed-size mode.'"
)
STUN_LIMIT = (
    "VMware vSphere 8.0 Update 2: a per-VM maximum stun time limit for vMotion of vGPU VMs, "
    "which an administrator sets on the VM"
)
UNIFIED_MEMORY = (
    "NVIDIA AI Enterprise, 'Unified Memory' and 'NVLink Multicast': NVLink multicast needs unified "
    "memory enabled on the vGPU, and vGPU migration is disabled for a VM with unified memory"
)
