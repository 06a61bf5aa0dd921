"""The parts NVIDIA pairs for each InfiniBand generation: what joins a switch's twin-port cage to
hosts in its rack (a splitter cable), to hosts in other racks (a twin-port module, one straight
fibre per link and a module at each host) and to another switch, with the lengths each part is
sold in and the document that says so.

NDR (Quantum-2, 400 Gb/s per port) and XDR (Quantum-X800, 800 Gb/s per port) differ in every
part but not in the pattern: both switches have twin-port OSFP cages. XDR has no passive copper
("too short at 200G-PAM4") and no multimode optics: active copper within a rack, single-mode
transceivers and fibre between racks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

MCP7Y00 = (
    "NVIDIA MCP7Y00-Nxxx 800G twin-port OSFP to 2x400G OSFP splitter DAC: 'The two 400G ends… use "
    "a flat top OSFP for use in ConnectX-7 adapters'; lengths 1, 1.5, 2, 2.5 and 3 m, "
    "https://docs.nvidia.com/networking/display/MCP7Y00NXXX800pub"
)
MCP7Y10 = (
    "NVIDIA MCP7Y10-Nxxx 800G twin-port OSFP to 2x400G QSFP112 splitter DAC (flat top QSFP112 ends "
    "for ConnectX-7), 1 to 3 m, https://docs.nvidia.com/networking/display/MCP7Y10NXXX800Gpub"
)
MCP4Y10 = (
    "NVIDIA MCP4Y10-Nxxx twin-port 2x400G OSFP DAC: links two Quantum-2 switches, 'up to "
    "2-meters with both ends being finned-top' (0.5, 1, 1.5, 2 m), "
    "https://docs.nvidia.com/networking/display/mcp4y10nxxx2x400pub/overview"
)
MMA4Z00 = (
    "NVIDIA MMA4Z00-NS twin-port 2x400G OSFP transceiver (switch side, finned top): two MPO-12/APC "
    "connectors, 'A Twin port OSFP transceiver using two, straight fiber cables can support up to "
    "two ConnectX-7/OSFP adapters', https://docs.nvidia.com/networking/display/800GMMA4Z00NS/"
    "Overview"
)
MMA4Z00_400 = (
    "NVIDIA MMA4Z00-NS400 400G OSFP transceiver, flat top for the riding heat sink of the "
    "ConnectX-7 OSFP cage (QM97XX manual's transceiver table, RHS end), "
    "https://docs.nvidia.com/networking/display/QM97X0PUB/Interfaces"
)
MMA1Z00_400 = (
    "NVIDIA MMA1Z00-NS400 400G QSFP112 transceiver for ConnectX-7 QSFP112 adapters ('QSFP112 are "
    "not for use in switches'), https://docs.nvidia.com/networking/display/MMA1Z00NS400T/Overview"
)
MFP7E10 = (
    "NVIDIA MFP7E10-Nxxx multimode MPO-12/APC straight fibre, one per 400G link; both fibres of a "
    "twin-port module of the same type (straight), "
    "https://docs.nvidia.com/networking/display/MMA4Z00NS400T/Connectivity+Scenarios"
)
XDR_LIST = (
    "NVIDIA LinkX 800G/200G-PAM4 product line: '2x800G-to-two 400G links to ConnectX-8', 'IHS "
    "transceivers or copper cables are only used in air-cooled switches (Q3400, Q3200)', 'RHS "
    "devices are used in ConnectX-8 cages for B300, GB300, ConnectX-8 PCIe cards', 'The same "
    "single mode, straight and 1:2 splitter crossover fiber cables are used for both XDR and "
    "NDR/400GbE'; not used for XDR: multimode transceivers, AOCs, 'Direct attach copper (DAC) "
    "cables (too short at 200G-PAM4)', QSFP112, "
    "https://docs.nvidia.com/networking/display/800g200gpam4list"
)
MCA7K10 = (
    "NVIDIA MCA7K10 1600Gb/s to 2x800Gb/s OSFP to 2xOSFP active copper splitter cable (finned "
    "twin-port switch end, two flat-top ends), 1, 1.5 and 2 m (980-9IAO5-00X001, -00X01A, "
    "-00X002), https://networking-docs.nvidia.com/9809iao500xxxxrhs2x800/ordering-information "
    "(read through a transcription of NVIDIA's interconnect catalog; " + XDR_LIST + ")"
)
MCA4K50 = (
    "NVIDIA MCA4K50 1600Gb/s OSFP to OSFP active copper cable, finned at both ends (switch to "
    "switch), 1 to 3 m (980-9IAM5-00X001, -00X01A, 980-9IAM3-00X002, -00X02A, -00X003), "
    "https://networking-docs.nvidia.com/mca4k50osfp1600 (read through a transcription of "
    "NVIDIA's interconnect catalog)"
)
MMS4A00 = (
    "NVIDIA MMS4A00-XM 1600Gb/s twin-port OSFP 2xDR4 single-mode transceiver, finned top (IHS) for "
    "air-cooled Quantum-X800 switches, 2 x MPO-12/APC, up to 500 m (980-9IAH1-00XM00), "
    "https://networking-docs.nvidia.com/9iahx00xmosfptcvr1600 (read through a transcription of "
    "NVIDIA's interconnect catalog; " + XDR_LIST + ")"
)
MMS4A20 = (
    "NVIDIA MMS4A20-XM800 800Gb/s single-port OSFP DR4 single-mode transceiver, flat top (RHS) for "
    "the ConnectX-8 cage, MPO-12/APC, up to 500 m (980-9IAT0-00XM00), "
    "https://networking-docs.nvidia.com/9iat0mosfp800sprhs (read through a transcription of "
    "NVIDIA's interconnect catalog)"
)
MFP7E30 = (
    "NVIDIA MFP7E30-Nxxx single-mode MPO-12/APC straight fibre, one per link, as for NDR ("
    + XDR_LIST
    + "); lengths as the MFP7E10 list (3 to 50 m), the longer single-mode lengths not needed in a "
    "row"
)


def ndr_code(metres: float, letter: str = "N") -> str:
    """NVIDIA's length code in a part number: 'N001' for 1 m, 'N01A' for 1.5 m, 'N003' for 3 m,
    'N010' for 10 m (the last character A stands for the half metre); Ethernet families put
    their speed letter first ('C003', 'W01A')."""
    whole = int(metres)
    return f"{letter}{whole:02d}A" if metres != whole else f"{letter}{whole:03d}"


@dataclass(frozen=True)
class Pairing:
    """One generation's parts, by role. A splitter joins one switch cage to two host ports in a
    rack; a switch cable joins two cages of two switches (two links)."""

    generation: str  # 'NDR', 'XDR'
    speed_gbps: int
    splitter_lengths_m: tuple[float, ...]
    switch_cable_lengths_m: tuple[float, ...]
    fibre_lengths_m: tuple[int, ...]
    switch_module: str  # twin-port module in a switch cage
    switch_module_text: str
    switch_module_source: str
    host_module_osfp: str
    host_module_qsfp: str | None  # None: the generation has no QSFP112 hosts
    host_module_source: Callable[[bool], str]
    splitter_stem: Callable[[bool], str]
    splitter_number: Callable[[bool, float], str]
    splitter_text: Callable[[bool, float], str]
    splitter_source: Callable[[bool], str]
    switch_cable_number: Callable[[float], str]
    switch_cable_text: Callable[[float], str]
    switch_cable_source: str
    fibre_number: Callable[[int], str]
    fibre_text: str  # '… {m} m' follows
    fibre_source: str
    copper: str  # what the copper is called in words: 'DAC', 'active copper cable'

    def host_module(self, osfp_hosts: bool) -> str:
        return (
            self.host_module_osfp
            if osfp_hosts or not self.host_module_qsfp
            else (self.host_module_qsfp)
        )


FIBRE_LENGTHS_M = (3, 5, 7, 10, 15, 20, 30, 50)  # MFP7E10 lengths offered

NDR = Pairing(
    generation="NDR",
    speed_gbps=400,
    splitter_lengths_m=(1.0, 1.5, 2.0, 2.5, 3.0),
    switch_cable_lengths_m=(0.5, 1.0, 1.5, 2.0),
    fibre_lengths_m=FIBRE_LENGTHS_M,
    switch_module="MMA4Z00-NS",
    switch_module_text="NVIDIA MMA4Z00-NS twin-port 2 x 400G OSFP transceiver, finned top",
    switch_module_source=MMA4Z00,
    host_module_osfp="MMA4Z00-NS400",
    host_module_qsfp="MMA1Z00-NS400",
    host_module_source=lambda osfp: MMA4Z00_400 if osfp else MMA1Z00_400,
    splitter_stem=lambda osfp: "MCP7Y00" if osfp else "MCP7Y10",
    splitter_number=lambda osfp, m: f"{'MCP7Y00' if osfp else 'MCP7Y10'}-{ndr_code(m)}",
    splitter_text=lambda osfp, m: (
        f"NVIDIA {'MCP7Y00' if osfp else 'MCP7Y10'} splitter DAC, {m:g} m: twin-port OSFP "
        f"(switch) to 2 x 400G {'OSFP flat top' if osfp else 'QSFP112'} (ConnectX-7)"
    ),
    splitter_source=lambda osfp: MCP7Y00 if osfp else MCP7Y10,
    switch_cable_number=lambda m: f"MCP4Y10-{ndr_code(m)}",
    switch_cable_text=lambda m: f"NVIDIA MCP4Y10 twin-port 2 x 400G OSFP DAC, {m:g} m",
    switch_cable_source=MCP4Y10,
    fibre_number=lambda m: f"MFP7E10-N{m:03d}",
    fibre_text="NVIDIA MFP7E10 straight multimode fibre, MPO-12/APC",
    fibre_source=MFP7E10,
    copper="DAC",
)

_MCA7K10 = {1.0: "980-9IAO5-00X001", 1.5: "980-9IAO5-00X01A", 2.0: "980-9IAO5-00X002"}
_MCA4K50 = {
    1.0: "980-9IAM5-00X001",
    1.5: "980-9IAM5-00X01A",
    2.0: "980-9IAM3-00X002",
    2.5: "980-9IAM3-00X02A",
    3.0: "980-9IAM3-00X003",
}

XDR = Pairing(
    generation="XDR",
    speed_gbps=800,
    splitter_lengths_m=tuple(_MCA7K10),
    switch_cable_lengths_m=tuple(_MCA4K50),
    fibre_lengths_m=FIBRE_LENGTHS_M,
    switch_module="MMS4A00-XM",
    switch_module_text="NVIDIA MMS4A00-XM twin-port 2 x 800G OSFP single-mode transceiver, "
    "finned top",
    switch_module_source=MMS4A00,
    host_module_osfp="MMS4A20-XM800",
    host_module_qsfp=None,
    host_module_source=lambda osfp: MMS4A20,
    splitter_stem=lambda osfp: "MCA7K10",
    splitter_number=lambda osfp, m: _MCA7K10[m],
    splitter_text=lambda osfp, m: (
        f"NVIDIA MCA7K10 active copper splitter cable, {m:g} m: twin-port 1.6T OSFP (switch) "
        "to 2 x 800G OSFP flat top (ConnectX-8)"
    ),
    splitter_source=lambda osfp: MCA7K10,
    switch_cable_number=lambda m: _MCA4K50[m],
    switch_cable_text=lambda m: f"NVIDIA MCA4K50 1.6T OSFP active copper cable, {m:g} m",
    switch_cable_source=MCA4K50,
    fibre_number=lambda m: f"MFP7E30-N{m:03d}",
    fibre_text="NVIDIA MFP7E30 straight single-mode fibre, MPO-12/APC",
    fibre_source=MFP7E30,
    copper="active copper cable",
)

PAIRINGS = {p.speed_gbps: p for p in (NDR, XDR)}
