"""Sharing modes: the side-by-side comparison for this design, and where every workload runs
(MIG instances and vGPU profiles per GPU). Left out while the Result holds neither."""

from __future__ import annotations

from collections import defaultdict

from reports.diagrams import charts
from reports.doctree import Block
from reports.sections import calculations
from reports.story import Story
from wizard.base.numbers import MISSING, count, num, pct
from wizard.model.design import SharingMode
from wizard.model.result import Packing, WorkloadResult
from wizard.present import labels

PER_GPU_ROWS = 64  # above this many GPUs, identical layouts are grouped


def _ranges(numbers: list[int]) -> str:
    """[1, 2, 3, 5] -> '1–3, 5'."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def _mode(value: str) -> str:
    """A GPU's sharing mode in its short wording; an unused GPU is "free"."""
    return labels.name(labels.MODE_SHORT, value)


def layout_rows(packing: Packing) -> list[list[str]]:
    gpus = [(h.host, g) for h in packing.hosts for g in h.gpus]
    if len(gpus) <= PER_GPU_ROWS:
        rows = [["Host", "GPU", "Mode", "Layout", "Workloads", "Allocated"]]
        for host, g in gpus:
            names = sorted({s.workload for s in g.slots})
            rows.append(
                [
                    str(host + 1),
                    str(g.gpu),
                    _mode(g.mode),
                    g.layout,
                    ", ".join(names) or "free",
                    pct(g.utilization),
                ]
            )
        return rows
    groups: dict[tuple[str, str, str], list[int]] = defaultdict(list)
    for host, g in gpus:
        sharing = ", ".join(sorted({s.workload for s in g.slots})) or "free"
        groups[(_mode(g.mode), g.layout, sharing)].append(host + 1)
    rows = [["Hosts", "GPUs", "Mode", "Layout", "Workloads", ""]]
    for (mode, layout, sharing), hosts in groups.items():
        rows.append([_ranges(sorted(set(hosts))), num(len(hosts)), mode, layout, sharing, ""])
    return rows


def build(st: Story) -> list[Block] | None:
    r = st.data.result
    if not r.sharing_comparison and not r.packing.hosts:
        return None
    flow: list[Block] = []
    if r.sharing_comparison:
        flow += st.h2("Comparison of sharing modes")
        flow.append(
            st.p(
                "The same workloads under each way of giving VMs GPUs: how many GPUs and hosts "
                "each needs, how well it uses them, and what it gives up."
            )
        )
        chart = charts.sharing(st.data, st.width)
        if chart is not None:
            flow.append(
                st.figure(
                    chart, "GPUs and the mean share allocated to the workloads, per sharing mode."
                )
            )
        rows: list[list] = [["Mode", "GPUs", "Hosts", "Allocated", "Available"]]
        for o in r.sharing_comparison:
            rows.append(
                [
                    o.label,
                    num(o.gpus) if o.available else MISSING,
                    num(o.hosts_total) if o.available else MISSING,
                    pct(o.mean_utilization) if o.available else MISSING,
                    "yes" if o.available else f"no – {o.reason}",
                ]
            )
        flow.append(st.table(rows, [2.4, 0.7, 0.7, 1.0, 3.7], right=(1, 2, 3)))
        for o in r.sharing_comparison:
            pairs = [
                ("Isolation", o.isolation),
                ("Live migration", o.live_migration),
                ("High availability", o.ha_behaviour),
                ("Licences", o.licences),
            ]
            pairs = [(k, v) for k, v in pairs if v] + [("Caveat", c) for c in o.caveats]
            if pairs:  # a mode that cannot serve the design may have nothing more to say
                flow += st.h3(o.label)
                flow.append(st.pairs(pairs, 0.22))
        calcs = st.data.calculations("sharing.")
        if calcs:
            flow += st.h3("Calculations")
            flow.append(calculations.table(st, calcs, "sharing."))
    if r.packing.hosts:
        p = r.packing
        flow += st.h2("GPU layouts")
        flow.append(
            st.p(
                f"Where every workload runs: {count(p.gpus_used, 'GPU')} on "
                f"{count(p.hosts_used, 'host')} {'is' if p.gpus_used == 1 else 'are'} used, "
                f"{pct(p.mean_utilization)} of {'it' if p.gpus_used == 1 else 'them'} on average "
                "by the stated "
                "needs. MIG layouts give each instance's profile and its memory-slice start."
            )
        )
        flow.append(st.table(layout_rows(p), [0.6, 0.5, 1.3, 2.9, 2.5, 1.0], right=(5,)))
        types = vgpu_type_rows(r.workloads)
        if types:
            flow += st.h3("vGPU types to assign")
            flow.append(
                st.p(
                    "The vGPU type an administrator selects for each VM in vCenter. MIG-backed "
                    "types name the MIG instance's compute slices and memory."
                )
            )
            flow.append(st.table(types, [2.8, 2.2, 2.0, 1.8]))
    return flow


def vgpu_type_rows(workloads: list[WorkloadResult]) -> list[list[str]]:
    """One row per group whose VMs get a vGPU: time-sliced profiles and MIG-backed types."""
    rows = [["Workload group", "Sharing mode", "vGPU type", "MIG instance"]]
    for w in workloads:
        if not w.sharing.vgpu_type or not w.gpus_total:
            continue
        mig = w.sharing.slot_profile if w.sharing.mode == SharingMode.MIG.value else MISSING
        rows.append(
            [
                w.name,
                labels.mode(w.sharing.mode) if w.sharing.mode else MISSING,
                w.sharing.vgpu_type,
                mig or MISSING,
            ]
        )
    return rows if len(rows) > 1 else []
