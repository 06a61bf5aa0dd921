"""How a serving group's figures read, in one wording for the terminal, the wizard and the
proposal: time to first token, time between tokens and throughput against each target."""

from __future__ import annotations

from wizard.base.numbers import figure
from wizard.engine import FIGURE_OF, FigureRange
from wizard.model.result import ServingResult, TargetCheck

METRICS = {
    "ttft": "Time to first token",
    "itl": "Time between tokens",
    "throughput": "Throughput",
}


Spread = dict[str, FigureRange]  # a group's ranges by figure (see wizard.engine.decide.ranges)


def at_risk(t: TargetCheck, spread: Spread | None) -> float | None:
    """The pessimistic figure when ``t`` is met as estimated but missed at the pessimistic end."""
    rng = (spread or {}).get(FIGURE_OF[t.metric])
    if rng is None or not t.met:
        return None
    return rng.pessimistic if rng.misses(t.target) else None


def verdict(t: TargetCheck, spread: Spread | None = None) -> str:
    if not t.met:
        return f"missed by {t.shortfall:.0%}"
    worse = at_risk(t, spread)
    if worse is not None:
        return f"at risk: met as estimated, missed at the pessimistic end ({figure(worse, t.unit)})"
    return "met" if spread else "met as estimated"


def target_text(t: TargetCheck, spread: Spread | None = None) -> str:
    bound = "at most" if t.metric in ("ttft", "itl") else "at least"
    return f"target {bound} {figure(t.target, t.unit)}: {verdict(t, spread)}"


def spread_text(value: float, rng: FigureRange | None, unit: str) -> str:
    """'6.3 h (5.0–7.2)': the figure and its range over the stated spread of the assumptions."""
    if rng is None or rng.low == rng.high:
        return figure(value, unit)
    lo, hi = figure(rng.low, unit).split(" ")[0], figure(rng.high, unit).split(" ")[0]
    return f"{figure(value, unit)} ({lo}–{hi})"


SHORT = {"ttft": "first token", "itl": "between tokens", "throughput": "throughput"}


def target_short(t: TargetCheck, spread: Spread | None = None) -> str:
    """A target in a few words, for a table cell, its verdict first so a narrow column that
    cuts the cell still shows it: 'met: between tokens ≤ 100 ms'; with ``spread``, 'at risk'
    when it holds only as estimated."""
    sign = "≤" if t.metric in ("ttft", "itl") else "≥"
    if not t.met:
        word = f"missed by {t.shortfall:.0%}"
    else:
        word = "at risk" if at_risk(t, spread) is not None else "met"
    return f"{word}: {SHORT[t.metric]} {sign} {figure(t.target, t.unit)}"


def serving_rows(
    s: ServingResult, spread: Spread | None = None, basis: dict[str, str] | None = None
) -> list[tuple[str, str]]:
    """(label, text) rows describing the group at its planned load; with ``spread``, each time
    and rate with its range and each target met, at risk or missed; with ``basis``, each
    figure said as measured, calibrated or estimated."""
    by_metric = {t.metric: t for t in s.targets}
    sp = spread or {}
    key = {"ttft": "ttft_ms", "itl": "itl_ms", "throughput": "tokens_per_s_total"}

    def with_target(metric: str, text: str) -> str:
        t = by_metric.get(metric)
        text = f"{text} ({target_text(t, spread)})" if t else text
        return f"{text}; {basis[key[metric]]}" if basis else text

    return [
        (
            "Requests",
            f"{s.input_tokens:,} prompt + {s.output_tokens:,} output tokens on average; "
            f"up to {s.max_context_tokens:,} tokens",
        ),
        ("Load", load_text(s)),
        (METRICS["ttft"], with_target("ttft", spread_text(s.ttft_ms, sp.get("ttft_ms"), "ms"))),
        (METRICS["itl"], with_target("itl", spread_text(s.itl_ms, sp.get("itl_ms"), "ms"))),
        (
            METRICS["throughput"],
            with_target(
                "throughput",
                f"{spread_text(s.tokens_per_s_total, sp.get('tokens_per_s_total'), 'output tokens/s')}, "
                f"{figure(s.requests_per_s_total, 'requests/s')}"
                + (
                    f" ({figure(s.tokens_per_s_per_replica, 'tokens/s')} per replica)"
                    if s.replicas > 1
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


def load_text(s: ServingResult) -> str:
    planned = s.sequences_planned
    text = f"{planned:,} request{'s' if planned != 1 else ''} in flight at the peak"
    if s.replicas > 1:
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
