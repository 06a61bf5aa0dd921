"""The logical architecture: workload groups, management, the client side of remote GPU access,
the networks, the GPU cluster host by host (capacity, HA reserve, maintenance) and storage.

Large clusters are summarized: as many host tiles as fit in two rows, then an ellipsis tile and
the last host, with the counts written out.
"""

from __future__ import annotations

from reportlab.graphics.shapes import Drawing, Rect
from reportlab.lib import colors

from reports.data import ReportData
from reports.diagrams.common import box, connector, label, lines_in_box, new_drawing
from reports.fonts import SANS, text_width
from reports.styles import ACCENT, ACCENT_LIGHT, INK, MUTED, RULE, ZEBRA
from wizard.base.numbers import count
from wizard.model.design import Rdma, SharingMode
from wizard.present import labels

CAPACITY = ACCENT_LIGHT
HA = colors.HexColor("#fdebd3")
MAINTENANCE = colors.HexColor("#e4e7eb")
GPU_FILL = ACCENT


def _fabric_text(data: ReportData) -> str:
    hw = data.design.hardware
    text = f"Data fabric: {labels.FABRIC[hw.fabric]}"
    if hw.rdma is not Rdma.NONE:
        text += f", RDMA: {labels.RDMA_SHORT[hw.rdma]}"
    if hw.gpudirect_rdma:
        text += ", GPUDirect RDMA"
    return text


def host_roles(data: ReportData) -> list[str]:
    """Role of each host, in order: capacity, then HA reserve, then maintenance."""
    c = data.result.cluster
    return (
        ["capacity"] * c.hosts_for_capacity
        + ["ha"] * c.hosts_for_ha
        + ["maintenance"] * c.hosts_for_maintenance
        + ["platform"] * c.hosts_for_platform
    )


def _host_tile(x: float, y: float, w: float, h: float, name: str, role: str, gpus: int):
    fill = {"capacity": CAPACITY, "ha": HA, "maintenance": MAINTENANCE, "platform": HA}[role]
    g = box(x, y, w, h, fill, stroke=RULE, radius=2)
    g.add(label(x + w / 2, y + h - 10, name, w - 4, 7, anchor="middle", min_size=7))
    per_row = gpus if gpus <= 8 else (gpus + 1) // 2
    rows = 1 if gpus <= 8 else 2
    cell = min((w - 8) / per_row, 7.0)
    size = cell * 0.75
    x0 = x + (w - per_row * cell) / 2
    for i in range(gpus):
        r, col = divmod(i, per_row)
        gy = y + 5 + (rows - 1 - r) * cell
        g.add(
            Rect(
                x0 + col * cell,
                gy,
                size,
                size,
                fillColor=GPU_FILL,
                strokeColor=None,
            )
        )
    return g


