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
    "(parameters * base_bytes + trainable_adapters * adapter_bytes) / shards / 1e9"
)
GRADIENTS_GB = Formula("trainable_parameters * gradient_bytes / shards / 1e9")
OPTIMIZER_GB = Formula("trainable_parameters * (state_bytes + master_bytes) / shards / 1e9")
ACTIVATIONS = {
    # Korthikanti et al. (arXiv:2205.05198) Eq. 1-6: bytes per layer of s x b x h activations.
    (Recompute.NONE, False): Formula(
        "layers * s * b * h * (10 + 24 / t + 5 * a * s / (h * t)) * element_bytes / 2 / 1e9"
    ),
    (Recompute.NONE, True): Formula(
        "layers * s * b * h * (34 + 5 * a * s / h) / t * element_bytes / 2 / 1e9"
    ),
    (Recompute.SELECTIVE, False): Formula(
        "layers * s * b * h * (10 + 24 / t) * element_bytes / 2 / 1e9"
    ),
    (Recompute.SELECTIVE, True): Formula("layers * s * b * h * 34 / t * element_bytes / 2 / 1e9"),
    (Recompute.FULL, False): Formula("layers * s * b * h * 2 * element_bytes / 2 / 1e9"),
    (Recompute.FULL, True): Formula("layers * s * b * h * 2 / t * element_bytes / 2 / 1e9"),
}
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
                f"FSDP (ZeRO-{self.zero}) over {self.shard} GPUs"
                if self.zero >= 3
                else f"ZeRO-{self.zero} over {self.shard} GPUs"
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


def memory_parts(job: Job, st: Strategy, trainable: float) -> dict[str, tuple[Formula, dict]]:
    """Each part of the memory per GPU as (formula, inputs), for evaluating or logging."""
    adapters = trainable if job.lora else 0.0
    parts: dict[str, tuple[Formula, dict]] = {
        "weights": (
            WEIGHTS_GB,
            {
                "parameters": job.params,
                "base_bytes": job.base_bytes,
                "trainable_adapters": adapters,
                "adapter_bytes": memory.PARAM_BYTES[job.precision],
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
    if job.shape is not None:
        sp = st.sequence_parallel and st.tensor > 1
        parts["activations"] = (
            ACTIVATIONS[(st.recompute, sp)],
            {
                "layers": job.shape.layers,
                "s": job.sequence,
                "b": job.micro_batch,
                "h": job.shape.hidden,
                "a": job.shape.heads,
                "t": st.tensor,
                "element_bytes": memory.activation_element_bytes(job.precision),
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


def memory_total(job: Job, st: Strategy, trainable: float) -> float:
    parts = {k: f(**inputs) for k, (f, inputs) in memory_parts(job, st, trainable).items()}
    return TOTAL_GB(
        weights=parts["weights"],
        gradients=parts["gradients"],
        optimizer=parts["optimizer"],
        activations=parts.get("activations", 0.0),
        overhead=job.overhead_gb,
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
    cheap = [Recompute.NONE, Recompute.SELECTIVE] if job.shape else [Recompute.NONE]
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
