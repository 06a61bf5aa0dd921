"""The software stack (NVIDIA AI Enterprise release, vGPU and driver branches, components per
layer) and the platform checklist: host BIOS, ESXi, vCenter and VM settings with reasons."""

from __future__ import annotations

from reports.doctree import Block
from reports.sections import calculations
from reports.story import Story
from wizard.base.numbers import MISSING, num
from wizard.present import labels


def build(st: Story) -> list[Block] | None:
    sw = getattr(st.data.result, "software", None)
    if sw is None:
        return None
    c = sw.certification
    server = st.data.catalog.servers.get(c.server)
    server_name = server.product_name if server else c.server
    certified = labels.name(labels.CERTIFICATION, c.status)
    kubernetes = labels.name(labels.KUBERNETES, sw.kubernetes)
    flow: list[Block] = [
        st.pairs(
            [
                (
                    "NVIDIA AI Enterprise",
                    sw.release_name or MISSING,
                ),
                ("vGPU branch", num(sw.vgpu_branch) if sw.vgpu_branch else MISSING),
                ("Driver branch", sw.driver_branch or MISSING),
                ("Kubernetes", kubernetes),
                ("Server certification", f"{server_name}: {certified} {st.cite(c.source)}"),
                ("GPU supported by NVIDIA AI Enterprise", "yes" if c.gpu_nvaie_supported else "no"),
            ]
        )
    ]
    if sw.components:
        flow += st.h2("Software stack")
        rows: list[list] = [["Layer", "Component", "Version", "Needed for", "Src."]]
        rows += [
            [
                labels.name(labels.LAYER, x.layer),
                x.name,
                x.version or MISSING,
                x.needed_for,
                st.cite(x.source),
            ]
            for x in sw.components
        ]
        flow.append(st.table(rows, [1.2, 2.2, 1.2, 3.4, 0.5]))
    if sw.checklist:
        flow += st.h2("Platform checklist")
        rows = [["Scope", "Setting", "Value", "For", "Why", "Src."]]
        rows += [
            [
                labels.name(labels.LAYER, x.scope),
                x.setting,
                x.value,
                labels.modes(x.modes),
                x.reason,
                st.cite(x.source),
            ]
            for x in sw.checklist
        ]
        flow.append(st.table(rows, [0.9, 1.7, 1.7, 1.2, 2.7, 0.55]))
    if sw.vm_mmio:
        flow += st.h2("VM memory-mapped I/O")
        rows = [["Workload", "Mode", "GPUs per VM", "GPU memory GB", "64bitMMIOSizeGB"]]
        rows += [
            [
                v.workload,
                labels.mode_short(v.mode),
                num(v.gpus_per_vm),
                num(v.gpu_memory_gb),
                num(v.mmio_size_gb),
            ]
            for v in sw.vm_mmio
        ]
        flow.append(st.table(rows, [3, 1, 1, 1.2, 1.4], right=(2, 3, 4)))
    flow += calculations.block(st, "software.")
    return flow
