"""Appendix: the stated assumptions, the catalog entries the design uses with their sources, the
numbered list of sources cited in the calculation tables, and a glossary."""

from __future__ import annotations

from reports.doctree import Block
from reports.sections import calculations
from reports.story import Story
from wizard.base.numbers import num, value
from wizard.model.catalog import Sourced
from wizard.model.unsettled import flag
from wizard.present import glossary, labels
from wizard.present.references import customer_source

ASSUMPTION_LABELS = {
    "achievable_utilization": "Share of peak TFLOPS training reaches while computing",
    "tensor_parallel_overlap": "Share of the tensor-parallel all-reduces hidden behind compute",
    "moe_routing_imbalance": "Tokens of the busiest expert over the mean",
    "link_efficiency": "Share of a link's line rate the allreduce achieves",
    "gradient_bytes": "Bytes per gradient element",
    "framework_overhead_gb": "Framework overhead per GPU (GB)",
    "allocator_reserve": "Memory the training framework's allocator holds above its tensors",
    "overlap_slowdown": "Compute slowed by communication running under it, as a share of "
    "that communication's time",
    "sharp": "In-network reduction (SHARP)",
    "communication_overlap": "Overlap of communication with compute",
    "placement": "Placement",
    "utilization_includes_communication": "The training utilization is measured end to end",
    "serving_memory_utilization": "Share of GPU memory a serving engine plans",
    "decode_bandwidth_efficiency": "Share of memory bandwidth a decoding step achieves",
    "prefill_compute_efficiency": "Share of peak TFLOPS prompt processing achieves",
    "collective_latency_us": "Fixed cost of one small all-reduce (microseconds)",
    "serving_host_us_per_sequence": "Serving engine's host time per request in a decode step "
    "(microseconds)",
    "serving_reserves_whole_request": "A request's KV cache is reserved for its whole answer "
    "when it starts",
    "serving_chunked_prefill": "A new request's prompt rides in the running requests' steps",
    "serving_first_token_host_ms": "Serving engine's time outside the GPU for a first token "
    "(milliseconds)",
    "serving_allreduce_peer_latency_us": "Added to a serving all-reduce for each GPU beyond two "
    "(microseconds)",
    "fabric_oversubscription": "Leaf downlink to uplink bandwidth ratio",
    "max_rack_power_kw": "Power limit per rack (kW)",
    "rack_units": "Rack height (U)",
    "development_concurrency": "Development users holding a slot",
}


def _entry_rows(st: Story) -> list[list]:
    data = st.data
    g, s = data.gpu, data.server
    # each entry with the figures its row prints, so a figure the catalog leaves unsettled is
    # marked on the row
    items: list[tuple[str, str, str, Sourced, tuple[str, ...]]] = [
        (
            "GPU",
            g.name,
            f"{num(g.memory_gb)} GB {g.memory_type}, {num(g.memory_bandwidth_gbs)} GB/s, "
            f"{num(g.tdp_w)} W, {labels.FORM_FACTOR[g.form_factor]}",
            g,
            ("memory_gb", "memory_type", "memory_bandwidth_gbs", "tdp_w"),
        ),
        (
            "Server",
            s.product_name,
            f"{s.rack_units} U, {s.sockets} sockets, PCIe Gen{s.pcie_gen}, "
            f"{labels.PCIE_TOPOLOGY[s.pcie_topology]}",
            s,
            ("rack_units", "sockets", "pcie_gen", "pcie_topology"),
        ),
    ]
    if data.nic:
        n = data.nic
        fields: tuple[str, ...] = ("ports", "port_speed_gbps", "part_number")
        items.append(("NIC", n.model, f"{n.ports} × {num(n.port_speed_gbps)} Gb/s", n, fields))
    if data.storage:
        t = data.storage
        items.append(
            (
                "Storage",
                t.product_name,
                f"{num(t.usable_capacity_tb_per_node)} TB and "
                f"{num(t.read_throughput_gbs_per_node)} GB/s per node",
                t,
                ("usable_capacity_tb_per_node", "read_throughput_gbs_per_node"),
            )
        )
    seen: set[str] = set()
    for group in data.design.workloads:
        ref = group.model.preset if group.model else None
        if ref and ref not in seen and ref in data.catalog.models:
            seen.add(ref)
            m = data.catalog.models[ref]
            items.append(("Model", m.name, f"{num(m.parameters)} parameters", m, ("parameters",)))
    rows: list[list] = [["Kind", "Entry", "Figures used", "Source"]]
    for kind, name, figures, entry, fields in items:
        # the vendor's part number is what a customer orders by; the catalog's own notes on
        # its sources stay in the catalog
        part = getattr(entry, "part_number", "")
        source = customer_source(entry.source, data.catalog) or "vendor datasheet"
        rows.append(
            [
                kind,
                f"{name} ({part})" if part else name,
                flag(figures, entry, *fields),
                st.p(source, "cell_small"),
            ]
        )
    return rows


def build(st: Story) -> list[Block] | None:
    flow: list[Block] = []
    flow += st.h2("Assumptions")
    rows: list[list] = [["Assumption", "Value"]]
    rows += [
        [ASSUMPTION_LABELS.get(k, k.replace("_", " ")), value(v)]
        for k, v in st.data.result.assumptions.items()
    ]
    flow.append(st.table(rows, [3, 3]))
    rest = [c for c in st.data.result.calculations if c.id not in st.shown_calculations]
    if rest:
        flow += st.h2("Other calculations")
        flow.append(calculations.table(st, rest, ""))
    flow += st.h2("Catalog entries used")
    flow.append(st.table(_entry_rows(st), [0.8, 2, 2.4, 4]))
    if st.sources:
        flow += st.h2("Sources")
        rows = [["No.", "Source"]]
        rows += [[f"[{n}]", text] for text, n in sorted(st.sources.items(), key=lambda x: x[1])]
        # the number column as wide as its longest number: "[100]" broken over two lines reads
        # as two sources
        digits = len(str(len(st.sources)))
        flow.append(st.table(rows, [0.5 + 0.15 * max(digits - 2, 0), 9]))
    flow += st.h2("Glossary")
    flow.append(st.table([["Term", "Meaning"], *glossary.named()], [2, 6]))
    return flow