def draw(data: ReportData, width: float = 480) -> Drawing:
    d, r = data.design, data.result
    c = r.cluster
    pad = 6
    top_h = 92
    tile_w, tile_h, gap = 54, 36, 5

    storage = data.storage
    nodes = r.storage.nodes if storage is not None else None
    cluster_w = width * (0.74 if storage else 1.0)
    per_row = max(1, int((cluster_w - 2 * pad + gap) // (tile_w + gap)))
    roles = host_roles(data)
    capacity_tiles = per_row * 2
    rows = 1 if len(roles) <= per_row else 2
    cluster_h = 22 + rows * (tile_h + gap) + 18

    net_gap = 20
    height = top_h + 3 * net_gap + cluster_h + 14
    drawing = new_drawing(width, height)

    # ------------------------------------------------------------------- top row
    y_top = height - top_h
    remote = any(g.sharing_mode is SharingMode.REMOTE for g in d.workloads)
    col_w = (width - 2 * gap) / 3
    wl_w = col_w * (1 if remote else 1.5)
    items = [
        f"{g.name}: {g.count} × {labels.KIND_SHORT[g.kind]}, {labels.MODE_SHORT[g.sharing_mode]}"
        for g in d.workloads
    ]
    wl = box(0, y_top, wl_w, top_h, ZEBRA, title="Workload groups")
    wl.add(lines_in_box(6, y_top + top_h - 14, wl_w - 12, items or ["none"], max_lines=8,
                        leading=8.6))  # fmt: skip
    drawing.add(wl)
    x = wl_w + gap
    if remote:
        groups = [g.name for g in d.workloads if g.sharing_mode is SharingMode.REMOTE]
        cl = box(x, y_top, col_w, top_h, ZEBRA, title="Client cluster (existing)")
        cl.add(
            lines_in_box(
                6 + x,
                y_top + top_h - 14,
                col_w - 12,
                ["Not quoted: CPU-only VMs that reach their GPUs over the fabric:", *groups],
                max_lines=8,
                leading=8.6,
            )
        )
        drawing.add(cl)
        x += col_w + gap
    mg_w = width - x
    mg = box(x, y_top, mg_w, top_h, ZEBRA, title="Management cluster (existing)")
    mg.add(
        lines_in_box(
            x + 6,
            y_top + top_h - 14,
            mg_w - 12,
            [
                "Not quoted: vCenter Server, vSphere HA and DRS",
                "NVIDIA licence service (vGPU / AI Enterprise)",
                "Monitoring and image registry",
            ],
            leading=8.6,
        )
    )
    drawing.add(mg)

    # ------------------------------------------------------------------ networks
    y_mgmt = y_top - net_gap
    y_fabric = y_mgmt - net_gap
    drawing.add(connector(0, y_mgmt, width, y_mgmt, color=MUTED, width=2.2))
    # the cluster's link to the management network crosses the data fabric's label band: it
    # goes left of the label when the label reaches over it
    fabric_left = width - 2 - min(text_width(_fabric_text(data), SANS, 7), width * 0.62)
    to_mgmt = cluster_w * 0.6
    if to_mgmt > fabric_left - 6:
        to_mgmt = max(fabric_left - 6, cluster_w * 0.3 + 12)
    # the label sits between the workload groups' drop and the next line that crosses it
    lx = wl_w / 2 + 4
    crossing = [to_mgmt] + ([wl_w + gap + col_w / 2] if remote else [])
    drawing.add(label(lx, y_mgmt + 3, "Management network", min(crossing) - 4 - lx, 7,
                      color=MUTED))  # fmt: skip
    drawing.add(connector(0, y_fabric, width, y_fabric, color=ACCENT, width=3))
    drawing.add(label(width - 2, y_fabric + 4, _fabric_text(data), width * 0.62, 7, "end",
                      min_size=7))  # fmt: skip
    # boxes down to the networks
    drawing.add(connector(wl_w / 2, y_top, wl_w / 2, y_fabric))
    drawing.add(connector(x + mg_w / 2, y_top, x + mg_w / 2, y_mgmt))
    if remote:
        cx = wl_w + gap + col_w / 2
        drawing.add(connector(cx, y_top, cx, y_fabric))

    # --------------------------------------------------------------- GPU cluster
    y_cluster = y_fabric - net_gap - cluster_h
    title = (
        f"GPU cluster: {c.hosts_total} × {data.server.product_name}, "
        f"{c.gpus_per_host} × {data.gpu.name} each"
    )
    cb = box(0, y_cluster, cluster_w, cluster_h, colors.white, stroke=ACCENT, title=title)
    drawing.add(cb)
    drawing.add(connector(cluster_w * 0.3, y_cluster + cluster_h, cluster_w * 0.3, y_fabric))
    drawing.add(connector(to_mgmt, y_cluster + cluster_h, to_mgmt, y_mgmt))

    shown: list[tuple[int, str] | None] = list(enumerate(roles))
    if len(roles) > capacity_tiles:
        shown = [*list(enumerate(roles))[: capacity_tiles - 2], None, (len(roles) - 1, roles[-1])]
    for i, item in enumerate(shown):
        row, col = divmod(i, per_row)
        tx = pad + col * (tile_w + gap)
        ty = y_cluster + cluster_h - 22 - (row + 1) * (tile_h + gap) + gap
        if item is None:
            drawing.add(
                label(
                    tx + tile_w / 2,
                    ty + tile_h / 2 - 3,
                    f"… {len(roles) - capacity_tiles + 1} more",
                    tile_w,
                    7,
                    "middle",
                    color=MUTED,
                )
            )
            continue
        n, role = item
        drawing.add(_host_tile(tx, ty, tile_w, tile_h, f"host {n + 1}", role, c.gpus_per_host))

    # legend inside the cluster box, bottom line
    ly = y_cluster + 5
    lx = pad
    parts = [
        (CAPACITY, f"capacity: {count(c.hosts_for_capacity, 'host')}"),
        (HA, f"HA reserve ({labels.HA_LEVEL_SHORT[d.ha.level]}): {c.hosts_for_ha}"),
    ]
    if c.hosts_for_maintenance:
        parts.append((MAINTENANCE, f"maintenance: {c.hosts_for_maintenance}"))
    if c.hosts_for_platform:
        parts.append((HA, f"VCF minimum: {c.hosts_for_platform}"))
    parts.append((GPU_FILL, f"GPU ({c.gpus_total} in all)"))
    slot = (cluster_w - 2 * pad) / len(parts)
    for i, (fill, text) in enumerate(parts):
        sx = lx + i * slot
        drawing.add(Rect(sx, ly, 7, 7, fillColor=fill, strokeColor=RULE, strokeWidth=0.4))
        drawing.add(label(sx + 10, ly + 1, text, slot - 14, 7, color=INK, min_size=7))

    # ------------------------------------------------------------------- storage
    if storage:
        sx = cluster_w + gap
        sw = width - sx
        sb = box(sx, y_cluster, sw, cluster_h, ZEBRA, title="Shared storage")
        sb.add(
            lines_in_box(
                sx + 6,
                y_cluster + cluster_h - 14,
                sw - 12,
                [
                    *([f"{count(nodes, 'node')} of"] if nodes else []),
                    storage.product_name,
                    ", ".join(labels.protocol(p) for p in storage.protocols),
                    "GPUDirect Storage" if storage.gpudirect_storage else "no GPUDirect Storage",
                ],
                leading=8.6,
            )
        )
        drawing.add(sb)
        drawing.add(connector(sx + sw / 2, y_cluster + cluster_h, sx + sw / 2, y_fabric))
    return drawing
