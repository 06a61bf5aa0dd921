"""Names the engine writes into the Result and every reader shows: the fabrics and the sharing
modes, RDMA and optimizers. They live beside the model (as the vSphere release names do) so the engine, the wizard
and the report take one wording from one place without the presentation layer importing the
engine."""

from __future__ import annotations

from wizard.model.design import (
    AttentionKernel,
    Fabric,
    Optimizer,
    Rdma,
    SharingMode,
    TrainingStack,
)

FABRIC_LABEL = {
    Fabric.GBE_10: "10 GbE",
    Fabric.GBE_25: "25 GbE",
    Fabric.GBE_40: "40 GbE",
    Fabric.GBE_100: "100 GbE",
    Fabric.GBE_200: "200 GbE",
    Fabric.GBE_400: "400 GbE",
    Fabric.GBE_800: "800 GbE",
    Fabric.IB_HDR: "InfiniBand HDR (200 Gb/s)",
    Fabric.IB_NDR: "InfiniBand NDR (400 Gb/s)",
    Fabric.IB_XDR: "InfiniBand XDR (800 Gb/s)",
}

RDMA_SHORT = {
    Rdma.NONE: "None",
    Rdma.ROCE: "RoCE v2",
    Rdma.INFINIBAND: "InfiniBand",
    Rdma.PVRDMA: "PVRDMA",
}

OPTIMIZER_LABEL = {
    Optimizer.SGD: "SGD",
    Optimizer.SGD_MOMENTUM: "SGD with momentum",
    Optimizer.ADAM: "Adam",
    Optimizer.ADAMW: "AdamW",
    Optimizer.ADAMW_8BIT: "AdamW 8-bit",
}

TRAINING_STACK_LABEL = {
    TrainingStack.MEGATRON: "Megatron-Core",
    TrainingStack.FSDP: "PyTorch FSDP",
    TrainingStack.TORCHTUNE: "torchtune (pure BF16)",
    TrainingStack.HF_PEFT: "Hugging Face Transformers with PEFT",
    TrainingStack.DEEPSPEED: "DeepSpeed ZeRO",
}

ATTENTION_LABEL = {
    AttentionKernel.FUSED: "fused attention (FlashAttention, PyTorch's fused kernels)",
    AttentionKernel.EAGER: "eager attention (score matrices kept)",
}

# The networks of the fabric by the names the engine gives them
NETWORK_LABEL = {
    "compute": "Compute network (GPU fabric)",
    "service": "Service network",
    "oob": "Out-of-band management network",
}

MODE_LABELS = {
    "as-designed": "As designed (each group's mode)",
    SharingMode.PASSTHROUGH.value: "Passthrough (DirectPath I/O)",
    SharingMode.VGPU.value: "Time-sliced vGPU",
    SharingMode.MIG.value: "MIG-backed vGPU",
    SharingMode.MIG_GUEST.value: "MIG in the guest (GPUs passed through, partitioned in the VM)",
    SharingMode.REMOTE.value: "Network-attached GPU pool",
}
