"""Checks of a design against the catalog: references that exist and hardware that fits.

Each problem names the design field and the value, so the CLI and the wizard can show it next
to the answer that caused it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, TypeVar

from wizard.base.errors import DesignError
from wizard.engine.platform.platform_rules import platform_refusal
from wizard.model.catalog import (
    Catalog,
    FormFactor,
    Gpu,
    LicenceUnit,
    ModelArch,
    Nic,
    Server,
    SoftwareRelease,
    SwitchKind,
    max_boards,
)
from wizard.model.design import (
    FABRIC_GBPS,
    MIG_MODES,
    VSPHERE_LABELS,
    Constraints,
    Design,
    Fabric,
    FineTuningMethod,
    Rdma,
    SharingMode,
    VsphereRelease,
    is_infiniband,
    vsphere_at_least,
)

if TYPE_CHECKING:
    from wizard.model.estate import Estate
    from wizard.model.result import Result

T = TypeVar("T")


class ProblemKind(StrEnum):
    """What a problem is about, so callers sort problems without reading their words."""

    REFERENCE = "reference"  # a name the catalog does not know
    HARDWARE = "hardware"
    PLATFORM = "platform"
    LICENCE = "licence"
    WORKLOAD = "workload"
    CLUSTER = "cluster"


_KIND_OF_SECTION = {
    "hardware": ProblemKind.HARDWARE,
    "platform": ProblemKind.PLATFORM,
    "licensing": ProblemKind.LICENCE,
    "workloads": ProblemKind.WORKLOAD,
    "clusters": ProblemKind.CLUSTER,
    "assumptions": ProblemKind.HARDWARE,
}


@dataclass(frozen=True)
class Problem:
    """A reason the design cannot be built: the field it is about (a design path), the message,
    and its kind (by default the section the field is in)."""

    field: str
    message: str
    kind: ProblemKind | None = None

    def __post_init__(self) -> None:
        if self.kind is None:
            section = self.field.split(".")[0].split("[")[0]
            object.__setattr__(self, "kind", _KIND_OF_SECTION.get(section, ProblemKind.HARDWARE))

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


def _lookup(
    table: dict[str, T], key: str | None, field: str, what: str, out: list[Problem]
) -> T | None:
    if key is None:
        return None
    item = table.get(key)
    if item is None:
        known = ", ".join(sorted(table)) or "none"
        out.append(
            Problem(field, f"unknown {what} '{key}' (known: {known})", ProblemKind.REFERENCE)
        )
    return item


def check_design(design: Design, catalog: Catalog) -> list[Problem]:
    """Every reason the design cannot be built with this catalog; empty when it can."""
    out: list[Problem] = []
    hw = design.hardware
    gpu = _lookup(catalog.gpus, hw.gpu, "hardware.gpu", "GPU", out)
    server = _lookup(catalog.servers, hw.server, "hardware.server", "server", out)
    nic = _lookup(catalog.nics, hw.nic, "hardware.nic", "NIC", out)
    _lookup(catalog.storage, hw.storage, "hardware.storage", "storage system", out)
    _lookup(
        catalog.software,
        design.platform.nvaie_release,
        "platform.nvaie_release",
        "NVIDIA AI Enterprise release",
        out,
    )
    out += _sharp_problems(design, catalog)
    if gpu is not None:
        out += _mixed_size_problems(design, catalog, gpu)
        out += _release_gpu_problems(design, catalog, gpu)
        out += _mig_time_slicing_problems(design, catalog, gpu)
    out += _method_problems(design, catalog)
    lic = design.licensing
    gpu_lic = _lookup(catalog.licences, lic.gpu_software, "licensing.gpu_software", "licence", out)
    if gpu_lic is not None and gpu_lic.unit is not LicenceUnit.PER_GPU:
        out.append(
            Problem(
                "licensing.gpu_software",
                f"'{gpu_lic.id}' is licensed {gpu_lic.unit.value}, not per GPU",
            )
        )
    _lookup(catalog.licences, lic.platform, "licensing.platform", "licence", out)
    out += _private_ai_problems(design, catalog)
    for i, group in enumerate(design.workloads):
        if group.model is not None and group.model.preset is not None:
            _lookup(
                catalog.models, group.model.preset, f"workloads[{i}].model.preset", "model", out
            )

    if server is not None and hw.cpu is not None and server.cpu_option(hw.cpu) is None:
        names = "; ".join(c.name for c in server.cpu_options) or "the catalog lists none"
        out.append(
            Problem(
                "hardware.cpu",
                f"the {server.product_name} is not sold with '{hw.cpu}' (processors: {names})",
            )
        )
    if gpu is not None and server is not None:
        boards = max_boards(server, gpu)
        if boards == 0:
            out.append(
                Problem(
                    "hardware.server",
                    f"the {server.product_name} cannot hold the {gpu.name} "
                    f"({why_not(server, gpu, catalog.gpus)})",
                )
            )
        else:
            most = boards * gpu.gpus_per_board
            if hw.gpus_per_host > most:
                out.append(
                    Problem(
                        "hardware.gpus_per_host",
                        f"{hw.gpus_per_host} is more than the {most} {gpu.name} GPUs "
                        f"'{server.id}' holds",
                    )
                )
            if hw.gpus_per_host % gpu.gpus_per_board:
                out.append(
                    Problem(
                        "hardware.gpus_per_host",
                        f"{hw.gpus_per_host} is not a whole number of {gpu.name} boards "
                        f"({gpu.gpus_per_board} GPUs each)",
                    )
                )
        if hw.nvlink and (why := nvlink_reason(gpu, server)):
            out.append(Problem("hardware.nvlink", why))

    if hw.gpudirect_rdma and (why := gpudirect_reason(hw.rdma, nic)):
        out.append(Problem("hardware.gpudirect_rdma", why))
    if nic is not None:
        speaks = fabric_protocol_problem(nic, hw.fabric)
        if speaks:
            out.append(Problem("hardware.nic", f"the {nic.model} {speaks}"))
    if why := rdma_reason(hw.rdma, hw.fabric, nic):
        out.append(Problem("hardware.rdma", why))

    for i, group in enumerate(design.workloads):
        field = f"workloads[{i}].sharing_mode"
        if gpu is None:
            break
        # the NVSwitch rule is not a refusal here: the sizing warns of it as an error
        # (hgx-passthrough-unsupported, hgx-mig-vgpu-unsupported), so a bare-metal measurement
        # can still be reproduced on such a board
        if why := sharing_mode_reason(group.sharing_mode, gpu):
            out.append(Problem(field, why))
        preset = (
            catalog.models.get(group.model.preset) if group.model and group.model.preset else None
        )
        if (
            preset is not None
            and preset.architecture is ModelArch.CNN
            and group.inference
            and group.inference.target_tokens_per_s
        ):
            out.append(
                Problem(
                    f"workloads[{i}].inference.target_tokens_per_s",
                    f"'{preset.id}' is not a language model; give requests per second",
                )
            )
    return out


def _sharp_problems(design: Design, catalog: Catalog) -> list[Problem]:
    """In-network reduction needs switches that do it (NVIDIA Quantum InfiniBand with SHARP);
    the fabric's switch is the one the network is built with."""
    from wizard.engine.basis.switch_choice import pick_switch

    if not design.assumptions.sharp:
        return []
    fabric = design.hardware.fabric
    kind = SwitchKind.INFINIBAND if is_infiniband(fabric) else SwitchKind.ETHERNET
    pick = pick_switch(catalog, kind, FABRIC_GBPS[fabric])
    if pick is not None and pick.switch.sharp:
        return []
    which = f"the {pick.switch.product_name}" if pick else "no switch in the catalog"
    return [
        Problem(
            "assumptions.sharp",
            f"in-network reduction (SHARP) needs switches that perform it; the {fabric.value} "
            f"fabric is built with {which}, which does not (SHARP runs on NVIDIA Quantum "
            "InfiniBand switches)",
        )
    ]


