"""Storage and the data path: what each workload keeps and reads, how many storage nodes that
takes, and whether GPUDirect Storage works end to end."""

from __future__ import annotations

from reports.doctree import Block
from reports.sections import calculations
from reports.story import Story
from wizard.base.numbers import num, unit
from wizard.model.unsettled import flag
from wizard.present import storage_need as need


def build(st: Story) -> list[Block] | None:
    s = getattr(st.data.result, "storage", None)
    if s is None:
        return None
    flow: list[Block] = []
    if s.needs:
        rows: list[list] = [
            ["Workload", "Dataset GB", "Check­points GB", "Models GB", "Read GB/s", "Basis"]
        ]
        rows += [
            [n.workload, need.cell(num(n.dataset_gb), n.dataset_gb),
             need.cell(num(n.checkpoints_gb), n.checkpoints_gb),
             need.cell(num(n.model_files_gb), n.model_files_gb),
             need.cell(num(n.read_gbs), n.read_gbs),
             f"{n.dataset_basis}; {n.read_basis}"]
            for n in s.needs
        ]  # fmt: skip
        flow.append(st.table(rows, [1.7, 0.95, 1.1, 0.9, 0.95, 3.4], right=(1, 2, 3, 4)))
    entry = st.data.catalog.storage.get(s.system or "")
    pairs = [
        ("Storage system", s.system_name or "none chosen"),
        (
            "Capacity needed",
            need.total(
                unit(s.capacity_needed_tb, "TB"), s.capacity_needed_tb, s.capacity_not_known
            ),
        ),
        (
            "Read throughput needed",
            need.total(unit(s.read_gbs_needed, "GB/s"), s.read_gbs_needed, s.read_not_known),
        ),
        (
            "Busiest host reads",
            need.total(
                unit(s.read_gbs_per_host_needed, "GB/s"),
                s.read_gbs_per_host_needed,
                s.read_not_known,
            ),
        ),
        ("A host's network carries", unit(s.host_network_gbs, "GB/s")),
    ]
    if s.nodes is not None:
        pairs += [
            (
                "Storage nodes",
                f"{num(s.nodes)} ({'given' if s.nodes_given else 'sized'}; "
                f"{need.nodes_for(s.nodes_for_capacity)} for capacity, "
                f"{need.nodes_for(s.nodes_for_throughput)} for "
                "throughput)",
            ),
            # each figure the catalog leaves unsettled (estimated, recalled or read from a third
            # party) says so on its own line, so the proposal never states it as fact
            (
                "Usable capacity",
                flag(unit(s.usable_tb, "TB"), entry, "usable_capacity_tb_per_node"),
            ),
            (
                "Read throughput available",
                flag(unit(s.read_gbs_available, "GB/s"), entry, "read_throughput_gbs_per_node"),
            ),
            ("Rack units", flag(num(s.rack_units), entry, "rack_units_per_node")),
        ]
    pairs.append(("GPUDirect Storage", "yes, every link is there" if s.gpudirect_storage else "no"))
    flow.append(st.pairs(pairs))
    if s.gpudirect_storage_blockers:
        flow += [*st.h3("What stands in the way of GPUDirect Storage")]
        flow += st.bullets(s.gpudirect_storage_blockers)
    flow += calculations.block(st, "storage.")
    return flow
