"""Host topology: each host layout's PCIe tree and NVLink, the device groups a VM gets, which
GPUs reach a NIC for GPUDirect RDMA, the bandwidth landscape and each workload's ring."""

from __future__ import annotations

from reports.diagrams import bandwidth, host
from reports.doctree import Block
from reports.story import Story
from wizard.base.numbers import MISSING, count, num
from wizard.model.buildout import HostTopology
from wizard.model.unsettled import tagged, unsettled
from wizard.present import labels


def build(st: Story) -> list[Block] | None:
    topo = getattr(st.data.result, "topology", None)
    if topo is None:
        return None
    flow: list[Block] = []
    for layout in topo.hosts:
        # a device by the name the drawing gives it, without the model: "GPU 0", "NIC 1"
        shown = {d.id: d.name.split(" (")[0] for d in layout.devices}

        def dev(key: str | None, shown: dict[str, str] = shown) -> str:
            return MISSING if key is None else shown.get(key, key.upper())

        flow += st.h2(f"Host layout: {layout.name}")
        flow.append(
            st.p(
                f"{count(layout.hosts, 'host')} of this layout: {layout.server_name}, "
                f"{count(layout.sockets, 'socket')}, {layout.gpus} × {layout.gpu_name}, "
                f"{count(layout.nics, 'NIC')}; PCIe: "
                f"{labels.name(labels.PCIE_TOPOLOGY, layout.pcie_topology)}; NVLink: "
                f"{labels.name(labels.NVLINK_LAYOUT, layout.nvlink)}."
            )
        )
        flow.append(
            st.figure(
                host.draw_layout(layout, st.width, _marks(st, layout)),
                f"Inside one {layout.server_name}: PCIe tree, GPUs, NICs and NVLink.",
            )
        )
        if layout.device_groups:
            rows: list[list] = [["Device group", "Kind", "Devices", "Why"]]
            rows += [
                [
                    g.name,
                    labels.name(labels.DEVICE_GROUP, g.kind),
                    ", ".join(dev(d) for d in g.devices),
                    g.reason,
                ]
                for g in layout.device_groups
            ]
            flow.append(st.table(rows, [1.5, 1, 2.5, 4]))
        if layout.gpu_nic_paths:
            ok = sum(p.gpudirect_ok for p in layout.gpu_nic_paths)
            flow.append(st.p(_gpudirect_sentence(st, ok, len(layout.gpu_nic_paths))))
            rows = [["GPU", "Nearest NIC", "Shared point", "Path for GPUDirect RDMA"]]
            rows += [
                [
                    dev(p.gpu),
                    dev(p.nic),
                    labels.name(labels.SHARED_POINT, p.shared),
                    "direct" if p.gpudirect_ok else "through the CPU",
                ]
                for p in layout.gpu_nic_paths
            ]
            flow.append(st.table(rows, [1, 1.5, 2, 1.5]))
    if topo.bandwidth:
        flow += st.h2("Bandwidth landscape")
        rows = [["Tier", "GB/s", "Basis", "Src."]]
        marks = _tier_marks(st)
        rows += [
            [tagged(t.name, marks.get(t.kind, [])), num(t.gbs), t.basis, st.cite(t.source)]
            for t in topo.bandwidth
        ]
        drawing = bandwidth.draw(st.data, st.width)
        if drawing is not None:
            # the chart prints bare figures: its caption names those to confirm
            unsure = [w for t in topo.bandwidth if t.gbs > 0 for w in marks.get(t.kind, [])]
            caption = "From GPU memory to the network: each tier on a log scale"
            flow.append(st.figure(drawing, tagged(caption, list(dict.fromkeys(unsure))) + "."))
        flow.append(st.table(rows, [3, 1, 3, 0.5], right=(1,)))
    if topo.rings:
        flow += st.h2("Gradient rings")
        rows = [["Workload", "GPUs in ring", "Spans hosts", "Slowest link", "GB/s", "Alternative"]]
        rows += [
            [
                r.workload,
                num(r.ring_gpus),
                "yes" if r.spans_hosts else "no",
                r.bottleneck,
                num(r.bottleneck_gbs),
                r.nvswitch_alternative or MISSING,
            ]
            for r in topo.rings
        ]
        flow.append(st.table(rows, [2, 0.9, 0.8, 2.2, 0.8, 2], right=(1, 4)))
    return flow


def _gpudirect_sentence(st: Story, direct: int, gpus: int) -> str:
    """How many GPUs have the direct path GPUDirect RDMA needs, and whether the design uses it:
    the path alone does not make it so (PVRDMA and TCP do not carry it)."""
    hw = st.data.design.hardware
    text = (
        f"{direct} of {gpus} GPUs share a PCIe switch or root complex with a NIC, the direct "
        "path GPUDirect RDMA takes"
    )
    if hw.gpudirect_rdma:
        return text + f"; the design uses GPUDirect RDMA over {labels.RDMA_SHORT[hw.rdma]}."
    why = labels.GPUDIRECT_NOT_USED.get(hw.rdma, labels.GPUDIRECT_NOT_CHOSEN)
    return text + f"; the design does not use GPUDirect RDMA: {why}."


def _marks(st: Story, layout: HostTopology) -> dict[str, list[str]]:
    """The figures the layout's legend states that the catalog leaves unsettled, by link kind:
    the CPU interconnect's bandwidth (the server's), NVLink's bandwidth and bridges (the GPU's)."""
    cat = st.data.catalog
    server, gpu = cat.servers.get(layout.server), cat.gpus.get(layout.gpu)
    return {
        "cpu-interconnect": unsettled(server, ["cpu_interconnect_gbs"]),
        "nvlink": unsettled(gpu, ["nvlink.bandwidth_gbs", "nvlink.bridges_per_group"]),
    }


def _tier_marks(st: Story) -> dict[str, list[str]]:
    """The bandwidth tiers whose figure the catalog leaves unsettled, by tier kind: the GPU's
    memory and NVLink bandwidth, the server's CPU interconnect."""
    gpu, server = st.data.gpu, st.data.server
    return {
        "hbm": unsettled(gpu, ["memory_bandwidth_gbs"]),
        "nvlink": unsettled(gpu, ["nvlink.bandwidth_gbs"]),
        "cpu-interconnect": unsettled(server, ["cpu_interconnect_gbs"]),
    }
