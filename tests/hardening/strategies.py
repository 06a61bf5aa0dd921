"""Hypothesis strategies that draw design documents across the whole design schema.

Documents are plain dicts (what a design file holds), so the same strategies feed the loader,
the engine and the CLI. ``designs()`` draws documents that pass the schema, over every sharing
mode, GPU, server, fabric and HA level, with extreme sizes (0, 1 and 10^6 users; 1 to 4,096
GPUs per member; tiny and trillion-parameter custom models). ``broken_designs()`` takes such a
document and breaks one field, returning the field's path so a test can check the message names
it.
"""

from __future__ import annotations

import copy
import math
from functools import lru_cache
from typing import Any

from hypothesis import strategies as st

from wizard.app.catalog_loader import load_catalog
from wizard.engine.platform.compat import check_design
from wizard.model.design import (
    AdmissionControl,
    Design,
    Fabric,
    FailureDomain,
    HaLevel,
    KubernetesPlatform,
    Optimizer,
    Precision,
    Rdma,
    Recompute,
    SharingMode,
    VsphereRelease,
    WorkloadKind,
    is_infiniband,
)

ETHERNET = [f for f in Fabric if not is_infiniband(f)]
INFINIBAND = [f for f in Fabric if is_infiniband(f)]


_TEXT = st.characters(blacklist_categories=("Cc", "Cs", "Cn"))


@lru_cache(maxsize=1)
def catalog():
    return load_catalog(include_user=False)


@lru_cache(maxsize=1)
def buildable() -> list[tuple[str, str, int]]:
    """Every (GPU, server, GPUs per host) the shipped catalog can build."""
    cat = catalog()
    out = []
    for gpu in sorted(cat.gpus):
        for server in sorted(cat.servers):
            for gph in range(1, 17):
                d = Design.model_validate(
                    {"hardware": {"gpu": gpu, "server": server, "gpus_per_host": gph}}
                )
                if not check_design(d, cat):
                    out.append((gpu, server, gph))
    assert out, "the shipped catalog builds nothing"
    return out


# ------------------------------------------------------------------------------- pieces

counts = st.one_of(
    st.sampled_from([0, 1, 2, 3, 7, 8, 64, 1000, 10_000, 1_000_000]),
    st.integers(min_value=0, max_value=200),
)
small_counts = st.one_of(st.sampled_from([0, 1, 2, 8]), st.integers(min_value=0, max_value=50))


@st.composite
def custom_models(draw) -> dict[str, Any]:
    """Tiny to 10^14-parameter transformers whose shape passes the schema."""
    heads = draw(st.sampled_from([1, 2, 8, 16, 32, 64, 96, 128]))
    head_dim = draw(st.sampled_from([1, 4, 64, 128, 256]))
    kv = draw(st.sampled_from([d for d in (1, 2, 4, 8, heads) if heads % d == 0]))
    params = draw(
        st.one_of(
            st.sampled_from([1e-3, 1.0, 1e3, 1e6, 7e9, 1.75e11, 1e12, 1e14]),
            st.floats(min_value=1e3, max_value=2e12, allow_nan=False, allow_infinity=False),
        )
    )
    return {
        "parameters": params,
        "layers": draw(st.sampled_from([1, 2, 12, 24, 96, 128, 10_000])),
        "hidden_size": heads * head_dim,
        "heads": heads,
        "kv_heads": kv,
        "vocab_size": draw(st.sampled_from([1, 32_000, 256_000, 10_000_000])),
    }


def model_choice():
    presets = sorted(catalog().models)
    return st.one_of(
        st.builds(lambda p: {"preset": p}, st.sampled_from(presets)),
        st.builds(lambda c: {"custom": c}, custom_models()),
    )


@st.composite
def parallelism(draw) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if draw(st.booleans()):
        out["zero_stage"] = draw(st.integers(0, 3))
    if draw(st.booleans()):
        out["tensor_parallel"] = draw(st.sampled_from([1, 2, 4, 8, 16, 64]))
    if draw(st.booleans()):
        out["pipeline_parallel"] = draw(st.sampled_from([1, 2, 4, 16, 1024]))
    if draw(st.booleans()):
        out["data_parallel"] = draw(st.sampled_from([1, 2, 8, 64, 1024]))
    out["sequence_parallel"] = draw(st.booleans())
    return out


