"""LLM serving at a load: time to first token, time between tokens and throughput of a replica
holding a number of sequences, from the roofline in :mod:`serving_physics`.

The load is a closed loop, as serving benchmarks run it (NVIDIA GenAI-Perf, vLLM's
``benchmark_serving``): ``c`` requests in flight per replica, each user sending the next request
when the last answer ends. In one such cycle the replica runs the ``c`` prompts and ``L_out``
decode steps of a ``c``-sequence batch. With other requests running, a prompt rides in their
decode steps (in-flight batching with chunked prefill): the weights are read once for both, and
the prompt adds to the cycle only its compute beyond what the memory-bound steps leave idle, its
attention and its all-reduces; alone, it is a pass of its own. So

    cycle  = c x prompt + L_out x decode step(c)
    output tokens/s = c x L_out / cycle                  (Little's law)

and a user's answer is interrupted by the other ``c - 1`` prompts in proportion to how long it
decodes, which sets the time between tokens it sees. Its first token comes out of a whole
forward pass (its prompt's own, or the step it rides in) plus the serving engine's host time;
its wait behind the other prompts adds to it. With one sequence this is exactly prefill, then
``L_out`` decode steps.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from wizard.engine.basis.expr import Formula
from wizard.engine.basis.links import NVLS_SOURCE, efficiency
from wizard.engine.basis.record import Chain
from wizard.engine.demand import serving_physics as sp
from wizard.engine.demand.search import first_true
from wizard.engine.demand.serving_physics import Accelerator, Efficiency, Parallel, Transformer
from wizard.model.result import HOST_BOUND

LOAD_SOURCE = (
    "Closed-loop load as serving benchmarks run it (NVIDIA GenAI-Perf, vLLM's vllm bench serve); "
    "Little's law (Little, Operations Research 9(3), 1961); a prompt's work lengthens the "
    "iterations it is in (Agrawal et al., Sarathi-Serve, arXiv:2403.02310, section 3: a prompt "
    "in an iteration stalls the decodes in it)"
)
QUEUE_SOURCE = (
    "A prompt waits for the prompts ahead of it: M/D/1 queue, mean wait = load / (2 (1 - load)) "
    "x service time (Pollaczek-Khinchine), requests arriving independently"
)
RESERVE_SOURCE = (
    "TensorRT-LLM's default capacity scheduler policy, GUARANTEED_NO_EVICT, 'to guarantee that "
    "a started request is never paused' (TensorRT-LLM, Useful Runtime Options): a request is "
    "admitted only when the KV cache can hold its prompt plus its whole answer (NVIDIA Dynamo's "
    "scheduler model: it 'reserves prompt plus maximum output and forbids preemption')"
)
PAGED_SOURCE = (
    "Paged KV cache: blocks are taken as tokens arrive (Kwon et al., vLLM, arXiv:2309.06180), "
    "so the average request sets how many fit"
)
KV_QUEUE_SOURCE = (
    "Requests beyond what the KV cache holds wait for a running one to finish (vLLM and "
    "TensorRT-LLM queue them); Little's law"
)
HEADROOM_SOURCE = (
    "vLLM engine arguments, --gpu-memory-utilization (default 0.9): the share of GPU memory the "
    "engine plans for weights, activations and the paged KV cache"
)

WORK_S = Formula("sequences * prompt_s + (output_tokens - 1) * decode_step_s")
PREFILL_LOAD = Formula("sequences * prompt_s / work_s")
PREFILL_WAIT_S = Formula(
    "prompt_s * min(prefill_load / (2 * max(1 - prefill_load, 1e-9)), (sequences - 1) / 2)"
)
DECODE_PHASE_S = Formula(
    "(output_tokens - 1) * decode_step_s / (1 - (sequences - 1) * prompt_s / work_s)"
)
ITL_MS = Formula("1000 * max(decode_phase_s / max(output_tokens - 1, 1), decode_step_s)")
QUEUE_WAIT_S = Formula("(waiting / running) * (first_token_s + prefill_wait_s + decode_phase_s)")
TTFT_MS = Formula("1000 * (first_token_s + prefill_wait_s + queue_wait_s)")
TOKENS_PER_S = Formula("sequences * output_tokens / (ttft_ms / 1000 + decode_phase_s)")
REQUESTS_PER_S = Formula("tokens_per_s / output_tokens")
USABLE_GB = Formula("gpu_memory_gb * memory_utilization")
WEIGHTS_PER_GPU_GB = Formula("weights_gb / (tp * pp)")
KV_ROOM_GB = Formula("usable_gb - weights_per_gpu_gb - overhead_gb")
MAX_SEQUENCES = Formula("floor(kv_room_gb * kv_shards * pp / (tokens_held * kv_gb_per_token))")
RESERVED_TOKENS = Formula("input_tokens + output_tokens")
LONGEST_REQUEST_GB = Formula("max_context_tokens * kv_gb_per_token / (kv_shards * pp)")
KV_PER_GPU_GB = Formula("sequences * tokens_held * kv_gb_per_token / (kv_shards * pp)")


@dataclass(frozen=True)
class Request:
    input_tokens: int
    output_tokens: int
    max_context_tokens: int


@dataclass(frozen=True)
class Point:
    """One replica holding ``sequences`` requests in flight."""

    sequences: int
    running: int  # sequences the KV cache holds at once; the rest wait for room
    prefill_s: float
    decode_step_s: float
    bound: str
    ttft_ms: float
    itl_ms: float
    tokens_per_s: float
    requests_per_s: float


@dataclass(frozen=True)
class Capacity:
    """What the replica's memory holds."""

    weights_per_gpu_gb: float
    kv_room_gb: float
    max_sequences: int
    longest_request_gb: float
    kv_gb_per_token: float
    context_in_flight: float
    tokens_held: float  # what a running request holds of the cache: reserved whole, or so far
    kv_gb_per_token_held: float
    held_source: str

    @property
    def fits(self) -> bool:
        return self.kv_room_gb >= self.longest_request_gb and self.max_sequences >= 1


