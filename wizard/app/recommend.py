""" "Recommend for me" on the hardware page: a choice of hardware with the reason for each part.

Qt-free so it can be tested headless. The GPU is chosen by sizing the design on every GPU that
can serve it (the engine decides, not a rule of thumb); the server, network and NIC follow from
the chosen GPU and from the traffic the sized design has between hosts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from wizard.base.errors import UserError
from wizard.base.numbers import count
from wizard.engine import (
    Plan,
    as_designed,
    gpudirect_vgpu_reason,
    nic_reason,
    plan,
    rdma_reason,
    sharing_mode_reason,
)
from wizard.model.catalog import Catalog, Certification, Gpu, Nic, Server
from wizard.model.cost import CostResult
from wizard.model.design import (
    FABRIC_GBPS,
    Design,
    DesignOption,
    Fabric,
    Hardware,
    Precision,
    Rdma,
    SharingMode,
    WorkloadKind,
)
from wizard.model.fit import gpus_per_host_max
from wizard.model.prices import PriceList
from wizard.model.result import Result, Severity
from wizard.present.labels import PRECISION_SHORT, label

TRAINING_KINDS = (WorkloadKind.TRAINING, WorkloadKind.FINE_TUNING)


@dataclass
class Recommendation:
    hardware: Hardware
    reasons: dict[str, str] = field(default_factory=dict)  # Hardware field -> why


def recommend_server(catalog: Catalog, gpu: Gpu) -> tuple[Server, str] | None:
    """The server that holds the most of this GPU, counted in the powers of two multi-GPU jobs
    run in (a host of 10 serves as one of 8 for them); ties go to NVIDIA-Certified systems, then
    to the most GPUs, then to those with GPUDirect RDMA affinity, then to fewer rack units."""
    servers = catalog.servers_for_gpu(gpu)
    if not servers:
        return None

    def key(s: Server) -> tuple:
        bridges = gpu.nvlink.kind.value == "bridge" and s.nvlink_bridge_support
        most = gpus_per_host_max(s, gpu)
        return (
            -(1 << (most.bit_length() - 1)),
            s.certification is not Certification.CERTIFIED,
            -most,
            not s.gdr_affinity,
            not bridges,
            s.rack_units,
            s.id,
        )

    best = min(servers, key=key)
    n = gpus_per_host_max(best, gpu)
    extras = []
    if best.certification is Certification.CERTIFIED:
        extras.append("NVIDIA-Certified")
    if best.gdr_affinity:
        extras.append("NICs can share a PCIe switch or root complex with the GPUs (GPUDirect RDMA)")
    which = (
        "the only catalog server that can take this GPU"
        if len(servers) == 1
        else f"the most of the {len(servers)} catalog servers that can take this GPU"
    )
    why = f"holds {count(n, gpu.name + ' GPU')}, {which}" + (
        f"; {'; '.join(extras)}" if extras else ""
    )
    return best, why


def _spans_hosts(result: Result, gpus_per_host: int) -> bool:
    """Whether GPU traffic crosses the network: a replica larger than a host, or data-parallel
    training whose replicas cannot all share one host."""
    for w in result.workloads:
        if not w.gpus_total:
            continue
        if w.gpus_per_replica > gpus_per_host:
            return True
        data_parallel = w.training is not None  # each member's replicas all-reduce together
        dp = w.replicas_per_member
        if data_parallel and dp > 1 and w.gpus_per_replica * dp > gpus_per_host:
            return True
    return False


def recommend_network(design: Design, result: Result | None, gpu: Gpu) -> tuple[Fabric, Rdma, str]:
    modes = {g.sharing_mode for g in design.workloads}
    if SharingMode.REMOTE in modes:
        return (
            Fabric.GBE_100,
            Rdma.PVRDMA,
            "remote GPU pools reach GPUs over the network; the reference architecture gives them "
            "100 GbE with PVRDMA for minimal latency",
        )
    if result is not None and _spans_hosts(result, design.hardware.gpus_per_host):
        fabric = Fabric.GBE_200 if gpu.pcie_gen >= 5 else Fabric.GBE_100
        return (
            fabric,
            Rdma.ROCE,
            "training traffic crosses hosts every iteration (gradient allreduce); at 25 GbE it "
            "dominates the iteration (the seed's BERT-Large example: 870 ms per iteration), so "
            f"{FABRIC_GBPS[fabric]:g} GbE with RoCE v2 matches a PCIe Gen {gpu.pcie_gen} GPU better",
        )
    return (
        Fabric.GBE_25,
        Rdma.NONE,
        "no GPU traffic crosses hosts in this design; 25 GbE carries data loading and management",
    )


def recommend_nic(catalog: Catalog, fabric: Fabric, rdma: Rdma) -> tuple[Nic, str] | None:
    """The slowest sufficient NIC that speaks the fabric and the RDMA flavour, preferring plain
    NICs over DPUs and GPUDirect RDMA support."""
    wanted_rdma = {Rdma.ROCE: "roce-v2", Rdma.INFINIBAND: "infiniband", Rdma.PVRDMA: "roce-v2"}
    candidates = [
        n
        for n in catalog.nics.values()
        if nic_reason(n, fabric) is None  # the rule book's answer, as the Hardware page shows
        and rdma_reason(rdma, fabric, n) is None
        and (rdma is Rdma.NONE or wanted_rdma[rdma] in n.rdma)
    ]
    if not candidates:
        return None
    best = min(
        candidates,
        key=lambda n: (n.port_speed_gbps, not n.gpudirect_rdma, n.kind.value != "nic", n.id),
    )
    why = f"{best.ports} x {best.port_speed_gbps:g} Gb/s, the slowest catalog NIC that runs {label(fabric)}"
    if rdma is not Rdma.NONE:
        why += f" with {label(rdma)}"
    if best.gpudirect_rdma:
        why += "; supports GPUDirect RDMA"
    return best, why


@dataclass(frozen=True)
class _Scored:
    gpu: Gpu
    server: Server
    result: Result
    power_w: float
    per_host: int
    planned: Plan | None = None  # the candidate's plan, when it was sized as a trial


def _required_modes(design: Design) -> set[SharingMode]:
    return {g.sharing_mode for g in design.workloads}


# the tensor-core path each precision needs; 4-bit integer weights are dequantized to 16-bit
# for the matrix products (AWQ, GPTQ), so they need a 16-bit path
_PATH_OF: dict[Precision, tuple[str, ...]] = {
    Precision.FP4: ("fp4",),
    Precision.FP8: ("fp8",),
    Precision.INT8: ("int8",),
    Precision.INT4: ("bf16", "fp16"),
    Precision.BF16: ("bf16",),
    Precision.FP16: ("fp16",),
    Precision.TF32: ("tf32",),
    Precision.FP32: ("fp32",),
}


def precision_reason(design: Design, gpu: Gpu) -> str | None:
    """Why ``gpu`` cannot run a group at its precision: no tensor-core path for it (an FP8 model
    on an Ampere GPU would run at 16 bits, twice the memory traffic the plan counts on)."""
    for g in design.workloads:
        if g.model is None or g.gpus_per_member is not None:
            continue
        paths = _PATH_OF[g.precision]
        if not any(getattr(gpu.tflops, p, None) for p in paths):
            return f"no {PRECISION_SHORT[g.precision]} tensor cores for {g.name}"
    return None


def _memory_reason(result: Result, per_host: int, gpu: Gpu) -> str | None:
    """Why a serving group does not fit the GPU's memory well: a replica that needs more GPUs
    than a host holds sends its tensor-parallel traffic over the network for every token."""
    for w in result.workloads:
        if w.serving is not None and w.gpus_per_replica > per_host:
            return (
                f"{w.name} needs {w.gpus_per_replica} GPUs of {gpu.memory_gb:g} GB per replica, "
                f"more than the {per_host} one host holds"
            )
    return None


@dataclass(frozen=True)
class Verdict:
    """One catalog GPU as Recommend judged it: offered, or the reason it is not."""

    gpu: Gpu
    reason: str | None  # None: offered


def judge(design: Design, catalog: Catalog) -> tuple[list[_Scored], list[Verdict]]:
    """Every catalog GPU judged by what the workloads need, in that order: the precision each
    group runs at, the sharing modes, a server, a sizing without the rule book's errors, and the
    memory a serving replica needs inside one host. The offered ones sized, and every verdict."""
    offered: list[_Scored] = []
    verdicts: list[Verdict] = []
    for gpu in catalog.gpus.values():
        why = precision_reason(design, gpu)
        scored = None if why else _candidate(design, catalog, gpu)
        if why is None and scored is None:
            why = "does not suit the sharing modes, a catalog server or the rule book"
        if scored is not None:
            why = _memory_reason(scored.result, scored.per_host, gpu)
        verdicts.append(Verdict(gpu, why))
        if why is None and scored is not None:
            offered.append(scored)
    return offered, verdicts


def _ranked(offered: list[_Scored]) -> list[_Scored]:
    """Targets first (fewest warnings), then the fewest GPUs (each takes a software licence and
    its share of the price), then the fewest hosts, then the least power."""
    return sorted(
        offered,
        key=lambda s: (
            sum(w.severity is not Severity.INFO for w in s.result.warnings),
            s.result.cluster.gpus_total,
            s.result.cluster.hosts_total,
            s.power_w,
            s.gpu.id,
        ),
    )


def _not_offered(verdicts: list[Verdict], most: int = 3) -> str:
    out = [f"{v.gpu.name} ({v.reason})" for v in verdicts if v.reason is not None]
    if not out:
        return ""
    more = f" and {len(out) - most} more" if len(out) > most else ""
    return ". Not offered: " + "; ".join(out[:most]) + more


def _candidate(design: Design, catalog: Catalog, gpu: Gpu) -> _Scored | None:
    modes = _required_modes(design)
    training = any(g.kind in TRAINING_KINDS for g in design.workloads)
    if training and gpu.gpus_per_board > 1:
        return None  # boards of several small GPUs (A16) are made for virtual desktops
    if precision_reason(design, gpu) is not None:
        return None
    if any(sharing_mode_reason(m, gpu) for m in modes):
        return None
    pick = recommend_server(catalog, gpu)
    if pick is None:
        return None
    server, _ = pick
    if any(sharing_mode_reason(m, gpu, server) for m in modes):
        return None  # an NVSwitch board, where vSphere runs time-sliced vGPU only
    most = gpus_per_host_max(server, gpu)
    # tensor-parallel groups are powers of two: a host of 10 leaves 2 GPUs of each 8-GPU
    # replica's host idle, so the largest power of two is tried beside the most it holds
    counts = sorted({most, 1 << (most.bit_length() - 1)}, reverse=True)
    tried = [s for n in counts if (s := _sized(design, catalog, gpu, server, n)) is not None]
    return min(tried, key=lambda s: s.power_w) if tried else None


def _sized(design: Design, catalog: Catalog, gpu: Gpu, server: Server, n: int) -> _Scored | None:
    """The design on ``n`` of ``gpu`` per ``server`` host, None when it does not size."""
    hw = design.hardware.model_copy(
        update={
            "gpu": gpu.id,
            "server": server.id,
            "gpus_per_host": n,
            "nic": None,
            "nvlink": gpu.nvlink.kind.value == "sxm",
            "gpudirect_rdma": False,
        }
    )
    trial = as_designed(design).model_copy(update={"hardware": hw})
    try:
        p = plan(trial, catalog)
    except (UserError, ValueError):
        return None
    result = _own(p)
    if result is None:
        return None
    if any(w.severity is Severity.ERROR for w in result.warnings):
        return None  # the rule book's error on this hardware (e.g. a VM of more vGPUs than allowed)
    c = result.cluster
    power = c.hosts_total * server.baseline_power_w + c.gpus_total * gpu.tdp_w / gpu.gpus_per_board
    return _Scored(gpu, server, result, power, n, p)


def _own(p: Plan) -> Result | None:
    """The sizing of the cluster whose hardware Recommend chooses: the design's own (the one
    its ``hardware`` answers), None when no group runs on it."""
    c = p.cluster(p.design.cluster_name)
    return c.result if c is not None else None


def _priced(s: _Scored, prices: PriceList) -> bool:
    """Whether the price list prices the candidate's servers and GPUs."""
    return s.planned is not None and s.planned.priced_with(prices).hardware_priced


