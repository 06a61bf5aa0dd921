"""Published training runs rebuilt as designs, for the calibration tests and the table in docs/model.md.

Every figure is copied from its source (the source column); the designs state what the source
states and leave the rest to the engine's defaults. ``measured`` is model TFLOP/s per GPU as the
source counts it (model FLOPs without recomputation, except where ``counts_recompute``).

Sources:
- MS: Jiang et al., MegaScale, NSDI'24, arXiv:2402.15627, Table 2 (Megatron-LM rows; 175B: 96
  layers, hidden 12,288, 128 heads, TP 8, PP 8, six interleaved stages, sequence 2,048,
  vocabulary 64,000, A100), MFU x 312 TFLOP/s.
- NEMO: NVIDIA NeMo Framework performance summary, container 24.07, DGX-H100, FP8
  (NVIDIA/NeMo docs/source/performance/performance_summary.md), "Model TFLOP/s/GPU".
- MB: NVIDIA Megatron-Bridge performance summary, container 25.11, DGX-B200, FP8 current
  scaling (NVIDIA-NeMo/Megatron-Bridge docs/performance-summary.md).
- BLOOM: BigScience tr11-176B-ml.slurm (TP 4, PP 12, micro-batch 2, global batch 2,048, full
  recomputation, BF16, 384 A100 80GB) and the BigScience team's "about 150 TFLOPs" per GPU,
  counted with the recomputation (Megatron-DeepSpeed's figure).
"""

from __future__ import annotations

from dataclasses import dataclass, field

A100 = {"gpu": "a100-sxm4-80gb", "server": "dell-xe9680", "gpus_per_host": 8, "nvlink": True,
        "nic": "cx6-hdr-1p", "nics_per_host": 8, "fabric": "ib-hdr", "rdma": "infiniband",
        "gpudirect_rdma": True}  # fmt: skip
H100 = {**A100, "gpu": "h100-sxm5-80gb", "nic": "cx7-ndr-1p", "fabric": "ib-ndr"}
B200 = {**H100, "gpu": "b200-sxm", "server": "nvidia-dgx-b200"}


def gpt(h: int, layers: int, heads: int, vocab: int, seq: int) -> dict:
    """A GPT block model; parameters by Narayanan et al. Eq. 2."""
    params = 12 * layers * h**2 * (1 + 13 / (12 * h) + (vocab + seq) / (12 * layers * h))
    return {"custom": {"parameters": params, "layers": layers, "hidden_size": h, "heads": heads,
                       "vocab_size": vocab, "tied_embeddings": True}}  # fmt: skip


@dataclass(frozen=True)
class Run:
    id: str
    source: str
    model: dict
    precision: str
    hardware: dict
    gpus: int
    tp: int
    pp: int
    vp: int | None
    mbs: int
    gbs: int
    seq: int
    measured: float  # TFLOP/s per GPU
    counts_recompute: bool = False
    extra: dict = field(default_factory=dict)

    def design(self) -> dict:
        dp = self.gpus // (self.tp * self.pp)
        par = {"tensor_parallel": self.tp, "pipeline_parallel": self.pp, "data_parallel": dp,
               "sequence_parallel": self.tp > 1, "virtual_pipeline_stages": self.vp,
               "zero_stage": 1}  # fmt: skip
        # every run here trained on Megatron (Megatron-LM, NeMo, Megatron-Bridge, and BLOOM's
        # Megatron-DeepSpeed with ZeRO stage 1, which keeps Megatron's memory layout)
        group = {"name": self.id, "kind": "training", "model": self.model,
                 "training_stack": "megatron-core",
                 "precision": self.precision, "micro_batch_size": self.mbs,
                 "global_batch_size": self.gbs, "sequence_length": self.seq,
                 "parallelism": par, "training": {"iterations_per_epoch": 10, "epochs": 1},
                 **self.extra}  # fmt: skip
        return {"workloads": [group], "hardware": self.hardware}


GPT175_MS = gpt(12288, 96, 128, 64_000, 2048)
GPT175 = gpt(12288, 96, 96, 51_200, 2048)


def _ms(gpus: int, gbs: int, mfu: float) -> Run:
    return Run(f"MS-{gpus}", "MegaScale Table 2, Megatron-LM", GPT175_MS, "bf16", A100, gpus,
               8, 8, 6, 1, gbs, 2048, mfu * 312)  # fmt: skip


# Held back: the defaults were not set from any of these.
HELD_BACK = [
    _ms(256, 768, 0.530),
    _ms(512, 768, 0.499),
    _ms(768, 768, 0.467),
    _ms(1024, 768, 0.447),
    _ms(3072, 6144, 0.487),
    _ms(6144, 6144, 0.478),
    _ms(8192, 6144, 0.433),
    _ms(12288, 6144, 0.412),
    Run(
        "BLOOM-176B",
        "BigScience tr11-176B-ml",
        gpt(14336, 70, 112, 250_880, 2048),
        "bf16",
        A100,
        384,
        4,
        12,
        None,
        2,
        2048,
        2048,
        150,
        counts_recompute=True,
        extra={"recompute": "full"},
    ),
    Run(
        "NEMO-GPT3-5B",
        "NeMo 24.07",
        gpt(4096, 24, 32, 51_200, 2048),
        "fp8",
        H100,
        64,
        1,
        1,
        None,
        4,
        2048,
        2048,
        736,
    ),
    Run(
        "NEMO-GPT3-20B",
        "NeMo 24.07",
        gpt(6144, 44, 48, 51_200, 2048),
        "fp8",
        H100,
        64,
        2,
        1,
        None,
        2,
        256,
        2048,
        750,
    ),
    Run("NEMO-GPT3-175B-128", "NeMo 24.07", GPT175, "fp8", H100, 128, 4, 8, 6, 1, 256, 2048, 782),
    Run("NEMO-GPT3-175B-512", "NeMo 24.07", GPT175, "fp8", H100, 512, 4, 8, 6, 2, 2048, 2048, 842),
    Run(
        "NEMO-LLAMA2-7B",
        "NeMo 24.07",
        {"preset": "llama-2-7b"},
        "fp8",
        H100,
        8,
        1,
        1,
        None,
        1,
        128,
        4096,
        776,
    ),
    Run(
        "NEMO-LLAMA2-13B",
        "NeMo 24.07",
        {"preset": "llama-2-13b"},
        "fp8",
        H100,
        16,
        1,
        4,
        10,
        1,
        128,
        4096,
        754,
    ),
    Run(
        "NEMO-LLAMA2-70B",
        "NeMo 24.07",
        {"preset": "llama-2-70b"},
        "fp8",
        H100,
        64,
        4,
        4,
        20,
        1,
        128,
        4096,
        759,
    ),
    Run(
        "MB-LLAMA3-8B-B200",
        "Megatron-Bridge 25.11",
        {"preset": "llama-3-8b"},
        "fp8",
        B200,
        8,
        1,
        1,
        None,
        2,
        128,
        8192,
        1576,
    ),
]
