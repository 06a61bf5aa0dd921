"""How a serving group's figures read, in one wording for the terminal, the wizard and the
proposal: time to first token, time between tokens and throughput against each target."""

from __future__ import annotations

from wizard.model.result import ServingResult, TargetCheck

METRICS = {
    "ttft": "Time to first token",
    "itl": "Time between tokens",
    "throughput": "Throughput",
}


def figure(value: float, unit: str) -> str:
    """A figure with sensible precision: whole numbers from 100 up, one decimal below."""
    text = f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.1f}"
    return f"{text} {unit}"


def target_text(t: TargetCheck) -> str:
    bound = "at most" if t.metric in ("ttft", "itl") else "at least"
    verdict = "met" if t.met else f"missed by {t.shortfall:.0%}"
    return f"target {bound} {figure(t.target, t.unit)}: {verdict}"


SHORT = {"ttft": "first token", "itl": "between tokens", "throughput": "throughput"}


def target_short(t: TargetCheck) -> str:
    """A target in a few words, for a table cell: 'between tokens ≤ 100 ms: met'."""
    sign = "≤" if t.metric in ("ttft", "itl") else "≥"
    verdict = "met" if t.met else f"missed by {t.shortfall:.0%}"
    return f"{SHORT[t.metric]} {sign} {figure(t.target, t.unit)}: {verdict}"


def serving_rows(s: ServingResult) -> list[tuple[str, str]]:
    """(label, text) rows describing the group at its planned load."""
    by_metric = {t.metric: t for t in s.targets}

    def with_target(metric: str, text: str) -> str:
        t = by_metric.get(metric)
        return f"{text} ({target_text(t)})" if t else text

    replicas = max(1, round(s.tokens_per_s_total / s.tokens_per_s_per_replica))
    return [
        (
            "Requests",
            f"{s.input_tokens:,} prompt + {s.output_tokens:,} output tokens on average; "
            f"up to {s.max_context_tokens:,} tokens",
        ),
        ("Load", load_text(s, replicas)),
        (METRICS["ttft"], with_target("ttft", figure(s.ttft_ms, "ms"))),
        (METRICS["itl"], with_target("itl", figure(s.itl_ms, "ms"))),
        (
            METRICS["throughput"],
            with_target(
                "throughput",
                f"{figure(s.tokens_per_s_total, 'output tokens/s')}, "
                f"{figure(s.requests_per_s_total, 'requests/s')}"
                + (
                    f" ({figure(s.tokens_per_s_per_replica, 'tokens/s')} per replica)"
                    if replicas > 1
                    else ""
                ),
            ),
        ),
        (
            "Per request, alone",
            f"prompt {figure(s.prefill_ms, 'ms')}; one decode step at the planned batch "
            f"{figure(s.decode_step_ms, 'ms')}, bound by {s.decode_bound} (the time between "
            "tokens also holds the pauses while other requests' prompts are processed)",
        ),
        ("Each GPU of a replica", s.accelerator),
    ]


def load_text(s: ServingResult, replicas: int) -> str:
    planned = s.sequences_per_replica * replicas
    text = f"{planned:,} request{'s' if planned != 1 else ''} in flight at the peak"
    if replicas > 1:
        text += f", {s.sequences_per_replica:,} per replica"
    if planned > s.load_sequences:
        text += f" ({s.load_sequences:,} given; the throughput target keeps more in flight)"
    return text + f"; a replica's KV cache holds {s.max_sequences_per_replica:,}"


def serving_line(s: ServingResult) -> str:
    """One line for a table cell: TTFT, time between tokens, throughput."""
    return (
        f"{figure(s.ttft_ms, 'ms')} to first token, {figure(s.itl_ms, 'ms')} between tokens, "
        f"{figure(s.tokens_per_s_total, 'tokens/s')}"
    )