def _weights_read(chain: Chain, m: Transformer, tokens: float, name: str) -> float:
    if not m.moe:
        return chain(
            name, sp.WEIGHTS_GB, "GB", sp.POPE, parameters=m.params, weight_bytes=m.weight_bytes
        )
    read = chain(
        f"{name}.experts",
        sp.EXPERTS_READ,
        "experts per layer",
        sp.MOE_SOURCE,
        experts=m.experts,
        experts_per_token=m.experts_per_token,
        tokens=tokens,
    )
    return chain(
        name,
        sp.WEIGHTS_READ_MOE_GB,
        "GB",
        sp.MOE_SOURCE,
        shared_params=m.shared_params,
        experts_read=read,
        expert_params=m.expert_params,
        weight_bytes=m.weight_bytes,
    )


def _allreduce_latency(chain: Chain | None, name: str, par: Parallel, eff: Efficiency) -> float:
    """The fixed cost of one of the group's all-reduces: the two-GPU cost, and the cost of each
    further GPU it waits on (logged when ``chain`` is given and there are such GPUs)."""
    if par.tensor <= 1 or par.tp_link is None:
        return 0.0
    if par.tensor <= 2 or not eff.peer_latency_s:
        return eff.latency_s
    if chain is None:
        return sp.ALLREDUCE_LATENCY_S(
            latency_s=eff.latency_s, peer_latency_s=eff.peer_latency_s, tp=par.tensor
        )
    return chain(
        name, sp.ALLREDUCE_LATENCY_S, "s", sp.TP_DERATING,
        latency_s=eff.latency_s, peer_latency_s=eff.peer_latency_s, tp=par.tensor,
    )  # fmt: skip


def _allreduce(
    chain: Chain, name: str, m: Transformer, par: Parallel, eff: Efficiency, tokens: float
) -> float:
    if par.tensor <= 1 or par.tp_link is None:
        return 0.0
    link = par.tp_link
    latency = _allreduce_latency(chain, f"{name.rsplit('.', 1)[0]}.allreduce_latency_s", par, eff)
    return sp.activation_allreduce_s(
        chain, name, link, tp=par.tensor, tokens=tokens, hidden=m.hidden,
        latency_s=latency, link_efficiency=efficiency(link, eff.link)[0],
        ring_source=f"{sp.MEGATRON_TP}; link: {link.name}",
        nvls_source=f"{sp.MEGATRON_TP}; {NVLS_SOURCE}; link: {link.name}",
    )  # fmt: skip


