"""InfiniBand NDR cabling as NVIDIA's LinkX documents pair the parts, with lengths from the rack
placement, so the bill is an order an installer can place.

A Quantum-2 switch (QM9700/QM9790) has 32 OSFP cages, each two 400 Gb/s ports ("Each OSFP port
consists of 2 logical InfiniBand ports"): a switch end is always a twin-port part carrying two
links. In a rack, one 1:2 splitter DAC (MCP7Y00 to OSFP hosts, MCP7Y10 to QSFP112 hosts) joins a
cage to two ConnectX-7 ports; between racks, a twin-port transceiver (MMA4Z00-NS) at the switch
drives two straight fibres (MFP7E10) to two host transceivers (MMA4Z00-NS400 OSFP, MMA1Z00-NS400
QSFP112). Switch to switch: a twin-port DAC (MCP4Y10, up to 2 m) or twin-port modules at both ends
with a fibre per link. Each length is chosen from the part's own list."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from wizard.engine.fitout.ib_parts import NDR, PAIRINGS, Pairing, ndr_code
from wizard.model import buildout as bo
from wizard.model.buildout import BomCategory as Cat

QM97 = (
    "NVIDIA QM97XX User Manual, Interfaces: 'Each OSFP port consists of 2 logical InfiniBand "
    "ports' (32 cages, 64 NDR ports), https://docs.nvidia.com/networking/display/QM97X0PUB/"
    "Interfaces"
)
SM_SOURCE = (
    "NVIDIA MLNX-OS User Manual, Subnet Manager: 'The embedded SM on the MLNX-OS can be used to "
    "manage fabrics up to 2048 nodes'; it 'does not support adaptive routing… SHIELD, and SHARP', "
    "https://docs.nvidia.com/networking/display/NVIDIAMLNXOSUserManualv3112200LTS/Subnet+Manager"
)

DAC_LENGTHS_M = NDR.splitter_lengths_m  # MCP7Y00 / MCP7Y10 ordering lengths
SWITCH_DAC_LENGTHS_M = NDR.switch_cable_lengths_m  # MCP4Y10
FIBRE_LENGTHS_M = NDR.fibre_lengths_m  # MFP7E10 lengths offered
U_M = 0.04445  # one rack unit, EIA-310
ROUTING_M = 1.0  # in a rack: to the rear, along the cable manager and back, both ends
RACK_PITCH_M = 0.6  # a 600 mm rack, side by side in a row
TRAY_M = 2.5  # from a device up to the overhead tray, at each end of a run between racks


@dataclass(frozen=True)
class Place:
    rack: int  # index of the rack in the row
    u: int  # lowest unit of the device


def _dac_m(a: Place, b: Place, lengths: tuple[float, ...]) -> float | None:
    """The shortest listed copper length that reaches from ``a`` to ``b`` in one rack, None
    when none does."""
    need = abs(a.u - b.u) * U_M + ROUTING_M
    return next((m for m in lengths if m >= need), None)


def _fibre_m(a: Place, b: Place, lengths: tuple[int, ...] = FIBRE_LENGTHS_M) -> int:
    need = abs(a.rack - b.rack) * RACK_PITCH_M + 2 * TRAY_M + ROUTING_M
    return next((m for m in lengths if m >= need), lengths[-1])


_code = ndr_code


def fill(plane: bo.Plane, hosts: int, leaves: int) -> list[list[tuple[int, int]]]:
    """Which host ports each leaf takes, in its port order: (host, port of the host) pairs.
    Host ports go to the leaves in order, as the sizing spreads them; on a redundant plane a
    host's ports alternate over a pair of leaves, so either leaf can fail. A plane shared by
    hosts of different port counts (``plane.ports_per_host``) gives each host its own."""
    per_host = plane.host_ports // hosts if hosts else 0
    by_leaf: list[list[tuple[int, int]]] = [[] for _ in range(leaves)]
    if not leaves:
        return by_leaf
    if plane.ports_per_host:
        return _fill_mixed(plane, plane.ports_per_host[:hosts], by_leaf)
    if plane.redundant and leaves >= 2 and per_host >= 2:
        pairs = leaves // 2
        per_pair = -(-hosts // pairs)
        for h in range(hosts):
            first = 2 * min(h // per_pair, pairs - 1)
            for j in range(per_host):
                by_leaf[first + j % 2].append((h, j))
        return by_leaf
    return _fill_in_order(plane.host_ports, [per_host] * hosts, by_leaf)


def _fill_in_order(
    ports: int, counts: list[int], by_leaf: list[list[tuple[int, int]]]
) -> list[list[tuple[int, int]]]:
    """Host ports to the leaves in order, each leaf up to its even share of ``ports``."""
    leaves = len(by_leaf)
    base, extra = divmod(ports, leaves)
    capacity = [base + 1] * extra + [base] * (leaves - extra)
    k = 0
    for h, n in enumerate(counts):
        for j in range(n):
            while k < leaves and len(by_leaf[k]) >= capacity[k]:
                k += 1
            by_leaf[min(k, leaves - 1)].append((h, j))
    return by_leaf


def _fill_mixed(
    plane: bo.Plane, counts: list[int], by_leaf: list[list[tuple[int, int]]]
) -> list[list[tuple[int, int]]]:
    """``fill`` for hosts of different port counts. On a redundant plane each host goes to the
    pair its ports fall in (pairs filled in port order, up to an even share each) and its
    ports alternate over the pair's two leaves; a host with an odd count starts the next host
    on the other leaf, so hosts of one port each share the pair evenly."""
    leaves = len(by_leaf)
    total = sum(counts)
    if not (plane.redundant and leaves >= 2 and max(counts, default=0) >= 2):
        return _fill_in_order(total, counts, by_leaf)
    pairs = leaves // 2
    per_pair = -(-total // pairs)
    used = turn = 0
    for h, n in enumerate(counts):
        first = 2 * min(used // per_pair, pairs - 1)
        for j in range(n):
            by_leaf[first + (j + turn) % 2].append((h, j))
        turn = (turn + n) % 2
        used += n
    return by_leaf


@dataclass(frozen=True)
class Cage:
    """One twin-port cage of an NDR leaf and what joins it to its (one or two) host ports:
    a splitter DAC of ``dac_m`` metres, or a twin-port module with a fibre per port."""

    leaf: int
    cage: int  # 1-based, in the leaf's port order
    ends: tuple[tuple[int, int], ...]  # (host, port of the host)
    dac_m: float | None
    fibres_m: tuple[int, ...]


def host_leaf_cages(
    plane: bo.Plane, host_places: list[Place], leaf_places: list[Place], pair: Pairing = NDR
) -> list[Cage]:
    """Every host-facing cage of an InfiniBand plane: a splitter cable where a leaf and its
    hosts share a rack and the run is short enough, else fibres."""
    out = []
    parts = pair
    by_leaf = fill(plane, len(host_places), len(leaf_places))
    for n, (leaf, cage_ends) in enumerate(zip(leaf_places, by_leaf, strict=True)):
        for i in range(0, len(cage_ends), 2):
            ends = tuple(cage_ends[i : i + 2])  # one cage, two ports
            at = [host_places[h] for h, _ in ends]
            same_rack = all(p.rack == leaf.rack for p in at)
            lengths = (
                [_dac_m(p, leaf, parts.splitter_lengths_m) for p in at] if same_rack else [None]
            )
            if all(m is not None for m in lengths):
                dac = max(m for m in lengths if m is not None)
                out.append(Cage(n, i // 2 + 1, ends, dac, ()))
            else:
                fibres = tuple(_fibre_m(p, leaf, parts.fibre_lengths_m) for p in at)
                out.append(Cage(n, i // 2 + 1, ends, None, fibres))
    return out


def pairing(plane: bo.Plane) -> Pairing | None:
    """The InfiniBand generation whose part pairing covers the plane (NDR, XDR), None for a plane
    the generic cable lines count (Ethernet, HDR, a plane without switches)."""
    if plane.rdma != "infiniband" or not plane.tiers:
        return None
    return PAIRINGS.get(int(plane.speed_gbps))


def is_ndr(plane: bo.Plane) -> bool:
    """An InfiniBand plane with NVIDIA's paired parts (NDR or XDR)."""
    return pairing(plane) is not None