def _release(design: Design, catalog: Catalog) -> SoftwareRelease | None:
    """The release the design runs, or None when it names an unknown one (that is reported on
    its own, so the checks that need a release stay quiet)."""
    from wizard.engine.platform.releases import choose_release

    try:
        return choose_release(design, catalog)
    except DesignError:
        return None


def _mixed_size_problems(design: Design, catalog: Catalog, gpu: Gpu) -> list[Problem]:
    """Mixed-size time-sliced vGPU arrived with NVIDIA vGPU 17.0 (NVIDIA AI Enterprise 5) and
    needs vSphere 8.0 Update 3; an older release packs one vGPU size per GPU."""
    first = gpu.vgpu.mixed_size_min_release if gpu.vgpu else None
    if not design.hardware.vgpu_mixed_sizes or first is None:
        return []
    if not vsphere_at_least(design.platform.vsphere, VsphereRelease.V8_0_U3):
        return [
            Problem(
                "hardware.vgpu_mixed_sizes",
                "mixed-size vGPUs need vSphere 8.0 Update 3 or later; the hosts run "
                f"{VSPHERE_LABELS[design.platform.vsphere]}: "
                "plan Update 3 or VMware Cloud Foundation 9, or one vGPU size per GPU",
            )
        ]
    release = _release(design, catalog)
    if release is None or release.vgpu_branch >= int(float(first)):
        return []
    return [
        Problem(
            "hardware.vgpu_mixed_sizes",
            f"mixed-size vGPUs need NVIDIA vGPU {first} or later (and vSphere 8.0 Update 3); "
            f"{release.name} ships vGPU {release.vgpu_version}: choose NVIDIA AI Enterprise 5 or "
            "later, or one vGPU size per GPU",
        )
    ]


