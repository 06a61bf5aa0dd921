"""The options of a design as one table, for the proposal and the wizard alike: a row per
figure, a column per option, each target met, at risk or missed, and the proposal in a sentence."""

from __future__ import annotations

from dataclasses import dataclass

from wizard.base.numbers import MISSING, count, num, plural
from wizard.model.options import OptionRow, TargetStatus

METRIC_NAMES = {
    "time to train": "time to train",
    "ttft": "time to first token",
    "itl": "time between tokens",
    "throughput": "throughput",
}


WHAT_IT_IS = "What it is"  # the row of each option's note


@dataclass(frozen=True)
class TableRow:
    label: str
    cells: list[str]
    verdicts: list[str | None]  # 'met', 'at risk' or 'missed' for target rows


def verdict(t: TargetStatus) -> str:
    return "missed" if not t.met else "at risk" if t.at_risk else "met"


def header(rows: list[OptionRow]) -> list[str]:
    return [r.name + (" (proposed)" if r.proposed else "") for r in rows]


def table(rows: list[OptionRow]) -> list[TableRow]:
    def plain(label: str, cells: list[str]) -> TableRow:
        return TableRow(label, cells, [None] * len(cells))

    def fig(r: OptionRow, text: str) -> str:
        return MISSING if r.error else text

    out = [
        plain(WHAT_IT_IS, [_in_cell(r.note) for r in rows]),
        plain("Clusters", [fig(r, num(r.clusters)) for r in rows]),
        plain("Hosts", [fig(r, num(r.hosts)) for r in rows]),
        plain("GPUs", [fig(r, num(r.gpus)) for r in rows]),
        plain("GPUs the workloads take", [fig(r, num(r.gpus_demand)) for r in rows]),
        plain("Power (kW)", [fig(r, f"{r.total_kw:,.1f}") for r in rows]),
        plain("Racks", [fig(r, num(r.racks)) for r in rows]),
    ]
    keys = list(dict.fromkeys((t.workload, t.metric) for r in rows for t in r.targets))
    for workload, metric in keys:
        cells, verdicts = [], []
        first = next(
            t for r in rows for t in r.targets if (t.workload, t.metric) == (workload, metric)
        )
        for r in rows:
            t = next((x for x in r.targets if (x.workload, x.metric) == (workload, metric)), None)
            cells.append(MISSING if t is None else f"{num(t.value)} {t.unit}, {verdict(t)}")
            verdicts.append(None if t is None else verdict(t))
        label = (
            f"{workload}: {METRIC_NAMES.get(metric, metric)} "
            f"(target {num(first.target)} {first.unit})"
        )
        out.append(TableRow(label, cells, verdicts))
    if any(r.cost for r in rows):
        cur = next(r.cost.currency for r in rows if r.cost)
        out.append(
            plain(
                f"Cost of ownership ({cur})",
                [f"{r.cost.total:,.0f}" if r.cost else MISSING for r in rows],
            )
        )
    return out


NOTE_IN_CELL = 160  # characters of an option's note its table column holds; longer ones go below


def _in_cell(note: str) -> str:
    if not note:
        return MISSING
    return note if len(note) <= NOTE_IN_CELL else "see the note below the table"


def notes(rows: list[OptionRow]) -> list[str]:
    """What the table cannot hold: long notes in full, options that cannot be built, costs that
    leave lines out."""
    return [f"{r.name}: {r.note}" for r in rows if len(r.note) > NOTE_IN_CELL] + problems(rows)


def problems(rows: list[OptionRow]) -> list[str]:
    """Options that cannot be built, and costs that leave lines out, one line each."""
    out = [f"{r.name}: cannot be built as stated: {r.error}" for r in rows if r.error]
    out += [
        f"{r.name}: the cost leaves out {count(len(r.cost.unpriced_items), 'unpriced line')}"
        + (f" and {'; '.join(r.cost.left_out)}" if r.cost.left_out else "")
        for r in rows
        if r.cost and (r.cost.unpriced_items or r.cost.left_out)
    ]
    return out


def proposal_sentence(rows: list[OptionRow]) -> str | None:
    """What the proposed option needs and delivers against the others, in one sentence."""
    chosen = next((r for r in rows if r.proposed), None)
    if chosen is None or chosen.error or len(rows) < 2:
        return None

    def brief(r: OptionRow) -> str:
        if r.error:
            return f"{r.name} (cannot be built as stated)"
        missed = sum(not t.met for t in r.targets)
        risky = sum(t.at_risk for t in r.targets)
        parts = [count(r.hosts, "host"), count(r.gpus, "GPU"), f"{r.total_kw:,.1f} kW"]
        if r.cost:
            parts.append(
                f"{r.cost.total:,.0f} {r.cost.currency} over {count(r.cost.years, 'year')}"
            )
        if missed:
            parts.append(f"{count(missed, 'target')} missed")
        elif risky:
            parts.append(f"{count(risky, 'target')} at risk")
        else:
            parts.append("every target met")
        return f"{r.name}: {', '.join(parts)}"

    others = "; ".join(brief(r) for r in rows if r is not chosen)
    return (
        f"Proposed: {brief(chosen)}. "
        + (f"{chosen.note[:1].upper()}{chosen.note[1:]}. " if chosen.note else "")
        + f"Also considered: {others}."
    )


def _standing(r: OptionRow) -> tuple[int, int]:
    """(targets missed, targets at risk) of an option."""
    return sum(not t.met for t in r.targets), sum(t.met and t.at_risk for t in r.targets)


def reasons(rows: list[OptionRow]) -> list[str]:
    """Why the proposed option against each alternative, in figures the customer can check in
    the table: targets (missed, at risk), cost over the period, hosts and power."""
    chosen = next((r for r in rows if r.proposed), None)
    if chosen is None or chosen.error or len(rows) < 2:
        return []
    out = []
    mine = _standing(chosen)
    for r in rows:
        if r is chosen:
            continue
        if r.error:
            out.append(f"Against {r.name}: it cannot be built as stated.")
            continue
        theirs = _standing(r)
        if mine == theirs:
            targets = (
                "both meet every target"
                if mine == (0, 0)
                else f"both leave {count(mine[0], 'target')} missed and {count(mine[1], 'target')} at risk"
            )
        elif mine < theirs:
            targets = (
                f"it meets {count(theirs[0] - mine[0], 'target')} more"
                if theirs[0] > mine[0]
                else f"{theirs[1] - mine[1]} fewer {plural(theirs[1] - mine[1], 'target')} at risk"
            )
        else:
            targets = (
                f"it gives up {count(mine[0] - theirs[0], 'target')} that {r.name} meets"
                if mine[0] > theirs[0]
                else f"{mine[1] - theirs[1]} more {plural(mine[1] - theirs[1], 'target')} at risk "
                f"than {r.name}"
            )
        parts = [targets]
        if chosen.cost and r.cost and chosen.cost.currency == r.cost.currency:
            diff = r.cost.total - chosen.cost.total
            years = count(chosen.cost.years, "year")
            parts.append(
                f"{abs(diff):,.0f} {chosen.cost.currency} {'less' if diff >= 0 else 'more'} over {years}"
            )
        hosts = r.hosts - chosen.hosts
        if hosts:
            n = abs(hosts)
            parts.append(f"{n} {'fewer' if hosts > 0 else 'more'} {plural(n, 'host')}")
        kw = r.total_kw - chosen.total_kw
        if abs(kw) >= 0.05:
            parts.append(f"{abs(kw):,.1f} kW {'less' if kw > 0 else 'more'}")
        out.append(f"Against {r.name}: {', '.join(parts)}.")
    return out