def host_leaf_lines(
    plane: bo.Plane,
    host_places: list[Place],
    leaf_places: list[Place],
    osfp_hosts: bool,
    cluster: str | None = None,
    pair: Pairing = NDR,
) -> list[bo.BomLine]:
    """The host-to-leaf parts of an InfiniBand plane, counted from its cages."""
    dacs: Counter[float] = Counter()
    fibres: Counter[int] = Counter()
    switch_modules = host_modules = 0
    for cage in host_leaf_cages(plane, host_places, leaf_places, pair):
        if cage.dac_m is not None:
            dacs[cage.dac_m] += 1
            continue
        switch_modules += 1
        host_modules += len(cage.ends)
        for m in cage.fibres_m:
            fibres[m] += 1
    out = []
    for d, n in sorted(dacs.items()):
        out.append(
            _line(Cat.CABLE, pair.splitter_number(osfp_hosts, d),
                  f"{pair.splitter_text(osfp_hosts, d)}, host to leaf in the rack", n,
                  pair.splitter_source(osfp_hosts), cluster)
        )  # fmt: skip
    if switch_modules:
        out.append(
            _line(Cat.TRANSCEIVER, pair.switch_module,
                  f"{pair.switch_module_text} (leaf end of two host links)", switch_modules,
                  pair.switch_module_source, cluster)
        )  # fmt: skip
        part = pair.host_module(osfp_hosts)
        form = "OSFP flat top" if osfp_hosts or not pair.host_module_qsfp else "QSFP112"
        nic = "ConnectX-7" if pair.speed_gbps == 400 else "ConnectX-8"
        out.append(
            _line(Cat.TRANSCEIVER, part,
                  f"NVIDIA {part} {pair.speed_gbps}G {form} transceiver (host end, {nic})",
                  host_modules, pair.host_module_source(osfp_hosts), cluster)
        )  # fmt: skip
    for m, n in sorted(fibres.items()):
        out.append(
            _line(Cat.CABLE, pair.fibre_number(m),
                  f"{pair.fibre_text}, {m} m, host to leaf across racks", n, pair.fibre_source,
                  cluster)
        )  # fmt: skip
    return out


