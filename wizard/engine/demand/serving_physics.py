"""The roofline of LLM serving: what one replica does per prompt and per generated token.

Two phases (Pope et al., arXiv:2211.05102, section 2; Agrawal et al., Sarathi-Serve,
arXiv:2403.02310, section 2):

- **prefill** processes a prompt of ``L`` tokens at once: ``2 x active parameters x L`` FLOPs
  plus causal attention over the prompt, ``2 x layers x hidden x L^2``; compute-bound except for
  very short prompts;
- **decode** generates one token per sequence per step: each step reads the weights its tokens
  touch and every sequence's KV cache once, so it is bound by memory bandwidth until the batch is
  large enough for ``2 x active parameters`` FLOPs per token to dominate.

Tensor parallelism (Shoeybi et al., Megatron-LM, arXiv:1909.08053, section 3) splits each layer
over ``tp`` GPUs and adds two all-reduces of the activations per layer; pipeline parallelism
puts consecutive layers on ``pp`` stages that a token passes one after another, so one sequence
has one stage's GPUs working at a time, and only ``min(batch, pp)`` micro-batches in flight keep
every stage busy (Narayanan et al., arXiv:2104.04473, section 2.2).

Every formula here is a :class:`Formula`: the engine computes with it and the calculation log
shows it with its inputs, so the two cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from wizard.engine.basis.expr import Formula
from wizard.engine.basis.links import NVLS_EFFICIENCY, Link
from wizard.engine.basis.record import Chain

POPE = (
    "Pope et al., Efficiently Scaling Transformer Inference, arXiv:2211.05102, sections 2-3 "
    "(decode reads weights and KV cache each step; 2 x parameters FLOPs per token)"
)
KV_SOURCE = (
    "Pope et al., arXiv:2211.05102, section 2 (KV cache per token = 2 x layers x KV heads x "
    "head dim x bytes); Ainslie et al., GQA, arXiv:2305.13245"
)
MLA_SOURCE = (
    "DeepSeek-AI, DeepSeek-V2, arXiv:2405.04434, section 2.1.3 and Table 1 (multi-head latent "
    "attention caches a compressed latent of d_c plus a decoupled RoPE key of d_h^R values per "
    "token per layer); the latent belongs to no head, so vLLM and SGLang keep all of it on every "
    "tensor-parallel GPU unless attention runs data-parallel"
)
WINDOW_SOURCE = (
    "Jiang et al., Mistral 7B, arXiv:2310.06825, section 2 (a sliding-window layer attends to the "
    "last W tokens and its rolling cache holds only those); windowed layers of a sequence of L "
    "tokens keep min(L, W) of them, the others all L"
)
MOE_SOURCE = (
    "Jiang et al., Mixtral of Experts, arXiv:2401.04088, section 2 (each token is routed to k of "
    "E experts per layer); expected distinct experts for uniform routing"
)
MOE_IMBALANCE = (
    "Fedus et al., Switch Transformers, arXiv:2101.03961, section 2.2 (experts sized for a "
    "capacity factor above 1 because routing is uneven); the busiest expert's tokens over the "
    "mean sets the experts' compute time: stated assumption"
)
MEGATRON_TP = (
    "Shoeybi et al., Megatron-LM, arXiv:1909.08053, section 3 (two all-reduces per layer in "
    "the forward pass); ring all-reduce moves 2 (t - 1) / t of the data (NCCL)"
)
PIPELINE = (
    "Narayanan et al., arXiv:2104.04473, section 2.2: pipeline stages run one after another for "
    "one micro-batch; only min(batch, stages) micro-batches in flight overlap them"
)
HOST_SOURCE = (
    "TensorRT-LLM pull request #10273 (NVIDIA, December 2025), measured 'in scenarios where "
    "the host overhead is the bottleneck': GPT-OSS-120B on GB200 with attention data-parallel, "
    "1,536 requests per GPU at 1,000/1,000 tokens, the host's time per step averaging 45.11 "
    "ms, 45.11 ms / 1,536 = 29.4 µs per request; TensorRT-LLM's overlap scheduler (on by "
    "default) runs a step's host work beside the GPU's previous step, so the slower sets the pace"
)
ATTENTION_DP = (
    "MoE models at high throughput run attention data-parallel over the tensor-parallel GPUs, "
    "each GPU's process scheduling its own share of the requests (TensorRT-LLM performance "
    "overview: its MoE runs enable attention data parallelism)"
)
PREFILL = (
    "Kaplan et al., arXiv:2001.08361, section 2.1 (2 x parameters FLOPs per token in the "
    "forward pass) plus causal attention 2 x layers x hidden x L^2 (Agrawal et al., "
    "Sarathi-Serve, arXiv:2403.02310, section 2)"
)

# How far this roofline reads above NVIDIA's published maximum throughput for FP4 serving on the
# B200: the geometric mean of engine over measured, per model, across TensorRT-LLM 1.0's B200 FP4
# table (tests/engine/test_serving_fp4_gap.py recomputes it). The same table's FP8 columns on H100
# and H200 read 0.8 to 1.6 (seven of twelve within 15 %), its FP4 columns on the RTX PRO 6000 0.8
# to 0.9; the cause on the B200 is not isolated (docs/model.md, known gaps), so the plan states it
# rather than folding a fitted factor in.
FP4_SXM_BLACKWELL_READS_HIGH = (1.2, 1.4)
FP4_SXM_BLACKWELL_SOURCE = (
    "NVIDIA TensorRT-LLM performance overview, release 1.0 (docs/source/performance/"
    "perf-overview.md): maximum throughput of Llama 3.3 70B, Llama 3.1 405B, Llama 4 Scout, "
    "Qwen3 30B-A3B and Qwen3 235B-A22B in FP4 on DGX B200, nine input/output lengths each"
)

KV_GB_PER_TOKEN = Formula("2 * layers * kv_heads * head_dim * kv_bytes / 1e9")
KV_GB_PER_TOKEN_MLA = Formula("layers * kv_latent_dim * kv_bytes / 1e9")
# GB per token of a sequence holding `context` tokens, averaged over it: a windowed layer keeps
# min(context, window) tokens; multiplied by context this is the sequence's whole cache.
KV_GB_PER_TOKEN_WINDOWED = Formula(
    "2 * kv_heads * head_dim * kv_bytes"
    " * (layers - window_layers + window_layers * min(context, window) / context) / 1e9"
)
CONTEXT_IN_FLIGHT = Formula("input_tokens + output_tokens / 2")
MICRO_BATCH = Formula("sequences / min(sequences, pp)")
EXPERTS_READ = Formula("experts * (1 - (1 - experts_per_token / experts) ** tokens)")
WEIGHTS_READ_MOE_GB = Formula("(shared_params + experts_read * expert_params) * weight_bytes / 1e9")
WEIGHTS_GB = Formula("parameters * weight_bytes / 1e9")
# the experts' matrix products wait for the busiest expert: its tokens over the mean
ACTIVE_MOE = Formula("shared_params + experts_per_token * expert_params * imbalance")
# A decode step runs the linear layers (reading the weights, 2 x active parameters FLOPs a
# token) and the attention core (reading every sequence's KV cache) as separate kernels: each
# is bound by the slower of its bytes and its FLOPs, and the two add up.
DECODE_WEIGHTS_S = Formula("weights_read_gb / (tp * pp) / (bandwidth_gbs * mbu)")
DECODE_LINEAR_S = Formula("batch * 2 * active_parameters / (tp * pp * peak_tflops * 1e12 * mfu)")
DECODE_KV_S = Formula(
    "batch * context * kv_gb_per_token / (kv_shards * pp) / (bandwidth_gbs * mbu)"
)
DECODE_ATTENTION_S = Formula(
    "batch * 4 * layers * context * attention_width / (tp * pp * attention_tflops * 1e12 * mfu)"
)
DECODE_KERNELS_S = Formula("max(weights_s, linear_s) + max(kv_s, attention_s) + comm_s")
KERNELS = (
    "Linear layers and the attention core run as separate kernels (vLLM, TensorRT-LLM): the "
    "weights' reads overlap the linear FLOPs, the KV cache's reads the attention FLOPs, not "
    "each other (Pope et al., arXiv:2211.05102, section 3.3: attention's memory time is "
    "separate from the weights')"
)
ALLREDUCE_S = Formula(
    "latency_s + 2 * (tp - 1) / tp * tokens * hidden * 2 / (link_gbs * 1e9 * link_efficiency)"
)
ALLREDUCE_NVLS_S = Formula("latency_s + tokens * hidden * 2 / (link_gbs * 1e9 * nvls_efficiency)")
HANDOFF_S = Formula("latency_s + tokens * hidden * 2 / (link_gbs * 1e9 * link_efficiency)")
DECODE_COMM_S = Formula("2 * layers / pp * allreduce_s + min(pp - 1, 1) * handoff_s")
STAGE_S = Formula("max(memory_s, compute_s) + comm_s")
DECODE_GPU_S = Formula("pp * stage_s")
# The serving engine's host work for a step (scheduling, sampling, each request's bookkeeping)
# runs beside the GPU's previous step (overlap scheduler), so the slower of the two sets the pace.
# schedulers: the processes sharing the requests (an MoE's GPUs with attention data-parallel)
DECODE_HOST_S = Formula("requests * host_microseconds_per_request / 1e6 / schedulers")
DECODE_STEP_S = Formula("max(gpu_s, host_s)")
PREFILL_COMPUTE_S = Formula(
    "(2 * active_parameters * tokens / peak_tflops"
    " + 2 * layers * attention_width * tokens ** 2 / attention_tflops)"
    " / (tp * 1e12 * mfu)"
)
ATTENTION_PRECISION = (
    "Attention runs at the KV cache's precision, never below FP8: TensorRT-LLM's FP8 context "
    "and generation attention kernels read an FP8 KV cache and compute in FP8, and no serving "
    "engine runs attention in FP4 (NVFP4 quantizes the linear layers' weights and activations; "
    "TensorRT-LLM, 'Numerical precision', https://nvidia.github.io/TensorRT-LLM/reference/"
    "precision.html: FP4 covers GEMMs, the FMHA kernels run FP8 or 16-bit)"
)
PREFILL_MEMORY_S = Formula("weights_gb / (tp * bandwidth_gbs * mbu)")
PREFILL_COMM_S = Formula("2 * layers * allreduce_s + (pp - 1) * handoff_s")

# --- a tensor-parallel all-reduce waits on every peer of its group
# The fixed cost of one small all-reduce grows with the GPUs it joins: a ring passes 2 (t - 1)
# steps, each with its own start-up latency (Thakur, Rabenseifner and Gropp, "Optimization of
# Collective Communication Operations in MPICH", IJHPCA 19(1), 2005, section 4), and TensorRT-
# LLM's one-shot all-reduce reads each of the t - 1 peers' buffers after their flags. The
# per-GPU matrix products shrink with t while this cost does not, so a decode step at tensor
# parallelism 4 or 8 reaches less of what its 1/t of the weights would allow.
# `collective_latency_us` is the cost between two GPUs (tensor parallelism 2, where NIM's rows
# set the defaults); each further GPU adds `serving_allreduce_peer_latency_us`.
ALLREDUCE_LATENCY_S = Formula("latency_s + peer_latency_s * (tp - 2)")
TP_DERATING = (
    "A tensor-parallel all-reduce waits on each GPU of its group (Thakur, Rabenseifner and "
    "Gropp, IJHPCA 19(1), 2005, section 4: a ring all-reduce takes 2 (p - 1) start-up "
    "latencies; TensorRT-LLM's one-shot all-reduce reads each of the t - 1 peers' buffers): "
    "the two-GPU cost plus the stated cost for each further GPU, 8 us, the two-GPU cost again; "
    "TensorRT-LLM 0.14.0's online serving of Llama 3.1 70B in BF16 on four H200 measured 18 ms "
    "between tokens at 2 requests/s (performance overview, release 0.17), 9.8 us would meet it "
    "exactly, and the same table's Llama 3.1 8B on one H200 is met without it"
)

# --- in-flight batching with chunked prefill
# A new request's prompt rides in the iterations of the requests already running, in chunks of
# the iteration's token budget: the matrix products take the decode tokens and the chunk
# together, so the weights are read once for both. The prompt adds its FLOPs (linear layers and
# attention) and its tokens' bytes in the step's all-reduces and hand-offs, whose fixed
# latencies the step pays once; not a read of the weights of its own. Its FLOPs are added, not
# hidden under the decode step's weight read: in the benchmarks' closed loop identical requests
# start and finish together, so their prompts mostly share iterations with each other, 8,192
# tokens to one, which their FLOPs bound (a chunk's FLOPs outlast a read of the weights once the
# chunk holds more than a few hundred tokens). In a mixture of experts a chunk's tokens reach
# experts the decode batch does not, and the step reads those too (extra_weights_s for a whole
# chunk; 0 for a dense model, whose step reads every weight anyway). One request alone has no
# iteration to ride in, so its prompt is a pass of its own.
CHUNKED_PREFILL = (
    "In-flight batching: 'sequences in context phase can be processed together with sequences "
    "in generation phase', and chunked context splits a prompt so that 'the context chunks can "
    "be batched with more tokens during the generation phase' (TensorRT-LLM, 'Paged Attention, "
    "IFB, and Request Scheduling', release 1.0): one pass over the weights serves the prompts' "
    "chunks and the decode tokens of an iteration (Agrawal et al., Sarathi-Serve, "
    "arXiv:2403.02310, sections 3-4)"
)
STEP_TOKENS = 8192
STEP_TOKENS_SOURCE = (
    "TensorRT-LLM's token budget of one iteration, 8,192 tokens (performance overview, release "
    "0.17: its benchmark reports 'Max Runtime Tokens: 8192'): a longer prompt is split into "
    "chunks of it, shorter prompts share one"
)
PREFILL_FUSED_S = Formula(
    "compute_s + comm_s - 2 * layers * allreduce_latency_s - (pp - 1) * handoff_latency_s"
    " + tokens / step_tokens * extra_weights_s"
)
CHUNK_EXTRA_READ_S = Formula(
    "(chunk_weights_read_gb - weights_read_gb) / (tp * pp) / (bandwidth_gbs * mbu)"
)

# --- the first token's floor
# The first token comes out of a whole forward pass: alone, the prompt's own pass; beside running
# requests, the whole step it rides in (the decode batch and its chunk). Then the serving engine
# samples it and hands it back: a fixed host and launch time per request.
FIRST_TOKEN_S = Formula("max(prefill_s, decode_step_s + prompt_s) + first_token_host_ms / 1000")
FIRST_TOKEN_ALONE_S = Formula("prefill_s + first_token_host_ms / 1000")
FIRST_TOKEN_HOST_SOURCE = (
    "TensorRT-LLM performance (docs/source/performance.md as updated for release 0.6.1, 'Low "
    "Latency', data of release 0.5.0, H100 FP8, batch 1, 1st token latency): LLaMA 7B with 128 "
    "prompt tokens, 7 ms, where this roofline's pass reads 7 GB of FP8 weights at 0.6 of "
    "3,350 GB/s, 3.5 ms: 3.5 ms of the first token lies outside the GPU's pass (scheduling, "
    "kernel launches, sampling, returning the token)"
)


@dataclass(frozen=True)
class Accelerator:
    """What one GPU, or the slice of one a sharing mode gives, offers a replica."""

    label: str
    memory_gb: float
    bandwidth_gbs: float
    peak_tflops: float
    attention_tflops: float = 0.0  # the attention core's rate (its KV precision); 0: peak_tflops

    @property
    def attention_peak(self) -> float:
        return min(self.attention_tflops, self.peak_tflops) or self.peak_tflops


@dataclass(frozen=True)
class Transformer:
    """A served model: its shape, and what its weights and KV cache take per element."""

    name: str
    params: float
    active_params: float
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    weight_bytes: float
    kv_bytes: float
    experts: int = 0  # routed experts per MoE layer; 0 for a dense model
    experts_per_token: int = 0
    head_size: int = 0  # head width where not hidden / heads (Qwen3, gpt-oss); 0: hidden / heads
    kv_latent_dim: int = 0  # latent attention: values cached per token per layer; 0: per KV head
    window: int = 0  # tokens a sliding-window layer keeps; 0: no windowed layers
    window_layers: int = 0  # layers with the window; the others keep the whole context

    @property
    def head_dim(self) -> float:
        return self.head_size or self.hidden / self.heads

    @property
    def attention_width(self) -> float:
        """Query heads x head width: the width the attention scores and values are computed
        at (wider than hidden in Qwen3 and gpt-oss)."""
        return self.heads * self.head_dim

    @property
    def moe(self) -> bool:
        return self.experts > self.experts_per_token > 0

    @property
    def expert_params(self) -> float:
        """One routed expert over all layers, from total = shared + E x e and
        active = shared + k x e."""
        if not self.moe:
            return 0.0
        return (self.params - self.active_params) / (self.experts - self.experts_per_token)

    @property
    def shared_params(self) -> float:
        return self.params - self.experts * self.expert_params


@dataclass(frozen=True)
class Parallel:
    """A replica's layout and the links its collectives cross."""

    tensor: int = 1
    pipeline: int = 1
    tp_link: Link | None = None  # slowest link of the tensor-parallel group
    pp_link: Link | None = None  # link between pipeline stages (the NICs across hosts)

    @property
    def gpus(self) -> int:
        return self.tensor * self.pipeline