PAIF_LICENCE = "vmware-paif"
VCF_LICENCE = "vmware-vcf"


def _private_ai_problems(design: Design, catalog: Catalog) -> list[Problem]:
    """VMware Private AI Foundation with NVIDIA is an add-on to a VMware Cloud Foundation
    subscription, and its NVIDIA half is NVIDIA AI Enterprise licensed per GPU."""
    if not design.platform.private_ai_foundation:
        return []
    out = []
    lic = design.licensing.platform
    if lic != VCF_LICENCE:
        known = catalog.licences.get(lic) if lic else None
        held = f"the platform licence is {known.name}" if known else "no platform licence is set"
        out.append(
            Problem(
                "platform.private_ai_foundation",
                "Private AI Foundation with NVIDIA is an add-on to VMware Cloud Foundation; "
                f"{held}: license VMware Cloud Foundation",
            )
        )
    if design.licensing.gpu_software is None:
        out.append(
            Problem(
                "platform.private_ai_foundation",
                "Private AI Foundation with NVIDIA needs NVIDIA AI Enterprise on every GPU; the "
                "design leaves the GPU licence out",
            )
        )
    return out


def _mig_time_slicing_problems(design: Design, catalog: Catalog, gpu: Gpu) -> list[Problem]:
    """Time-sliced, MIG-backed vGPU needs a GPU with such vGPU types (Blackwell boards) and a
    release that offers it on the GPU's architecture."""
    if not design.hardware.mig_time_slicing:
        return []
    types = gpu.vgpu.mig_time_sliced if gpu.vgpu else []
    if not types:
        return [
            Problem(
                "hardware.mig_time_slicing",
                f"the {gpu.name} has no time-sliced MIG-backed vGPU types; give each VM a MIG "
                "instance of its own, or choose a GPU that has them (e.g. RTX PRO 6000 Blackwell "
                "Server Edition)",
            )
        ]
    release = _release(design, catalog)
    if release is None or gpu.architecture in release.mig_time_sliced_architectures:
        return []
    return [
        Problem(
            "hardware.mig_time_slicing",
            f"{release.name} does not time-slice vGPUs inside a MIG instance on "
            f"{gpu.architecture} GPUs (from NVIDIA vGPU "
            f"{gpu.vgpu.mig_time_sliced_min_release if gpu.vgpu else '19.0'}): choose a "
            "release that does, or one VM per MIG instance",
        )
    ]


