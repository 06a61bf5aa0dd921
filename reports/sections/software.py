"""The software stack (NVIDIA AI Enterprise release, vGPU and driver branches, components per
layer) and the platform checklist: host BIOS, ESXi, vCenter and VM settings with reasons."""

from __future__ import annotations

from reportlab.platypus import Flowable

from reports.sections import calculations
from reports.story import Story
from wizard.numbers import MISSING, num


def build(st: Story) -> list[Flowable] | None:
    sw = getattr(st.data.result, "software", None)
    if sw is None:
        return None
    c = sw.certification
    flow: list[Flowable] = [
        st.pairs(
            [
                (
                    "NVIDIA AI Enterprise",
                    " ".join(x for x in (sw.nvaie_release, sw.release_name) if x) or MISSING,
                ),
                ("vGPU branch", num(sw.vgpu_branch) if sw.vgpu_branch else MISSING),
                ("Driver branch", sw.driver_branch or MISSING),
                ("Kubernetes", sw.kubernetes),
                ("Server certification", f"{c.server}: {c.status} {st.cite(c.source)}"),
                ("GPU supported by NVIDIA AI Enterprise", "yes" if c.gpu_nvaie_supported else "no"),
            ]
        )
    ]
    if sw.components:
        flow += st.h2("Software stack")
        rows: list[list] = [["Layer", "Component", "Version", "Needed for", "Src."]]
        rows += [
            [x.layer, x.name, x.version or MISSING, x.needed_for, st.cite(x.source)]
            for x in sw.components
        ]
        flow.append(st.table(rows, [1.2, 2.2, 1.2, 3.4, 0.5]))
    if sw.checklist:
        flow += st.h2("Platform checklist")
        rows = [["Scope", "Setting", "Value", "For", "Why", "Src."]]
        rows += [
            [x.scope, x.setting, x.value, ", ".join(x.modes), x.reason, st.cite(x.source)]
            for x in sw.checklist
        ]
        flow.append(st.table(rows, [0.9, 1.8, 1.8, 0.8, 3, 0.55]))
    if sw.vm_mmio:
        flow += st.h2("VM memory-mapped I/O")
        rows = [["Workload", "Mode", "GPUs per VM", "GPU memory GB", "64bitMMIOSizeGB"]]
        rows += [
            [v.workload, v.mode, num(v.gpus_per_vm), num(v.gpu_memory_gb), num(v.mmio_size_gb)]
            for v in sw.vm_mmio
        ]
        flow.append(st.table(rows, [3, 1, 1, 1.2, 1.4], right=(2, 3, 4)))
    flow += calculations.block(st, "software.")
    return flow