def leaf_spine_lines(
    links: list[tuple[Place, Place]], cluster: str | None = None, pair: Pairing = NDR
) -> list[bo.BomLine]:
    """Leaf-to-spine links of an InfiniBand plane, two per twin-port cage at each end: a
    twin-port copper cable for a pair of links within its reach in one rack, else twin-port
    modules at both ends and a fibre per link."""
    dacs: Counter[float] = Counter()
    fibres: Counter[int] = Counter()
    modules = 0
    for i in range(0, len(links), 2):
        two = links[i : i + 2]
        lengths = [
            _dac_m(a, b, pair.switch_cable_lengths_m) if a.rack == b.rack else None for a, b in two
        ]
        if all(m is not None for m in lengths):
            dacs[max(m for m in lengths if m is not None)] += 1
            continue
        modules += 2  # a twin-port module at the leaf and one at the spine
        for a, b in two:
            fibres[_fibre_m(a, b, pair.fibre_lengths_m)] += 1
    out = [
        _line(Cat.CABLE, pair.switch_cable_number(m),
              f"{pair.switch_cable_text(m)}, leaf to spine (two links)", n,
              pair.switch_cable_source, cluster)
        for m, n in sorted(dacs.items())
    ]  # fmt: skip
    if modules:
        out.append(
            _line(Cat.TRANSCEIVER, pair.switch_module,
                  f"{pair.switch_module_text} (leaf and spine ends, two links each)", modules,
                  pair.switch_module_source, cluster)
        )  # fmt: skip
    out += [
        _line(Cat.CABLE, pair.fibre_number(m), f"{pair.fibre_text}, {m} m, leaf to spine", n,
              pair.fibre_source, cluster)
        for m, n in sorted(fibres.items())
    ]  # fmt: skip
    return out


