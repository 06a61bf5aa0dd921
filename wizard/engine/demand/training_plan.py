"""Choosing how a training or fine-tuning job runs: the method's trainable parameters, the memory
per GPU of a strategy, and the strategies an expert tries in turn when the user leaves them to
the engine.

The ladder: one GPU per replica (data parallelism only); then FSDP / ZeRO-3 sharding of the model
states over 2, 4 or 8 GPUs inside one host; recomputation before either when it is cheap
(selective) and after them when it is not (full, a third more compute); then tensor parallelism,
only inside the NVLink or NVSwitch domain (never over PCIe); last, pipeline stages across hosts,
each a host's tensor-parallel group. The first strategy whose memory per GPU fits wins.
"""

from __future__ import annotations

from dataclasses import dataclass

from wizard.engine.basis import memory
from wizard.engine.basis.expr import Formula
from wizard.engine.basis.memory import Shape
from wizard.engine.demand import training_physics as tp_
from wizard.model.design import FineTuningMethod, LoraTargets, Precision, Recompute

QLORA_BYTES = 4.127 / 8  # NF4 with double quantization (Dettmers et al., section 3)

WEIGHTS_GB = Formula(
    "(frozen_parameters * frozen_bytes + trained_parameters * (weight_bytes + cast_copy_bytes))"
    " / shards / 1e9"
)
GRADIENTS_GB = Formula("trainable_parameters * gradient_bytes / shards / 1e9")
# With the optimizer step in the backward pass each gradient is freed once its parameter is
# stepped: at most the largest parameter's gradient is held (the embedding, for a language model)
LARGEST_GRADIENT_GB = Formula(
    "min(largest_tensor, trainable_parameters) * gradient_bytes / shards / 1e9"
)
OPTIMIZER_GB = Formula("trainable_parameters * (state_bytes + master_bytes) / shards / 1e9")
# Bytes each layer stores per token for the backward pass, in 16-bit elements (Korthikanti et
# al., arXiv:2205.05198, section 4, counted tensor by tensor and generalised to grouped-query
# attention and gated MLPs): the two norms' inputs and the attention and MLP inputs (8 x h), the
# stack's extra norm copies, dropout masks (2 x h, where the model trains with dropout); inside
# the tensor-parallel region Q and the attention output (4 x query width), K and V (4 x KV
# width), the MLP's inner tensors, and with eager attention the score matrices (5 a s with
# dropout, 2 a s without). GPT-3 with dropout and eager attention: 34 h + 5 a s, Korthikanti's
# Eq. 1. Sequence parallelism splits the rest over the tensor-parallel GPUs too.
LAYER_BYTES = (
    "((8 + norm_extra + dropout_bytes) * h / split"
    " + (4 * q_width + 4 * kv_width + mlp_bytes * ffn + score_bytes * a * s) / t)"
)
ACTIVATIONS_GB = Formula(f"stored_layers * s * b * {LAYER_BYTES} * element_bytes / 2 / 1e9")
# Full recomputation keeps each layer's input (2 bytes per hidden unit, split by sequence
# parallelism) and, while the backward pass runs, one layer recomputed in full
FULL_RECOMPUTE_GB = Formula("stored_layers * s * b * 2 * h / split * element_bytes / 2 / 1e9")
# Recomputing only some layers of each stage (Megatron-Core's block method) keeps the input of
# those and every activation of the rest
PARTIAL_RECOMPUTE_GB = Formula(
    f"stored_layers * s * b * (recomputed_share * 2 * h / split"
    f" + (1 - recomputed_share) * {LAYER_BYTES}) * element_bytes / 2 / 1e9"
)
RECOMPUTE_WORKING_GB = Formula(f"s * b * {LAYER_BYTES} * element_bytes / 2 / 1e9")
# The loss: logits for every token of the micro-batch (over the tensor-parallel GPUs where the
# stack splits the vocabulary); with pipeline stages the last stage holds them beside a 1/pp
# share of the layers, so only what exceeds the first stage's larger store counts
LOGITS_GB = Formula(
    "max(s * b * vocabulary * logit_bytes / vocab_split / 1e9"
    " - stored_activations * (pp - 1) / pp, 0)"
)
# PyTorch sets the gradients to None after each optimizer step and allocates each one in the
# backward pass as the activations that produced it are freed; where no micro-batches accumulate
# and no data-parallel bucket holds them, the start of the backward pass (every activation and
# the loss's logits, no gradient yet) and its end (every gradient, one layer's working set) are
# two peaks, not one sum: weights + optimizer + max(activations, gradients + recompute_working)
ACTIVATIONS_BESIDE_GRADIENTS_GB = Formula("max(activations - gradients, recompute_working)")
ALLOCATOR_GB = Formula("tensors_gb * allocator_reserve")
TOTAL_GB = Formula("weights + gradients + optimizer + activations + overhead")


