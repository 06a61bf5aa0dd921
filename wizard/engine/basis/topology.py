"""Host topology: where GPUs, NICs and PCIe switches sit under the CPUs, and what joins them.

The layout follows the server catalog: CPU-direct servers hang each GPU board off a CPU root
complex; switch boards (and HGX host boards) put GPUs, and NICs where the server allows it,
under PCIe switches; SXM GPUs sit on an NVLink baseboard. The same layout answers which links a
gradient ring crosses (``ring_links``), so the communication estimate and the drawing agree.
Work is per host layout, not per GPU in the cluster, so it stays cheap at any cluster size.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations, pairwise

from wizard.base.numbers import count, some
from wizard.engine.basis import links, sources
from wizard.engine.basis.links import Link
from wizard.engine.basis.record import Recorder
from wizard.model import buildout as bo
from wizard.model.catalog import (
    FormFactor,
    Gpu,
    Nic,
    NvlinkKind,
    Parts,
    PcieTopology,
    Server,
)
from wizard.model.design import FABRIC_GBPS, Hardware
from wizard.model.names import FABRIC_LABEL
from wizard.model.result import Severity, WorkloadResult

SEED_GDR = (
    "vSphere ML Accelerator Spectrum Deep Dive for Distributed Training - Multi-GPU "
    "(F. Denneman, 2023), GPUDirect RDMA: the NIC and the GPU must share the same PCIe switch "
    "or PCIe root complex; device groups pair NVLinked GPUs, or a GPU and a NIC on one switch"
)
SEED_NVLINK_BRIDGE = (
    "Multi-GPU deep dive (F. Denneman, 2023), NVLink Bridge: two double-width PCIe GPUs in "
    "adjacent slots, which rules out almost every 2U server; NVLink works per bridged pair, so "
    "traffic between pairs crosses PCIe - look at HGX systems with NVSwitch instead"
)


@dataclass(frozen=True)
class Slot:
    """Where a PCIe device sits: a CPU socket, one of its root complexes, maybe a PCIe switch."""

    socket: int
    rc: int
    switch: int | None = None


@dataclass
class HostLayout:
    gpu: Gpu
    server: Server
    sockets: int
    gpus_per_board: int
    boards: list[Slot]
    switches: list[Slot]  # each switch's upstream root complex
    nics: list[Slot]
    nvlink: str  # 'none', 'bridge' or 'baseboard'
    bridge_groups: list[list[int]] = field(default_factory=list)

    @property
    def gpus(self) -> int:
        return len(self.boards) * self.gpus_per_board

    def slot(self, gpu_index: int) -> Slot:
        return self.boards[gpu_index // self.gpus_per_board]

    def group(self, gpu_index: int) -> int | None:
        for n, members in enumerate(self.bridge_groups):
            if gpu_index in members:
                return n
        return None

    @property
    def nvswitch(self) -> bool:
        """An 8-GPU HGX board joins its GPUs through NVSwitch chips; smaller SXM boards (the
        C4140's 4-GPU V100 SXM2 board, HGX 4-GPU boards) wire the GPUs to each other directly."""
        return (
            self.nvlink == "baseboard"
            and self.server.pcie_topology is PcieTopology.HGX
            and self.gpus >= 8
        )

    @property
    def board_gpus(self) -> int:
        """GPUs the NVLink board is wired for: its links are split over all of them, fitted
        or not."""
        sxm = [s.max_gpus for s in self.server.gpu_support if s.form_factor is FormFactor.SXM]
        return max([self.gpus, *sxm])

    @property
    def bridges(self) -> int:
        return len(self.bridge_groups) * self.gpu.nvlink.bridges_per_group


def _spread(items: int, bins: int) -> list[int]:
    """Item i goes to bin i * bins // items: balanced, in blocks, so neighbours share a bin."""
    return [i * bins // items for i in range(items)] if bins else []


def layout(gpu: Gpu, server: Server, hw: Hardware) -> HostLayout:
    sockets, rcs = server.sockets, server.root_complexes_per_socket
    n_boards = max(hw.gpus_per_host // gpu.gpus_per_board, 0)
    n_nics = hw.nics_per_host if hw.nic else 0
    used: dict[int, set[int]] = {s: set() for s in range(sockets)}

    def take_rc(socket: int) -> int:
        rc = len(used[socket]) % rcs
        used[socket].add(rc)
        return rc

    switched = server.pcie_switches > 0 and server.pcie_topology is not PcieTopology.CPU_DIRECT
    switches: list[Slot] = []
    if switched:
        switches = [Slot(s, take_rc(s)) for s in _spread(server.pcie_switches, sockets)]
        boards = [
            Slot(switches[k].socket, switches[k].rc, k) for k in _spread(n_boards, len(switches))
        ]
    else:
        boards = [Slot(s, take_rc(s)) for s in _spread(n_boards, sockets)]

    if server.gdr_affinity and switched:
        nics = [Slot(switches[k].socket, switches[k].rc, k) for k in _spread(n_nics, len(switches))]
    elif server.gdr_affinity and boards:
        nics = [Slot(boards[b].socket, boards[b].rc) for b in _spread(n_nics, len(boards))]
    else:  # NIC slots on root ports of their own
        nics = [Slot(s, take_rc(s)) for s in _spread(n_nics, sockets)]

    nv = gpu.nvlink
    kind = "none"
    groups: list[list[int]] = []
    if nv.kind is NvlinkKind.SXM and gpu.form_factor is FormFactor.SXM:
        kind = "baseboard"
    elif hw.nvlink and nv.kind is NvlinkKind.BRIDGE and server.nvlink_bridge_support:
        kind = "bridge"
        groups = _bridge_groups(boards, gpu.gpus_per_board, max(nv.max_gpus_bridged, 2))
    return HostLayout(
        gpu, server, sockets, gpu.gpus_per_board, boards, switches, nics, kind, groups
    )


def _bridge_groups(boards: list[Slot], per_board: int, size: int) -> list[list[int]]:
    """Adjacent GPUs on the same CPU, in groups of the bridge's size (pairs for the rest)."""
    groups: list[list[int]] = []
    by_socket: dict[int, list[int]] = {}
    for b, slot in enumerate(boards):
        by_socket.setdefault(slot.socket, []).extend(range(b * per_board, (b + 1) * per_board))
    for gpus in by_socket.values():
        i = 0
        while len(gpus) - i >= 2:
            step = size if len(gpus) - i >= size else 2
            groups.append(gpus[i : i + step])
            i += step
    return groups


def _hop(lay: HostLayout, a: int, b: int) -> list[Link]:
    """The links between two GPUs of one host, slowest path included."""
    gpu, server = lay.gpu, lay.server
    if lay.nvlink == "baseboard":
        if lay.nvswitch:
            return [links.nvlink(gpu, "NVSwitch")]
        return [links.nvlink_mesh(gpu, lay.board_gpus, lay.gpus)]
    ga = lay.group(a)
    if ga is not None and ga == lay.group(b):
        return [links.nvlink(gpu, "bridge")]
    pcie = links.gpu_pcie(gpu, server)
    sa, sb = lay.slot(a), lay.slot(b)
    if a // lay.gpus_per_board == b // lay.gpus_per_board:
        return [pcie]  # two GPUs on one board: its own PCIe switch
    if sa.switch is not None and sa.switch == sb.switch:
        return [pcie]
    hop = [pcie]
    if sa.switch is not None or sb.switch is not None:
        hop.append(links.switch_uplink(server))
    if sa.socket != sb.socket:
        hop.append(links.cpu_interconnect(server))
    return hop


def ring_links(lay: HostLayout, ring_gpus: int) -> list[Link]:
    """Distinct links a ring over the host's first ``ring_gpus`` GPUs crosses (GPUs are
    numbered so that bridged groups and CPU sockets are contiguous)."""
    n = min(ring_gpus, lay.gpus)
    if n <= 1:
        return []
    if lay.nvlink == "baseboard" and not lay.nvswitch:
        return [links.nvlink_mesh(lay.gpu, lay.board_gpus, n)]  # links to the ring's peers only
    seen: dict[str, Link] = {}
    for i in range(n if n > 2 else 1):
        for link in _hop(lay, i, (i + 1) % n):
            seen.setdefault(link.name, link)
    return list(seen.values())


def ring_path(
    gpu: Gpu, server: Server, hw: Hardware, ring_gpus: int, spans_hosts: bool
) -> list[Link]:
    """Every distinct link a ring crosses: inside the host and, if it spans hosts, the NICs."""
    path = ring_links(layout(gpu, server, hw), min(ring_gpus, hw.gpus_per_host))
    if spans_hosts:
        path.append(links.nic(hw))
    return path


# ----------------------------------------------------------------------------- host drawing


def host_topology(lay: HostLayout, nic: Nic | None, hw: Hardware, hosts: int) -> bo.HostTopology:
    gpu, server = lay.gpu, lay.server
    dev: list[bo.Device] = []
    lnk: list[bo.Link] = []
    for s in range(lay.sockets):
        dev.append(bo.Device(id=f"cpu{s}", kind=bo.DeviceKind.SOCKET, name=f"CPU {s}", socket=s))
    if lay.sockets > 1:
        cpu = links.cpu_interconnect(server)
        for s in range(lay.sockets - 1):
            lnk.append(_link(f"cpu{s}", f"cpu{s + 1}", cpu))
    rc_ids = sorted({(x.socket, x.rc) for x in [*lay.boards, *lay.switches, *lay.nics]})
    for s, rc in rc_ids:
        dev.append(
            bo.Device(
                id=f"cpu{s}.rc{rc}",
                kind=bo.DeviceKind.ROOT_COMPLEX,
                name=f"Root complex {s}.{rc}",
                parent=f"cpu{s}",
                socket=s,
            )
        )
    up = links.switch_uplink(server)
    for k, sw in enumerate(lay.switches):
        dev.append(
            bo.Device(
                id=f"psw{k}",
                kind=bo.DeviceKind.PCIE_SWITCH,
                name=f"PCIe switch {k}",
                parent=f"cpu{sw.socket}.rc{sw.rc}",
                socket=sw.socket,
            )
        )
        lnk.append(_link(f"psw{k}", f"cpu{sw.socket}.rc{sw.rc}", up))

    def parent(slot: Slot) -> str:
        return f"psw{slot.switch}" if slot.switch is not None else f"cpu{slot.socket}.rc{slot.rc}"

    g_link = links.gpu_pcie(gpu, server)
    short = gpu.name.removeprefix("NVIDIA ").removeprefix("Tesla ")
    for i in range(lay.gpus):
        slot = lay.slot(i)
        dev.append(
            bo.Device(
                id=f"gpu{i}",
                kind=bo.DeviceKind.GPU,
                name=f"GPU {i} ({short})",
                parent=parent(slot),
                socket=slot.socket,
                model=gpu.id,
            )
        )
        lnk.append(_link(f"gpu{i}", parent(slot), g_link))
    if nic is not None:
        n_link = links.nic_pcie(nic, server)
        for j, slot in enumerate(lay.nics):
            dev.append(
                bo.Device(
                    id=f"nic{j}",
                    kind=bo.DeviceKind.NIC,
                    name=f"NIC {j} ({nic.model.split(' ')[0]}, {nic.ports} × "
                    f"{nic.port_speed_gbps:g} Gb/s)",
                    parent=parent(slot),
                    socket=slot.socket,
                    model=nic.id,
                    role="gpu-rdma",
                )
            )
            lnk.append(_link(f"nic{j}", parent(slot), n_link))
        if lay.nics:
            speed = FABRIC_GBPS[hw.fabric]
            dev.append(
                bo.Device(
                    id="net.compute",
                    kind=bo.DeviceKind.NETWORK,
                    name=f"GPU fabric ({FABRIC_LABEL[hw.fabric]})",
                )
            )
            net = Link(FABRIC_LABEL[hw.fabric], speed / 8, sources.DERIVED, "network")
            lnk += [_link(f"nic{j}", "net.compute", net) for j in range(len(lay.nics))]

    groups: list[bo.DeviceGroup] = []
    if lay.nvswitch:
        dev.append(
            bo.Device(
                id="nvswitch",
                kind=bo.DeviceKind.NVSWITCH,
                name="NVSwitch (HGX baseboard)",
                connects=[f"gpu{i}" for i in range(lay.gpus)],
            )
        )
        nvl = links.nvlink(gpu, "to NVSwitch")
        lnk += [_link(f"gpu{i}", "nvswitch", nvl) for i in range(lay.gpus)]
        groups.append(
            bo.DeviceGroup(
                name=f"{lay.gpus} x {short} over NVLink",
                kind="nvswitch",
                devices=[f"gpu{i}" for i in range(lay.gpus)],
                reason="All GPUs on the baseboard reach each other over NVLink; vSphere can "
                "also hand out groups of 2 and 4, isolating the rest",
            )
        )
    elif lay.nvlink == "baseboard":
        board = "HGX" if server.pcie_topology is PcieTopology.HGX else "SXM"
        dev.append(
            bo.Device(
                id="nvlink-board",
                kind=bo.DeviceKind.NVLINK_MESH,
                name=f"{lay.board_gpus}-GPU NVLink board ({board}, no NVSwitch)",
                connects=[f"gpu{i}" for i in range(lay.gpus)],
            )
        )
        pair = links.nvlink_mesh(gpu, lay.board_gpus, 2)
        pair = Link(f"NVLink {gpu.nvlink.generation} (GPU to GPU)", pair.gbs, pair.source, "nvlink")
        lnk += [_link(f"gpu{a}", f"gpu{b}", pair) for a, b in combinations(range(lay.gpus), 2)]
        groups.append(
            bo.DeviceGroup(
                name=f"{lay.gpus} x {short} over NVLink",
                kind="nvlink-mesh",
                devices=[f"gpu{i}" for i in range(lay.gpus)],
                reason="Every GPU on the board has direct NVLink links to each other one (no "
                "NVSwitch); a VM given several of them uses the links between those",
            )
        )
    nvl = links.nvlink(gpu, count(gpu.nvlink.bridges_per_group, "bridge"))
    for n, members in enumerate(lay.bridge_groups):
        for b in range(gpu.nvlink.bridges_per_group):
            dev.append(
                bo.Device(
                    id=f"nvlbridge{n}.{b}",
                    kind=bo.DeviceKind.NVLINK_BRIDGE,
                    name=f"NVLink bridge {n}.{b}",
                    connects=[f"gpu{i}" for i in members],
                )
            )
        lnk += [_link(f"gpu{a}", f"gpu{b}", nvl) for a, b in pairwise(members)]
        groups.append(
            bo.DeviceGroup(
                name=f"{len(members)} x {short} (NVLink)",
                kind="nvlink",
                devices=[f"gpu{i}" for i in members],
                reason="GPUs joined by NVLink bridges go to a VM together",
            )
        )
    paths = gpu_nic_paths(lay)
    for p in paths:
        if p.gpudirect_ok and p.nic is not None:
            groups.append(
                bo.DeviceGroup(
                    name=f"GPU {p.gpu.removeprefix('gpu')} + NIC {p.nic.removeprefix('nic')}",
                    kind="gpu-nic",
                    devices=[p.gpu, p.nic],
                    reason="GPU and NIC share a "
                    + ("PCIe switch" if p.shared == "pcie-switch" else "root complex")
                    + ": GPUDirect RDMA",
                )
            )
    return bo.HostTopology(
        name="Host type A",
        hosts=hosts,
        server=server.id,
        server_name=server.product_name,
        gpu=gpu.id,
        gpu_name=gpu.name,
        pcie_topology=server.pcie_topology.value,
        sockets=lay.sockets,
        root_complexes=lay.sockets * server.root_complexes_per_socket,
        pcie_switches=len(lay.switches),
        gpus=lay.gpus,
        gpu_boards=len(lay.boards),
        nics=len(lay.nics) if nic is not None else 0,
        nvlink_bridges=lay.bridges,
        nvlink=lay.nvlink,
        devices=dev,
        links=lnk,
        device_groups=groups,
        gpu_nic_paths=paths,
    )


def _link(a: str, b: str, link: Link) -> bo.Link:
    return bo.Link(
        a=a, b=b, kind=bo.LinkKind(link.kind), label=link.name, gbs=link.gbs, source=link.source
    )


def gpu_nic_paths(lay: HostLayout) -> list[bo.GpuNicPath]:
    """For each GPU, the closest NIC: under the same switch, then the same root complex, the
    same CPU, the other CPU. GPUDirect RDMA needs one of the first two (seed). Among NICs as
    close, the one fewest GPUs use so far: two GPUs and two NICs under one switch pair off one
    to one, as rail-optimized HGX systems are cabled."""
    out = []
    uses = [0] * len(lay.nics)
    for i in range(lay.gpus):
        g = lay.slot(i)
        best: tuple[int, int | None] = (4, None)
        for j in sorted(range(len(lay.nics)), key=lambda k: uses[k]):
            n = lay.nics[j]
            if g.switch is not None and n.switch == g.switch:
                rank = 0
            elif g.switch is None and n.switch is None and (n.socket, n.rc) == (g.socket, g.rc):
                rank = 1
            elif n.socket == g.socket:
                rank = 2
            else:
                rank = 3
            if rank < best[0]:
                best = (rank, j)
        if best[1] is not None:
            uses[best[1]] += 1
        shared = ["pcie-switch", "root-complex", "cpu", "cross-socket", "cross-socket"][best[0]]
        ok = best[0] == 0 or (best[0] == 1 and lay.server.gdr_affinity)
        out.append(
            bo.GpuNicPath(
                gpu=f"gpu{i}",
                nic=None if best[1] is None else f"nic{best[1]}",
                shared=shared if best[1] is not None else "none",
                gpudirect_ok=ok,
            )
        )
    return out


# ---------------------------------------------------------------------- landscape and rings


def bandwidth_landscape(lay: HostLayout, hw: Hardware) -> list[bo.BandwidthTier]:
    """HBM -> NVLink -> PCIe -> CPU interconnect -> NIC: the steps the seed's diagram shows."""
    gpu, server = lay.gpu, lay.server
    tiers = [
        bo.BandwidthTier(
            name=f"GPU memory ({gpu.memory_type})",
            kind="hbm",
            gbs=gpu.memory_bandwidth_gbs,
            basis="memory bandwidth",
            source=f"GPU catalog: {gpu.source}",
        )
    ]
    if lay.nvlink != "none":
        link = links.nvlink(gpu, "baseboard" if lay.nvlink == "baseboard" else "bridge")
        tiers.append(_tier(link, "nvlink"))
    tiers.append(_tier(links.gpu_pcie(gpu, server), "pcie"))
    if lay.sockets > 1:
        tiers.append(_tier(links.cpu_interconnect(server), "cpu-interconnect"))
    if hw.nic and hw.nics_per_host:
        tiers.append(_tier(links.nic(hw), "network"))
    return tiers


def _tier(link: Link, kind: str) -> bo.BandwidthTier:
    return bo.BandwidthTier(
        name=link.name, kind=kind, gbs=link.gbs, basis="one direction", source=link.source
    )


def rings(
    lay: HostLayout,
    hw: Hardware,
    catalog: Parts,
    workloads: list[WorkloadResult],
    rec: Recorder,
) -> list[bo.RingAnalysis]:
    """The ring each data-parallel workload runs, with the bottleneck the communication
    estimate used; recommends an NVSwitch system where a PCIe hop inside the host binds it."""
    out = []
    alt = _nvswitch_alternative(lay.gpu, catalog)
    for w in workloads:
        t, dp = w.training, w.layout.data_parallel if w.layout else 1
        if t is None or not t.allreduce_link or dp <= 1:
            continue
        spans = w.gpus_per_replica * dp > hw.gpus_per_host
        path = ring_path(lay.gpu, lay.server, hw, dp, spans)
        neck = min(path, key=lambda link: link.gbs)
        ring = bo.RingAnalysis(
            workload=w.name,
            ring_gpus=dp,
            spans_hosts=spans,
            hops=[bo.RingHop(label=x.name, kind=x.kind, gbs=x.gbs) for x in path],
            bottleneck=neck.name,
            bottleneck_kind=neck.kind,
            bottleneck_gbs=neck.gbs,
            nvswitch_alternative=alt[0] if alt else None,
        )
        out.append(ring)
        if neck.kind in ("pcie", "cpu-interconnect") and lay.nvlink != "baseboard":
            share = t.communication_share
            fast = max(path, key=lambda link: link.gbs)
            better = (
                f"; {alt[0]} keeps the whole ring on NVLink at {alt[1]:g} GB/s each way"
                if alt
                else "; an NVSwitch (HGX) system keeps the whole ring on NVLink"
            )
            rec.warn(
                "ring-bottleneck-pcie",
                f"{w.name}: the gradient ring over {dp} GPUs runs at {neck.name} speed "
                f"({neck.gbs:g} GB/s each way)"
                + (f", not the {fast.name} speed of {fast.gbs:g} GB/s" if fast is not neck else "")
                + (f"; allreduce is {share:.0%} of each iteration" if share is not None else "")
                + better,
                Severity.WARNING if share is None or share >= 0.25 else Severity.INFO,
            )
    return out


def _nvswitch_alternative(gpu: Gpu, catalog: Parts) -> tuple[str, float] | None:
    """The SXM sibling of a PCIe GPU (same architecture) in an HGX server of the catalog."""
    if gpu.form_factor is FormFactor.SXM:
        return None
    best: tuple[tuple[float, float, str], tuple[str, float]] | None = None
    for other in catalog.gpus.values():
        if other.architecture != gpu.architecture or other.nvlink.kind is not NvlinkKind.SXM:
            continue
        hosts = [s for s in catalog.servers.values() if other.id in s.hgx_gpus]
        if not hosts:
            continue
        server = max(hosts, key=lambda s: max(x.max_gpus for x in s.gpu_support))
        label = f"{server.product_name} with {other.name}"
        key = (other.nvlink.bandwidth_gbs, -abs(other.memory_gb - gpu.memory_gb), label)
        if best is None or key > best[0]:
            best = (key, (label, other.nvlink.bandwidth_gbs / 2))
    return best[1] if best else None


# ---------------------------------------------------------------------------------- checks


def check(lay: HostLayout, nic: Nic | None, hw: Hardware, multi_host: bool, rec: Recorder) -> None:
    """Warnings the host layout raises: NVLink bridges in 2U, GPUDirect RDMA paths, slots."""
    server = lay.server
    if lay.nvlink == "bridge" and server.rack_units <= 2:
        rec.warn(
            "nvlink-bridge-2u",
            f"NVLink bridges in the {server.rack_units}U {server.product_name}: bridged "
            "GPUs need two double-width slots directly above each other, which rules out almost "
            "every 2U server; confirm the riser layout the vendor ships for bridged pairs "
            f"({SEED_NVLINK_BRIDGE.split(':')[0]})",
        )
    if nic is not None and hw.nics_per_host > server.nic_slots:
        rec.error(
            "nic-slots-exceeded",
            "hardware.nics_per_host",
            f"{hw.nics_per_host} NICs per host, but the {server.product_name} has "
            f"{count(server.nic_slots, 'NIC slot')} left with its GPUs fitted",
        )
    paths = gpu_nic_paths(lay)
    without = [p.gpu for p in paths if not p.gpudirect_ok]
    if hw.gpudirect_rdma and without:
        fix = (
            f"give each PCIe switch a NIC ({len(lay.switches) or lay.sockets} NICs or more)"
            if server.gdr_affinity
            else f"the {server.product_name} has no NIC slot beside its GPUs; a server "
            "with PCIe switch boards puts NIC and GPUs under one switch"
        )
        rec.warn(
            "gpudirect-rdma-no-local-nic",
            f"GPUDirect RDMA: {len(without)} of {lay.gpus} GPUs per host have no NIC under their "
            f"PCIe switch or root complex ({some(without)}); it still works, with lower "
            f"performance, as their RDMA traffic crosses the CPU (NVIDIA GPUDirect RDMA "
            f"documentation, 'Supported Systems'); {fix}",
        )
    if not hw.gpudirect_rdma and hw.rdma.value != "none" and multi_host and not server.gdr_affinity:
        rec.warn(
            "gpudirect-rdma-unavailable",
            f"Training spans hosts over RDMA, but the {server.product_name} puts no NIC "
            "slot under a GPU's PCIe switch or root complex, so GPUDirect RDMA cannot be used and "
            "gradients are copied through host memory; servers with PCIe switch boards avoid this",
        )


def nvlink_domain(gpu: Gpu, server: Server, hw: Hardware) -> int:
    """GPUs one tensor-parallel group may span over NVLink: the whole host on an NVSwitch or
    NVLink baseboard, a bridged group otherwise, one GPU without NVLink (tensor parallelism over
    PCIe is never planned)."""
    lay = layout(gpu, server, hw)
    if lay.nvlink == "baseboard":
        return hw.gpus_per_host
    if lay.nvlink == "bridge" and lay.bridge_groups:
        return min(len(g) for g in lay.bridge_groups)
    return 1
