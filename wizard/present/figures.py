"""How a group's GPUs read: physical GPUs are the headline; shared slots (vGPUs, MIG instances,
pool shares) are said as slots on GPUs, so "30" notebooks never reads as 30 GPUs beside a
cluster of 16."""

from __future__ import annotations

from wizard.model.result import WorkloadResult
from wizard.numbers import count

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