def switch_managed(part_number: str) -> bool | None:
    """Whether an InfiniBand switch runs an embedded subnet manager, from its ordering part:
    MQM9700 / MQM8700 are the managed models, MQM9790 / MQM8790 the unmanaged twins; None
    when the catalog does not say."""
    if part_number.startswith(("MQM9700", "MQM8700")):
        return True
    if part_number.startswith(("MQM9790", "MQM8790")):
        return False
    return None


def subnet_manager_line(
    nodes: int, managed: bool | None, switches: int, cluster: str | None = None
) -> bo.BomLine:
    """Every InfiniBand fabric needs a subnet manager: the one embedded in a managed switch up to
    2,048 nodes (without adaptive routing and SHARP), else NVIDIA UFM on a host."""
    if managed and nodes <= 2048:
        standby = (
            "a standby on a second switch"
            if switches > 1
            else "a standby on a host (OpenSM or UFM) if the fabric must survive the switch's restart"
        )
        text = (
            "InfiniBand subnet manager: the one embedded in the managed switch "
            f"({nodes:,} nodes, within its 2,048), {standby}; UFM instead where SHARP in-network "
            "reduction or adaptive routing is wanted"
        )
        qty = 0  # it comes with the switch
    else:
        why = {
            False: "(unmanaged switches)",
            None: "(the switch catalog does not show an embedded subnet manager for these "
            "switches; UFM also runs SHARP in-network reduction and adaptive routing)",
        }
        text = "InfiniBand subnet manager: NVIDIA UFM on a pair of hosts or UFM appliances " + (
            why[managed] if managed is not True else f"({nodes:,} nodes, over 2,048)"
        )
        qty = 1
    ln = _line(Cat.SWITCH, "ib-subnet-manager", text, qty, SM_SOURCE, cluster)
    return ln.model_copy(update={"part_number": "", "included": 1 if qty == 0 else 0,
                                 "unit": "fabric"})  # fmt: skip


def _line(cat: Cat, part: str, text: str, qty: int, source: str, cluster: str | None) -> bo.BomLine:
    return bo.BomLine(category=cat, item=f"{cat.value}:{part.lower()}", part_number=part,
                      description=text, quantity=qty, unit="each", source=source,
                      cluster=cluster)  # fmt: skip


def switch_names(planes: list[bo.Plane], numbered_by_kind: bool) -> list[dict[str, list[str]]]:
    """Each plane's switches by role, as the rack placement names them: '{plane}-{role}-NN' in
    one cluster; numbered on across the planes of one kind ('compute-leaf-01', '-02', …) in a
    design of several clusters, where the plane's name also holds its fabric. In the planes'
    order (two planes may share a name)."""
    out: list[dict[str, list[str]]] = []
    seen: dict[str, int] = {}
    for p in planes:
        roles: dict[str, list[str]] = {}
        for t in sorted(p.tiers, key=lambda t: t.role != "spine"):
            head = f"{p.name.split('.')[0] if numbered_by_kind else p.name}-{t.role}"
            roles.setdefault(t.role, [])
            for n in range(t.count):
                seen[head] = seen.get(head, 0) + 1
                k = seen[head] if numbered_by_kind else n + 1
                roles.setdefault(t.role, []).append(f"{head}-{k:02d}")
        out.append(roles)
    return out


def places(racks: list[bo.Rack]) -> dict[str, Place]:
    """Where every named switch stands."""
    return {
        i.name: Place(r, i.u_position)
        for r, rack in enumerate(racks)
        for i in rack.items
        if i.kind == "switch"
    }


