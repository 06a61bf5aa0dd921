"""How a group's GPUs read: physical GPUs are the headline; shared slots (vGPUs, MIG instances,
pool shares) are said as slots on GPUs, so "30" notebooks never reads as 30 GPUs beside a
cluster of 16."""

from __future__ import annotations

from wizard.base.numbers import count
from wizard.model.result import WorkloadResult

WHOLE = "whole GPU"
SHARE = "GPU share"


def physical_gpus(gpus: float) -> str:
    """GPUs after packing: whole when whole, else to one decimal ("2.5 GPUs")."""
    whole = round(gpus)
    if abs(gpus - whole) < 0.05:
        return count(whole, "GPU")
    return f"{gpus:,.1f} GPUs"


def gpus_text(w: WorkloadResult) -> str:
    """'4 GPUs' for whole GPUs; '30 × L40S-16C on 10 GPUs' for vGPUs or MIG instances;
    '6 GPU shares on 3 GPUs' for a network-attached pool."""
    s = w.sharing
    if s.slot_profile in (None, WHOLE) or not w.gpus_total:
        return count(w.gpus_total, "GPU")
    on = physical_gpus(s.gpus_allocated)
    if s.slot_profile == SHARE:
        return f"{count(w.gpus_total, 'GPU share')} on {on}"
    return f"{w.gpus_total:,} × {s.vgpu_type or s.slot_profile} on {on}"


def layout_text(w: WorkloadResult) -> str:
    """How a group's GPUs work together. A training job reads as one job over its data-parallel
    GPUs with the sharding said ("8 GPUs per job: DP 8 × TP 1 × PP 1, FSDP (ZeRO-3) in groups
    of 2"), never as eight one-GPU jobs; a service as replicas of its tensor × pipeline layout."""
    lay = w.layout
    if lay is None:
        return f"{w.replicas:,} × {count(w.gpus_per_replica, 'GPU')}"
    if w.training is None:
        return (
            f"{count(w.replicas, 'replica')} × {count(w.gpus_per_replica, 'GPU')} "
            f"(TP {lay.tensor_parallel} × PP {lay.pipeline_parallel})"
        )
    per_job = lay.data_parallel * lay.tensor_parallel * lay.pipeline_parallel
    text = (
        f"{count(per_job, 'GPU')} per job: DP {lay.data_parallel} × TP {lay.tensor_parallel} × "
        f"PP {lay.pipeline_parallel}"
    )
    if lay.zero_stage and lay.shard_group > 1:
        text += f", FSDP (ZeRO-{lay.zero_stage}) in groups of {lay.shard_group}"
    elif lay.zero_stage:
        text += f", ZeRO-{lay.zero_stage}"
    return text
