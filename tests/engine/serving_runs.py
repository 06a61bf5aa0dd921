"""Published serving measurements the serving defaults were NOT set from, each rebuilt as a design
from what its source states, for the held-back test and the README's table.

Source: NVIDIA TensorRT-LLM performance overview, release 1.0 (docs/source/performance/
perf-overview.md, PyTorch backend, commit 00f37686): "a local inference client is fed requests
at an infinite rate ... The reported metric is `Total Output Throughput (tokens/sec)`", with
NVIDIA's FP8 and FP4 (NVFP4) ModelOpt checkpoints on DGX H100, DGX H200, DGX B200 and RTX PRO
6000 Blackwell Server Edition. MoE models there run attention data-parallel with expert
parallelism, which the engine does not model (it plans tensor parallelism): they are kept, and
their error is reported with the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

TRT10 = "TensorRT-LLM 1.0"
HOSTS = {
    "h100-sxm5-80gb": "dell-xe9680",
    "h200-sxm-141gb": "dell-xe9680",
    "b200-sxm": "supermicro-sys-a22ga-nbrt",
    "rtx-pro-6000-bse": "dell-xe7740",
}
H100, H200, B200, RTX = "h100-sxm5-80gb", "h200-sxm-141gb", "b200-sxm", "rtx-pro-6000-bse"


@dataclass(frozen=True)
class Measured:
    id: str
    model: str  # preset
    precision: str
    gpu: str
    tp: int
    isl: int
    osl: int
    tokens_per_s: float  # total output tokens/s, offline maximum throughput
    source: str = TRT10

    def design(self) -> dict:
        return {
            "workloads": [{
                "name": self.id, "kind": "inference", "model": {"preset": self.model},
                "precision": self.precision,
                "parallelism": {"tensor_parallel": self.tp, "pipeline_parallel": 1,
                                "data_parallel": 1},
                "inference": {"input_tokens": self.isl, "output_tokens": self.osl,
                              "concurrent_sequences": 100_000},
            }],
            "hardware": {"gpu": self.gpu, "server": HOSTS[self.gpu], "gpus_per_host": 8,
                         "nvlink": self.gpu != RTX},
        }  # fmt: skip


HELD_BACK = [
    Measured("8B-H100-1k1k", "llama-3.1-8b", "fp8", H100, 1, 1000, 1000, 15_220),
    Measured("8B-H100-5k500", "llama-3.1-8b", "fp8", H100, 1, 5000, 500, 3_459),
    Measured("8B-H100-20k2k", "llama-3.1-8b", "fp8", H100, 1, 20000, 2000, 1_351),
    Measured("8B-H100-128-2k", "llama-3.1-8b", "fp8", H100, 1, 128, 2048, 22_714),
    Measured("8B-H200-1k1k", "llama-3.1-8b", "fp8", H200, 1, 1000, 1000, 17_744),
    Measured("8B-H200-2k2k", "llama-3.1-8b", "fp8", H200, 1, 2048, 2048, 12_194),
    Measured("70B-H100-1k1k", "llama-3.3-70b", "fp8", H100, 2, 1000, 1000, 4_205),
    Measured("70B-H100-5k500", "llama-3.3-70b", "fp8", H100, 2, 5000, 500, 898),
    Measured("70B-H100-500-2k", "llama-3.3-70b", "fp8", H100, 2, 500, 2000, 5_222),
    Measured("70B-H100-20k2k", "llama-3.3-70b", "fp8", H100, 2, 20000, 2000, 437),
    Measured("70B-H200-1k1k", "llama-3.3-70b", "fp8", H200, 1, 1000, 1000, 2_909),
    Measured("70B-H200-5k500", "llama-3.3-70b", "fp8", H200, 1, 5000, 500, 566),
    Measured("70B-B200-FP4-1k1k", "llama-3.3-70b", "fp4", B200, 1, 1000, 1000, 7_007),
    Measured("70B-B200-FP4-5k500", "llama-3.3-70b", "fp4", B200, 1, 5000, 500, 1_459),
    Measured("70B-RTX-FP4-1k1k", "llama-3.3-70b", "fp4", RTX, 1, 1000, 1000, 1_787),
    Measured("405B-H100-1k1k", "llama-3.1-405b", "fp8", H100, 8, 1000, 1000, 2_919),
    Measured("405B-H200-1k1k", "llama-3.1-405b", "fp8", H200, 8, 1000, 1000, 3_330),
    Measured("405B-H200-5k500", "llama-3.1-405b", "fp8", H200, 8, 5000, 500, 650),
    Measured("405B-B200-FP4-1k1k", "llama-3.1-405b", "fp4", B200, 4, 1000, 1000, 5_209),
    Measured("Qwen3-235B-H200-1k1k", "qwen3-235b-a22b", "fp8", H200, 8, 1000, 1000, 23_789),
    Measured("Qwen3-235B-H100-1k1k", "qwen3-235b-a22b", "fp8", H100, 8, 1000, 1000, 14_898),
    Measured("Qwen3-30B-B200-FP4-1k1k", "qwen3-30b-a3b", "fp4", B200, 1, 1000, 1000, 25_828),
    Measured("Maverick-H200-1k1k", "llama-4-maverick", "fp8", H200, 8, 1000, 1000, 31_782),
]