def plane_lines(
    plane: bo.Plane,
    host_places: list[Place],
    names: dict[str, list[str]],
    where: dict[str, Place],
    osfp_hosts: bool,
    managed: bool | None,
    cluster: str | None = None,
) -> list[bo.BomLine] | None:
    """All the cabling lines of an InfiniBand plane, or None when it has no paired parts or its
    switches are not placed (the generic lines then stay)."""
    runs = plane_runs(plane, host_places, names, where, osfp_hosts, managed, cluster)
    return None if runs is None else [ln for lines in runs.values() for ln in lines]


def plane_runs(
    plane: bo.Plane,
    host_places: list[Place],
    names: dict[str, list[str]],
    where: dict[str, Place],
    osfp_hosts: bool,
    managed: bool | None,
    cluster: str | None = None,
) -> dict[str, list[bo.BomLine]] | None:
    """The lines of an InfiniBand plane by run ('host-leaf', 'leaf-spine', 'subnet-manager'),
    or None as ``plane_lines``."""
    pair = pairing(plane)
    if pair is None:
        return None
    leaves = [where.get(n) for n in names.get("leaf", [])]
    spines = [where.get(n) for n in names.get("spine", [])]
    if not leaves or None in leaves or None in spines or not host_places:
        return None
    leaf_at = [p for p in leaves if p is not None]
    spine_at = [p for p in spines if p is not None]
    out = {"host-leaf": host_leaf_lines(plane, host_places, leaf_at, osfp_hosts, cluster, pair)}
    leaf_tier = next(t for t in plane.tiers if t.role == "leaf")
    if spine_at:
        links = [
            (leaf, spine_at[j % len(spine_at)])
            for leaf in leaf_at
            for j in range(leaf_tier.uplinks)
        ]
        out["leaf-spine"] = leaf_spine_lines(links, cluster, pair)
    switches = len(leaf_at) + len(spine_at)
    out["subnet-manager"] = [subnet_manager_line(len(host_places), managed, switches, cluster)]
    return out


# ------------------------------------------------------------------------------ Ethernet

