"""The bill of materials: every line counted from the topology totals, so quantities match the
topology by construction; prices only from a user's price list."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from wizard.base.errors import DesignError
from wizard.engine.basis import sources
from wizard.engine.basis.expr import Formula
from wizard.engine.basis.record import Recorder
from wizard.engine.fitout import confirm, linkx, media, portmap
from wizard.engine.fitout.cooling import cooling_lines
from wizard.engine.fitout.fabric import SERVICE_NIC_SOURCE
from wizard.engine.platform.compat import PAIF_LICENCE
from wizard.model import buildout as bo
from wizard.model.buildout import BomCategory as Cat
from wizard.model.catalog import (
    Cooling,
    FormFactor,
    Gpu,
    Licence,
    LicenceUnit,
    Nic,
    Parts,
    PcieTopology,
    Server,
)
from wizard.model.catalog import Switch as CatalogSwitch
from wizard.model.design import DEFAULT_CORES_PER_SOCKET
from wizard.model.names import NETWORK_LABEL
from wizard.model.platform import StorageResult
from wizard.model.prices import PriceList
from wizard.model.result import Severity

if TYPE_CHECKING:  # the build-out's input; the build-out imports this module
    from wizard.engine.fitout.buildout import BuildFacts


def _line(cat: Cat, item: str, part: str, text: str, qty: int, unit: str, src: str) -> bo.BomLine:
    return bo.BomLine(
        category=cat,
        item=item,
        part_number=part,
        description=text,
        quantity=qty,
        unit=unit,
        source=src,
    )


RUN = {"host-leaf": "host to leaf", "leaf-spine": "leaf to spine", "peer-link": "peer link",
       "host-oob": "host to out-of-band switch", "oob-uplink": "out-of-band uplink"}  # fmt: skip


def bill_of_materials(
    facts: BuildFacts,
    catalog: Parts,
    gpu: Gpu,
    server: Server,
    topo: bo.Topology,
    rec: Recorder,
    storage: StorageResult | None = None,
    racks: bo.Racks | None = None,
) -> bo.Bom:
    t = topo.totals
    hw = facts.hardware
    cpu = server.cpu_option(hw.cpu)
    processors = f"{cpu.name} ({cpu.cores} cores)" if cpu else server.cpu_family
    lines = [
        _line(
            Cat.SERVER,
            f"server:{server.id}",
            "",
            f"{server.product_name}, {server.sockets} x {processors}, "
            f"{server.rack_units}U{', liquid-cooled' if server.cooling == Cooling.LIQUID else ''}, "
            f"configured for {hw.gpus_per_host} x {gpu.name}, with the configuration lines below",
            t.hosts,
            "each",
            f"catalog servers/{server.id}",
        )
    ]
    lines += server_configuration(server, gpu, hw.gpus_per_host, t.hosts, racks, catalog)
    hgx = "HGX" if server.pcie_topology is PcieTopology.HGX else "SXM"
    board = (
        f"on the {hgx} baseboard, ordered with the server"
        if gpu.form_factor is FormFactor.SXM
        else f"PCIe, {gpu.slot_width}-slot"
    )
    per_board = f", {gpu.gpus_per_board} GPUs per board" if gpu.gpus_per_board > 1 else ""
    lines.append(
        _line(
            Cat.GPU,
            f"gpu:{gpu.id}",
            "",
            f"{gpu.name}, {gpu.memory_gb:g} GB {gpu.memory_type} ({board}{per_board})",
            t.gpu_boards,
            "board",
            f"catalog gpus/{gpu.id}",
        )
    )
    for nic_id, qty in sorted(t.nics.items()):
        nic = catalog.nics[nic_id]
        # the HGX B300 board carries one ConnectX-8 per GPU: those come with the server
        on_board = 0
        if nic.id == gpu.board_nic and server.pcie_topology is PcieTopology.HGX:
            on_board = min(qty, t.gpu_boards * gpu.gpus_per_board)
            lines.append(
                _line(
                    Cat.NIC,
                    f"nic:{nic.id}:on-board",
                    "",
                    f"{nic.product_name} (GPU fabric; on the {hgx} baseboard, one per "
                    "GPU, ordered with the server)",
                    on_board,
                    "each",
                    f"catalog nics/{nic.id}; catalog gpus/{gpu.id} (board_nic_source)",
                )
            )
        if qty > on_board:
            lines.append(
                _line(
                    Cat.NIC,
                    f"nic:{nic.id}",
                    nic.part_number,
                    f"{nic.product_name} (GPU fabric)",
                    qty - on_board,
                    "each",
                    f"catalog nics/{nic.id}",
                )
            )
    lines += service_nic_lines(catalog, topo.fabric, t.hosts)
    if t.nvlink_bridges:
        k = gpu.nvlink.bridges_per_group
        lines.append(
            _line(
                Cat.NVLINK_BRIDGE,
                f"nvlink-bridge:{gpu.id}",
                gpu.nvlink.bridge_part_number,
                f"NVIDIA NVLink {gpu.nvlink.generation} bridge for {gpu.name} ({k} per bridged "
                "group)",
                t.nvlink_bridges,
                "each",
                f"catalog gpus/{gpu.id}: bridges per bridged group and the bridge's part "
                "number, from the vendor's NVLink bridge guidance in its source",
            )
        )
    for sw_id, qty in sorted(t.switches.items()):
        sw = catalog.switches[sw_id]
        lines.append(
            _line(
                Cat.SWITCH,
                f"switch:{sw.id}",
                sw.part_number,
                f"{sw.product_name}, {sw.ports} x {sw.port_speed_gbps:g} Gb/s, {sw.rack_units}U",
                qty,
                "each",
                f"catalog switches/{sw.id}",
            )
        )
    texts = {c.key: c for p in topo.fabric.planes for c in p.cables}
    paired, done = _linkx(facts.nic, catalog, topo, racks)
    lines += paired
    for key, qty in sorted(t.cables.items()):
        if key in done:
            continue
        lines.append(
            _line(
                Cat.CABLE,
                f"cable:{key}",
                "",
                f"{texts[key].description}, on the "
                f"{NETWORK_LABEL[key.split('.')[0]][0].lower()}{NETWORK_LABEL[key.split('.')[0]][1:]}",
                qty,
                "each",
                "Derived from the network sizing of this design: the host ports of each network "
                "and one cable per link",
            )
        )
    for key, qty in sorted(t.transceivers.items()):
        if key in done:
            continue
        speed = texts[key].speed_gbps
        lines.append(
            _line(
                Cat.TRANSCEIVER,
                f"transceiver:{key}",
                "",
                f"{speed:g} Gb/s optical transceiver ({key.split('.')[0]} network, "
                f"{RUN[texts[key].between]})",
                qty,
                "each",
                "fabric sizing: one module at each end of a link between racks",
            )
        )
    if storage is not None and storage.system is not None and storage.nodes:
        s = catalog.storage[storage.system]
        lines.append(
            _line(
                Cat.STORAGE,
                f"storage:{s.id}",
                "",
                f"{s.product_name} node, {s.usable_capacity_tb_per_node:g} TB usable and "
                f"{s.read_throughput_gbs_per_node:g} GB/s of reads each, {s.rack_units_per_node}U "
                "(drives and front-end ports per vendor quote)",
                storage.nodes,
                "node",
                f"catalog storage/{s.id}",
            )
        )
    if racks is not None:
        lines += rack_lines(len(racks.racks), racks.rack_units, racks.power_limit_kw)
        lines += cooling_lines(racks.cooling, catalog)
    lines += _licences(facts, catalog, gpu, server, t, rec)
    kept = bo.Bom(lines=[ln for ln in lines if ln.quantity > 0 or ln.included > 0])
    return confirm.mark(kept, catalog)


def service_nic_lines(
    catalog: Parts, net: bo.NetworkFabric, hosts: int, cluster: str | None = None
) -> list[bo.BomLine]:
    """The adapter of the service network's ports, where the server has no onboard ports of
    that speed: every port a service cable plugs into is on the bill."""
    roles = [r for r in net.nic_roles if r.network == "service" and r.adapter in catalog.nics]
    if not roles or not hosts:
        return []
    nic = catalog.nics[roles[0].adapter]
    ports = roles[0].ports_per_host
    cards = -(-ports // nic.ports)
    uses = ", ".join(r.note.split(" on its own")[0] for r in roles)
    return [
        _line(Cat.NIC, f"nic:{nic.id}:service", nic.part_number,
              f"{nic.product_name} (service network: {uses}; {cards} per host for its {ports} x "
              f"{roles[0].speed_gbps:g} GbE ports, the server's OCP 3.0 or PCIe option)",
              hosts * cards, "each", f"catalog nics/{nic.id}; {SERVICE_NIC_SOURCE}")
    ]  # fmt: skip


MEMORY_SOURCE = (
    "System memory at least twice the GPU memory of the host, so datasets, checkpoints and "
    "pinned buffers stage in host memory: NVIDIA DGX H100 has 2 TB for its 8 x 80 GB GPUs "
    "(DGX H100 datasheet), DGX A100 1 TB for 320 GB"
)
CPU_HOST_MEMORY_GB = 256
CPU_HOST_MEMORY_SOURCE = (
    "VMware, 'Planning the Hardware Requirements for the VMware Cloud Foundation Management "
    "Domain' (the Prerequisite Checklist of the VCF Planning and Preparation workbook): "
    "'Memory | 256 GB per server' for each of the management domain's 4 hosts, "
    "https://core.vmware.com/resource/planning-hardware-requirements-vmware-cloud-foundation-"
    "management-domain"
)
BOOT_SOURCE = (
    "VMware Cloud Foundation VI workload domain design, ESXi boot device: 'ESXi requires a boot "
    "disk of at least … 32 GB for other device types such as HDD, SSD, or NVMe' and 'The ESXi "
    "system storage volumes occupy up to 128 GB of disk space' (https://docs.vmware.com/en/"
    "VMware-Cloud-Foundation/4.5/vcf-vi-workload-domain-design/GUID-02C07FC1-B797-43B0-8124-"
    "72468EF0AF9A.html); ESXi system storage: 'A local disk of 128 GB or larger for optimal "
    "support of ESX-OSData' and 'a RAID 1 mirrored device is recommended'"
)
CORD_SOURCE = (
    "IEC 60320: a C13/C14 cord is rated 10 A, a C19/C20 cord 16 A; a supply drawing more than "
    "10 A at 200 V takes a C19/C20 cord"
)
OOB_SOURCE = (
    "NVIDIA DGX BasePOD reference architecture, components: 'OOB management fabric | NVIDIA "
    "SN2201 switches' (48 x 1 GbE RJ45 and 4 x 100 GbE), https://docs.nvidia.com/dgx-basepod/"
    "reference-architecture-infrastructure-foundation-enterprise-ai/latest/"
    "reference-architectures.html"
)
OOB_PORTS = portmap.OOB_PORTS
OOB_ITEM = "switch:nvidia-sn2201"


def oob_switch(catalog: Parts) -> CatalogSwitch | None:
    """The out-of-band switch every rack holds at its top, as the catalog lists it."""
    return catalog.switches.get(OOB_ITEM.split(":")[1])


def server_configuration(
    server: Server,
    gpu: Gpu,
    gpus_per_host: int,
    hosts: int,
    racks: bo.Racks | None,
    catalog: Parts,
) -> list[bo.BomLine]:
    """What each server is ordered with beside its GPUs and NICs: memory, mirrored boot drives,
    power supplies with their cords, rails; and the out-of-band switches the BMC ports join."""
    memory = math.ceil(2 * gpu.memory_gb * gpus_per_host / 256) * 256
    out = [
        _line(Cat.SERVER_PART, f"server-memory:{server.id}", "",
              f"System memory for the {server.product_name}: at least {memory:,} GB per "
              "host, populating every memory channel of each socket", hosts, "host", MEMORY_SOURCE),
        *platform_lines(server, hosts),
    ]  # fmt: skip
    if racks is not None:
        out.append(oob_switch_line(racks.racks, catalog))
    return out


def cpu_host_memory_line(server: Server, hosts: int) -> bo.BomLine:
    """The memory of a host without GPUs (the management domain's): VMware's minimum per host,
    as its bring-up runs vCenter, NSX Managers and SDDC Manager on these hosts."""
    return _line(Cat.SERVER_PART, f"server-memory:{server.id}", "",
                 f"System memory for the {server.product_name}: at least "
                 f"{CPU_HOST_MEMORY_GB:,} GB per host, populating every memory channel of each "
                 "socket", hosts, "host", CPU_HOST_MEMORY_SOURCE)  # fmt: skip


def platform_lines(server: Server, hosts: int) -> list[bo.BomLine]:
    """What every server is ordered with whatever it runs: mirrored boot drives, power supplies
    with their cords, rails."""
    cord = "C19 to C20" if server.psu_w / 200 > 10 else "C13 to C14"
    return [
        _line(Cat.SERVER_PART, f"server-boot:{server.id}", "",
              "ESXi boot: two M.2 NVMe drives of at least 128 GB each, mirrored (RAID 1)", hosts,
              "host", BOOT_SOURCE),
        _line(Cat.SERVER_PART, f"server-psu:{server.id}", "",
              f"Power supply, {server.psu_w:,.0f} W, for the {server.product_name} "
              f"({server.psu_count} per host)", hosts * server.psu_count, "each",
              f"catalog servers/{server.id}"),
        _line(Cat.SERVER_PART, f"server-cord:{cord.lower().replace(' ', '-')}", "",
              f"Power cord, {cord} (IEC 60320), one per power supply, to the A and B PDUs",
              hosts * server.psu_count, "each", CORD_SOURCE),
        _line(Cat.SERVER_PART, f"server-rails:{server.id}", "",
              f"Sliding rail kit with cable management arm for the {server.vendor} "
              f"{server.model}", hosts, "each", f"catalog servers/{server.id}"),
    ]  # fmt: skip


def oob_switch_line(racks: list[bo.Rack], catalog: Parts) -> bo.BomLine:
    """The out-of-band switches: one per rack for every 48 management ports in it."""
    switches = sum(portmap.oob_switches(r) for r in racks)
    sw = catalog.switches[OOB_ITEM.split(":")[1]]
    return _line(Cat.SWITCH, OOB_ITEM, sw.part_number,
                 f"{sw.product_name} out-of-band management switch, {sw.ports} x 1 GbE RJ45, "
                 f"{sw.rack_units}U: one per rack for every {sw.ports} management ports (servers' "
                 "BMCs, switches, storage), uplinked to the site's management network",
                 switches, "each", f"catalog switches/{sw.id}; {OOB_SOURCE}")  # fmt: skip


def _linkx(
    nic: Nic | None, catalog: Parts, topo: bo.Topology, racks: bo.Racks | None
) -> tuple[list[bo.BomLine], set[str]]:
    """The placed parts of every network (NVIDIA's paired InfiniBand parts, the Ethernet port
    map's), and the generic cable keys they replace."""
    if racks is None:
        return [], set()
    planes = topo.fabric.planes
    runs = cluster_runs(nic, catalog, planes, racks.racks)
    return merged(media.flat(runs)), media.replaced(planes, runs)


def cluster_runs(
    nic: Nic | None, catalog: Parts, planes: list[bo.Plane], racks: list[bo.Rack]
) -> media.Runs:
    """The parts of each run of one cluster's planes placed in its racks, its hosts holding
    ``nic``: what the bill counts and the network's words describe."""
    hosts = portmap.rack_hosts(racks)
    osfp = nic is not None and nic.ports == 1
    links = portmap.cluster_port_map(nic, planes, racks)
    return media.plane_runs(planes, racks, [hosts] * len(planes), [osfp] * len(planes),
                            [managed(catalog, p) for p in planes], links, False)  # fmt: skip


def managed(catalog: Parts, plane: bo.Plane) -> bool | None:
    """Whether the plane's leaf switch runs an embedded subnet manager (InfiniBand)."""
    if not plane.tiers:
        return None
    return linkx.switch_managed(catalog.switches[plane.tiers[0].switch].part_number)


def merged(lines: list[bo.BomLine]) -> list[bo.BomLine]:
    """Lines of one item (and cluster) added together, in first-seen order."""
    out: dict[tuple[str, str | None], bo.BomLine] = {}
    for ln in lines:
        k = (ln.item, ln.cluster)
        if k in out:
            was = out[k]
            ln = was.model_copy(update={"quantity": was.quantity + ln.quantity,
                                        "included": was.included + ln.included})  # fmt: skip
        out[k] = ln
    return list(out.values())


# Two PDUs per rack on separate A and B feeds, each able to carry the whole rack, so a feed or
# a PDU can fail without the rack going dark
PDUS_PER_RACK = 2
PDU_SOURCE = (
    "Dual-corded racks fed from two independent power paths (A and B), each PDU sized for the "
    "full rack load: Uptime Institute Tier III/IV topology and NVIDIA DGX SuperPOD data centre "
    "design (two PDUs per rack on separate feeds)"
)


def rack_lines(racks: int, height_u: int, limit_kw: float) -> list[bo.BomLine]:
    """The racks the design counts and their power distribution: an enclosure and two PDUs,
    each rated for the rack's power limit."""
    return [
        _line(Cat.RACK, f"rack:{height_u}u", "",
              f"{height_u}U 19-inch rack enclosure with blanking panels and cable management",
              racks, "each", "Derived from the rack placement of this design: hosts and network "
              "gear per rack within its height and power limit"),
        _line(Cat.RACK, f"pdu:{limit_kw:g}kw", "",
              f"Rack power distribution unit (PDU), 0U vertical, rated for at least "
              f"{limit_kw:g} kW, one on each of the A and B feeds",
              PDUS_PER_RACK * racks, "each", PDU_SOURCE),
    ]  # fmt: skip


def _licences(
    facts: BuildFacts,
    catalog: Parts,
    gpu: Gpu,
    server: Server,
    t: bo.TopologyTotals,
    rec: Recorder,
) -> list[bo.BomLine]:
    lic = facts.licensing
    cores = CoreCount(t.hosts, server, facts.hardware.cpu, lic.cores_per_socket)
    out = []
    if lic.gpu_software:
        x = catalog.licences[lic.gpu_software]
        years = gpu.nvaie_included_years if x.id == "nvidia-ai-enterprise" else None
        line = _line(
            Cat.LICENCE,
            f"licence:{x.id}",
            x.part_number,
            f"{licence_name(x)}, one per physical GPU ({x.term})",
            t.gpus,
            "GPU licence",
            x.source,
        )
        if years:
            line = line.model_copy(
                update={
                    "quantity": 0,
                    "included": t.gpus,
                    "description": f"{licence_name(x)}: a {years}-year subscription ships with each "
                    f"{gpu.name}, so none is bought for the first {years} years",
                    "source": f"{x.source}; {gpu.name} in the GPU catalog (see its source_note)",
                }
            )
            if "nvaie_included_years" in gpu.unsettled:  # a third-party reading of the term
                line = confirm.marked(line, catalog, (confirm.words("nvaie_included_years"),))
        out.append(line)
    if lic.platform:
        x = catalog.licences[lic.platform]
        if x.unit is LicenceUnit.PER_CORE:
            qty = core_licences("bom.platform_core_licences", cores, x, rec)
            unit = "core licence"
        else:
            qty = {
                LicenceUnit.PER_SOCKET: t.sockets,
                LicenceUnit.PER_HOST: t.hosts,
                LicenceUnit.PER_GPU: t.gpus,
            }[x.unit]
            qty = max(qty, x.min_units) if qty else 0
            unit = f"{x.unit.value.removeprefix('per-')} licence"
        out.append(
            _line(
                Cat.LICENCE,
                f"licence:{x.id}",
                x.part_number,
                f"{licence_name(x)} ({unit_words(x)}, minimum {x.min_units}; {x.term})",
                qty,
                unit,
                x.source,
            )
        )
    paif = catalog.licences.get(PAIF_LICENCE)
    if facts.private_ai_foundation and paif is not None:
        qty = core_licences("bom.private_ai_core_licences", cores, paif, rec)
        out.append(
            _line(
                Cat.LICENCE,
                f"licence:{paif.id}",
                paif.part_number,
                f"{licence_name(paif)} on the GPU hosts ({unit_words(paif)}, minimum {paif.min_units}; "
                f"{paif.term})",
                qty,
                "core licence",
                paif.source,
            )
        )
    return out


CORE_LICENCES = Formula("hosts * sockets * max(cores_per_socket, minimum_per_cpu)")


@dataclass(frozen=True)
class CoreCount:
    """What a per-core licence count reads, and nothing more: the hosts licensed, their server
    (sockets, processors), the processor ordered (None: the server's usual build) and the
    design's stated cores per socket (None: the processor's)."""

    hosts: int
    server: Server
    cpu: str | None = None
    stated_cores_per_socket: int | None = None


def core_licences(key: str, need: CoreCount, x: Licence, rec: Recorder) -> int:
    """Per-core licences on ``need``'s hosts: every core of every socket, at least the licence's
    minimum per CPU (Broadcom KB 313548: 16 cores per CPU)."""
    cores, whence = _cores_per_socket(need, x, rec)
    return int(
        rec.expr(
            key,
            CORE_LICENCES,
            {
                "hosts": need.hosts,
                "sockets": need.server.sockets,
                "cores_per_socket": cores,
                "minimum_per_cpu": x.min_units,
            },
            "core licences",
            f"{x.source}; cores per socket: {whence}",
        )
    )


def _cores_per_socket(need: CoreCount, x: Licence, rec: Recorder) -> tuple[int, str]:
    """Cores per socket for per-core licences, and where the count comes from: the design's
    override, else the chosen processor, else an assumption said out loud."""
    server = need.server
    if need.stated_cores_per_socket is not None:
        return need.stated_cores_per_socket, "the design's stated cores per socket"
    cpu = server.cpu_option(need.cpu)
    if cpu is not None:
        how = "the processor chosen" if need.cpu else "the server's usual build"
        return cpu.cores, f"{cpu.name}, {how} ({cpu.source or server.source})"
    rec.warn(
        "licence-cores-assumed",
        f"{x.name} is licensed per core; the catalog lists no processor for the "
        f"{server.product_name}, so {DEFAULT_CORES_PER_SOCKET} cores per socket are "
        "assumed (state the cores per socket of the processor ordered)",
        Severity.INFO,
    )
    return DEFAULT_CORES_PER_SOCKET, f"assumed {DEFAULT_CORES_PER_SOCKET} ({sources.ASSUMPTION})"


def unit_words(x: Licence) -> str:
    """'per core', not the catalog's 'per-core'."""
    return x.unit.value.replace("-", " ")


def licence_name(x: Licence) -> str:
    """'NVIDIA AI Enterprise', not 'NVIDIA NVIDIA AI Enterprise'."""
    vendor_words = x.vendor.replace("(", " ").replace(")", " ").split()
    return x.name if x.name.split()[0] in vendor_words else f"{x.vendor} {x.name}"


def apply_prices(bom: bo.Bom, prices: PriceList) -> bo.Bom:
    """Unit prices by item key, else by part number (compared normalised and case-folded);
    totals per category over priced lines. A key and a part number priced differently for
    one line are refused by name rather than one silently preferred."""
    lines: list[bo.BomLine] = []
    totals: dict[str, float] = {}
    missing: list[str] = []
    for ln in bom.lines:
        price = prices.price(ln.item)
        by_part = prices.price(ln.part_number) if ln.part_number else None
        if price is not None and by_part is not None and price != by_part:
            raise DesignError(
                f"price list: '{ln.item}' is priced {price:,.2f} and its part number "
                f"'{ln.part_number}' {by_part:,.2f}; give the item one price"
            )
        if price is None:
            price = by_part
        if price is None:
            if ln.item not in missing:  # a design of several clusters bills an item per cluster
                missing.append(ln.item)
            lines.append(ln.model_copy(update={"unit_price": None, "total_price": None}))
            continue
        total = price * ln.quantity
        totals[ln.category.value] = totals.get(ln.category.value, 0.0) + total
        lines.append(ln.model_copy(update={"unit_price": price, "total_price": total}))
    grand = math.fsum(totals.values())
    return bo.Bom(
        lines=lines,
        currency=prices.currency,
        totals_by_category=totals,
        total=grand,
        unpriced_items=missing,
    )
