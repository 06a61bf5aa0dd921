"""The plan as plain text, for the terminal."""

from __future__ import annotations

from wizard.app.serving_text import serving_rows, spread_text
from wizard.base.numbers import MISSING, count, pct
from wizard.base.numbers import fixed as _num
from wizard.engine import FigureRange, Plan
from wizard.model import unsettled as confirm
from wizard.model.buildout import BomLine
from wizard.model.catalog import Catalog
from wizard.model.cost import CostResult
from wizard.model.design import CostInputs, Design
from wizard.model.estate import Estate
from wizard.model.options import OptionRow
from wizard.model.result import Result, SizedFrom, TrainingFigures
from wizard.present import options_table
from wizard.present import storage_need as need
from wizard.present.basis import group_gpu, serving_basis, training_basis
from wizard.present.cooling_text import cooling_sentence
from wizard.present.labels import CLUSTER_ROLE, KIND_SHORT, mode
from wizard.present.racks_text import rack_fit
from wizard.present.risk_register import plan_risks
from wizard.present.severity import SEVERITY


def by_group(ranges: list[FigureRange] | None) -> dict[str, dict[str, FigureRange]]:
    """Ranges keyed by group, then by figure."""
    out: dict[str, dict[str, FigureRange]] = {}
    for x in ranges or []:
        out.setdefault(x.workload, {})[x.figure] = x
    return out


def plan_lines(p: Plan) -> list[str]:
    """The plan for the terminal, one path for a design of one cluster or several: the whole
    design (its clusters, where each group runs, the networks, power and racks), each GPU
    cluster's own figures with their ranges, then the design's one risk register (the
    proposal's, word for word) and its one bill."""
    e = p.estate
    lines = _design_head(e)
    for c in p.clusters:
        lines += [
            "",
            f"=== {c.name} ===",
            *summary_lines(c.result, p.cluster_ranges(c.name), p.design, p.catalog),
        ]
    risks = plan_risks(p)
    if risks:
        lines += ["", "Risks and warnings:"]
        lines += [f"  [{SEVERITY[x.severity]}] {x.topic}: {x.text}. Mitigation: "
                  f"{x.mitigation}" for x in risks]  # fmt: skip
    return lines + _bill(e)


def _design_head(e: Estate) -> list[str]:
    """The whole design: totals, each cluster, where each group runs, the networks, power,
    racks and cooling."""
    t = e.totals
    lines = [
        f"{count(len(e.clusters), 'cluster')}: {count(t.hosts, 'host')}, {count(t.gpus, 'GPU')} "
        f"({t.gpus_demand:,} taken by the workloads, {t.gpus_idle:,} reserve or idle), "
        f"{_num(t.total_kw, 'kW')} ({_num(t.network_kw, 'kW')} network), "
        f"{count(t.host_racks, 'host rack')} and {count(t.network_racks, 'network rack')}",
        "",
        "Clusters:",
    ]
    for c in e.clusters:
        lines.append(
            f"  {c.name} [{CLUSTER_ROLE[c.role]}]: {count(c.hosts, 'host')} x {c.server_name}"
            + (f", {count(c.gpus, 'GPU')} ({c.gpus_demand:,} used)" if c.gpus else "")
            + f", {_num(c.hosts_kw, 'kW')}; hosts: {c.reason}"
        )
    lines += ["", "Where each workload group runs:"]
    lines += [f"  {p.workload} -> {p.cluster}: {p.reason}" for p in e.placements]
    lines += ["", "Networks:"]
    for p in e.network:
        kit = ", ".join(f"{x.count} {x.role} {x.model}" for x in p.tiers) or p.note
        lines.append(f"  {p.name:<8} {p.technology}, {p.host_ports} host ports: {kit}")
    if e.cooling is not None:
        lines += ["", f"Cooling: {cooling_sentence(e.cooling)}"]
    return lines