QSFP112_COMPAT = (
    "NVIDIA LinkX 100G-PAM4 product line overview: 'QSFP112 cages in ConnectX-7 adapters … are "
    "backwards compatible and support QSFP56 200G with 4x50G-PAM4 and QSFP28 100G with 4x "
    "25G-NRZ', https://docs.nvidia.com/networking/display/400g100gpam4ovpub/"
    "linkx-100g-pam4-product-line-overview"
)
FAQ_400G = (
    "NVIDIA '400G Switches, NICs, Transceivers and Cables - FAQ': '400GbE to 2 x 200GbE QSFP56 "
    "| 1m-2m DAC | MCP7H60-W0xxxxx', '400BASE-CR8 copper | 0.5m-2m DAC | MCP1660-W0xxxxx', "
    "'400BASE-SR8 | 850nm, MPO16, up to 100m | MMA1U50-WS' (order-code suffix to confirm with "
    "the supplier)"
)
MCP1600 = (
    "NVIDIA LinkX MCP1600-C 100GbE QSFP28 passive DAC, 0.5 to 5 m (MCP1600-C00A … C005 in "
    "NVIDIA's switch qualification lists; no NVIDIA product page found: confirm the order code's "
    "gauge suffix with the supplier)"
)
MCP1650 = (
    "NVIDIA LinkX MCP1650-V 200GbE QSFP56 passive DAC, up to 3 m (MCP1650-V003E26 in NVIDIA's "
    "switch qualification lists; confirm the order code with the supplier)"
)
MMA1T00_VS = (
    "NVIDIA MMA1T00-VS 200GbE QSFP56 multimode transceiver (SR4, MPO-12), "
    "https://docs.nvidia.com/networking/display/MMA1T00VSSpec; " + QSFP112_COMPAT
)
MMA4Z00_FLT = (
    "NVIDIA MMA4Z00-NS twin-port 2x400G OSFP transceiver (Spectrum-4 switch end, finned top), "
    "https://docs.nvidia.com/networking/display/800GMMA4Z00NS/Overview, and its flat-top "
    "(-FLT) form for the ConnectX-8's single OSFP cage, which runs Ethernet as two 400GbE links "
    "('800GbE link speed is not supported on a single port', ConnectX-8 firmware release notes, "
    "https://docs.nvidia.com/networking/display/connectx8firmwarev40440208/changes+and+new+features; "
    "'RHS devices are used in ConnectX-8 cages … Twin-port OSFP RHS connectors also may be "
    "referred to as -FLT', https://docs.nvidia.com/networking/display/800g200gpam4list); two "
    "straight MFP7E10 fibres per cage, both of one type. The -FLT order code is read from a "
    "third-party bill of materials: confirm it with the supplier"
)
CABLE_FAQ = (
    "NVIDIA Cable Management Guidelines and FAQ, 'Cable and Connector Definitions': the 100G "
    "SR4 QSFP (MMA1B00-xxxx) and 200G SR4 QSFP (MMA1T00-VS) take 'Male MPO/UPC (with pins)' on "
    "the transceiver and 'Female MPO/UPC (with holes)' on the patch cable, 2 x 4 fibre "
    "multimode; the 25G and 10G SR SFP (MMA2P00, MFM1T02A) 'Duplex LC/UPC' on both, "
    "https://docs.nvidia.com/networking/display/cablemanagfaq/cable+and+connector+definitions"
)
SR4_FIBRE = "Multimode fibre, MPO-12/UPC female to female, OM4"
LC_FIBRE = "Multimode fibre, duplex LC/UPC, OM4"
MMA1B00 = (
    "NVIDIA MMA1B00-C100D 100GbE QSFP28 SR4 multimode transceiver (MPO-12, up to 100 m on OM4): "
    "NVIDIA's cable guide names the family (MMA1B00-xxxx, 100G SR4 QSFP); the -C100D order code "
    "is as third-party module lists and switch inventories name it, so it is to confirm with "
    "the vendor. The fibre is given by type, as " + CABLE_FAQ
)
MFM1T02A = (
    "NVIDIA MFM1T02A 10GbE SFP+ SR multimode transceiver (duplex LC/UPC), named by NVIDIA's "
    "cable guide; the -SR order code is as third-party lists name it: confirm it with the "
    "supplier. " + CABLE_FAQ
)
MCP2M00 = (
    "NVIDIA LinkX MCP2M00-A 25GbE SFP28 passive DAC: NVIDIA's Cumulus Linux user guide, "
    "'Troubleshoot Layer 1', shows a 25G DAC link on a Spectrum switch as 'PN: MCP2M00-A003 … "
    "Type: 25g-cr' (https://docs.nvidia.com/networking-ethernet-software/cumulus-linux-43/"
    "Monitoring-and-Troubleshooting/Troubleshooting-Network-Interfaces/Troubleshoot-Layer-1/; "
    "source CumulusNetworks/docs); NVIDIA's switch cable lists name MCP2M00-A00A, -A001, -A01A, "
    "-A002, -A02A and -A003 (0.5 to 3 m, with gauge suffixes such as E30N and E26N): confirm "
    "the order code's gauge suffix with the supplier"
)
MC3309130 = (
    "NVIDIA (Mellanox) MC3309130 10GbE SFP+ passive DAC, 30 AWG, 0.5 to 3 m (MC3309130-00A, "
    "-001, -002, -003 as third-party cable lists name them; no NVIDIA page was read here): "
    "confirm the order code with the supplier"
)
MMA2P00_AS = (
    "NVIDIA MMA2P00-AS 25GbE SFP28 multimode transceiver (SR, 850 nm, duplex LC), 'MMA2P00-AS "
    "25GbE SFP28 MMF Transceiver Product Specifications', https://docs.nvidia.com/networking/"
    "display/mma2p00asspec; the fibre is a duplex LC multimode patch cord, given by type, as "
    + CABLE_FAQ
)
SR8_BREAKOUT = (
    "Given by type, not an NVIDIA part: NVIDIA's '400G Switches, NICs, Transceivers and Cables - "
    "FAQ' lists for the SN4000 family the SR8 module ('400BASE-SR8 | 850nm, MPO16, up to 100m | "
    "MMA1U50-WS') and, to break a 400GbE port into 2 x 200GbE, only copper ('MCP7H60-W0xxxxx'); "
    "no NVIDIA fibre from one MPO-16 to two MPO-12 was found. The host ends take the MMA1T00-VS, "
    "whose MPO is UPC: " + CABLE_FAQ
)
GENERIC_OPTICS = (
    "Fabric sizing: one optical module at each end of a link between racks; no NVIDIA pairing "
    "document found for this speed, so the module and fibre are given by type"
)
# (host speed, host links per switch port) -> stem, speed letter, lengths (m), what, source
ETH_COPPER: dict[tuple[int, int], tuple[str, str, tuple[float, ...], str, str]] = {
    (10, 1): ("MC3309130", "", (0.5, 1.0, 2.0, 3.0), "10GbE SFP+ passive DAC", MC3309130),
    (25, 1): ("MCP2M00", "A", (0.5, 1.0, 1.5, 2.0, 2.5, 3.0), "25GbE SFP28 passive DAC",
              MCP2M00),
    (100, 1): ("MCP1600", "C", (0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0),
               "100GbE QSFP28 passive DAC", MCP1600),
    (200, 1): ("MCP1650", "V", (0.5, 1.0, 1.5, 2.0, 2.5, 3.0),
               "200GbE QSFP56 passive DAC", MCP1650),
    (200, 2): ("MCP7H60", "W", (1.0, 1.5, 2.0),
               "400GbE QSFP-DD to 2 x 200GbE QSFP56 splitter DAC", FAQ_400G),
    (400, 1): ("MCP1660", "W", (0.5, 1.0, 1.5, 2.0), "400GbE QSFP-DD passive DAC", FAQ_400G),
}  # fmt: skip
OTHER_COPPER_M = (1.0, 2.0, 3.0)


