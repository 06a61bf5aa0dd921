"""The arithmetic of a training or fine-tuning iteration, as formulas the engine computes with and
logs verbatim (see :mod:`wizard.engine.basis.expr`).

FLOPs follow Narayanan et al. (arXiv:2104.04473, Eq. 3) and Korthikanti et al. (arXiv:2205.05198,
Appendix A), written per token by pass: a dense layer's matrix products cost 2 FLOPs per parameter
per token in the forward pass and as much again for each of the two backward products (input
gradients, weight gradients); the attention scores and their weighted sum cost 4 x layers x
sequence x attention width (query heads x head width, the hidden size unless the model sets its
heads wider or narrower) per token per pass; the logits 2 x hidden x vocabulary. Full recomputation runs
the forward pass again; selective recomputation only the attention core. A frozen base (LoRA,
QLoRA) skips its weight gradients (Hu et al., arXiv:2106.09685, section 4.2). With no
recomputation this is Eq. 3's 72 B s l h^2 (1 + s/(6h) + V/(12 l h)); with full recomputation
96 B s l h^2 (1 + s/(6h) + V/(16 l h)).

The utilization is the share of peak the GPUs reach while they compute; what the layout adds is
derived and added: pipeline stages idle for (p - 1) / (v m) of the ideal time per iteration (the
bubble, Narayanan et al. sections 2.2.1-2.2.2, v interleaved chunks per stage). Gradients are
reduced across data-parallel replicas by ring all-reduce, 2 (N - 1) / N of the gradient bytes
per GPU, and 3 (N - 1) / N with ZeRO stage 3 (Rajbhandari et
al., section 7); PyTorch DDP and FSDP overlap it with the backward pass (Li et al., PyTorch
Distributed, VLDB 2020, section 3.2.3), so only what exceeds that pass adds to the iteration.
ZeRO stage 3 (PyTorch FSDP's full sharding, DeepSpeed ZeRO-3) gathers the parameters in
every micro-batch's forward and backward passes and reduce-scatters its gradients, so its
traffic is the ring's figure once per micro-batch, not once per iteration. Communication that
runs under the compute is not free: the two share the SMs and the memory bandwidth, and the
compute under it runs slower by a stated share of the communication's time (the design's
overlap_slowdown, 0.19: the mean compute slowdown Lee et al. measured with communication
overlapped on A100 and H100, arXiv:2507.03114).
Tensor parallelism adds four all-reduces of the activations per layer per micro-batch (two in
the forward, two in the backward pass; Shoeybi et al., arXiv:1909.08053, section 3), which wait
for each other and are not hidden unless a share of them is stated as overlapped; on an
NVSwitch with NVLink SHARP (Hopper on) NCCL reduces in the switch (NVLS).
"""

from __future__ import annotations

from wizard.engine.basis.expr import Formula

NARAYANAN_EQ3 = (
    "Narayanan et al., Efficient Large-Scale Language Model Training on GPU Clusters Using "
    "Megatron-LM, SC21, arXiv:2104.04473, Eq. 3; Korthikanti et al., arXiv:2205.05198, Appendix A"
)
BUBBLE = (
    "Narayanan et al., arXiv:2104.04473, sections 2.2.1-2.2.2: pipeline bubble (p - 1) / m of the "
    "ideal iteration time, (p - 1) / (v m) with v interleaved model chunks per stage"
)
FP8_ATTENTION = (
    "NVIDIA Transformer Engine: FP8 runs the linear layers (te.Linear, LayerNormMLP) on FP8 "
    "tensor cores; the attention core stays 16-bit (FlashAttention / cuDNN BF16)"
)
TP_OVERLAP = (
    "Megatron-Core tensor-parallel communication overlap (Transformer Engine userbuffers, with "
    "sequence parallelism): the stated share of the all-reduces runs under the matrix products"
)
RING = (
    "Ring all-reduce: reduce-scatter then all-gather, 2 (N - 1) / N of the data per GPU (NCCL); "
    "ZeRO stage 3 adds a parameter all-gather: 3 (N - 1) / N (Rajbhandari et al., "
    "arXiv:1910.02054, section 7)"
)
ZERO3_PER_MICRO_BATCH = (
    "ZeRO stage 3 / FSDP full sharding gathers each layer's parameters in every micro-batch's "
    "forward and backward passes and reduce-scatters its gradients (Rajbhandari et al., "
    "arXiv:1910.02054, section 7; PyTorch FSDP docs: accumulating without that exchange "
    "keeps the whole unsharded gradients)"
)
OVERLAP_SLOWDOWN = (
    "Lee et al., Characterizing Compute-Communication Overlap in GPU-Accelerated Distributed "
    "Deep Learning, arXiv:2507.03114: with communication overlapped, compute ran 18.9 % slower "
    "on average (40 % at most) on A100 and H100 GPT and Llama runs; the design's assumption "
    "of how much overlapped communication slows the compute"
)
OVERLAP = (
    "PyTorch DDP and FSDP reduce gradients in buckets during the backward pass (Li et al., "
    "PyTorch Distributed, VLDB 2020, section 3.2.3): only what exceeds it adds to the iteration"
)
TP_COMM = (
    "Shoeybi et al., Megatron-LM, arXiv:1909.08053, section 3: two all-reduces per layer in the "
    "forward pass and two in the backward pass, not overlapped"
)
LORA = (
    "Hu et al., LoRA, arXiv:2106.09685, section 4: each adapted d x k matrix adds "
    "r x (d + k) trainable parameters; the base is frozen"
)
QLORA = (
    "Dettmers et al., QLoRA, arXiv:2305.14314, section 3: 4-bit NormalFloat base weights with "
    "double quantization, about 4.127 bits per parameter"
)