@st.composite
def training(draw) -> dict[str, Any]:
    out: dict[str, Any] = {}
    which = draw(st.sampled_from(["samples", "tokens", "iterations", "none"]))
    big = st.sampled_from([1.0, 1e3, 1.2e6, 1e9, 1e12, 1e15])
    if which == "samples":
        out["dataset_samples"] = draw(big)
    elif which == "tokens":
        out["dataset_tokens"] = draw(big)
    elif which == "iterations":
        out["iterations_per_epoch"] = draw(big)
    out["epochs"] = draw(st.sampled_from([0.01, 1, 3, 100]))
    if draw(st.booleans()):
        out["target_hours"] = draw(st.sampled_from([0.001, 1, 24, 720, 1e6]))
    return out


@st.composite
def inference(draw) -> dict[str, Any]:
    out: dict[str, Any] = {
        "input_tokens": draw(st.sampled_from([1, 512, 4096, 131_072, 1_000_000])),
        "output_tokens": draw(st.sampled_from([1, 256, 4096])),
        "concurrent_sequences": draw(st.sampled_from([1, 4, 64, 1000])),
    }
    if draw(st.booleans()):
        longer = draw(st.sampled_from([0, 1, 8192, 2_000_000]))
        out["max_context_tokens"] = out["input_tokens"] + out["output_tokens"] + longer
    target = draw(st.sampled_from(["tokens", "requests", "none"]))
    if target == "tokens":
        out["target_tokens_per_s"] = draw(st.sampled_from([1.0, 150.0, 1e5, 1e9]))
    elif target == "requests":
        out["target_requests_per_s"] = draw(st.sampled_from([0.1, 10.0, 1e4]))
    if draw(st.booleans()):
        out["ttft_target_ms"] = draw(st.sampled_from([1e-3, 200.0, 2000.0]))
    if draw(st.booleans()):
        out["itl_target_ms"] = draw(st.sampled_from([1e-3, 20.0, 100.0]))
    out["kv_cache_precision"] = draw(st.sampled_from([None, "fp8", "bf16"]))
    return out


@st.composite
def shared(draw) -> dict[str, Any]:
    out: dict[str, Any] = {"concurrency": draw(st.sampled_from([0.01, 0.1, 0.5, 1.0]))}
    need = draw(st.sampled_from(["memory", "fraction", "gpus", "none"]))
    if need == "memory":
        out["gpu_memory_gb"] = draw(st.sampled_from([0.5, 5.0, 10.0, 20.0, 40.0, 80.0, 200.0]))
    elif need == "fraction":
        out["gpu_fraction"] = draw(st.sampled_from([0.01, 1 / 7, 0.25, 0.5, 1.0]))
    elif need == "gpus":
        out["gpus_per_job"] = draw(st.sampled_from([1, 2, 8, 64]))
    return out


def _constraints_for(draw, mode: SharingMode) -> dict[str, bool]:
    """Constraints the mode can honour (the schema refuses the others)."""
    iso = mode in (SharingMode.PASSTHROUGH, SharingMode.MIG) and draw(st.booleans())
    live = mode is not SharingMode.PASSTHROUGH and draw(st.booleans())
    remote = mode is SharingMode.REMOTE or draw(st.booleans())
    return {"isolation_required": iso, "live_migration_required": live, "remote_ok": remote}


@st.composite
def workload(draw, name: str, modes: list[SharingMode]) -> dict[str, Any]:
    kind = draw(st.sampled_from(list(WorkloadKind)))
    mode = draw(st.sampled_from(modes))
    group: dict[str, Any] = {
        "name": name,
        "kind": kind.value,
        "count": draw(counts),
        "sharing_mode": mode.value,
        "constraints": _constraints_for(draw, mode),
    }
    if draw(st.integers(0, 4)) == 0:  # sized from a capacity analysis
        group["gpus_per_member"] = draw(st.sampled_from([1, 2, 4, 8, 16, 4096]))
        group["count"] = draw(small_counts)
    elif kind in (WorkloadKind.DEVELOPMENT, WorkloadKind.HPC):
        group["shared"] = draw(shared())
    else:
        group["model"] = draw(model_choice())
        group["count"] = draw(small_counts)
        group["precision"] = draw(st.sampled_from(list(Precision))).value
        group["optimizer"] = draw(st.sampled_from(list(Optimizer))).value
        rc = draw(st.sampled_from([None, *Recompute]))
        if rc is not None:
            group["recompute"] = rc.value
        group["micro_batch_size"] = draw(st.sampled_from([1, 4, 32, 1024]))
        group["sequence_length"] = draw(st.sampled_from([1, 512, 2048, 32_768]))
        if draw(st.booleans()):
            group["global_batch_size"] = draw(st.sampled_from([1, 32, 1536, 65_536]))
        if draw(st.booleans()):
            group["parallelism"] = draw(parallelism())
        if kind is WorkloadKind.INFERENCE:
            group["inference"] = draw(inference())
        else:
            group["training"] = draw(training())
            if kind is WorkloadKind.FINE_TUNING and draw(st.booleans()):
                group["fine_tuning"] = {
                    "method": draw(st.sampled_from(["full", "lora", "qlora"])),
                    "lora_rank": draw(st.sampled_from([1, 16, 256])),
                    "lora_targets": draw(st.sampled_from(["attention", "attention-mlp"])),
                }
    return group


