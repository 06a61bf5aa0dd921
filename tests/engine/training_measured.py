"""Published training and fine-tuning runs with a measured memory peak or step time, rebuilt as
designs. The rows (tests/engine/data/training_*_measured.toml) are copied from their sources,
each with the source, the published row's text and every setting the engine needs; this module
only maps a row's words onto the design's fields and says which rows the engine cannot express
(a GPU the catalog has not, CPU offload) and why."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).parent / "data"
GIB = 2**30

# The GPU as the row names it -> the catalog's, by its words (first match wins)
GPUS = [
    ("H200", "h200-sxm-141gb"),
    ("B200", "b200-sxm"),
    ("H100 96GB", None),  # HBM2e part at 500 W: not the catalog's H100 SXM5 80GB
    ("H100", "h100-sxm5-80gb"),
    ("A100 40GB", "a100-sxm4-40gb"),
    ("A100", "a100-sxm4-80gb"),
    ("L40S", "l40s"),
]
STACKS = {
    "torchtune": "torchtune",
    "torchtitan": "pytorch-fsdp",
    "llm-foundry": "pytorch-fsdp",
    "hf-trainer": "hugging-face",
    "hf-peft": "hugging-face",
    "megatron-core": "megatron-core",
    "nemo": "megatron-core",
    "deepspeed": "deepspeed",
}


@dataclass(frozen=True)
class Measured:
    row: dict

    @property
    def id(self) -> str:
        return self.row["id"]

    def gpu(self) -> str | None:
        name = self.row["gpu"]
        return next((cat for words, cat in GPUS if words in name), None)

    def stack(self) -> str | None:
        s = self.row["stack"]
        return STACKS.get(s) or ("pytorch-fsdp" if "flash-attention" in s else None)

    def why_not(self) -> str | None:
        """Why the engine cannot rebuild this row, or None."""
        r = self.row
        if self.gpu() is None:
            return f"GPU not in the catalog: {r['gpu']}"
        if r.get("cpu_offload") or "offload" in r.get("sharding", ""):
            return "CPU offload: the host's memory and PCIe set the figures"
        if self.stack() is None:
            return f"training stack not modelled: {r['stack']}"
        if r.get("method") not in ("full", "lora", "qlora"):
            return f"method not modelled: {r.get('method')}"
        return None

    def design(self) -> dict:
        r = self.row
        h, ffn = int(r["hidden"]), int(r.get("ffn") or 0) or None
        model = {
            "custom": {
                "parameters": float(r["params"]),
                "layers": int(r["layers"]),
                "hidden_size": h,
                "heads": int(r["heads"]),
                "kv_heads": int(r.get("kv_heads") or r["heads"]),
                "vocab_size": int(r["vocab"]),
                "ffn_hidden_size": ffn,
                "tied_embeddings": bool(r.get("tied_embeddings")),
                "gated_mlp": bool(ffn and ffn != 4 * h),
            }
        }
        gpus = int(r["gpus"])
        tp = int(r.get("tensor_parallel") or 1)
        pp = int(r.get("pipeline_parallel") or 1)
        sharding = str(r.get("sharding", ""))
        zero = 3 if ("fsdp" in sharding or "zero3" in sharding) and "grad-op" not in sharding else 0
        if "grad-op" in sharding or "zero2" in sharding:
            zero = 2
        if self.stack() == "megatron-core" and gpus > tp * pp:
            zero = 1  # Megatron's distributed optimizer
        if gpus == 1:
            zero = 0
        precision = str(r.get("precision") or "bf16")
        if "fp8" in str(r.get("mixed_precision", "")) or "float8" in str(
            r.get("mixed_precision", "")
        ):
            precision = "fp8"
        if precision not in ("bf16", "fp8", "fp16", "fp32"):
            precision = "bf16"
        optimizer = "adamw-8bit" if "8bit" in str(r.get("optimizer", "")) else "adamw"
        group: dict = {
            "name": r["id"][:60],
            "kind": "fine-tuning" if r["method"] != "full" else "training",
            "model": model,
            "precision": precision,
            "optimizer": optimizer,
            "optimizer_in_backward": "in-backward" in str(r.get("optimizer", "")),
            "micro_batch_size": int(r["micro_batch"]),
            "sequence_length": int(r["sequence"]),
            "recompute": r["recompute"],
            "recompute_layers": int(r.get("recompute_layers") or 0) or None,
            "training_stack": self.stack(),
            "attention": "eager" if r.get("attention") == "eager" else "fused",
            # a full fine-tune whose weights and optimizer states the row states as BF16 trains
            # in pure BF16 (LoRA adapters stay FP32 under PEFT and torchtune alike)
            "pure_bf16": r["method"] == "full"
            and precision == "bf16"
            and r.get("weights_dtype") == "bf16"
            and r.get("optimizer_state_dtype") == "bf16",
            "compiled": bool(r.get("compile")),
            "chunked_loss": {"cross-entropy": False, "chunked-cross-entropy": True}.get(
                str(r.get("loss"))
            ),
            "parallelism": {
                "tensor_parallel": tp,
                "pipeline_parallel": pp,
                "data_parallel": max(gpus // (tp * pp), 1),
                "zero_stage": zero,
                "sequence_parallel": bool(r.get("sequence_parallel")) and tp > 1,
                "virtual_pipeline_stages": int(r.get("virtual_pipeline") or 0) or None,
            },
            "training": {"iterations_per_epoch": 10, "epochs": 1},
        }
        if r.get("global_batch"):
            group["global_batch_size"] = int(r["global_batch"])
        if r["method"] != "full":
            targets = str(r.get("lora_targets", ""))
            group["kind"] = "fine-tuning"
            group["fine_tuning"] = {
                "method": r["method"],
                "lora_rank": int(r.get("lora_rank") or 8),
                "lora_targets": "attention-mlp" if "mlp" in targets else "attention",
            }
        per_host = gpus if gpus < 8 else 8
        hardware = {
            "gpu": self.gpu(),
            "server": "dell-xe9680",
            "gpus_per_host": per_host if per_host in (1, 2, 4, 8) else 8,
            "nvlink": True,
            "nic": "cx7-ndr-1p",
            "nics_per_host": 8,
            "fabric": "ib-ndr",
            "rdma": "infiniband",
            "gpudirect_rdma": True,
        }
        if self.gpu() in ("a100-sxm4-40gb", "a100-sxm4-80gb"):
            hardware.update({"nic": "cx6-hdr-1p", "fabric": "ib-hdr"})
        if self.gpu() == "a100-sxm4-40gb":
            hardware["server"] = "hpe-apollo-6500-gen10-plus"  # an HGX A100 40GB board
        if self.gpu() == "b200-sxm":
            hardware["server"] = "nvidia-dgx-b200"
        if self.gpu() == "l40s":  # a PCIe card: a PCIe server, no NVLink
            hardware = {"gpu": "l40s", "server": "lenovo-sr675-v3",
                        "gpus_per_host": hardware["gpus_per_host"]}  # fmt: skip
        return {"workloads": [group], "hardware": hardware}

    def peak_gb(self) -> float:
        """The measured peak in GB (10^9 bytes)."""
        r = self.row
        peak = float(r["peak"])
        return peak * GIB / 1e9 if r.get("peak_unit", "GB") == "GiB" else peak


def load(name: str) -> list[Measured]:
    with open(DATA / name, "rb") as f:
        return [Measured(row) for row in tomllib.load(f)["run"]]