def _release_gpu_problems(design: Design, catalog: Catalog, gpu: Gpu) -> list[Problem]:
    """A release named in the design must support the GPU: each NVIDIA AI Enterprise release
    lists the GPU architectures it supports, and newer releases drop older ones."""
    release = catalog.software.get(design.platform.nvaie_release or "")
    if release is None or release.supports(gpu.architecture) is not False:
        return []
    fits = sorted(
        (r for r in catalog.software.values() if r.supports(gpu.architecture)),
        key=lambda r: r.vgpu_branch,
    )
    fix = (
        f"choose {' or '.join(r.name for r in fits[-2:])}"
        if fits
        else "no release in the catalog supports it"
    )
    return [
        Problem(
            "platform.nvaie_release",
            f"{release.name} does not support {gpu.architecture} GPUs such as the {gpu.name} "
            f"(it supports {', '.join(release.gpu_architectures)}): {fix}",
        )
    ]


def _method_problems(design: Design, catalog: Catalog) -> list[Problem]:
    out = []
    for i, g in enumerate(design.workloads):
        ft = g.fine_tuning
        if ft is None or ft.method is FineTuningMethod.FULL or g.model is None:
            continue
        preset = catalog.models.get(g.model.preset) if g.model.preset else None
        if preset is not None and preset.architecture is ModelArch.CNN:
            out.append(
                Problem(
                    f"workloads[{i}].fine_tuning.method",
                    f"'{ft.method.value}' adapts a transformer's projections; "
                    f"'{preset.id}' is not a transformer",
                )
            )
    return out


# ------------------------------------------------------------------ one answer per rule
# Each returns why a choice is not possible, in the words the wizard shows next to the option
# and check_design puts in its problem; None when the choice is possible.


def nvlink_reason(gpu: Gpu, server: Server | None) -> str | None:
    """Why NVLink cannot be chosen (SXM boards always have it, so None there)."""
    if gpu.nvlink.kind.value == "none":
        return f"the {gpu.name} has no NVLink"
    if (
        gpu.form_factor is FormFactor.PCIE
        and server is not None
        and not (server.nvlink_bridge_support)
    ):
        return f"the {server.model} has no adjacent double-width slots for NVLink bridges"
    return None


def gpudirect_reason(rdma: Rdma, nic: Nic | None) -> str | None:
    if rdma is Rdma.NONE:
        return "needs RDMA (RoCE v2 or InfiniBand)"
    if nic is not None and not nic.gpudirect_rdma:
        return f"the {nic.model} does not support it"
    return None


def rdma_reason(rdma: Rdma, fabric: Fabric, nic: Nic | None = None) -> str | None:
    ib = is_infiniband(fabric)
    if rdma is Rdma.ROCE and ib:
        return "RoCE runs over Ethernet"
    if rdma is Rdma.INFINIBAND and not ib:
        return "needs an InfiniBand fabric"
    if rdma is Rdma.ROCE and nic is not None and "roce-v2" not in nic.rdma:
        return f"the {nic.model} does not support RoCE v2"
    return None


def nic_reason(nic: Nic, fabric: Fabric) -> str | None:
    """Why ``nic`` cannot serve the fabric: its protocol, then its port speed."""
    speaks = fabric_protocol_problem(nic, fabric)
    if speaks:
        return f"the {nic.model} {speaks}"
    if nic.port_speed_gbps < FABRIC_GBPS[fabric]:
        return (
            f"its ports run at {nic.port_speed_gbps:g} Gb/s, below the fabric's "
            f"{FABRIC_GBPS[fabric]:g}"
        )
    return None


def sharing_mode_reason(mode: SharingMode, gpu: Gpu, server: Server | None = None) -> str | None:
    """Why the hardware cannot run ``mode`` at all: the GPU's features, and on an NVSwitch board
    what vSphere supports there (time-sliced vGPU only), or None."""
    if mode in MIG_MODES and not gpu.mig_capable:
        return f"the {gpu.name} does not support MIG"
    if mode is SharingMode.VGPU and not gpu.vgpu_capable:
        return f"NVIDIA vGPU is not supported on the {gpu.name}"
    if server is not None and (refused := platform_refusal(mode, gpu, server)):
        return refused[1]
    return None