@dataclass(frozen=True)
class Part:
    """One orderable part: its number where a source gives one, else ''."""

    number: str
    text: str
    source: str
    category: Cat


def eth_copper_m(a: Place, b: Place, speed: float, breakout: int) -> float | None:
    """The shortest copper length of the family that reaches in one rack, None when none does
    (or the ends are in different racks)."""
    if a.rack != b.rack or speed >= 800:
        return None  # no copper pairs with a ConnectX-8's flat-top cage in the sources read
    fam = ETH_COPPER.get((int(speed), breakout))
    return _dac_m(a, b, fam[2] if fam else OTHER_COPPER_M)


def eth_copper(speed: float, breakout: int, metres: float) -> Part:
    """The copper cable for one switch port (a splitter carries ``breakout`` host links)."""
    fam = ETH_COPPER.get((int(speed), breakout))
    if fam is None:
        what = (f"1 x {speed * breakout:g} Gb/s to {breakout} x {speed:g} Gb/s breakout DAC"
                if breakout > 1 else f"{speed:g} Gb/s passive DAC")  # fmt: skip
        return Part("", f"{what}, {metres:g} m", "Fabric sizing: copper within one rack", Cat.CABLE)
    stem, letter, _, what, src = fam
    number = f"{stem}-{_code(metres, letter)}"
    return Part(number, f"NVIDIA {number} {what}, {metres:g} m", src, Cat.CABLE)


def fibres_per_port(speed: float) -> int:
    """Fibres one Ethernet switch port's optics take: two for an 800 Gb/s twin-port cage (two
    400GbE engines, an MPO connector each), else one."""
    return 2 if speed >= 800 else 1


