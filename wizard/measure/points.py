"""What a benchmark file says, tool by tool reduced to the same few kinds of point. A field a file
does not give is None; the fit uses what is there and says what it could not use."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

RunKind = Literal["serving", "collective", "training"]


@dataclass(frozen=True)
class ServingPoint:
    """One load level of a serving benchmark at ``concurrency`` requests in flight on average:
    as the file states it (a closed loop), or derived by Little's law from the measured request
    rate and the mean time a request spends in the system (``load`` says which). None: the load
    is not known, and the point is not fitted."""

    concurrency: float | None
    input_tokens: float  # mean prompt length of the requests
    output_tokens: float  # mean answer length
    ttft_ms: float | None = None  # mean time to first token
    itl_ms: float | None = None  # mean time between tokens (ITL / TPOT)
    tokens_per_s: float | None = None  # output tokens per second over all requests
    requests: int | None = None  # completed requests the means are over
    load: str = "stated"  # "stated", or how the concurrency was derived, in words
    refused: tuple[tuple[str, str], ...] = ()  # (metric, why) measured figures not to be used


@dataclass(frozen=True)
class CollectivePoint:
    """One message size of an nccl-tests run: the bus bandwidth NCCL reports (busbw), which is
    comparable to a link's rate whatever the number of ranks."""

    operation: str  # "all_reduce", "all_gather", "reduce_scatter", ...
    size_bytes: float
    time_us: float
    busbw_gbs: float  # GB/s, out of place


@dataclass(frozen=True)
class TrainingPoint:
    """A training run's pace: seconds per step, or the time to train with its samples."""

    step_s: float | None = None
    time_to_train_s: float | None = None
    samples: float | None = None  # samples the run trained on (with time_to_train_s)
    global_batch: int | None = None


@dataclass(frozen=True)
class Run:
    """A benchmark file read: the tool that wrote it, what it says about the setup (as written
    in the file; None where it says nothing) and its points."""

    kind: RunKind
    tool: str  # "vLLM bench serve", "AIPerf", "GenAI-Perf", "nccl-tests", "MLPerf Training"
    points: tuple[ServingPoint, ...] | tuple[CollectivePoint, ...] | tuple[TrainingPoint, ...]
    version: str | None = None
    date: str | None = None
    model: str | None = None  # as the file names it (a Hugging Face id, a NIM name, ...)
    gpu: str | None = None  # as the file names it ("NVIDIA H100 80GB HBM3")
    gpus: int | None = None  # GPUs the run used (nccl-tests ranks, MLPerf accelerators)
    hosts: int | None = None  # hosts the run spanned (nccl-tests' "on HOST" of its ranks)
    replicas: int | None = None  # serving replicas the load was spread over, as the file says
    notes: tuple[str, ...] = field(default_factory=tuple)  # what was read and left out