def _handoff(
    chain: Chain, name: str, m: Transformer, par: Parallel, eff: Efficiency, tokens: float
) -> float:
    if par.pipeline <= 1 or par.pp_link is None:
        return 0.0
    return chain(
        name,
        sp.HANDOFF_S,
        "s",
        f"{sp.PIPELINE}; link: {par.pp_link.name}",
        latency_s=eff.latency_s,
        tokens=tokens,
        hidden=m.hidden,
        link_gbs=par.pp_link.gbs,
        link_efficiency=efficiency(par.pp_link, eff.link)[0],
    )


def kv_per_token(
    chain: Chain, m: Transformer, context: float, name: str = "kv_gb_per_token"
) -> float:
    """KV cache per token of a sequence of ``context`` tokens, each layout by its own logged
    formula: keys and values per KV head, one latent per layer (MLA), or with windowed layers
    holding at most their window (the only case where ``context`` matters)."""
    if m.kv_latent_dim:
        return chain(
            name, sp.KV_GB_PER_TOKEN_MLA, "GB per token", sp.MLA_SOURCE,
            layers=m.layers, kv_latent_dim=m.kv_latent_dim, kv_bytes=m.kv_bytes,
        )  # fmt: skip
    if m.window_layers:
        return chain(
            name, sp.KV_GB_PER_TOKEN_WINDOWED, "GB per token",
            f"{sp.KV_SOURCE}; {sp.WINDOW_SOURCE}", kv_heads=m.kv_heads, head_dim=m.head_dim, kv_bytes=m.kv_bytes, layers=m.layers,
            window_layers=m.window_layers, window=m.window, context=context,
        )  # fmt: skip
    return chain(
        name,
        sp.KV_GB_PER_TOKEN,
        "GB per token",
        sp.KV_SOURCE,
        layers=m.layers,
        kv_heads=m.kv_heads,
        head_dim=m.head_dim,
        kv_bytes=m.kv_bytes,
    )


def capacity(
    chain: Chain,
    m: Transformer,
    par: Parallel,
    acc: Accelerator,
    req: Request,
    utilization: float,
    overhead_gb: float,
    reserve_whole_request: bool = True,
) -> Capacity:
    """How many requests of the average size the replica's memory holds, and whether one of the
    longest still fits beside the weights. A request holds its prompt and whole answer from the
    start where the engine reserves it (TensorRT-LLM's default), else its tokens so far, half
    its answer on average (vLLM's paging). With windowed layers the cache per token falls as a
    sequence grows, so each length has its own figure; the average request's (its average
    context) is at most the average of its sequences' caches, the safe side."""
    average = sp.CONTEXT_IN_FLIGHT(input_tokens=req.input_tokens, output_tokens=req.output_tokens)
    kv_tok = kv_per_token(chain, m, average)
    ctx = chain(
        "context_in_flight",
        sp.CONTEXT_IN_FLIGHT,
        "tokens per sequence",
        "Average tokens a decoding sequence holds: its prompt and half its answer",
        input_tokens=req.input_tokens,
        output_tokens=req.output_tokens,
    )
    usable = chain(
        "usable_gb_per_gpu",
        USABLE_GB,
        "GB per GPU",
        HEADROOM_SOURCE,
        gpu_memory_gb=acc.memory_gb,
        memory_utilization=utilization,
    )
    weights = chain(
        "weights_gb",
        sp.WEIGHTS_GB,
        "GB per replica",
        sp.POPE,
        parameters=m.params,
        weight_bytes=m.weight_bytes,
    )
    per_gpu = chain(
        "weights_gb_per_gpu",
        WEIGHTS_PER_GPU_GB,
        "GB per GPU",
        sp.MEGATRON_TP,
        weights_gb=weights,
        tp=par.tensor,
        pp=par.pipeline,
    )
    room = chain(
        "kv_room_gb_per_gpu",
        KV_ROOM_GB,
        "GB per GPU",
        "Usable memory less weights and the engine's workspace",
        usable_gb=usable,
        weights_per_gpu_gb=per_gpu,
        overhead_gb=overhead_gb,
    )
    shards = sp.kv_shards(m, par.tensor)
    kv_long = kv_tok
    if m.window_layers:
        kv_long = kv_per_token(chain, m, req.max_context_tokens, "kv_gb_per_token_longest")
    longest = chain(
        "longest_request_gb_per_gpu",
        LONGEST_REQUEST_GB,
        "GB per GPU",
        sp.KV_SOURCE,
        max_context_tokens=req.max_context_tokens,
        kv_gb_per_token=kv_long,
        kv_shards=shards,
        pp=par.pipeline,
    )
    held, kv_held, held_source = ctx, kv_tok, PAGED_SOURCE
    if reserve_whole_request:
        held_source = RESERVE_SOURCE
        held = chain(
            "tokens_reserved_per_request", RESERVED_TOKENS, "tokens per sequence", RESERVE_SOURCE,
            input_tokens=req.input_tokens, output_tokens=req.output_tokens,
        )  # fmt: skip
        if m.window_layers:
            kv_held = kv_per_token(chain, m, held, "kv_gb_per_token_reserved")
    most = 0
    if room > 0:
        most = int(
            chain(
                "max_sequences_per_replica",
                MAX_SEQUENCES,
                "sequences",
                held_source,
                kv_room_gb=room,
                kv_shards=shards,
                pp=par.pipeline,
                tokens_held=held,
                kv_gb_per_token=kv_held,
            )
        )
    return Capacity(per_gpu, room, most, longest, kv_tok, ctx, held, kv_held, held_source)