def _bill(e: Estate) -> list[str]:
    """The design's one bill; a cluster column when its lines name their clusters."""
    if not e.bom.lines:
        return []
    per_cluster = any(ln.cluster for ln in e.bom.lines)
    return ["", "Bill of materials:"] + [
        f"  {ln.quantity:>6} {ln.unit:<13} "
        + (f"{(ln.cluster or 'shared')[:24]:<24} " if per_cluster else "")
        + _clipped(ln)
        for ln in e.bom.lines
    ]


def _clipped(ln: BomLine) -> str:
    """A bill line's description cut to the terminal's width, its mark kept whole: a figure to
    confirm with the vendor is never cut off."""
    head = ln.description.split(f" ({confirm.MARK}:")[0]
    return confirm.tagged(head[:80], ln.to_confirm)


def summary_lines(
    r: Result,
    ranges: list[FigureRange] | None = None,
    design: Design | None = None,
    catalog: Catalog | None = None,
) -> list[str]:
    """The sized design for the terminal; with ``ranges``, times and rates with their range;
    with ``design``, each performance figure said as measured, calibrated or estimated."""
    groups = {g.name: g for g in design.workloads} if design is not None else {}
    c = r.cluster
    spreads = by_group(ranges)
    lines = [
        f"GPU {r.gpu} in {r.server}, {c.gpus_per_host} per host",
        f"  GPU demand            {c.gpus_demand}",
        f"  hosts for capacity    {c.hosts_for_capacity}",
        f"  hosts for HA          {c.hosts_for_ha}"
        + (f" (+{c.hosts_for_maintenance} maintenance)" if c.hosts_for_maintenance else "")
        + (f" (+{c.hosts_for_platform} VCF minimum)" if c.hosts_for_platform else ""),
        f"  hosts total           {c.hosts_total}",
        f"  GPUs total            {c.gpus_total}",
        f"  GPUs after failures   {c.gpus_after_failures} "
        f"({count(c.host_failures_tolerated, 'host failure')} tolerated)",
        "",
        "Workloads:",
    ]
    for w in r.workloads:
        m = w.memory_gb
        kind = KIND_SHORT[w.kind]
        lines.append(
            f"  {w.name} [{kind}]: {count(w.gpus_total, 'GPU')} "
            f"({w.members} x {count(w.replicas_per_member, 'replica')} x "
            f"{count(w.gpus_per_replica, 'GPU')})"
            if w.sized_from is SizedFrom.MODEL
            else f"  {w.name} [{kind}]: {count(w.gpus_total, 'GPU')} "
            f"({w.replicas} x {w.gpus_per_replica})"
        )
        if w.sized_from is SizedFrom.MODEL:
            lines.append(
                f"    memory per GPU {_num(m.total, 'GB')}: weights {_num(m.weights)}, gradients "
                f"{_num(m.gradients)}, optimizer {_num(m.optimizer)}, activations "
                f"{_num(m.activations)}, KV cache {_num(m.kv_cache)}, overhead {_num(m.overhead)}"
            )
        spread = spreads.get(w.name)
        if (t := w.training) is not None:
            lines += _training_lines(t, spread, training_basis(groups.get(w.name)))
        if w.serving is not None:
            rows = serving_rows(
                w.serving, spread if ranges is not None else None,
                serving_basis(groups.get(w.name), w, group_gpu(design, groups.get(w.name))),
            )  # fmt: skip
            lines += [f"    {label.lower()}: {text}" for label, text in rows]
        if w.gpus_total:
            lines.append(
                f"    {mode(w.sharing.mode)}: {w.sharing.slot_profile}"
                + (
                    f" (vGPU type {w.sharing.vgpu_type})"
                    if w.sharing.vgpu_type and w.sharing.vgpu_type != w.sharing.slot_profile
                    else ""
                )
                + f"; {_num(w.sharing.gpus_allocated, 'GPUs', 2)} "
                "after packing (the figure above counts whole GPUs)"
            )
    lines += _sharing_lines(r)
    lines += _platform_lines(r, catalog)
    lines += _build_out(r, catalog)
    if r.decisions:
        lines += ["", "Design decisions:"]
        lines += [
            f"  ({d.id}) {d.text} Reason: {d.reason}"
            + (f" Implication: {d.implication}" if d.implication else "")
            for d in r.decisions
        ]
    return lines


