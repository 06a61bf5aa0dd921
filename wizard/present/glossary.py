"""The explanations of the terms a design uses, written once: the wizard shows them as tooltips
(the person answering is often an infrastructure expert learning this vocabulary) and the
proposal lists the named ones in its glossary."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    text: str  # one or two sentences
    name: str | None = None  # the proposal's glossary lists the term under this name


GLOSSARY: dict[str, Term] = {
    "kind": Term(
        "What the group does: trains a model from scratch, fine-tunes an existing one, serves one "
        "(inference), develops in notebooks, or runs other CUDA/HPC jobs.",
    ),
    "count": Term(
        "How many jobs, services or users of this kind run at the same time.",
    ),
    "model": Term(
        "The neural network being trained or served; its size (parameters) drives GPU memory.",
    ),
    "preset": Term(
        "A published model whose shape (layers, hidden size, heads) comes from the catalog with "
        "its source.",
    ),
    "parameters": Term(
        "The model's learned numbers (weights); 7 B means seven billion of them.",
    ),
    "layers": Term(
        "How many transformer blocks are stacked; activation memory grows with it.",
    ),
    "hidden_size": Term(
        "The width of each layer (the length of the vector that represents one token).",
    ),
    "heads": Term(
        "Attention heads per layer: parallel attention computations that split the hidden size.",
    ),
    "kv_heads": Term(
        "Heads that keep their own keys and values (fewer than heads with grouped-query "
        "attention); they set the KV cache size.",
    ),
    "vocab_size": Term(
        "How many distinct tokens the model knows; it sizes the embedding tables.",
    ),
    "precision": Term(
        "The number format of the maths: FP32 is 4 bytes per value, BF16/FP16 2, FP8 and INT8 1, "
        "INT4 half a byte, FP4 (NVFP4, Blackwell) 4.5 bits with its block scales; smaller is "
        "faster and lighter but less exact.",
    ),
    "optimizer": Term(
        "The algorithm that updates the weights; Adam keeps two extra numbers per parameter, SGD "
        "with momentum one, plain SGD none.",
    ),
    "micro_batch_size": Term(
        "Samples (or sequences) one GPU processes in one forward and backward pass; activation "
        "memory grows with it.",
    ),
    "global_batch_size": Term(
        "Samples processed per iteration across every GPU of the job, before the weights are "
        "updated once.",
    ),
    "batch": Term(
        "A group of samples processed together before the weights are updated.",
    ),
    "iteration": Term(
        "One update of the weights: one global batch forward, backward and optimizer step.",
    ),
    "epoch": Term(
        "One full pass over the training dataset; a run is often several epochs.",
    ),
    "sequence_length": Term(
        "Tokens per training sample; attention memory grows with it.",
    ),
    "recompute": Term(
        "Activation recomputation: forget some activations in the forward pass and recompute them "
        "in the backward pass, trading about a third more compute for memory.",
    ),
    "training_stack": Term(
        "The training software (Megatron-Core, PyTorch FSDP, torchtune, Hugging Face with PEFT, "
        "DeepSpeed): each keeps the weights, gradients and optimizer states in its own "
        "precision and stores its own tensors for the backward pass, so the memory per GPU "
        "follows it.",
    ),
    "attention": Term(
        "Fused attention (FlashAttention, PyTorch's fused kernels), the default of current training "
        "software, keeps no score matrix; eager attention keeps one per head, which grows with "
        "the square of the sequence.",
    ),
    "pure_bf16": Term(
        "Pure BF16 training keeps the weights, their gradients and the optimizer's states all in "
        "BF16, with no FP32 master copy: 8 bytes a parameter in place of mixed precision's 18. "
        "torchtune always trains so; off, the memory follows the training software's own layout.",
    ),
    "compiled": Term(
        "A model compiled with torch.compile runs fused kernels that keep fewer tensors for the "
        "backward pass: the norms' FP32 copies and the gated MLP's activation are recomputed "
        "instead of stored.",
    ),
    "chunked_loss": Term(
        "The loss over the vocabulary computed in chunks of the sequence keeps each chunk's "
        "gradients only while it runs: about 5 bytes a logit in place of 12. torchtune chunks "
        "it by default; the other training software does not.",
    ),
    "zero_stage": Term(
        "ZeRO shards the optimizer states (stage 1), also the gradients (2), and also the weights "
        "(3) across data-parallel GPUs to save memory.",
        "ZeRO",
    ),
    "allreduce": Term(
        "The collective operation that sums gradients across data-parallel workers; a ring "
        "allreduce moves 2 (N − 1) / N times the gradient size per worker.",
        "Allreduce",
    ),
    "data_parallel": Term(
        "Copies of the whole model (replicas) that each train on a share of the batch and average "
        "their gradients by allreduce every iteration.",
        "Data parallel (DP)",
    ),
    "tensor_parallel": Term(
        "Splits each layer's matrices across GPUs; it needs the fastest links (NVLink) and stays "
        "inside a host.",
        "Tensor parallel (TP)",
    ),
    "pipeline_parallel": Term(
        "Splits the layers into stages on different GPUs, passing activations from stage to "
        "stage; it tolerates slower links.",
        "Pipeline parallel (PP)",
    ),
    "sequence_parallel": Term(
        "Splits the sequence across tensor-parallel GPUs for the parts tensor parallelism does "
        "not split, saving activation memory at no extra communication; on by default wherever "
        "tensor parallelism is.",
    ),
    "dataset": Term(
        "How much data one epoch covers: samples (e.g. images), tokens (text) or a known "
        "iteration count.",
    ),
    "target_hours": Term(
        "How long the customer is willing to wait for one training run; the engine adds GPUs to "
        "meet it.",
    ),
    "gpus_per_member": Term(
        "Whole GPUs each job, service or user needs when that is known already (e.g. from a "
        "capacity analysis), instead of sizing from a model.",
    ),
    "target_throughput": Term(
        "The load the service must carry, in requests or generated tokens per second across all "
        "users.",
    ),
    "fine_tuning": Term(
        "Full fine-tuning trains every weight; LoRA freezes the model and trains small low-rank "
        "adapters (far less memory); QLoRA also keeps the frozen model in 4 bits.",
    ),
    "lora_rank": Term(
        "The rank r of each adapter: it adds r x (inputs + outputs) trainable parameters per "
        "adapted matrix; 8 to 64 is usual.",
    ),
    "lora_targets": Term(
        "Which projections get adapters: attention only, or attention and the MLP (more "
        "parameters, usually better results).",
    ),
    "input_tokens": Term(
        "Average prompt length per request in tokens (question, chat history and retrieved "
        "documents); processing it sets the time to first token.",
    ),
    "max_context_tokens": Term(
        "The longest prompt plus answer one request may hold; one such request must fit in GPU "
        "memory beside the weights.",
    ),
    "output_tokens": Term(
        "Average tokens the model generates per request.",
    ),
    "concurrent_sequences": Term(
        "Requests being answered at the same time across the whole service at the peak; each "
        "holds its own KV cache while it runs.",
    ),
    "ttft_target_ms": Term(
        "The longest acceptable wait from sending a request to the first word of the answer, in "
        "milliseconds.",
    ),
    "itl_target_ms": Term(
        "The longest acceptable time between two generated tokens, in milliseconds (about 50 ms "
        "reads faster than people do).",
    ),
    "virtual_pipeline_stages": Term(
        "Model chunks per pipeline stage (Megatron's interleaved schedule): with v chunks the "
        "stages idle v times less while the pipeline fills and drains.",
    ),
    "kv_cache_precision": Term(
        "By default the KV cache follows the weights, as NVIDIA's serving stacks do: FP8 with "
        "FP8 weights on GPUs that compute in FP8, 16 bits otherwise. FP8 halves it, so more "
        "requests fit, at a small accuracy cost.",
    ),
    "kv_cache": Term(
        "The keys and values of every token already seen, kept in GPU memory so the model does "
        "not recompute them for each new token.",
        "KV cache",
    ),
    "shared_need": Term(
        "How much GPU each user or job needs: whole GPUs, a memory amount, or a share of one GPU.",
    ),
    "gpus_per_job": Term(
        "Whole GPUs one user or job needs at once.",
    ),
    "concurrency": Term(
        "The share of users or jobs active at the same time; idle ones need no GPU only if "
        "their VMs are powered off: a powered-on VM keeps its vGPU memory, idle or not.",
    ),
    "mig_time_slicing": Term(
        "Several VMs take turns inside one MIG instance, each with its own memory; instances stay "
        "isolated from each other. Blackwell boards with NVIDIA vGPU 19 or later.",
    ),
    "vsan_principal_storage": Term(
        "The GPU cluster keeps its VMs on vSAN. A VMware Cloud Foundation workload domain cluster "
        "then needs at least 3 hosts; with NFS, VMFS on Fibre Channel or vVols, 2.",
    ),
    "service_years": Term(
        "How long the platform is to run from the proposal's date. The default NVIDIA AI "
        "Enterprise release is one whose driver branch is supported that long, where one is.",
    ),
    "private_ai_foundation": Term(
        "The VMware Cloud Foundation add-on for private AI, licensed per core on the GPU hosts; "
        "it needs VCF and NVIDIA AI Enterprise on every GPU.",
    ),
    "isolation_required": Term(
        "The group needs guaranteed performance: no other VM may take its share of compute or "
        "memory bandwidth. Time-sliced vGPU isolates memory and faults but shares compute, so "
        "only passthrough or MIG give that.",
    ),
    "live_migration_required": Term(
        "VMs must move between hosts while running (vMotion), for maintenance without downtime; "
        "passthrough GPUs cannot.",
    ),
    "remote_ok": Term(
        "The group may use GPUs over the network from a shared pool (Bitfusion-style), at some "
        "latency cost.",
    ),
    "sharing_mode": Term(
        "How VMs get GPUs: whole GPUs (passthrough), time-sliced vGPU, MIG-backed vGPU with "
        "hardware-isolated performance, or a network-attached GPU pool.",
    ),
    "passthrough": Term(
        "The VM owns whole physical GPUs through (Dynamic) DirectPath I/O: full speed and "
        "isolation, no live migration.",
        "Passthrough (DirectPath I/O)",
    ),
    "vgpu": Term(
        "NVIDIA vGPU time-slices a GPU's compute among VMs, each with its own fixed framebuffer "
        "(memory) profile; VMs can live-migrate.",
        "Time-sliced vGPU",
    ),
    "mig": Term(
        "Multi-Instance GPU splits an A100, Hopper or Blackwell GPU into up to seven (four on RTX "
        "PRO 6000) slices with their own memory, cache and compute: performance isolated in "
        "hardware. A VM gets a slice as a MIG-backed vGPU.",
        "MIG-backed vGPU (Multi-Instance GPU)",
    ),
    "mig-guest": Term(
        "The GPUs are passed through whole to a Linux VM (a Kubernetes worker, say), which splits "
        "them into MIG slices itself, as on a server without vSphere; the VM cannot live-migrate.",
        "MIG in the guest (GPUs passed through, partitioned in the VM)",
    ),
    "remote": Term(
        "VMs without GPUs reach GPUs in other hosts over the network (a Bitfusion-style pool); "
        "VMware has ended Bitfusion's availability.",
        "Network-attached GPU pool",
    ),
    "gpu": Term(
        "The GPU model in every host; its memory, speed and sharing features drive the design.",
    ),
    "server": Term(
        "The host model; only servers that can physically hold the chosen GPU are offered.",
    ),
    "gpus_per_host": Term(
        "GPUs fitted in each host; a multi-GPU job is kept inside one host where it fits.",
    ),
    "nic": Term(
        "The network adapter for GPU traffic between hosts.",
    ),
    "nics_per_host": Term(
        "Network adapters for GPU traffic in each host.",
    ),
    "fabric": Term(
        "The network between hosts: Ethernet speed or InfiniBand generation (HDR 200, NDR 400, "
        "XDR 800 Gb/s).",
    ),
    "cdu_spares": Term(
        "Coolant distribution units (CDUs) move the heat that liquid-cooled servers give their "
        "coolant into the facility water; spare in-row units keep the racks cooled while one is "
        "serviced.",
    ),
    "rdma": Term(
        "Remote direct memory access: the NIC moves data between hosts' memory without the CPUs, "
        "for lower latency (RoCE on Ethernet, native on InfiniBand, PVRDMA for VMs).",
        "RDMA, RoCE v2, PVRDMA",
    ),
    "gpudirect_rdma": Term(
        "The NIC reads and writes GPU memory directly, skipping host memory; needs the NIC and "
        "GPU under the same PCIe switch or root complex.",
        "GPUDirect RDMA",
    ),
    "nvlink": Term(
        "NVIDIA's GPU-to-GPU link, much faster than PCIe: bridges join pairs of PCIe boards; SXM "
        "boards have it on the baseboard, GPU to GPU on 4-GPU boards and through NVSwitch chips "
        "on 8-GPU HGX boards.",
        "NVLink / NVSwitch",
    ),
    "storage": Term(
        "The shared storage system that feeds training data to the hosts.",
    ),
    "dataset_gb": Term(
        "The training data on shared storage, one version, in GB; leave it to be derived from the "
        "workloads' dataset sizes.",
    ),
    "dataset_versions": Term(
        "How many versions of the dataset are kept side by side (current and previous).",
    ),
    "checkpoint_copies": Term(
        "Checkpoints (saved training states) kept per training job, to resume or roll back.",
    ),
    "growth_headroom": Term(
        "Capacity added on top of today's need for growth.",
    ),
    "read_gbs_per_gpu": Term(
        "Read throughput each GPU of a group not sized from a model needs from storage; 0 when "
        "unknown.",
    ),
    "storage_nodes": Term(
        "Storage nodes to check against the need; leave it to the engine to size them.",
    ),
    "kubernetes": Term(
        "Kubernetes on the VMs, if any; it decides how the NVIDIA GPU and network operators are "
        "installed.",
    ),
    "nvaie_release": Term(
        "The NVIDIA AI Enterprise release whose host driver, guest driver and operators go "
        "together.",
    ),
    "vgpu_mixed_sizes": Term(
        "Whether one GPU may carry vGPUs of different sizes (newer vGPU releases); otherwise "
        "every vGPU on a GPU has the same profile.",
    ),
    "ha_level": Term(
        "Spare capacity for host failures: N+1 adds enough hosts to survive one failure, N+2 two, "
        "or reserve a percentage.",
        "N+1, N+2",
    ),
    "reserve_percent": Term(
        "Share of cluster capacity kept free for failover.",
    ),
    "maintenance_hosts": Term(
        "Extra hosts so a host can be in maintenance while the failure reserve stays intact.",
    ),
    "failure_domain": Term(
        "What fails together: a single host, or a whole rack (power or top-of-rack switch).",
    ),
    "hosts_per_rack": Term(
        "Hosts in one rack, when a whole rack is the failure domain.",
    ),
    "admission_control": Term(
        "The vSphere HA policy that keeps capacity free to restart VMs after host failures: by "
        "tolerated host failures, a percentage, dedicated standby hosts, or not at all.",
        "HA admission control",
    ),
    "passthrough_spares": Term(
        "Passthrough VMs cannot move live; keep spare GPUs so they can restart on another host "
        "after a failure.",
    ),
}


def tip(key: str) -> str:
    """The explanation of ``key``, or nothing for a key without one."""
    term = GLOSSARY.get(key)
    return term.text if term else ""


def named() -> list[tuple[str, str]]:
    """The named terms as (name, explanation), alphabetically, for the proposal's glossary."""
    rows = [(t.name, t.text) for t in GLOSSARY.values() if t.name]
    return sorted(rows, key=lambda row: row[0].casefold())