def eth_optics(speed: float, breakout: int, metres: int) -> tuple[Part, Part, Part]:
    """Switch-end module (one per switch port), host-end module (one per host link) and fibre
    (one per switch port) for a link between racks."""
    fibre_text = f"{metres} m"
    if (int(speed), breakout) == (800, 1):
        return (
            Part("MMA4Z00-NS", "NVIDIA MMA4Z00-NS twin-port 2 x 400G OSFP transceiver, finned "
                 "top (switch end of one 800 Gb/s host link)", MMA4Z00_FLT, Cat.TRANSCEIVER),
            Part("MMA4Z00-NS-FLT", "NVIDIA MMA4Z00-NS-FLT twin-port 2 x 400G OSFP transceiver, "
                 "flat top (host end, ConnectX-8)", MMA4Z00_FLT, Cat.TRANSCEIVER),
            Part(f"MFP7E10-N{metres:03d}", f"NVIDIA MFP7E10 straight multimode fibre, MPO-12/APC, "
                 f"{fibre_text} (two per 800 Gb/s link)", MMA4Z00_FLT, Cat.CABLE),
        )  # fmt: skip
    if (int(speed), breakout) == (200, 2):
        return (
            Part("MMA1U50-WS", "NVIDIA MMA1U50-WS 400GBASE-SR8 QSFP-DD transceiver, MPO-16 "
                 "(switch end of two 200 Gb/s host links)", FAQ_400G, Cat.TRANSCEIVER),
            Part("MMA1T00-VS", "NVIDIA MMA1T00-VS 200GbE QSFP56 SR4 transceiver (host end)",
                 MMA1T00_VS, Cat.TRANSCEIVER),
            Part("", f"Multimode breakout fibre, MPO-16 to 2 x MPO-12/UPC, OM4, {fibre_text}",
                 SR8_BREAKOUT, Cat.CABLE),
        )  # fmt: skip
    if (int(speed), breakout) == (200, 1):
        module = Part("MMA1T00-VS", "NVIDIA MMA1T00-VS 200GbE QSFP56 SR4 transceiver",
                      MMA1T00_VS, Cat.TRANSCEIVER)  # fmt: skip
        fibre = Part("", f"{SR4_FIBRE}, {fibre_text}", CABLE_FAQ, Cat.CABLE)
        return module, module, fibre
    if (int(speed), breakout) == (100, 1):
        module = Part("MMA1B00-C100D", "NVIDIA MMA1B00-C100D 100GbE QSFP28 SR4 transceiver",
                      MMA1B00, Cat.TRANSCEIVER)  # fmt: skip
        fibre = Part("", f"{SR4_FIBRE}, {fibre_text}", CABLE_FAQ, Cat.CABLE)
        return module, module, fibre
    sw = speed * breakout
    if (int(speed), breakout) == (25, 1):
        module = Part("MMA2P00-AS", "NVIDIA MMA2P00-AS 25GbE SFP28 SR transceiver", MMA2P00_AS,
                      Cat.TRANSCEIVER)  # fmt: skip
        fibre = Part("", f"{LC_FIBRE}, {fibre_text}", MMA2P00_AS, Cat.CABLE)
        return module, module, fibre
    if (int(speed), breakout) == (10, 1):
        module = Part("MFM1T02A-SR", "NVIDIA MFM1T02A-SR 10GbE SFP+ SR transceiver", MFM1T02A,
                      Cat.TRANSCEIVER)  # fmt: skip
        fibre = Part("", f"{LC_FIBRE}, {fibre_text}", CABLE_FAQ, Cat.CABLE)
        return module, module, fibre
    if sw <= 25:  # SFP28 / SFP+ optics: a duplex LC fibre, not an MPO trunk
        module = Part("", f"{speed:g} Gb/s SFP multimode transceiver (SR)", GENERIC_OPTICS,
                      Cat.TRANSCEIVER)  # fmt: skip
        fibre = Part("", f"Multimode fibre, LC duplex, OM4, {fibre_text}", GENERIC_OPTICS,
                     Cat.CABLE)  # fmt: skip
        return module, module, fibre
    return (
        Part("", f"{sw:g} Gb/s multimode optical transceiver (switch end)", GENERIC_OPTICS,
             Cat.TRANSCEIVER),
        Part("", f"{speed:g} Gb/s multimode optical transceiver (host end)", GENERIC_OPTICS,
             Cat.TRANSCEIVER),
        Part("", f"Multimode fibre{' breakout' if breakout > 1 else ''}, MPO, OM4, {fibre_text}",
             GENERIC_OPTICS, Cat.CABLE),
    )  # fmt: skip