def rank_by_cost(
    design: Design, catalog: Catalog, prices: PriceList
) -> list[tuple[_Scored, CostResult]]:
    """Every GPU that serves the design and whose servers and GPUs the price list prices,
    cheapest total cost of ownership first. The cost is that of the whole recommended hardware
    (network included), the same figure the comparison of options shows."""
    scored, _ = judge(design, catalog)
    out = []
    for s in scored:
        if not _priced(s, prices):
            continue
        trial = as_designed(design).model_copy(
            update={"hardware": design.hardware.model_copy(update={"gpu": s.gpu.id})}
        )
        full = trial.model_copy(update={"hardware": recommend(trial, catalog).hardware})
        try:
            p = plan(full, catalog, prices)
        except (UserError, ValueError):
            continue
        result = _own(p)
        if result is None or p.cost is None:
            continue
        out.append((_Scored(s.gpu, s.server, result, s.power_w, s.per_host), p.cost))
    return sorted(out, key=lambda sc: (sc[1].total, sc[0].gpu.id))


def recommend_gpu(
    design: Design, catalog: Catalog, prices: PriceList | None = None
) -> tuple[Gpu, str] | None:
    """Size the design on every GPU that supports its sharing modes; pick the one with the fewest
    sizing warnings, then the fewest hosts, then the least power (GPU TDP plus host baseline).
    With a price list: the lowest total cost of ownership among the fully priced ones."""
    if prices is not None:
        ranked_cost = rank_by_cost(design, catalog, prices)
        if ranked_cost:
            (best, cost), *rest = ranked_cost
            c = best.result.cluster
            why = (
                f"the lowest {cost.years}-year cost of ownership from your price list among the "
                f"{len(ranked_cost)} GPUs it prices: {cost.total:,.0f} {cost.currency} for "
                f"{c.hosts_total} hosts and {c.gpus_total} GPUs"
                + (
                    ". Next: "
                    + "; ".join(f"{s.gpu.name} ({k.total:,.0f} {k.currency})" for s, k in rest[:2])
                    if rest
                    else ""
                )
            )
            return best.gpu, why
    scored, verdicts = judge(design, catalog)
    if not scored:
        return None

    def warnings(s: _Scored) -> int:
        return sum(w.severity is not Severity.INFO for w in s.result.warnings)

    ranked = _ranked(scored)
    best = ranked[0]
    c = best.result.cluster
    modes = ", ".join(sorted(label(m) for m in _required_modes(design))) or "any"
    why = (
        f"sized on all {len(scored)} GPUs with the precision, memory and sharing modes "
        f"({modes}) the workloads need: {count(c.gpus_total, 'GPU')} (a software licence "
        f"each) in {count(c.hosts_total, 'host')}, boards and host baselines about "
        f"{best.power_w / 1000:,.1f} kW (the Review's power adds the network and the hosts' "
        "other parts); the fewest GPUs, then hosts, then power"
        + (" with no sizing warnings" if not warnings(best) else "")
        + (
            ". Next: "
            + "; ".join(
                f"{s.gpu.name} ({count(s.result.cluster.gpus_total, 'GPU')}, "
                f"{count(s.result.cluster.hosts_total, 'host')}, "
                f"{s.power_w / 1000:,.1f} kW)"
                for s in ranked[1:3]
            )
            if len(ranked) > 1
            else ""
        )
        + _not_offered(verdicts)
    )
    return best.gpu, why


