"""Sources of the software stack and platform-readiness rules, cited by the software planner
and its checklist."""

SEED_STACK = (
    "vSphere ML Accelerator Spectrum Deep Dive - NVIDIA AI Enterprise Suite (F. Denneman, 2023): "
    "passthrough needs no NVIDIA driver in the VMkernel; vGPU needs the NVD-AIE host VIB from the "
    "'NVIDIA AI Enterprise Software Package for VMware vSphere', not the graphics 'Complete vGPU "
    "Package'; host drivers support guest drivers of the same and the previous branch; GPU and "
    "Network Operators; TKGS helm repo https://helm.ngc.nvidia.com/nvaie, OCP "
    "https://helm.ngc.nvidia.com/nvidia; certified and qualified servers"
)
SETTINGS = (
    "F. Denneman, vSphere ML Accelerator Spectrum Deep Dive - ESXi Host BIOS, VM, and vCenter "
    "Settings (2023), requirements table, https://frankdenneman.nl/2023/05/30/vsphere-ml-"
    "accelerator-spectrum-deep-dive-esxi-host-bios-vm-and-vcenter-settings/"
)
LARGE_BAR = (
    "VMware, How to Enable Nvidia V100 GPU in Passthrough mode on vSphere (2018), https://blogs."
    "vmware.com/apps/2018/10/how-to-enable-nvidia-v100-gpu-in-passthrough-mode-on-vsphere-for-"
    "machine-learning-and-other-hpc-workloads.html: devices mapping more than 16 GB need 'above "
    "4G decoding' in the host BIOS, EFI firmware, pciPassthru.use64bitMMIO and "
    "pciPassthru.64bitMMIOSizeGB (the window's size follows NVIDIA's table, below)"
)
PASSTHROUGH_HOST = (
    "VMware Edge Compute Stack 3.0 reference architecture, PCI passthrough for GPU cards, https://"
    "docs.vmware.com/en/VMware-Edge-Compute-Stack/3.0/ecs-enterprise-edge-ref-arch/"
    "GUID-412AD9B3-6B9B-4BE0-B833-9205ACBCF956.html"
)
VGPU_HOST = (
    "NVIDIA Virtual GPU Software User Guide, Changing the Default Graphics Type in VMware vSphere "
    "(Shared Direct), https://docs.nvidia.com/grid/latest/grid-vgpu-user-guide/index.html"
)
MIG_HOST = (
    "NVIDIA Multi-Instance GPU User Guide, enabling MIG mode, https://docs.nvidia.com/datacenter/"
    "tesla/mig-user-guide/ ; NVIDIA AI Enterprise vGPU for Compute, Host MIG Provisioning"
)
OPERATOR_NVAIE = (
    "NVIDIA GPU Operator, NVIDIA AI Enterprise: virtualization platforms must use the vGPU guest "
    "driver image, licensed through the NVIDIA License System with a client configuration token; "
    "from NVAIE 5.0 installed by a script from NGC, https://docs.nvidia.com/datacenter/cloud-"
    "native/gpu-operator/latest/install-gpu-operator-nvaie.html"
)
OPERATOR_OCP = (
    "NVIDIA GPU Operator on Red Hat OpenShift: install the Node Feature Discovery Operator, then "
    "the NVIDIA GPU Operator, from OperatorHub, https://docs.nvidia.com/datacenter/cloud-native/"
    "openshift/latest/install-nfd.html and install-gpu-ocp.html"
)
OPERATOR_RDMA = (
    "NVIDIA GPU Operator, GPUDirect RDMA and GPUDirect Storage: DMA-BUF or the nvidia-peermem "
    "module, with the NVIDIA Network Operator for the NIC drivers and device plugins; the GDS "
    "driver needs the open GPU kernel modules, https://docs.nvidia.com/datacenter/cloud-native/"
    "gpu-operator/latest/gpu-operator-rdma.html"
)
FABRIC_MANAGER = (
    "NVIDIA AI Enterprise Infra 4.10 documentation: Fabric Manager is updated in lockstep with the "
    "GPU driver for NVSwitch systems, https://docs.nvidia.com/ai-enterprise/release-4/4.10/"
    "index.html"
)
LICENCE_SERVICE = (
    "F. Denneman, vSphere ML Accelerator Spectrum Deep Dive - NVAIE Cloud License Service Setup "
    "(2023), https://frankdenneman.nl/2023/07/05/vsphere-ml-accelerator-spectrum-deep-dive-nvaie-"
    "cloud-license-service-setup/ ; " + OPERATOR_NVAIE
)
PVRDMA = (
    "VMware, Sharing GPUs in Machine Learning Environments, Reference Architecture (2020), "
    "section 4.3.1 PVRDMA in vSphere"
)
BAR_POWER_OF_TWO = (
    "PCI Express Base Specification: a memory BAR's size is a power of two, so a GPU's frame-"
    "buffer BAR is its memory rounded up to the next power of two"
)
MMIO_TABLE = (
    "NVIDIA AI Enterprise 6, 'NVIDIA AI Enterprise and NVIDIA vGPU (C-Series)', 'Using NVIDIA vGPU "
    "(C-Series) on GPUs Requiring 64GB or More of MMIO Space with Large-Memory VMs': 'the VM's MMIO "
    "space must be increased to the amount that the GPU requires' (H200 512GB, H100 256GB, A100 "
    "80GB 256GB, A100 40GB 128GB, L40 128GB, L4, A30, A10 and V100 64GB), https://docs.nvidia.com/"
    "ai-enterprise/release-6/latest/appendix/vgpu.html"
)
MMIO_PER_VM = (
    "pciPassthru.64bitMMIOSizeGB 'specifies the size of the MMIO region for the entire VM', so a VM "
    "of several GPUs needs their sum (two A100 40GB: 256): F. Denneman, vSphere ML Accelerator "
    "Spectrum Deep Dive - ESXi Host BIOS, VM, and vCenter Settings (2023); rounded up to a power of "
    "two like the BARs it holds"
)
NIM_OPERATOR = (
    "NVIDIA AI Enterprise 5.2 Release Notes: 'The NVIDIA NIM Operator is now part of NVIDIA AI "
    "Enterprise. It automates the deployment and management of NVIDIA NIM microservices for "
    "production AI pipelines', https://docs.nvidia.com/ai-enterprise/release-5/5.2/overview/"
    "release-notes.html ; Installing NVIDIA NIM Operator: 'The NIM Operator requires that the GPU "
    "Operator be installed on your cluster', https://docs.nvidia.com/nim-operator/latest/"
    "install.html"
)
RUN_AI = (
    "NVIDIA AI Enterprise lifecycle, Infrastructure Software: 'The NVIDIA Infrastructure releases "
    "include products such as the NVIDIA Container Toolkit, the NVIDIA GPU Operator, the NVIDIA "
    "Network Operator, and NVIDIA Run:ai.', https://docs.nvidia.com/ai-enterprise/lifecycle/"
    "latest/infrastructure-software.html ; NVIDIA Run:ai: 'a Kubernetes-native platform for "
    "efficient GPU resource management and AI workload orchestration', with the GPU Operator a "
    "prerequisite of 'Every installation', https://docs.nvidia.com/run-ai/self-hosted/"
    "documentation/installation-and-configuration/overview.md and install/manual-helm/"
    "prerequisites-and-features.md"
)
SUPERVISOR = (
    "VMware vSphere 8.0, vSphere IaaS control plane Concepts and Planning: 'Once enabled on "
    "vSphere clusters, vSphere IaaS control plane creates a Kubernetes control plane directly in "
    "the hypervisor layer' and 'A vSphere Namespace sets the resource boundaries where vSphere "
    "Pods, VMs, and TKG clusters can run. As a vSphere administrator, you create and configure "
    "vSphere Namespaces through the vSphere Client.', https://docs.vmware.com/en/VMware-vSphere/"
    "8.0/vsphere-with-tanzu-concepts-planning/GUID-C163490C-BE03-4DFE-8A03-5316D3245765.html"
)
VM_CLASS_VGPU = (
    "VMware vSphere 8.0, Create a Custom VM Class with a vGPU Profile (v8 U2 P03 and later): to "
    "use vGPU with the Kubernetes clusters of the Supervisor, define a custom VM class; the vGPU "
    "profile is read from the device rather than configured in the VM class, https://docs."
    "vmware.com/en/VMware-vSphere/8.0/vsphere-with-tanzu-tkg/GUID-F1FDE927-6A7A-4C2F-919A-"
    "AD67FACC592B.html (read in its German and Italian editions)"
)
PAIF_OPERATORS = (
    "VMware Cloud Foundation 5.2, VMware Private AI Foundation with NVIDIA, system architecture: "
    "a Supervisor on one or more vSphere clusters, a Harbor registry for the NVIDIA NGC images in "
    "disconnected sites, and the NVIDIA GPU Operator 'deployed on a TKG cluster', https://docs."
    "vmware.com/en/VMware-Cloud-Foundation/5.2/vmware-private-ai-foundation-nvidia/GUID-89B9B74C-"
    "1E4C-450A-9780-DC740E5480A0.html (read in its French edition)"
)