def _training_lines(
    t: TrainingFigures, spread: dict[str, FigureRange] | None, basis: str
) -> list[str]:
    lines = []
    if t.iterations_per_epoch:
        lines.append(f"    iterations per epoch {_num(t.iterations_per_epoch, digits=0)}")
    if t.allreduce_seconds_per_iteration is not None:
        lines.append(
            f"    allreduce {_num(t.allreduce_gb_per_gpu_per_iteration, 'GB', 2)} per GPU per "
            f"iteration, {_num(t.allreduce_seconds_per_iteration, 's', 3)} over {t.allreduce_link}"
        )
    if t.time_to_train_hours is not None:
        rng = (spread or {}).get("time_to_train_hours")
        lines.append(f"    time to train {spread_text(t.time_to_train_hours, rng, 'h')}; {basis}")
    return lines


def _sharing_lines(r: Result) -> list[str]:
    lines: list[str] = []
    if r.packing.hosts:
        layouts: dict[str, int] = {}
        for h in r.packing.hosts:
            for g in h.gpus:
                if g.mode != "free":
                    layouts[g.layout] = layouts.get(g.layout, 0) + 1
        lines += [
            "",
            f"GPU layouts ({r.packing.mean_utilization:.0%} of the GPUs allocated on average):",
        ]
        lines += [f"  {n} x {layout}" for layout, n in sorted(layouts.items(), key=lambda x: -x[1])]
    if r.sharing_comparison:
        lines += ["", "Sharing modes compared:"]
        for m in r.sharing_comparison:
            state = "" if m.available else f"  (not possible: {m.reason})"
            figures = (
                f"{count(m.gpus, 'GPU')}, {count(m.hosts_total, 'host')}, "
                f"{m.mean_utilization:.0%} utilization"
                if m.gpus
                else MISSING
            )
            lines.append(f"  {m.label:<34} {figures}{state}")
    return lines


def _platform_lines(r: Result, catalog: Catalog | None = None) -> list[str]:
    lines: list[str] = []
    s = r.storage
    if s is not None:
        entry = catalog.storage.get(s.system or "") if catalog is not None else None
        lines += [
            "",
            f"Storage: {s.system_name or 'none chosen'}"
            + (
                confirm.flag(
                    f", {count(s.nodes, 'node')}, {_num(s.usable_tb, 'TB', 0)} usable",
                    entry,
                    "usable_capacity_tb_per_node",
                )
                if s.nodes
                else ""
            ),
            "  capacity needed       "
            + need.total(
                _num(s.capacity_needed_tb, "TB", 2), s.capacity_needed_tb, s.capacity_not_known
            ),
            "  read needed           "
            + need.total(
                f"{need.rate(s.read_gbs_needed, 'GB/s')} "
                f"({need.rate(s.read_gbs_per_host_needed, 'GB/s')} per host)",
                s.read_gbs_needed,
                s.read_not_known,
            ),
            f"  GPUDirect Storage     {'yes' if s.gpudirect_storage else 'no'}",
        ]
    sw = r.software
    if sw is not None:
        lines += [
            "",
            f"Software: {sw.release_name or MISSING} (vGPU {sw.vgpu_branch}, driver "
            f"{sw.driver_branch}), Kubernetes {sw.kubernetes}, server "
            f"{sw.certification.status}",
        ]
        lines += [f"  {c.layer}: {c.name} {c.version}".rstrip() for c in sw.components]
        lines.append("  Settings before go-live:")
        lines += [f"    [{i.scope}] {i.setting} = {i.value}" for i in sw.checklist]
    return lines