NON_EMBEDDING_PARAMS = Formula("max(parameters - embedding_copies * vocabulary * hidden, 0)")
# the attention scores and values are computed at the query heads' width (heads x head width),
# which is the hidden size in the paper's models and twice it in Qwen3's
FLOPS_PER_TOKEN = Formula(
    "linear_passes * 2 * matrix_parameters"
    " + attention_passes * 4 * layers * sequence * attention_width"
    " + logit_passes * 2 * hidden * vocabulary + adapter_passes * 2 * trainable_parameters"
)
FLOPS_PER_ITERATION = Formula("flops_per_token * global_batch * sequence")
COMPUTE_S = Formula("flops_per_iteration / (gpus * peak_tflops * 1e12 * utilization)")
# FP8 and FP4 training runs the linear layers on the low-precision tensor cores and the
# attention core (softmax(QK^T)V) in 16 bits (Transformer Engine)
COMPUTE_SPLIT_S = Formula(
    "((flops_per_iteration - attention_flops) / peak_tflops + attention_flops / attention_tflops)"
    " / (gpus * 1e12 * utilization)"
)
ATTENTION_FLOPS = Formula(
    "attention_passes * 4 * layers * sequence * attention_width * global_batch * sequence"
)
# each data-parallel copy runs whole passes: a share left over is one more, partly filled
MICRO_BATCHES = Formula("ceil(global_batch / (micro_batch * data_parallel))")
# the copies step together, so a step lasts as long as the copy with the most micro-batches
FULLEST_COPY_S = Formula("compute_s * micro_batches * micro_batch * data_parallel / global_batch")
UNEVEN_BATCH = (
    "Data-parallel copies all-reduce their gradients before each optimizer step (Li et al., "
    "'PyTorch Distributed: Experiences on Accelerating Data Parallel Training', VLDB 2020), "
    "so the step waits for the copy with the most "
    "micro-batches: the compute of the global batch counted as every copy running that many"
)
BUBBLE_S = Formula("compute_s * (pp - 1) / (virtual_stages * micro_batches)")
TP_COMM_S = Formula("tp_allreduces * layers / pp * micro_batches * allreduce_s * (1 - overlap)")
GRADIENT_GB = Formula("trainable_parameters * gradient_bytes / (tp * pp) / 1e9")
RING_GB = Formula("ring_factor * (data_parallel - 1) / data_parallel * gradient_gb")
# the same as data-parallel groups grow without bound: (N - 1) / N tends to 1
RING_LIMIT_GB = Formula("ring_factor * gradient_gb")
NVLS_GB = Formula("gradient_gb")
RING_S = Formula("ring_gb / (link_gbs * link_efficiency)")
OVERLAP_WINDOW_S = Formula("compute_s * backward_share")
EXPOSED_S = Formula("max(allreduce_s - overlap_window_s, 0)")
# ZeRO stage 3 exchanges the parameters and gradients in every micro-batch
PER_MICRO_BATCH_GB = Formula("micro_batches * gb_per_micro_batch")
# the compute that runs under the hidden part of the exchange, slowed
CONTENTION_S = Formula("overlap_slowdown * min(allreduce_s, overlap_window_s)")
ITERATION_S = Formula(
    "compute_s + bubble_s + tp_comm_s + exposed_allreduce_s + overlap_contention_s"
)
END_TO_END_ITERATION_S = Formula("compute_s")
TRAIN_HOURS = Formula("iterations * iteration_s / 3600")
LORA_PARAMS = Formula("rank * layers * (attention_width + mlp_width * experts_adapted)")