def recommend(
    design: Design, catalog: Catalog, keep_gpu: bool = True, prices: PriceList | None = None
) -> Recommendation:
    """A whole hardware choice for ``design``. With ``keep_gpu`` the design's GPU stays and the
    rest is chosen around it; with ``prices`` the GPU is the one of lowest cost of ownership.
    An expansion's new hardware is chosen for the groups that do not run on its existing
    clusters."""
    from wizard.engine import new_hosts_design

    new = new_hosts_design(design, catalog)
    if new is not design and not new.workloads:
        raise UserError(
            "workloads: every workload group runs on the existing clusters, so no new "
            "hardware is chosen"
        )
    design = new
    if len(design.gpu_cluster_names()) > 1:  # its hardware is one cluster's, sized on its groups
        raise UserError(
            f"clusters: this design has {count(len(design.gpu_cluster_names()), 'GPU cluster')}; "
            "Recommend chooses the hardware of one, for the groups that run on it: recommend on "
            "the Hardware page with that cluster shown"
        )
    reasons: dict[str, str] = {}
    gpu = catalog.gpus.get(design.hardware.gpu) if keep_gpu else None
    if gpu is None:
        picked = recommend_gpu(design, catalog, prices)
        if picked is None:
            raise UserError("no catalog GPU and server can serve these workloads")
        gpu, reasons["gpu"] = picked
    pick = recommend_server(catalog, gpu)
    if pick is None:
        raise UserError(f"no catalog server can hold the {gpu.name}")
    server, reasons["server"] = pick
    most = gpus_per_host_max(server, gpu)
    best = _candidate(design, catalog, gpu)
    per_host = best.per_host if best is not None and best.server.id == server.id else most
    reasons["gpus_per_host"] = (
        f"every slot filled: {per_host} per host keeps multi-GPU jobs inside one host"
        if per_host == most
        else f"{per_host} of the {most} it holds: multi-GPU jobs run in groups of a power of "
        f"two, which {per_host} per host fill whole, so the design draws less power"
    )
    hw = design.hardware.model_copy(
        update={
            "gpu": gpu.id,
            "server": server.id,
            "gpus_per_host": per_host,
            "nvlink": gpu.nvlink.kind.value == "sxm"
            or (gpu.nvlink.kind.value == "bridge" and server.nvlink_bridge_support),
            "gpudirect_rdma": False,
            "rdma": Rdma.NONE,
            "nic": None,
        }
    )
    if hw.nvlink:
        reasons["nvlink"] = (
            "on the SXM baseboard" if gpu.nvlink.kind.value == "sxm" else "bridges fit this server"
        )
    trial = as_designed(design).model_copy(update={"hardware": hw})
    try:
        result = _own(plan(trial, catalog))
    except (UserError, ValueError):
        result = None
    fabric, rdma, reasons["fabric"] = recommend_network(trial, result, gpu)
    nic = recommend_nic(catalog, fabric, rdma)
    update: dict[str, object] = {"fabric": fabric, "rdma": rdma}
    if nic is not None:
        update["nic"] = nic[0].id
        reasons["nic"] = nic[1]
        virtual = any(m in (SharingMode.VGPU, SharingMode.MIG) for m in _required_modes(design))
        release = (
            catalog.software.get(result.software.nvaie_release or "")
            if result is not None and result.software is not None
            else None
        )
        # NVIDIA's NICs for vGPU VMs, by the release's GPUDirect RDMA page (one rule with size)
        listed = not virtual or gpudirect_vgpu_reason(nic[0], release) is None
        if rdma is Rdma.ROCE and nic[0].gpudirect_rdma and server.gdr_affinity and listed:
            update["gpudirect_rdma"] = True
            reasons["gpudirect_rdma"] = (
                "the NIC and the server's PCIe layout allow it; it skips host memory on every "
                "transfer between GPUs in different hosts"
            )
    return Recommendation(Hardware.model_validate({**hw.model_dump(), **update}), reasons)


def best_options(
    design: Design, catalog: Catalog, prices: PriceList | None = None, n: int = 2
) -> list[DesignOption]:
    """The ``n`` best hardware choices as options of the design, for the comparison: by total
    cost of ownership with a price list, else by warnings, hosts and power as ``recommend_gpu``."""
    if prices is not None and (by_cost := rank_by_cost(design, catalog, prices)):
        ranked = [s for s, _ in by_cost]
        costs = {s.gpu.id: c for s, c in by_cost}
    else:
        ranked = _ranked(judge(design, catalog)[0])
        costs = {}
    out = []
    for s in ranked[:n]:
        trial = design.model_copy(
            update={"hardware": design.hardware.model_copy(update={"gpu": s.gpu.id})}
        )
        hw = recommend(trial, catalog, keep_gpu=True).hardware
        c = s.result.cluster
        cost = costs.get(s.gpu.id)
        note = f"{c.hosts_total} hosts of {s.server.product_name}, {c.gpus_total} GPUs" + (
            f", {cost.total:,.0f} {cost.currency} over {cost.years} years" if cost else ""
        )
        out.append(DesignOption(name=s.gpu.name, note=note, hardware=hw))
    return out