@dataclass(frozen=True)
class Strategy:
    tensor: int = 1
    pipeline: int = 1
    shard: int = 1  # data-parallel ranks that share (ZeRO) the model states
    zero: int = 0
    recompute: Recompute = Recompute.NONE
    sequence_parallel: bool = False

    @property
    def gpus(self) -> int:
        """GPUs of one unit that holds a whole copy of the model states."""
        return self.tensor * self.pipeline * self.shard

    def shards(self, stage: int) -> int:
        return self.tensor * self.pipeline * (self.shard if self.zero >= stage else 1)

    def describe(self) -> str:
        parts = []
        if self.shard > 1:
            parts.append(
                f"FSDP (ZeRO-{self.zero}) sharded {self.shard} ways"
                if self.zero >= 3
                else f"ZeRO-{self.zero} sharded {self.shard} ways"
            )
        if self.tensor > 1:
            parts.append(f"tensor parallelism {self.tensor}")
        if self.pipeline > 1:
            parts.append(f"{self.pipeline} pipeline stages")
        if not parts:
            parts.append("one GPU")
        if self.recompute is not Recompute.NONE:
            parts.append(f"{self.recompute.value} recomputation")
        return ", ".join(parts)


@dataclass(frozen=True)
class Job:
    """What the strategies are sized against."""

    params: float
    active_params: float
    shape: Shape | None
    vocabulary: int
    ffn: int | None
    experts: int
    precision: Precision
    method: FineTuningMethod
    lora_rank: int
    lora_targets: LoraTargets
    gradient_bytes: float
    optimizer_bytes: float
    master_bytes: float
    sequence: int
    micro_batch: int
    overhead_gb: float
    activation_gb_per_sample: float | None  # non-transformer presets
    # what the training stack keeps (wizard.engine.demand.training_stack); the defaults are
    # Korthikanti's counting with fused attention and no stack extras
    weight_bytes: float | None = None  # per trained weight; None: the precision's bytes
    cast_copy_bytes: float = 0.0
    norm_extra: float = 0.0
    gated_mlp_bytes: float = 8.0
    logit_bytes: float = 0.0
    dropout: bool = False
    eager_attention: bool = False
    allocator_reserve: float = 0.0
    virtual_stages: int = 1
    stack_source: str = ""
    recompute_layers: int | None = None  # full recomputation of this many layers a chunk
    optimizer_in_backward: bool = False  # each gradient freed once its parameter is stepped
    # the stack allocates the gradients in each step's backward pass (PyTorch, one micro-batch a
    # step), and where no data-parallel replica keeps them in buckets (one replica, or sharded)
    fresh_gradients: bool = False
    one_replica: bool = False

    def gradients_in_backward(self, st: Strategy) -> bool:
        """Whether the gradients are allocated as the backward pass frees the activations, so
        they never sit beside the start-of-backward activations (ACTIVATIONS_BESIDE_GRADIENTS_GB):
        not under DDP, whose buckets hold a copy for the whole step."""
        return self.fresh_gradients and (self.one_replica or st.zero >= 2)

    @property
    def lora(self) -> bool:
        return self.method is not FineTuningMethod.FULL and self.shape is not None

    @property
    def base_bytes(self) -> float:
        if self.method is FineTuningMethod.QLORA and self.shape is not None:
            return QLORA_BYTES
        return memory.PARAM_BYTES[self.precision]

    def lora_widths(self) -> tuple[float, float, int]:
        """(attention width, MLP width, experts adapted): the sums of d_in + d_out of the
        adapted matrices per layer. A gated MLP (feed-forward width other than 4 x hidden, as in
        Llama and Mixtral) has three matrices, a plain one two."""
        assert self.shape is not None
        h = self.shape.hidden
        q_width = self.shape.heads * self.shape.head_dim  # h unless heads are set wider or narrower
        kv_width = self.shape.kv_heads * self.shape.head_dim
        attention = 4 * h + 2 * q_width + 2 * kv_width  # q, o: h + q width; k, v: h + kv width
        if self.lora_targets is LoraTargets.ATTENTION:
            return attention, 0.0, 1
        ffn = self.ffn or 4 * h
        matrices = 2 if ffn == 4 * h else 3
        return attention, matrices * (h + ffn), max(self.experts, 1)

    def trainable(self) -> float:
        if not self.lora:
            return self.params
        assert self.shape is not None
        att, mlp, experts = self.lora_widths()
        return tp_.LORA_PARAMS(
            rank=self.lora_rank,
            layers=self.shape.layers,
            attention_width=att,
            mlp_width=mlp,
            experts_adapted=experts,
        )


