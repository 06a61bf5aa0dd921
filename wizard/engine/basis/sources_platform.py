"""The vendor's own words behind each rule of the platform (vSphere, NVIDIA AI Enterprise, vGPU,
MIG): the rule book, the checklist and the deployment steps cite these, and the tests quote them."""

NVSWITCH_PAGE = (
    "NVIDIA AI Enterprise 8.0, 'NVIDIA NVSwitch' (docs.nvidia.com/ai-enterprise/release-8/8.0/"
    "infra-software/vgpu/features/nvswitch.html): 'Only time-sliced vGPUs are supported. "
    "MIG-backed vGPUs are not supported. GPU passthrough is not supported on NVIDIA Systems that "
    "include NVSwitch when using VMware vSphere.'"
)
# NVIDIA's sentence that sends HGX B200/B300 under vSphere to Infra 8.2 (and none later)
FM_CRX_9 = (
    "NVIDIA AI Enterprise 9.0, 'NVIDIA NVSwitch' (https://docs.nvidia.com/ai-enterprise/release-9/"
    "latest/infra-software/vgpu/features/nvswitch.html): 'On NVIDIA HGX B200 and B300 with VMware "
    "vSphere, NVSwitch support requires the Fabric Manager CRX (Container Runtime for ESXi) "
    "component. The Fabric Manager CRX component is not included in NVIDIA AI Enterprise Infra "
    "9.0. For NVIDIA AI Enterprise deployments on B200 and B300 HGX with VMware vSphere, use NVIDIA "
    "AI Enterprise Infra 8.2.'"
)
FM_CRX = (
    f"{FM_CRX_9}; NVIDIA AI Enterprise 8.1, 'Multi-vGPU': 'NVIDIA HGX B200 180 GB | "
    "Generic Linux with KVM hypervisors, Red Hat Enterprise Linux KVM, and Ubuntu' (no vSphere "
    "entry, where the RTX PRO 6000 row reads 'Since VMware vSphere 8.0')"
)
DGX_VGPU = (
    "NVIDIA AI Enterprise 2.2 and 2.3 Release Notes (https://docs.nvidia.com/ai-enterprise/2.3/"
    "release-notes/index.html): 'NVIDIA AI Enterprise is supported on NVIDIA DGX servers in "
    "bare-metal deployments with the NVIDIA graphics driver for Linux that is included in the DGX "
    "OS software.' 'Note: NVIDIA vGPU software is not supported on NVIDIA DGX servers.'"
)
ESXI_NVSWITCH = (
    "NVIDIA AI Enterprise 8.0, 'NVIDIA NVSwitch', table 'VMware vSphere Releases that Support "
    "NVIDIA NVSwitch': 'NVIDIA Hopper | VMware vSphere Hypervisor (ESXi) 8 update 2'; 'NVIDIA "
    "Ampere | VMware vSphere Hypervisor (ESXi) 8 update 1' (https://docs.nvidia.com/ai-enterprise/"
    "release-8/8.0/infra-software/vgpu/features/nvswitch.html)"
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
    "VMware vSphere 8.0, vSphere Virtual Machine Administration (https://docs.vmware.com/en/"
    "VMware-vSphere/8.0/vsphere-vm-administration/GUID-02E3B010-476B-4E70-A407-BBE0EA250E29.html):"
    " 'Starting with vSphere 8.0 Update 2, you can set a vMotion stun time limit for vGPU virtual "
    "machines.' 'The limit that you set must be higher than the estimated maximum stun time for "
    "the current device configuration.' (the old 100-second failure was vSphere 6.7 Update 1 and 2"
    " only: 'To avoid the vMotion timeout, upgrade to vSphere 6.7 Update 3 or later.')"
)
UNIFIED_MEMORY = (
    "NVIDIA AI Enterprise 8, 'Unified Virtual Memory (UVM)': 'Enabling UVM disables vGPU "
    "migration for the VM' (https://docs.nvidia.com/ai-enterprise/release-8/latest/infra-software/"
    "vgpu/features/uvm.html); 'NVLink Multicast' (8.0): 'NVLink multicast support requires that "
    "unified memory is enabled.' (https://docs.nvidia.com/ai-enterprise/release-8/8.0/infra-"
    "software/vgpu/features/nvlink-multicast.html)"
)
VCF_MIN_HOSTS = (
    "VMware Cloud Foundation 5.0, 'Prepare ESXi Hosts for VMware Cloud Foundation': 'VI workload "
    "domain, you must prepare a minimum of three ESXi hosts.' 'If you are preparing ESXi hosts for "
    "a vSphere cluster using NFS, VMFS on FC, or vVols as principal storage, and the hosts will be "
    "added to a VI workload domain using vSphere Lifecycle Manager images as the update method, "
    "then only two hosts are required.' (https://docs.vmware.com/en/VMware-Cloud-Foundation/5.0/"
    "vcf-deploy/GUID-AE6C428A-8EEC-46F2-875B-FE57E1F03094.html); VCF 5.1 design guide, vSAN: "
    "'Three nodes minimum'"
)
# VCF 9's own statement of the workload domain minimum was looked for and not found: the VCF 5
# figure is applied to VCF 9 and marked to confirm, not stated as VCF 9's rule.
VCF9_MIN_UNSETTLED = (
    "VMware Cloud Foundation 9's documents were not found to state the minimum; the VCF 5 figure "
    "is applied: confirm it with Broadcom"
)
FABRIC_MANAGER_VSPHERE = (
    "NVIDIA Fabric Manager User Guide: 'guidelines for setting up Fabric Manager, different "
    "virtualization models ... for NVSwitch-based single-node HGX and DGX systems' (Shared "
    "NVSwitch virtualization model), https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-"
    "guide ; F. Denneman (VMware), 'Topology-Aware Multi-GPU VM Placement' (2026): 'For "
    "NVSwitch-based HGX systems, NVIDIA Fabric Manager provides partition discovery and activation "
    "APIs that the hypervisor integrates'"
)
DEVICE_GROUPS = (
    "NVIDIA AI Enterprise 8.0, 'Device Groups': 'GPU-NIC pairs under the same PCIe switch or that "
    "meet GPUDirect RDMA criteria are grouped so storage or network DMA can target GPU memory "
    "without weak pairings' (https://docs.nvidia.com/ai-enterprise/release-8/8.0/infra-software/"
    "vgpu/features/device-groups.html); vSphere API HostPciPassthruConfig.hardwareLabel (since "
    "7.0.2) and VirtualPCIPassthroughDynamicBackingInfo.customLabel: 'If set, the device must "
    "also have the same customLabel attribute set'"
)
NIC_SRIOV = (
    "NVIDIA MLNX_OFED documentation, 'Single Root IO Virtualization (SR-IOV)': 'NVIDIA adapters "
    "are capable of exposing up to 127 virtual instances (Virtual Functions (VFs) for each port "
    "in the NVIDIA ConnectX family cards' (https://docs.nvidia.com/networking/display/"
    "mlnxofedv24100700/Single+Root+IO+Virtualization+(SR-IOV)); vSphere API HostSriovConfig "
    "(sriovEnabled, numVirtualFunction)"
)
VLCM_IMAGE = (
    "VMware vSphere 8.0, vSphere Lifecycle Manager, 'Cluster and Host Compliance': 'A compliant "
    "host becomes non-compliant when you set a new image for the cluster or host or manually add "
    "or remove components on the host. You remediate non-compliant hosts to make them "
    "compliant.' (https://docs.vmware.com/en/VMware-vSphere/8.0/vsphere-lifecycle-manager/GUID-"
    "D4CE90CD-A607-4F35-80A9-47FDA76E0881.html)"
)
MIG_IN_GUEST = (
    "NVIDIA Multi-Instance GPU User Guide, 'Virtualization': 'Under Linux guests on supported "
    "hypervisors, when MIG-supported GPUs are in GPU pass-through, the same workflows, tools, and "
    "Supported MIG Profiles available on bare-metal can be used.' (https://docs.nvidia.com/"
    "datacenter/tesla/mig-user-guide/virtualization.html); NVIDIA GPU Operator, 'GPU Operator "
    "with MIG': 'GPU Operator deploys MIG Manager to manage MIG configuration on nodes in your "
    "Kubernetes cluster.' (https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/"
    "gpu-operator-mig.html)"
)
