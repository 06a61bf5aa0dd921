"""One-sentence explanations of the data-science and GPU terms the wizard asks about, shown as
tooltips: the person answering is often an infrastructure expert learning this vocabulary."""

from __future__ import annotations

TERMS: dict[str, str] = {
    "kind": "What the group does: trains a model from scratch, fine-tunes an existing one, serves "
    "one (inference), develops in notebooks, or runs other CUDA/HPC jobs.",
    "count": "How many jobs, services or users of this kind run at the same time.",
    "model": "The neural network being trained or served; its size (parameters) drives GPU memory.",
    "preset": "A published model whose shape (layers, hidden size, heads) comes from the catalog "
    "with its source.",
    "parameters": "The model's learned numbers (weights); 7 B means seven billion of them.",
    "layers": "How many transformer blocks are stacked; activation memory grows with it.",
    "hidden_size": "The width of each layer (the length of the vector that represents one token).",
    "heads": "Attention heads per layer: parallel attention computations that split the hidden size.",
    "kv_heads": "Heads that keep their own keys and values (fewer than heads with grouped-query "
    "attention); they set the KV cache size.",
    "vocab_size": "How many distinct tokens the model knows; it sizes the embedding tables.",
    "precision": "The number format of the maths: FP32 is 4 bytes per value, BF16/FP16 2, FP8 and "
    "INT8 1, INT4 half a byte; smaller is faster and lighter but less exact.",
    "optimizer": "The algorithm that updates the weights; Adam keeps two extra numbers per "
    "parameter, SGD with momentum one, plain SGD none.",
    "micro_batch_size": "Samples (or sequences) one GPU processes in one forward and backward pass; "
    "activation memory grows with it.",
    "global_batch_size": "Samples processed per iteration across every GPU of the job, before the "
    "weights are updated once.",
    "batch": "A group of samples processed together before the weights are updated.",
    "iteration": "One update of the weights: one global batch forward, backward and optimizer step.",
    "epoch": "One full pass over the training dataset; a run is often several epochs.",
    "sequence_length": "Tokens per training sample; attention memory grows with it.",
    "recompute": "Activation recomputation: forget some activations in the forward pass and "
    "recompute them in the backward pass, trading about a third more compute for memory.",
    "zero_stage": "ZeRO shards the optimizer states (stage 1), also the gradients (2), and also "
    "the weights (3) across data-parallel GPUs to save memory.",
    "data_parallel": "Copies of the whole model (replicas) that each train on different samples and "
    "average their gradients every iteration.",
    "tensor_parallel": "Splits each layer's matrices across GPUs; it needs the fastest links "
    "(NVLink) and stays inside a host.",
    "pipeline_parallel": "Splits the layers into stages on different GPUs, passing activations "
    "from stage to stage; it tolerates slower links.",
    "sequence_parallel": "Splits the sequence across tensor-parallel GPUs for the parts tensor "
    "parallelism does not split, saving activation memory.",
    "dataset": "How much data one epoch covers: samples (e.g. images), tokens (text) or a known "
    "iteration count.",
    "target_hours": "How long the customer is willing to wait for one training run; the engine "
    "adds GPUs to meet it.",
    "gpus_per_member": "Whole GPUs each job, service or user needs when that is known already "
    "(e.g. from a capacity analysis), instead of sizing from a model.",
    "target_throughput": "The load the service must carry, in requests or generated tokens per "
    "second across all users.",
    "fine_tuning": "Full fine-tuning trains every weight; LoRA freezes the model and trains small "
    "low-rank adapters (far less memory); QLoRA also keeps the frozen model in 4 bits.",
    "lora_rank": "The rank r of each adapter: it adds r x (inputs + outputs) trainable "
    "parameters per adapted matrix; 8 to 64 is usual.",
    "lora_targets": "Which projections get adapters: attention only, or attention and the MLP "
    "(more parameters, usually better results).",
    "input_tokens": "Average prompt length per request in tokens (question, chat history and "
    "retrieved documents); processing it sets the time to first token.",
    "max_context_tokens": "The longest prompt plus answer one request may hold; one such request "
    "must fit in GPU memory beside the weights.",
    "output_tokens": "Average tokens the model generates per request.",
    "concurrent_sequences": "Requests being answered at the same time across the whole service "
    "at the peak; each holds its own KV cache while it runs.",
    "ttft_target_ms": "The longest acceptable wait from sending a request to the first word of "
    "the answer, in milliseconds.",
    "itl_target_ms": "The longest acceptable time between two generated tokens, in "
    "milliseconds (about 50 ms reads faster than people do).",
    "kv_cache_precision": "Serving engines keep the KV cache in 16 bits unless told otherwise; "
    "FP8 halves it, so more requests fit, at a small accuracy cost.",
    "kv_cache": "The keys and values of every token already seen, kept in GPU memory so the model "
    "does not recompute them for each new token.",
    "shared_need": "How much GPU each user or job needs: whole GPUs, a memory amount, or a share "
    "of one GPU.",
    "gpus_per_job": "Whole GPUs one user or job needs at once.",
    "concurrency": "The share of users or jobs active at the same time; idle ones need no GPU.",
    "mig_time_slicing": "Several VMs take turns inside one MIG instance, each with its own "
    "memory; instances stay isolated from each other. Blackwell boards with NVIDIA vGPU 19 "
    "or later.",
    "private_ai_foundation": "The VMware Cloud Foundation add-on for private AI, licensed per "
    "core on the GPU hosts; it needs VCF and NVIDIA AI Enterprise on every GPU.",
    "isolation_required": "The group needs guaranteed performance: no other VM may take its share "
    "of compute or memory bandwidth. Time-sliced vGPU isolates memory and faults but shares "
    "compute, so only passthrough or MIG give that.",
    "live_migration_required": "VMs must move between hosts while running (vMotion), for "
    "maintenance without downtime; passthrough GPUs cannot.",
    "remote_ok": "The group may use GPUs over the network from a shared pool "
    "(Bitfusion-style), at some latency cost.",
    "sharing_mode": "How VMs get GPUs: whole GPUs (passthrough), time-sliced vGPU, MIG slices "
    "with hardware-isolated performance, or a remote GPU pool.",
    "passthrough": "The VM owns whole physical GPUs through (Dynamic) DirectPath I/O: full speed "
    "and isolation, no live migration.",
    "vgpu": "NVIDIA vGPU time-slices a GPU among VMs with fixed memory profiles; VMs can live-migrate.",
    "mig": "Multi-Instance GPU splits an A100, Hopper or Blackwell GPU into up to seven (four on "
    "RTX PRO 6000) slices with their own memory, cache and compute: performance isolated in "
    "hardware.",
    "remote": "VMs reach GPUs in other hosts over the network (Bitfusion-style pool); VMware has "
    "ended Bitfusion's availability.",
    "gpu": "The GPU model in every host; its memory, speed and sharing features drive the design.",
    "server": "The host model; only servers that can physically hold the chosen GPU are offered.",
    "gpus_per_host": "GPUs fitted in each host; a multi-GPU job is kept inside one host where it fits.",
    "nic": "The network adapter for GPU traffic between hosts.",
    "nics_per_host": "Network adapters for GPU traffic in each host.",
    "fabric": "The network between hosts: Ethernet speed or InfiniBand generation.",
    "rdma": "Remote direct memory access: the NIC moves data between hosts' memory without the "
    "CPUs, for lower latency (RoCE on Ethernet, native on InfiniBand, PVRDMA for VMs).",
    "gpudirect_rdma": "The NIC reads and writes GPU memory directly, skipping host memory; needs "
    "the NIC and GPU under the same PCIe switch or root complex.",
    "nvlink": "NVIDIA's GPU-to-GPU link, much faster than PCIe: bridges join pairs of PCIe boards, "
    "SXM boards have it on the baseboard (NVSwitch).",
    "storage": "The shared storage system that feeds training data to the hosts.",
    "dataset_gb": "The training data on shared storage, one version, in GB; leave it to be "
    "derived from the workloads' dataset sizes.",
    "dataset_versions": "How many versions of the dataset are kept side by side (current and "
    "previous).",
    "checkpoint_copies": "Checkpoints (saved training states) kept per training job, to resume "
    "or roll back.",
    "growth_headroom": "Capacity added on top of today's need for growth.",
    "read_gbs_per_gpu": "Read throughput each GPU of a group not sized from a model needs from "
    "storage; 0 when unknown.",
    "storage_nodes": "Storage nodes to check against the need; leave it to the engine to size them.",
    "kubernetes": "Kubernetes on the VMs, if any; it decides how the NVIDIA GPU and network "
    "operators are installed.",
    "nvaie_release": "The NVIDIA AI Enterprise release whose host driver, guest driver and "
    "operators go together.",
    "vgpu_mixed_sizes": "Whether one GPU may carry vGPUs of different sizes (newer vGPU releases); "
    "otherwise every vGPU on a GPU has the same profile.",
    "ha_level": "Spare capacity for host failures: N+1 adds enough hosts to survive one failure, "
    "N+2 two, or reserve a percentage.",
    "reserve_percent": "Share of cluster capacity kept free for failover.",
    "maintenance_hosts": "Extra hosts so a host can be in maintenance while the failure "
    "reserve stays intact.",
    "failure_domain": "What fails together: a single host, or a whole rack (power or top-of-rack "
    "switch).",
    "hosts_per_rack": "Hosts in one rack, when a whole rack is the failure domain.",
    "admission_control": "How the virtualization cluster keeps failover capacity free: by "
    "tolerated host failures, a percentage, dedicated standby hosts, or not at all.",
    "passthrough_spares": "Passthrough VMs cannot move live; keep spare GPUs so they can restart "
    "on another host after a failure.",
}


def tip(key: str) -> str:
    return TERMS.get(key, "")