def _gated(job: Job) -> bool:
    """A gated MLP (SwiGLU) is one whose feed-forward width is given and is not 4 x hidden, the
    same rule the LoRA widths use."""
    assert job.shape is not None
    return bool(job.ffn) and job.ffn != 4 * job.shape.hidden


def _layer_inputs(job: Job, st: Strategy) -> dict[str, float]:
    """The per-layer activation formula's inputs (LAYER_BYTES), for this strategy."""
    assert job.shape is not None
    sh = job.shape
    sp = st.sequence_parallel and st.tensor > 1
    gated = _gated(job)
    ffn = job.ffn or 4 * sh.hidden
    scores = 0.0
    # the layers full recomputation leaves out of a partial recompute store their scores too
    partial = st.recompute is Recompute.FULL and recomputed_share(job, st) < 1
    if job.eager_attention and (st.recompute is Recompute.NONE or partial):
        scores = 5.0 if job.dropout else 2.0
    return {
        "norm_extra": job.norm_extra,
        "dropout_bytes": 2.0 if job.dropout else 0.0,
        "h": sh.hidden,
        "split": st.tensor if sp else 1,
        "q_width": sh.heads * sh.head_dim,
        "kv_width": sh.kv_heads * sh.head_dim,
        "mlp_bytes": job.gated_mlp_bytes if gated else 4.0,
        "ffn": ffn,
        "score_bytes": scores,
        "a": sh.heads,
        "s": job.sequence,
        "b": job.micro_batch,
        "t": st.tensor,
        "element_bytes": memory.activation_element_bytes(job.precision),
    }


def largest_tensor(job: Job) -> float:
    """The most parameters one weight tensor holds: the embedding (vocabulary x hidden), an MLP
    matrix (hidden x MLP width) or a square projection; every parameter where the shape is not
    known."""
    if job.shape is None:
        return job.params
    h = job.shape.hidden
    return float(max(job.vocabulary * h, (job.ffn or 4 * h) * h, h * h))


def recomputed_share(job: Job, st: Strategy) -> float:
    """The share of the layers full recomputation recomputes: all of them, or the stated number
    of each pipeline stage's chunk of layers/(pp v) (Megatron-Core's recompute_num_layers with
    the block method); 0 without full recomputation."""
    if st.recompute is not Recompute.FULL:
        return 0.0
    if job.recompute_layers is None or job.shape is None:
        return 1.0
    v = job.virtual_stages if st.pipeline > 1 else 1
    chunk = job.shape.layers / (st.pipeline * v)
    return min(job.recompute_layers / chunk, 1.0)