def _build_out(r: Result, catalog: Catalog | None = None) -> list[str]:
    """The cluster's hosts, their power and how many fit a rack; the networks, the totals, the
    cooling and the bill are the design's, said once for every cluster."""
    lines: list[str] = []
    if r.topology.hosts:
        h = r.topology.hosts[0]
        lines += [
            "",
            "Hosts:",
            f"  {h.hosts} x {h.server_name}: {count(h.sockets, 'CPU')}, "
            f"{count(h.pcie_switches, 'PCIe switch', 'PCIe switches')}, {count(h.gpus, 'GPU')} "
            f"(NVLink: {h.nvlink}), {count(h.nics, 'GPU-fabric NIC')}",
        ]
    lines += [
        confirm.tagged(
            f"  power    {_num(r.power.host_w, 'W', 0)} per host",
            [
                *confirm.unsettled(catalog.gpus.get(r.gpu) if catalog else None, ["tdp_w"]),
                *confirm.unsettled(
                    catalog.servers.get(r.server) if catalog else None, ["baseline_power_w"]
                ),
            ],
        ),
        f"  racks    {rack_fit(r.racks)}",
    ]
    return lines


def cost_lines(c: CostResult, inputs: CostInputs) -> list[str]:
    """The cost of ownership for the terminal: each part, the total, per GPU-hour and per group."""
    cur = c.currency

    def money(v: float | None) -> str:
        return MISSING if v is None else f"{v:>16,.2f}"

    lines = [
        f"Cost of ownership over {count(c.years, 'year')} ({cur}):",
        f"  hardware, bought once     {money(c.hardware)}",
        f"  licences per year         {money(c.subscriptions_per_year)}",
        f"  power per year            {money(c.power_per_year)}"
        + (
            f"   (at PUE {inputs.pue:g}, {pct(inputs.average_load)} of the planning draw)"
            if c.power_per_year is not None
            else ""
        ),
        f"  support per year          {money(c.support_per_year)}",
        f"  total                     {money(c.total)}",
        f"  per GPU-hour              {money(c.cost_per_gpu_hour)}",
    ]
    for w in c.workloads:
        lines.append(
            f"  {w.workload}: {pct(w.share)} of the cost"
            + (
                f", {w.cost_per_million_tokens:,.2f} {cur} per million output tokens at the "
                "planned load around the clock"
                if w.cost_per_million_tokens is not None
                else ""
            )
        )
    if c.unpriced_items:
        lines.append(f"Not in the price list, so not in the totals: {', '.join(c.unpriced_items)}")
    lines += [f"Left out: {x}" for x in c.left_out]
    return lines


LABEL_COLUMN = 44  # characters of the row labels' column; a longer label has a line of its own


def compare_lines(rows: list[OptionRow]) -> list[str]:
    """Options side by side: one column each, a row per figure, targets met, at risk or missed.
    The rows and their words are the proposal's and the wizard's (present.options_table); what
    a column cannot hold (each option's note, the reasons an option cannot be built, unpriced
    lines) follows the table in full, and no label is cut."""
    names = options_table.header(rows)
    body = [r for r in options_table.table(rows) if r.label != options_table.WHAT_IT_IS]
    width = max(16, *(len(n) + 2 for n in names), *(len(c) + 2 for r in body for c in r.cells))

    def line(label: str, cells: list[str]) -> list[str]:
        row = "".join(f"{c:>{width}}" for c in cells)
        if len(label) > LABEL_COLUMN - 1:  # the whole label, then its figures under it
            return [label, " " * LABEL_COLUMN + row]
        return [f"{label:<{LABEL_COLUMN}}" + row]

    out = line("", names)
    for r in body:
        out += line(r.label, r.cells)
    out += [f"{r.name}: {r.note}" for r in rows if r.note]  # every note: no cell holds one here
    return out + options_table.problems(rows)