@dataclass(frozen=True)
class Efficiency:
    bandwidth: float  # achieved share of peak memory bandwidth while decoding (MBU)
    compute: float  # achieved share of peak dense tensor FLOPS (MFU)
    link: float | None  # share of a link's rate a collective reaches; None: measured per kind
    latency_s: float  # fixed cost of one small collective or stage hand-off
    moe_imbalance: float = 1.0  # busiest expert's tokens over the mean (routing imbalance)
    host_us_per_sequence: float = 0.0  # the serving engine's host time per request in a step
    calibrated: bool = False  # the factors were fitted to the customer's measurements
    peer_latency_s: float = 0.0  # added to an all-reduce's fixed cost per GPU beyond two
    chunked_prefill: bool = False  # prompts ride in the running requests' decode steps
    first_token_host_ms: float = 0.0  # host and launch time of a request's first token


def kv_shards(m: Transformer, tensor: int) -> int:
    """GPUs a KV cache is split over: tensor parallelism splits the KV heads and replicates
    them when there are fewer KV heads than GPUs (as vLLM and TensorRT-LLM do). A latent-attention
    cache has no heads to split: every GPU of the group keeps all of it (vLLM and SGLang with
    tensor-parallel attention; data-parallel attention, which would split it, is not modelled)."""
    if m.kv_latent_dim:
        return 1
    return min(tensor, m.kv_heads)


def activation_allreduce_s(
    chain: Chain, name: str, link: Link, *, tp: int, tokens: float, hidden: int,
    latency_s: float, link_efficiency: float, ring_source: str, nvls_source: str,
) -> float:  # fmt: skip
    """One all-reduce of ``tokens`` x ``hidden`` 16-bit activations over a tensor-parallel
    group: reduced in the switch where the link has NVLink SHARP (NVLS), else a ring at
    ``link_efficiency`` of the link's rate."""
    if link.multicast:
        return chain(
            name, ALLREDUCE_NVLS_S, "s", nvls_source, latency_s=latency_s, tokens=tokens,
            hidden=hidden, link_gbs=link.gbs, nvls_efficiency=NVLS_EFFICIENCY,
        )  # fmt: skip
    return chain(
        name, ALLREDUCE_S, "s", ring_source, latency_s=latency_s, tp=tp, tokens=tokens,
        hidden=hidden, link_gbs=link.gbs, link_efficiency=link_efficiency,
    )  # fmt: skip