@st.composite
def hardware(draw, gpu: str, server: str, gph: int, coherent: bool) -> dict[str, Any]:
    """Hardware answers; ``coherent`` keeps NIC, RDMA and NVLink to what the parts support, so
    most designs reach the engine rather than the catalog checks."""
    cat = catalog()
    g, srv = cat.gpus[gpu], cat.servers[server]
    fabric = draw(st.sampled_from(list(Fabric)))
    ib = fabric in INFINIBAND
    nics = sorted(cat.nics)
    if coherent:
        nics = [n for n in nics if ("infiniband" if ib else "ethernet") in cat.nics[n].protocols]
    nic = draw(st.sampled_from([None, *nics]))
    rdma_choices = [Rdma.NONE, Rdma.PVRDMA] + ([Rdma.INFINIBAND] if ib else [Rdma.ROCE])
    if coherent and nic is not None and "roce-v2" not in cat.nics[nic].rdma:
        rdma_choices = [r for r in rdma_choices if r is not Rdma.ROCE]
    rdma = draw(st.sampled_from(rdma_choices))
    gdr_ok = srv.gdr_affinity and (nic is None or cat.nics[nic].gpudirect_rdma)
    nvlink_ok = g.nvlink.kind.value != "none" and (
        g.form_factor.value == "sxm" or srv.nvlink_bridge_support
    )
    hw: dict[str, Any] = {
        "gpu": gpu,
        "server": server,
        "gpus_per_host": gph,
        "nics_per_host": draw(st.integers(0, 4)),
        "fabric": fabric.value,
        "rdma": rdma.value,
        "gpudirect_rdma": rdma is not Rdma.NONE
        and (gdr_ok or not coherent)
        and draw(st.booleans()),
        "nvlink": (nvlink_ok or not coherent) and draw(st.booleans()),
        "vgpu_mixed_sizes": draw(st.booleans()),
        "mig_time_slicing": draw(st.booleans()),
        "service_fabric": draw(st.sampled_from(ETHERNET)).value,
        "service_ports_per_host": draw(st.integers(0, 8)),
    }
    if nic is not None:
        hw["nic"] = nic
    cpus = [c.name for c in srv.cpu_options]
    if draw(st.booleans()):  # a listed processor, or (not coherent) one the server lacks
        hw["cpu"] = draw(st.sampled_from(cpus if coherent and cpus else [*cpus, "Xeon 9999"]))
    if draw(st.booleans()):
        hw["storage"] = draw(st.sampled_from(sorted(cat.storage)))
    return hw


@st.composite
def ha(draw) -> dict[str, Any]:
    level = draw(st.sampled_from(list(HaLevel)))
    out: dict[str, Any] = {
        "level": level.value,
        "maintenance_hosts": draw(st.sampled_from([0, 1, 2, 100])),
        "failure_domain": draw(st.sampled_from(list(FailureDomain))).value,
        "admission_control": draw(st.sampled_from(list(AdmissionControl))).value,
        "passthrough_spares": draw(st.booleans()),
    }
    if level is HaLevel.PERCENT:
        out["reserve_percent"] = draw(st.sampled_from([0.5, 10, 25, 50, 90]))
    if draw(st.booleans()):
        out["hosts_per_rack"] = draw(st.sampled_from([1, 4, 16, 64]))
    return out


