"""An expansion's proposal in three columns the customer reads side by side: what the estate
already has and keeps, what is added, and what changes on the hosts kept (with the reboots it
takes). The bill and the cost carry only what is bought; power and racks count the whole estate,
and this section says so."""

from __future__ import annotations

from reports.doctree import Block
from reports.story import Story
from wizard.base.numbers import count, num, some
from wizard.model.estate import Estate


def is_expansion(e: Estate) -> bool:
    return any(c.existing_hosts for c in e.clusters) or bool(e.as_is)


def section(st: Story, e: Estate) -> list[Block]:
    """Existing (kept), to add and to change, per cluster, then the work on the kept hosts."""
    kept_hosts = sum(c.existing_hosts for c in e.clusters) + sum(a.hosts for a in e.as_is)
    added = sum(c.hosts - c.existing_hosts for c in e.clusters)
    reboots = sum(w.reboots for w in e.work)
    cycles = sum(w.vm_restarts for w in e.work)
    flow: list[Block] = [
        st.p(
            f"The customer runs {count(kept_hosts, 'GPU host')} today and keeps them; the "
            f"plan adds {count(added, 'host')}"
            + (
                f" and changes the kept hosts in {count(len(e.work), 'step')} "
                f"({count(reboots, 'host reboot')}"
                + (f" and {count(cycles, 'VM power cycle')}" if cycles else "")
                + " in all)"
                if e.work
                else " and changes nothing on the kept hosts"
            )
            + ". The bill of materials carries only what is bought, and the cost of ownership "
            "that and the power of what is added; the power and racks below count every host, "
            "kept or added."
        )
    ]
    rows: list[list] = [["Cluster", "Existing (kept)", "To add", "To change", "Runs"]]
    for c in e.clusters:
        per_host = c.gpus // c.hosts if c.hosts else 0
        new = c.hosts - c.existing_hosts
        changes = [w for w in e.work if w.cluster == c.name]
        rows.append(
            [
                c.name,
                _hosts(c.existing_hosts, per_host, c.server_name) if c.existing_hosts else "none",
                _hosts(new, per_host, c.server_name) if new else "nothing",
                "; ".join(w.change for w in changes) or "nothing",
                ", ".join(c.workloads) or "",
            ]
        )
    for a in e.as_is:
        rows.append(
            [a.name, f"{count(a.hosts, 'host')} ({count(a.gpus, 'GPU')})", "nothing",
             "nothing: kept as it is", a.reason + (f"; {a.not_counted}" if a.not_counted else "")]
        )  # fmt: skip
    flow.append(st.table(rows, [1.4, 1.9, 1.9, 2.0, 1.6]))
    if e.work:
        flow += st.h3("Work on the kept hosts")
        flow += st.bullets(
            [
                f"{w.cluster}, {count(len(w.hosts), 'host')} ({', '.join(w.hosts)}): {w.what}. "
                f"Why: {w.why}. "
                + (
                    f"{count(w.reboots, 'host reboot')}, one host at a time in maintenance mode."
                    if w.reboots
                    else "No host reboot."
                )
                + (
                    f" {count(w.vm_restarts, 'VM power cycle')} ({some(w.vms, 6)})."
                    if w.vm_restarts
                    else ""
                )
                for w in e.work
            ]
        )
    return flow


def _hosts(n: int, per_host: int, server: str) -> str:
    return f"{count(n, 'host')} ({server}, {count(n * per_host, 'GPU')})"


def kept_table(st: Story, e: Estate) -> list[Block]:
    """The kept hosts' lines, apart from the bill: nothing of them is bought."""
    if not e.kept:
        return []
    rows: list[list] = [["Cluster", "Item", "Kept"]]
    rows += [[ln.cluster or "", ln.description, num(ln.quantity)] for ln in e.kept]
    return [
        *st.h3("Existing (kept), not bought"),
        st.p(
            "What the existing hosts already have: listed for the whole picture, not priced and "
            "not in the totals above."
        ),
        st.table(rows, [1.5, 6.2, 0.8], right=(2,)),
    ]