def stored_layers(job: Job, st: Strategy) -> float:
    """Layers' worth of activations the busiest GPU stores: the whole model's under 1F1B (the
    first stage holds pp micro-batches of its layers/pp), times 1 + (pp - 1) / (pp v) with v
    interleaved chunks (Korthikanti et al., arXiv:2205.05198, section 4.2.3)."""
    assert job.shape is not None
    v = job.virtual_stages if st.pipeline > 1 else 1
    extra = (st.pipeline - 1) / (st.pipeline * v) if v > 1 else 0.0
    return job.shape.layers * (1 + extra)


def memory_parts(job: Job, st: Strategy, trainable: float) -> dict[str, tuple[Formula, dict]]:
    """Each part of the memory per GPU as (formula, inputs), for evaluating or logging: the
    model states, the stored activations, the working set (the layer recomputed, the loss's
    logits) and what the caching allocator holds above them."""
    full = not job.lora
    mixed = job.weight_bytes is not None
    weight_bytes = job.weight_bytes if mixed else memory.PARAM_BYTES[job.precision]
    parts: dict[str, tuple[Formula, dict]] = {
        "weights": (
            WEIGHTS_GB,
            {
                "frozen_parameters": 0.0 if full else job.params,
                "frozen_bytes": job.base_bytes,
                "trained_parameters": trainable if job.lora else job.params,
                "weight_bytes": weight_bytes,
                "cast_copy_bytes": job.cast_copy_bytes if full else 0.0,
                "shards": st.shards(3),
            },
        ),
        "gradients": (
            GRADIENTS_GB,
            {
                "trainable_parameters": trainable,
                "gradient_bytes": job.gradient_bytes,
                "shards": st.shards(2),
            },
        ),
        "optimizer": (
            OPTIMIZER_GB,
            {
                "trainable_parameters": trainable,
                "state_bytes": job.optimizer_bytes,
                "master_bytes": job.master_bytes,
                "shards": st.shards(1),
            },
        ),
    }
    if job.optimizer_in_backward:
        parts["gradients"] = (
            LARGEST_GRADIENT_GB,
            {
                "largest_tensor": largest_tensor(job),
                "trainable_parameters": trainable,
                "gradient_bytes": job.gradient_bytes,
                "shards": st.shards(2),
            },
        )
    if job.shape is not None:
        layer = _layer_inputs(job, st)
        layers = stored_layers(job, st)
        share = recomputed_share(job, st)
        if 0 < share < 1:
            parts["activations"] = (
                PARTIAL_RECOMPUTE_GB,
                {"stored_layers": layers, "recomputed_share": share, **layer},
            )
        if st.recompute is Recompute.FULL and share == 1:
            parts["activations"] = (
                FULL_RECOMPUTE_GB,
                {
                    "stored_layers": layers,
                    "s": job.sequence,
                    "b": job.micro_batch,
                    "h": job.shape.hidden,
                    "split": layer["split"],
                    "element_bytes": layer["element_bytes"],
                },
            )
        if st.recompute is Recompute.FULL:
            working = {**layer, "score_bytes": 5.0 if job.dropout else 2.0}
            if not job.eager_attention:
                working["score_bytes"] = 0.0
            parts["recompute_working"] = (RECOMPUTE_WORKING_GB, working)
        else:
            parts["activations"] = (ACTIVATIONS_GB, {"stored_layers": layers, **layer})
        if job.logit_bytes and job.vocabulary:
            f, inputs = parts["activations"]
            parts["logits"] = (
                LOGITS_GB,
                {
                    "s": job.sequence,
                    "b": job.micro_batch,
                    "vocabulary": job.vocabulary,
                    "logit_bytes": job.logit_bytes,
                    "vocab_split": st.tensor,
                    "stored_activations": f(**inputs),
                    "pp": st.pipeline,
                },
            )
    elif job.activation_gb_per_sample:
        parts["activations"] = (
            Formula("gb_per_sample * micro_batch * element_bytes / 4"),
            {
                "gb_per_sample": job.activation_gb_per_sample,
                "micro_batch": job.micro_batch,
                "element_bytes": memory.activation_element_bytes(job.precision),
            },
        )
    return parts


WORKSPACE_PARTS = ("recompute_working", "logits")


