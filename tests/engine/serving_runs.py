"""Published serving measurements the serving defaults were NOT set from, each rebuilt as a design
from what its source states, for the held-back test and the table in docs/model.md.

Source: NVIDIA TensorRT-LLM performance overview, release 1.0 (docs/source/performance/
perf-overview.md, PyTorch backend, commit 00f37686): "a local inference client is fed requests
at an infinite rate ... The reported metric is `Total Output Throughput (tokens/sec)`", with
NVIDIA's FP8 and FP4 (NVFP4) ModelOpt checkpoints on DGX H100, DGX H200, DGX B200 and RTX PRO
6000 Blackwell Server Edition. MoE models there run attention data-parallel with expert
parallelism, which the engine does not model (it plans tensor parallelism): they are kept, and
their error is reported with the rest.

Source of the TensorRT-LLM 0.17 rows: the same file at release 0.17 (commit 258c7540): "All data
in the table below was generated using version 0.17 and presents token throughput in
tokens/second", FP8 (with an FP8 KV cache) on H100, H200 and L40S, FP16 on A100-SXM4-80GB.
"""

from __future__ import annotations

from dataclasses import dataclass

TRT10 = "TensorRT-LLM 1.0"
TRT17 = "TensorRT-LLM 0.17"
HOSTS = {
    "h100-sxm5-80gb": "dell-xe9680",
    "h200-sxm-141gb": "dell-xe9680",
    "b200-sxm": "supermicro-sys-a22ga-nbrt",
    "rtx-pro-6000-bse": "dell-xe7740",
    "l40s": "lenovo-sr675-v3",
    "a100-sxm4-80gb": "dell-xe9680",
}
H100, H200, B200, RTX = "h100-sxm5-80gb", "h200-sxm-141gb", "b200-sxm", "rtx-pro-6000-bse"
L40S, A100 = "l40s", "a100-sxm4-80gb"


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
                         "nvlink": self.gpu not in (RTX, L40S)},
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
    Measured("17-8B-L40S-1k1k", "llama-3.1-8b", "fp8", L40S, 1, 1000, 1000, 4_054.71, TRT17),
    Measured("17-8B-L40S-5k500", "llama-3.1-8b", "fp8", L40S, 1, 5000, 500, 981.2, TRT17),
    Measured("17-8B-A100-FP16", "llama-3.1-8b", "fp16", A100, 1, 1000, 1000, 3_786.83, TRT17),
    Measured("17-70B-H100-TP4", "llama-3.1-70b", "fp8", H100, 4, 1000, 1000, 7_430.99, TRT17),
    Measured("17-70B-H100-TP8", "llama-3.1-70b", "fp8", H100, 8, 1000, 1000, 11_451.16, TRT17),
    Measured("17-70B-A100-TP4", "llama-3.1-70b", "fp16", A100, 4, 1000, 1000, 1_921.77, TRT17),
    Measured("17-70B-A100-TP8", "llama-3.1-70b", "fp16", A100, 8, 1000, 1000, 3_320.41, TRT17),
    Measured("17-70B-L40S-TP4", "llama-3.1-70b", "fp8", L40S, 4, 1000, 1000, 1_209.25, TRT17),
    Measured("17-8x7B-H100-TP1", "mixtral-8x7b", "fp8", H100, 1, 1000, 1000, 6_868.52, TRT17),
    Measured("17-8x7B-H200-TP1", "mixtral-8x7b", "fp8", H200, 1, 1000, 1000, 10_371.36, TRT17),
    Measured("17-8x7B-A100-TP4", "mixtral-8x7b", "fp16", A100, 4, 1000, 1000, 7_122.84, TRT17),
    Measured("17-8x22B-H100-TP8", "mixtral-8x22b", "fp8", H100, 8, 1000, 1000, 16_573.24, TRT17),
]