@st.composite
def designs(draw, buildable_only: bool = True) -> dict[str, Any]:
    """A design document that passes the schema; usually one the catalog can build."""
    cat = catalog()
    coherent = buildable_only or draw(st.integers(0, 9)) > 0
    if coherent:
        gpu, server, gph = draw(st.sampled_from(buildable()))
    else:
        gpu = draw(st.sampled_from(sorted(cat.gpus)))
        server = draw(st.sampled_from(sorted(cat.servers)))
        gph = draw(st.integers(1, 16))
    g = cat.gpus[gpu]
    modes = [SharingMode.PASSTHROUGH, SharingMode.REMOTE]
    modes += [SharingMode.MIG] if g.mig_capable else []
    modes += [SharingMode.VGPU] if g.vgpu_capable else []
    n = draw(st.integers(0, 4))
    doc: dict[str, Any] = {
        "schema_version": 2,
        # any text the text gate accepts (control characters, surrogates and noncharacters are
        # refused by name: tests/io/test_text_gate.py)
        "project": {"customer": draw(st.text(_TEXT, max_size=20)), "currency": "EUR"},
        "workloads": [draw(workload(f"group {i}", modes)) for i in range(n)],
        "hardware": draw(hardware(gpu, server, gph, coherent)),
        "ha": draw(ha()),
        "assumptions": {
            "achievable_utilization": draw(st.sampled_from([0.01, 0.4, 1.0])),
            "link_efficiency": draw(st.sampled_from([0.1, 1.0])),
            "gradient_bytes": draw(st.sampled_from([0.5, 1, 2, 4])),
            "framework_overhead_gb": draw(st.sampled_from([0, 2, 1000])),
            "sharp": draw(st.booleans()),
            "max_rack_power_kw": draw(st.sampled_from([0.1, 15, 1000])),
            "rack_units": draw(st.sampled_from([10, 42, 60])),
            "fabric_oversubscription": draw(st.sampled_from([1, 3, 20])),
        },
        "data": {
            "dataset_versions": draw(st.sampled_from([1, 2, 1000])),
            "checkpoint_copies": draw(st.sampled_from([0, 3, 10_000])),
            "growth_headroom": draw(st.sampled_from([0, 0.25, 100])),
            "read_gbs_per_gpu": draw(st.sampled_from([0, 0.5, 1000])),
        },
        "platform": {
            "kubernetes": draw(st.sampled_from(list(KubernetesPlatform))).value,
            "vsphere": draw(st.sampled_from(list(VsphereRelease))).value,
            "private_ai_foundation": draw(st.booleans()),
        },
    }
    if draw(st.booleans()):
        doc["data"]["dataset_gb"] = draw(st.sampled_from([0.001, 100, 1e12]))
    if draw(st.booleans()):
        doc["data"]["storage_nodes"] = draw(st.sampled_from([1, 8, 100_000]))
    if draw(st.booleans()):
        doc["platform"]["nvaie_release"] = draw(st.sampled_from(sorted(cat.software)))
    if draw(st.booleans()):
        doc["licensing"] = {
            "gpu_software": draw(st.sampled_from([None, "nvidia-ai-enterprise", "nvidia-vcs"])),
            "platform": draw(st.sampled_from([None, *sorted(cat.licences)])),
            "cores_per_socket": draw(st.sampled_from([None, 1, 32, 1024])),
        }
    return doc


# ------------------------------------------------------------------------------ breakage

NOT_A_NUMBER = [math.nan, math.inf, -math.inf]

# (path, bad value): each breaks one field in a way the schema must refuse.
BREAKS: list[tuple[tuple[str | int, ...], Any]] = [
    (("hardware", "gpus_per_host"), 0),
    (("hardware", "gpus_per_host"), 17),
    (("hardware", "gpus_per_host"), "four"),
    (("hardware", "gpus_per_host"), 2.5),
    (("hardware", "gpu"), "H100!"),
    (("hardware", "gpu"), None),
    (("hardware", "fabric"), "1tbe"),
    (("hardware", "nics_per_host"), -1),
    (("hardware", "colour"), "blue"),
    (("ha", "level"), "n+3"),
    (("ha", "maintenance_hosts"), -1),
    (("ha", "hosts_per_rack"), 0),
    (("assumptions", "achievable_utilization"), 0),
    (("assumptions", "achievable_utilization"), 1.5),
    (("assumptions", "gradient_bytes"), 3),
    (("assumptions", "max_rack_power_kw"), math.inf),
    (("assumptions", "fabric_oversubscription"), math.nan),
    (("assumptions", "rack_units"), 5),
    (("data", "growth_headroom"), -0.1),
    (("data", "read_gbs_per_gpu"), math.nan),
    (("data", "dataset_versions"), 0),
    (("platform", "kubernetes"), "nomad"),
    (("project", "currency"), "euro"),
    (("project", "logo_path"), "x" * 5000),
    (("project", "date"), "yesterday"),
    (("schema_version",), 0),
    (("workloads",), "all of them"),
]