def memory_values(job: Job, st: Strategy, trainable: float) -> dict[str, float]:
    """The parts' values; ``activations`` at the peak (stored, the layer recomputed and the
    loss's logits; beyond the gradients where those are allocated in the backward pass) and the
    allocator's reserve in ``overhead`` beside the fixed framework overhead."""
    v = {k: f(**inputs) for k, (f, inputs) in memory_parts(job, st, trainable).items()}
    v["stored_activations"] = v.get("activations", 0.0)
    v["activations"] = v["stored_activations"] + sum(v.get(k, 0.0) for k in WORKSPACE_PARTS)
    if job.gradients_in_backward(st) and job.shape is not None:
        v["activations_at_start"] = v["activations"]
        v["activations"] = ACTIVATIONS_BESIDE_GRADIENTS_GB(
            activations=v["activations"],
            gradients=v["gradients"],
            recompute_working=v.get("recompute_working", 0.0),
        )
    tensors = v["weights"] + v["gradients"] + v["optimizer"] + v["activations"]
    reserve = ALLOCATOR_GB(tensors_gb=tensors, allocator_reserve=job.allocator_reserve)
    return {
        **v,
        "tensors": tensors,
        "allocator": reserve,
        "overhead": job.overhead_gb + reserve,
    }


def memory_total(job: Job, st: Strategy, trainable: float) -> float:
    v = memory_values(job, st, trainable)
    return TOTAL_GB(
        weights=v["weights"],
        gradients=v["gradients"],
        optimizer=v["optimizer"],
        activations=v["activations"],
        overhead=v["overhead"],
    )


def ladder(
    job: Job,
    fixed_tp: int | None,
    fixed_pp: int | None,
    fixed_zero: int | None,
    fixed_recompute: Recompute | None,
    fixed_dp: int | None,
    sequence_parallel: bool,
    gpus_per_host: int,
    nvlink_domain: int,
) -> list[Strategy]:
    """Strategies in the order an expert tries them; fixed answers narrow the ladder."""
    heads = job.shape.heads if job.shape else 1
    # selective recomputation recomputes the score matrices, which fused attention never stores:
    # it is tried only where attention runs eagerly
    selective = job.shape is not None and job.eager_attention
    cheap = [Recompute.NONE, Recompute.SELECTIVE] if selective else [Recompute.NONE]
    full = [Recompute.FULL]
    if fixed_recompute is not None:
        cheap, full = [fixed_recompute], []
    if not job.shape:
        cheap, full = [fixed_recompute or Recompute.NONE], []

    def st(t: int = 1, p: int = 1, shard: int = 1, zero: int = 0, rc: Recompute = Recompute.NONE):
        return Strategy(t, p, shard, zero, rc, sequence_parallel)

    if fixed_zero and fixed_dp:
        # ZeRO as its paper defines it: the states sharded over every data-parallel rank
        t, p = fixed_tp or 1, fixed_pp or 1
        return [st(t, p, fixed_dp, fixed_zero, rc) for rc in cheap + full]
    if fixed_tp is not None or fixed_pp is not None:
        t, p = fixed_tp or 1, fixed_pp or 1
        return [st(t, p, 1, fixed_zero or 0, rc) for rc in cheap + full]
    shards = [s for s in (2, 4, 8) if s <= gpus_per_host]
    if fixed_dp is not None:
        shards = [s for s in shards if s <= fixed_dp]
    zero_sharded = fixed_zero if fixed_zero is not None else 3
    zero_single = fixed_zero if fixed_zero is not None else 0
    out: list[Strategy] = []
    for rcs in (cheap, full):
        for rc in rcs:
            out.append(st(rc=rc, zero=zero_single))
        if zero_sharded:
            out += [st(shard=s, zero=zero_sharded, rc=rc) for s in shards for rc in rcs]
    tps = [t for t in (2, 4, 8) if t <= min(nvlink_domain, gpus_per_host) and heads % t == 0]
    out += [st(t, zero=fixed_zero or 0, rc=rc) for t in tps for rc in cheap + full]
    if job.shape is not None:
        top = max(tps, default=1)
        out += [
            st(top, p, zero=fixed_zero or 0, rc=rc)
            for p in range(2, job.shape.layers + 1)
            for rc in cheap + full
        ]
    return out