def evaluate(
    chain: Chain,
    m: Transformer,
    par: Parallel,
    acc: Accelerator,
    eff: Efficiency,
    req: Request,
    sequences: int,
    ctx: float,
    kv_tok: float,
    most: int,
) -> Point:
    """Prefill, decode and the closed-loop load for ``sequences`` requests in flight."""
    t, p = par.tensor, par.pipeline
    shards = sp.kv_shards(m, t)
    running = min(sequences, most) if most >= 1 else sequences
    src_roof = f"{sp.POPE}; efficiency: " + (
        "fitted to the customer's measurements" if eff.calibrated else "stated assumption"
    )
    active = m.active_params
    if m.moe and eff.moe_imbalance != 1.0:
        active = chain(
            "moe.active_parameters_effective", sp.ACTIVE_MOE, "parameters", sp.MOE_IMBALANCE,
            shared_params=m.shared_params, experts_per_token=m.experts_per_token,
            expert_params=m.expert_params, imbalance=eff.moe_imbalance,
        )  # fmt: skip
    # --- prefill of one prompt
    w_pf = _weights_read(chain, m, req.input_tokens, "prefill.weights_read_gb")
    pf_compute = chain(
        "prefill.compute_s",
        sp.PREFILL_COMPUTE_S,
        "s",
        sp.PREFILL,
        active_parameters=active,
        tokens=req.input_tokens,
        layers=m.layers,
        attention_width=m.attention_width,
        tp=t,
        peak_tflops=acc.peak_tflops,
        attention_tflops=acc.attention_peak,
        mfu=eff.compute,
    )
    pf_memory = chain(
        "prefill.memory_s",
        sp.PREFILL_MEMORY_S,
        "s",
        src_roof,
        weights_gb=w_pf,
        tp=t,
        bandwidth_gbs=acc.bandwidth_gbs,
        mbu=eff.bandwidth,
    )
    pf_ar = _allreduce(chain, "prefill.allreduce_s", m, par, eff, req.input_tokens)
    pf_ho = _handoff(chain, "prefill.handoff_s", m, par, eff, req.input_tokens)
    pf_comm = chain(
        "prefill.comm_s",
        sp.PREFILL_COMM_S,
        "s",
        f"{sp.MEGATRON_TP}; {sp.PIPELINE}",
        layers=m.layers,
        allreduce_s=pf_ar,
        pp=p,
        handoff_s=pf_ho,
    )
    prefill = chain(
        "prefill_s",
        sp.STAGE_S,
        "s",
        "Roofline: the slower of compute and memory, plus communication",
        memory_s=pf_memory,
        compute_s=pf_compute,
        comm_s=pf_comm,
    )
    # --- one decode step with every sequence in it
    micro = chain(
        "decode.micro_batch",
        sp.MICRO_BATCH,
        "sequences",
        sp.PIPELINE,
        sequences=running,
        pp=p,
    )
    w_dec = _weights_read(chain, m, micro, "decode.weights_read_gb")
    d_weights = chain(
        "decode.weights_s", sp.DECODE_WEIGHTS_S, "s per stage", src_roof,
        weights_read_gb=w_dec, tp=t, pp=p, bandwidth_gbs=acc.bandwidth_gbs, mbu=eff.bandwidth,
    )  # fmt: skip
    d_linear = chain(
        "decode.linear_s", sp.DECODE_LINEAR_S, "s per stage", src_roof,
        batch=micro, active_parameters=active, tp=t, pp=p, peak_tflops=acc.peak_tflops,
        mfu=eff.compute,
    )  # fmt: skip
    d_kv = chain(
        "decode.kv_s", sp.DECODE_KV_S, "s per stage", f"{sp.KV_SOURCE}; {src_roof}",
        batch=micro, context=ctx, kv_gb_per_token=kv_tok, kv_shards=shards, pp=p,
        bandwidth_gbs=acc.bandwidth_gbs, mbu=eff.bandwidth,
    )  # fmt: skip
    d_attention = chain(
        "decode.attention_s", sp.DECODE_ATTENTION_S, "s per stage",
        f"{src_roof}; {sp.ATTENTION_PRECISION}",
        batch=micro, layers=m.layers, context=ctx, attention_width=m.attention_width, tp=t, pp=p,
        attention_tflops=acc.attention_peak, mfu=eff.compute,
    )  # fmt: skip
    d_ar = _allreduce(chain, "decode.allreduce_s", m, par, eff, micro)
    d_ho = _handoff(chain, "decode.handoff_s", m, par, eff, micro)
    d_comm = chain(
        "decode.comm_s",
        sp.DECODE_COMM_S,
        "s per stage",
        f"{sp.MEGATRON_TP}; {sp.PIPELINE}",
        layers=m.layers,
        pp=p,
        allreduce_s=d_ar,
        handoff_s=d_ho,
    )
    stage = chain(
        "decode.stage_s", sp.DECODE_KERNELS_S, "s", sp.KERNELS,
        weights_s=d_weights, linear_s=d_linear, kv_s=d_kv, attention_s=d_attention,
        comm_s=d_comm,
    )  # fmt: skip
    gpu_step = chain("decode.gpu_s", sp.DECODE_GPU_S, "s", sp.PIPELINE, pp=p, stage_s=stage)
    host = chain(
        "decode.host_s", sp.DECODE_HOST_S, "s",
        f"{sp.HOST_SOURCE}; {sp.ATTENTION_DP}" if m.moe and t > 1 else sp.HOST_SOURCE,
        requests=running, schedulers=t if m.moe else 1,
        host_microseconds_per_request=eff.host_us_per_sequence,
    )  # fmt: skip
    step = chain(
        "decode_step_s", sp.DECODE_STEP_S, "s", sp.HOST_SOURCE, gpu_s=gpu_step, host_s=host
    )
    # --- what a prompt adds to the round, and when its first token comes out
    fused = eff.chunked_prefill and running > 1
    if fused:
        extra = 0.0
        if m.moe:
            w_chunk = _weights_read(chain, m, micro + sp.STEP_TOKENS, "prompt.weights_read_gb")
            extra = chain(
                "prompt.extra_weights_s", sp.CHUNK_EXTRA_READ_S, "s per chunk",
                f"{sp.MOE_SOURCE}; {sp.STEP_TOKENS_SOURCE}",
                chunk_weights_read_gb=w_chunk, weights_read_gb=w_dec, tp=t, pp=p,
                bandwidth_gbs=acc.bandwidth_gbs, mbu=eff.bandwidth,
            )  # fmt: skip
        prompt = chain(
            "prompt_s", sp.PREFILL_FUSED_S, "s per prompt",
            f"{sp.CHUNKED_PREFILL}; {sp.STEP_TOKENS_SOURCE}",
            compute_s=pf_compute, comm_s=pf_comm, layers=m.layers, pp=p,
            allreduce_latency_s=_allreduce_latency(None, "", par, eff),
            handoff_latency_s=eff.latency_s if p > 1 and par.pp_link is not None else 0.0,
            tokens=req.input_tokens, step_tokens=sp.STEP_TOKENS, extra_weights_s=extra,
        )  # fmt: skip
        first = chain(
            "first_token_s", sp.FIRST_TOKEN_S, "s",
            f"{sp.CHUNKED_PREFILL}; {sp.FIRST_TOKEN_HOST_SOURCE}",
            prefill_s=prefill, decode_step_s=step, prompt_s=prompt,
            first_token_host_ms=eff.first_token_host_ms,
        )  # fmt: skip
    else:
        prompt = prefill
        first = chain(
            "first_token_s", sp.FIRST_TOKEN_ALONE_S, "s", sp.FIRST_TOKEN_HOST_SOURCE,
            prefill_s=prefill, first_token_host_ms=eff.first_token_host_ms,
        )  # fmt: skip
    # --- the closed loop
    work = chain(
        "work_s",
        WORK_S,
        "s per round",
        LOAD_SOURCE,
        sequences=running,
        prompt_s=prompt,
        output_tokens=req.output_tokens,
        decode_step_s=step,
    )
    load = chain(
        "prefill_load", PREFILL_LOAD, "share of time", LOAD_SOURCE,
        sequences=running, prompt_s=prompt, work_s=work,
    )  # fmt: skip
    pf_wait = chain(
        "prefill_wait_s", PREFILL_WAIT_S, "s", QUEUE_SOURCE,
        prompt_s=prompt, prefill_load=load, sequences=running,
    )  # fmt: skip
    decode_phase = chain(
        "decode_phase_s",
        DECODE_PHASE_S,
        "s",
        LOAD_SOURCE,
        output_tokens=req.output_tokens,
        decode_step_s=step,
        sequences=running,
        prompt_s=prompt,
        work_s=work,
    )
    itl = chain(
        "itl_ms", ITL_MS, "ms", LOAD_SOURCE,
        decode_phase_s=decode_phase, output_tokens=req.output_tokens, decode_step_s=step,
    )  # fmt: skip
    queue = 0.0
    if sequences > running:
        queue = chain(
            "kv_queue_wait_s", QUEUE_WAIT_S, "s", KV_QUEUE_SOURCE,
            waiting=sequences - running, running=running, first_token_s=first,
            prefill_wait_s=pf_wait, decode_phase_s=decode_phase,
        )  # fmt: skip
    ttft = chain(
        "ttft_ms", TTFT_MS, "ms", QUEUE_SOURCE,
        first_token_s=first, prefill_wait_s=pf_wait, queue_wait_s=queue,
    )  # fmt: skip
    tps = chain(
        "tokens_per_s_per_replica", TOKENS_PER_S, "output tokens/s", LOAD_SOURCE,
        sequences=sequences, output_tokens=req.output_tokens, ttft_ms=ttft,
        decode_phase_s=decode_phase,
    )  # fmt: skip
    rps = chain(
        "requests_per_s_per_replica", REQUESTS_PER_S, "requests/s", LOAD_SOURCE,
        tokens_per_s=tps, output_tokens=req.output_tokens,
    )  # fmt: skip
    # memory-bound when either kernel waits on its reads rather than its FLOPs
    bound = "memory bandwidth" if d_weights > d_linear or d_kv > d_attention else "compute"
    if host > gpu_step:
        bound = HOST_BOUND
    return Point(sequences, running, prefill, step, bound, ttft, itl, tps, rps)


def quiet(
    m: Transformer, par: Parallel, acc: Accelerator, eff: Efficiency, req: Request, most: int
) -> Callable[[int], Point]:
    """A fast evaluator of one layout at any number of sequences, for searching."""
    chain = Chain()
    ctx = sp.CONTEXT_IN_FLIGHT(input_tokens=req.input_tokens, output_tokens=req.output_tokens)
    kv_tok = kv_per_token(chain, m, ctx)
    cache: dict[int, Point] = {}

    def at(sequences: int) -> Point:
        if sequences not in cache:
            cache[sequences] = evaluate(chain, m, par, acc, eff, req, sequences, ctx, kv_tok, most)
        return cache[sequences]

    return at


def sequences_for_rate(at: Callable[[int], Point], rate: float, most: int) -> int | None:
    """The fewest sequences in flight at which one replica carries ``rate`` requests/s (the
    concurrency the load settles at, by Little's law), or None if ``most`` cannot."""
    return first_true(lambda n: at(n).requests_per_s >= rate, 1, most)


def ceil_div(a: float, b: float) -> int:
    return max(1, math.ceil(a / b - 1e-9))