WORKLOAD_BREAKS: list[tuple[tuple[str, ...], Any]] = [
    (("count",), -3),
    (("count",), 1_000_001),
    (("count",), math.inf),
    (("count",), "many"),
    (("kind",), "gaming"),
    (("name",), ""),
    (("sharing_mode",), "sr-iov"),
    (("precision",), "fp64"),
    (("micro_batch_size",), 0),
    (("sequence_length",), -1),
    (("gpus_per_member",), 0),
    (("gpus_per_member",), 4097),
    (("surprise",), 1),
]


def set_path(doc: dict[str, Any], path: tuple[str | int, ...], value: Any) -> None:
    node: Any = doc
    for part in path[:-1]:
        node = node[part] if isinstance(node, list) else node.setdefault(part, {})
    node[path[-1]] = value


def path_text(path: tuple[str | int, ...]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


@st.composite
def broken_designs(draw) -> tuple[dict[str, Any], str]:
    """A schema-valid design with one field broken, and the path of that field."""
    doc = copy.deepcopy(draw(designs()))
    if doc["workloads"] and draw(st.booleans()):
        i = draw(st.integers(0, len(doc["workloads"]) - 1))
        sub, value = draw(st.sampled_from(WORKLOAD_BREAKS))
        path: tuple[str | int, ...] = ("workloads", i, *sub)
    else:
        path, value = draw(st.sampled_from(BREAKS))
    set_path(doc, path, value)
    return doc, path_text(path)


# ------------------------------------------------------------------------------ several clusters

GPU_CLUSTER_NAMES = ["Cluster A", "Cluster B", "Cluster C"]


@st.composite
def estates(draw) -> dict[str, Any]:
    """A design of several clusters: the first GPU cluster of ``designs()`` plus one or two more
    GPU clusters (each its own hardware and HA policy), maybe a compute cluster and a management
    domain; each group pinned to a GPU cluster or left to the engine."""
    doc = draw(designs())
    cat = catalog()
    extra = draw(st.integers(1, 2))
    doc["cluster_name"] = GPU_CLUSTER_NAMES[0]
    clusters: list[dict[str, Any]] = []
    for name in GPU_CLUSTER_NAMES[1 : 1 + extra]:
        gpu, server, gph = draw(st.sampled_from(buildable()))
        hw = draw(hardware(gpu, server, gph, True))
        # the release-bound vGPU options are drawn on the first cluster; here they would only
        # turn most designs into the same refusal
        hw.update(vgpu_mixed_sizes=False, mig_time_slicing=False)
        clusters.append({"name": name, "role": "gpu-cluster", "hardware": hw, "ha": draw(ha())})
    servers = sorted(cat.servers)
    if draw(st.booleans()):
        clusters.append(
            {"name": "Clients", "role": "compute-cluster",
             "server": draw(st.sampled_from(servers)), "hosts": draw(st.integers(1, 40))}
        )  # fmt: skip
    if draw(st.booleans()):
        mgmt: dict[str, Any] = {"name": "Management", "role": "management-domain",
                                "server": draw(st.sampled_from(servers))}  # fmt: skip
        if draw(st.booleans()):
            mgmt["hosts"] = draw(st.integers(1, 8))
        clusters.append(mgmt)
    doc["clusters"] = clusters
    names = GPU_CLUSTER_NAMES[: 1 + extra]
    while len(doc["workloads"]) < 2:  # groups enough for two clusters to run something
        doc["workloads"].append(
            draw(workload(f"group {len(doc['workloads'])}", [SharingMode.PASSTHROUGH]))
        )
    for i, w in enumerate(doc["workloads"]):
        pin = draw(st.sampled_from([None, names[i % len(names)]]))  # spread over the clusters
        if pin is not None:
            w["cluster"] = pin
    return doc