def group_mode_reason(
    mode: SharingMode, constraints: Constraints, gpu: Gpu | None, server: Server | None = None
) -> str | None:
    """Why a group with ``constraints`` cannot use ``mode`` on this hardware, or None: the one
    answer the Sharing page, the workload editor and Recommend give."""
    c = constraints
    if mode is SharingMode.PASSTHROUGH and c.live_migration_required:
        return "passthrough VMs cannot live-migrate, which this group requires"
    if mode in (SharingMode.VGPU, SharingMode.REMOTE) and c.isolation_required:
        return "no performance isolation (compute is shared), which this group requires"
    if mode is SharingMode.REMOTE and not c.remote_ok:
        return "the group does not accept remote GPUs (see its constraints)"
    return sharing_mode_reason(mode, gpu, server) if gpu is not None else None


def fabric_protocol_problem(nic: Nic, fabric: Fabric) -> str | None:
    """Why ``nic`` cannot carry the fabric's protocol (InfiniBand or Ethernet), or None."""
    if is_infiniband(fabric):
        return None if "infiniband" in nic.protocols else "does not speak InfiniBand"
    return None if "ethernet" in nic.protocols else "does not speak Ethernet"


FORM_WORDS = {FormFactor.PCIE: "PCIe cards", FormFactor.SXM: "SXM modules"}


def _either(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def why_not(server: Server, gpu: Gpu, gpus: Mapping[str, Gpu] | None = None) -> str:
    """Why ``server`` cannot hold ``gpu``; the hardware page shows the same reason. ``gpus``
    (the catalog's) names the GPUs an HGX board takes by their product names."""
    if server.pcie_topology.value == "hgx":
        if gpu.form_factor is not FormFactor.SXM:
            return "it is an HGX system for SXM GPUs; this GPU is PCIe"
        takes = [gpus[g].name if gpus and g in gpus else g for g in server.hgx_gpus]
        return f"its HGX board takes the {_either(takes)}"
    if server.qualified_gpus and gpu.id not in server.qualified_gpus:
        return "the vendor does not list this GPU for it"
    factors = {s.form_factor for s in server.gpu_support}
    if gpu.form_factor not in factors:
        kinds = [FORM_WORDS[f] for f in sorted(factors)]
        return f"it takes {_either(kinds)}, not {FORM_WORDS[gpu.form_factor]}"
    widest = max(s.slot_width for s in server.gpu_support if s.form_factor == gpu.form_factor)
    if gpu.slot_width > widest:
        return f"the board is {gpu.slot_width} slots wide; its GPU slots take {widest}"
    return f"the {gpu.tdp_w:.0f} W board is over its GPU power limit"


# ------------------------------------------------------------------ errors of the sizing

_GROUP_PATH = re.compile(r"^workloads\[(\d+)\](.*)$")


def sizing_errors(design: Design, result: Result | None, estate: Estate | None) -> list[Problem]:
    """The error-level problems the sizing found (``wizard.engine.basis.error_rules``), as problems of
    the design's fields: what ``validate`` refuses and the wizard shows under the field. A
    cluster of several names its groups by position in its own view, so they are mapped back to
    the design's groups by name; a cluster's other fields are named under ``clusters``."""
    out: list[Problem] = []
    if result is not None:
        out += [Problem(w.field, w.message) for w in result.warnings if w.severity == "error"]
    for c in estate.clusters if estate is not None else []:
        if c.result is None:
            continue
        index = {g.name: k for k, g in enumerate(design.workloads)}
        for w in c.result.warnings:
            if w.severity != "error":
                continue
            m = _GROUP_PATH.match(w.field)
            if m is not None and int(m.group(1)) < len(c.result.workloads):
                name = c.result.workloads[int(m.group(1))].name
                if name in index:
                    out.append(Problem(f"workloads[{index[name]}]{m.group(2)}", w.message))
                    continue
            if c.name == design.cluster_name:
                out.append(Problem(w.field, w.message))
            else:
                out.append(Problem("clusters", f"{c.name}: {w.message}", ProblemKind.CLUSTER))
    return out
