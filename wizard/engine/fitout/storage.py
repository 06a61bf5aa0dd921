"""The data path: what shared storage must hold (datasets, checkpoints, model files) and how fast
it must read to keep the GPUs fed, against the chosen storage system and the hosts' NICs, and
whether GPUDirect Storage can carry the reads.

The read need is the rate at which the GPUs consume data when compute bound: sustained FLOPS over
FLOPs per sample (or per token), times the bytes each sample (or token) occupies on storage.
Communication only slows the GPUs down, so this is the rate storage must be able to sustain.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from wizard.base.numbers import count, num, some
from wizard.engine.basis import compute, memory, sources
from wizard.engine.basis.expr import Formula
from wizard.engine.basis.record import Recorder
from wizard.engine.demand.comms import PCIE_X16_GBS
from wizard.engine.demand.sizer import model_utilization
from wizard.engine.demand.workload import TRAINING_KINDS, resolve_model
from wizard.engine.fitout import confirm
from wizard.engine.fitout.gpudirect_storage import gds_blockers, gds_outcome
from wizard.model.catalog import Catalog, Gpu, ModelArch, ModelPreset, Nic, Storage
from wizard.model.design import (
    FABRIC_GBPS,
    Assumptions,
    DataPlan,
    Design,
    Fabric,
    FineTuningMethod,
    Rdma,
    Recompute,
    WorkloadGroup,
    WorkloadKind,
    group_assumptions,
)
from wizard.model.names import FABRIC_LABEL, OPTIMIZER_LABEL
from wizard.model.platform import DataNeed, StorageResult
from wizard.model.result import Severity, WorkloadResult

GB = 1e9

MEGATRON_TOKEN_BYTES = (
    "Megatron-LM megatron/data/indexed_dataset.py (the best-fitting integer type): tokenized datasets are "
    "stored as uint16 when the vocabulary has fewer than 65,500 entries, int32 otherwise "
    "(https://github.com/NVIDIA/Megatron-LM)"
)
LORA_CHECKPOINT = (
    "Hu et al., LoRA, arXiv:2106.09685, section 4.2: only the adapters are trained and saved, "
    "the frozen base stays the published model (GPT-3 175B: checkpoints of 35 MB instead of "
    "350 GB); the adapters' weights, optimizer states and master copy"
)
CHECKPOINT_STATE = (
    sources.ZERO + "; a checkpoint holds the weights and the optimizer states (FP32 master copy, "
    "momentum, variance) but not the gradients, which each step recomputes: 14 bytes/parameter "
    "for mixed-precision Adam (the ZeRO paper's 16 less 2 for FP16 gradients)"
)
NIC_RATE = (
    "One fabric link per NIC, as the communication estimate counts it: the fabric speed, capped by "
    "the NIC's port speed and by its PCIe link (" + sources.PCIE_SPEC + ")"
)
STORAGE_SIZING = (
    "Storage catalog per-node figures: nodes = max(minimum nodes, ceil(capacity / usable TB per "
    "node), ceil(read need / read GB/s per node))"
)


def token_bytes(vocab_size: int) -> int:
    """Bytes one token occupies in a tokenized dataset (Megatron's indexed dataset format)."""
    return 2 if vocab_size < 65_500 else 4


def checkpoint_bytes_per_param(group: WorkloadGroup) -> float:
    """Weights in the training precision + optimizer states + the FP32 master copy."""
    p = group.precision
    return (
        memory.PARAM_BYTES[p]
        + memory.OPTIMIZER_BYTES[group.optimizer]
        + memory.master_copy_bytes(p)
    )


def _adapters_only(g: WorkloadGroup, w: WorkloadResult) -> float | None:
    """The trainable parameters of a LoRA or QLoRA run, whose checkpoints hold only them (and
    their optimizer states); None for a run that trains every weight."""
    method = g.fine_tuning.method if g.fine_tuning else FineTuningMethod.FULL
    if method is FineTuningMethod.FULL or w.training is None:
        return None
    return w.training.trainable_parameters or None


def host_network_gbs(fabric: Fabric, nics_per_host: int, nic: Nic | None) -> float | None:
    """GB/s a host's NICs carry: fabric speed per NIC, capped by the NIC port and PCIe link."""
    if nics_per_host == 0:
        return None
    gbps = FABRIC_GBPS[fabric]
    if nic is not None:
        pcie_gbps = PCIE_X16_GBS[nic.pcie_gen] * min(nic.pcie_lanes, 16) / 16 * 8
        gbps = min(gbps, nic.port_speed_gbps, pcie_gbps)
    return gbps * nics_per_host / 8


@dataclass(frozen=True)
class StorageFacts:
    """What the data path reads, and nothing more: the data answers, the groups (their models,
    kinds, sharing and calibration), the design's assumptions, the host's GPUs, NICs, fabric
    and RDMA, the chosen NIC and storage system (None where none is chosen), and the catalog's
    model presets."""

    data: DataPlan
    groups: tuple[WorkloadGroup, ...]
    assumptions: Assumptions
    gpus_per_host: int
    nics_per_host: int
    fabric: Fabric
    rdma: Rdma
    nic: Nic | None
    storage: Storage | None
    models: Mapping[str, ModelPreset]

    @classmethod
    def of(cls, design: Design, catalog: Catalog) -> StorageFacts:
        hw = design.hardware
        return cls(
            data=design.data,
            groups=tuple(design.workloads),
            assumptions=design.assumptions,
            gpus_per_host=hw.gpus_per_host,
            nics_per_host=hw.nics_per_host,
            fabric=hw.fabric,
            rdma=hw.rdma,
            nic=catalog.nic_of(hw.nic),
            storage=catalog.storage.get(hw.storage) if hw.storage else None,
            models=catalog.models,
        )


@dataclass(frozen=True)
class _Rate:
    per_gpu_gbs: float | None  # None: not known
    basis: str


SERVING_READS = _Rate(0.0, "serving reads its weights at start-up, not per request")
DATASET_NOT_KNOWN = "not known: give data.dataset_gb"


def _known_sum(values: Iterable[float | None]) -> float:
    """The sum of the figures that are known (None: not known, left out)."""
    return sum(v for v in values if v is not None)


def _and_not_known(names: list[str], what: str) -> str:
    """The words a total adds when it leaves out needs that are not known."""
    return f"; {what} not known for {some(names)}, left out" if names else ""


def _recompute(g: WorkloadGroup, w: WorkloadResult) -> Recompute:
    """The recomputation the training plan uses: the design's, else the one the engine chose,
    so the read rate follows the same FLOPs per token as the time to train."""
    if g.recompute is not None:
        return g.recompute
    if w.layout is not None and w.layout.recompute is not None:
        return Recompute(w.layout.recompute)
    return Recompute.NONE


class StoragePlanner:
    """Sizes the data path for one design; every figure goes through the recorder."""

    def __init__(
        self, facts: StorageFacts, gpu: Gpu, workloads: list[WorkloadResult], rec: Recorder
    ) -> None:
        self.f = facts
        self.gpu = gpu
        self.workloads = workloads
        self.rec = rec
        self.data = facts.data

    # ------------------------------------------------------------------ per group

    def _need(self, i: int, g: WorkloadGroup, w: WorkloadResult) -> DataNeed:
        """One group's need. A serving group keeps no training data and reads its weights at
        start-up only, so both are a known 0; any other group whose dataset or read rate is
        neither derived nor given has None there (not known), never 0. Checkpoints and model
        files come from the model: a group sized by its GPU count has None for those it would
        keep (a training group's checkpoints, a service's or a fine-tuning's model files)."""
        rec, key = self.rec, f"storage.workloads[{i}]"
        model = resolve_model(g, self.f.models) if w.sized_from == "model" else None
        dataset_gb: float | None = None
        dataset_basis = DATASET_NOT_KNOWN
        if self.data.dataset_gb is not None:
            dataset_basis = "counted in the dataset size given (data.dataset_gb)"
        if g.kind is WorkloadKind.INFERENCE:
            dataset_gb, dataset_basis = 0.0, "serving keeps no training data"
        checkpoint: float | None = 0.0
        checkpoints: float | None = 0.0
        model_files: float | None = 0.0
        if model is None and g.kind in TRAINING_KINDS:  # sized by its GPU count: not known
            checkpoint = checkpoints = None
        if model is None and g.kind in (WorkloadKind.INFERENCE, WorkloadKind.FINE_TUNING):
            model_files = None
        rate: _Rate | None = None
        if model is not None and g.kind in TRAINING_KINDS:
            dataset_gb, dataset_basis = self._dataset(key, g)
            per_param = checkpoint_bytes_per_param(g)
            adapters = _adapters_only(g, w)
            if adapters is not None:
                checkpoint = rec.expr(
                    f"{key}.checkpoint_gb",
                    Formula("trainable_parameters * bytes_per_parameter / 1e9"),
                    {"trainable_parameters": adapters, "bytes_per_parameter": per_param},
                    "GB",
                    f"{CHECKPOINT_STATE}; {LORA_CHECKPOINT}",
                )
            else:
                checkpoint = rec.expr(
                    f"{key}.checkpoint_gb",
                    Formula("parameters * bytes_per_parameter / 1e9"),
                    {"parameters": model.params, "bytes_per_parameter": per_param},
                    "GB",
                    f"{CHECKPOINT_STATE}; {g.precision.value.upper()} weights, "
                    f"{OPTIMIZER_LABEL[g.optimizer]} states "
                    "and the master copy",
                )
            checkpoints = rec.expr(
                f"{key}.checkpoints_gb",
                Formula("checkpoint_gb * copies * jobs"),
                {
                    "checkpoint_gb": checkpoint,
                    "copies": self.data.checkpoint_copies,
                    "jobs": g.count,
                },
                "GB",
                sources.ASSUMPTION + " (data.checkpoint_copies)",
            )
            rate = self._model_rate(key, g, _recompute(g, w), model.params, model.active_params)
            if g.kind is WorkloadKind.FINE_TUNING:
                model_files = rec.expr(
                    f"{key}.model_files_gb",
                    Formula("parameters * bytes_per_parameter / 1e9"),
                    {"parameters": model.params, "bytes_per_parameter": 2},
                    "GB",
                    "The base model fine-tuning starts from, as published: 16-bit (BF16) "
                    "weights, read at the job's start (a QLoRA run quantizes them as it loads)",
                )
        elif model is not None:
            model_files = rec.expr(
                f"{key}.model_files_gb",
                Formula("parameters * bytes_per_parameter / 1e9"),
                {
                    "parameters": model.params,
                    "bytes_per_parameter": memory.PARAM_BYTES[g.precision],
                },
                "GB",
                sources.SEED_MULTI_GPU + "; one copy of the served weights",
            )
            rate = SERVING_READS
        if rate is None and g.kind is WorkloadKind.INFERENCE:
            rate = SERVING_READS
        if rate is None and self.data.read_gbs_per_gpu:
            rate = _Rate(
                self.data.read_gbs_per_gpu,
                "data.read_gbs_per_gpu (not derived: no model to derive it from)",
            )
        if rate is None:
            rate = _Rate(None, "read throughput not known: state it under data.read_gbs_per_gpu")
        read = None
        if rate.per_gpu_gbs is not None:
            read = rec.expr(
                f"{key}.read_gbs",
                Formula("per_gpu_gbs * gpus"),
                {"per_gpu_gbs": rate.per_gpu_gbs, "gpus": w.gpus_total},
                "GB/s",
                f"{sources.DERIVED}; per GPU: {rate.basis}",
            )
        return DataNeed(
            workload=g.name,
            dataset_gb=dataset_gb,
            dataset_basis=dataset_basis,
            checkpoint_gb=checkpoint,
            checkpoints_gb=checkpoints,
            model_files_gb=model_files,
            read_gbs=read,
            read_gbs_per_gpu=rate.per_gpu_gbs,
            read_basis=rate.basis,
        )

    def _preset(self, g: WorkloadGroup):
        if g.model is not None and g.model.preset:
            return self.f.models[g.model.preset]
        return None

    def _vocab(self, g: WorkloadGroup) -> int | None:
        preset = self._preset(g)
        if preset is not None:
            return preset.vocab_size
        return g.model.custom.vocab_size if g.model and g.model.custom else None

    def _dataset(self, key: str, g: WorkloadGroup) -> tuple[float | None, str]:
        tr, preset, vocab = g.training, self._preset(g), self._vocab(g)
        if tr is not None and tr.dataset_samples and preset and preset.sample_bytes:
            gb = self.rec.expr(
                f"{key}.dataset_gb",
                Formula("samples * sample_bytes / 1e9"),
                {"samples": tr.dataset_samples, "sample_bytes": preset.sample_bytes},
                "GB",
                f"{preset.name} preset ({preset.source})",
            )
            return gb, "dataset samples x bytes per sample"
        if tr is not None and tr.dataset_samples and not tr.dataset_tokens and vocab:
            # a language model trains on samples of sequence_length tokens (packed sequences),
            # the same samples the training plan counts its iterations from
            gb = self.rec.expr(
                f"{key}.dataset_gb",
                Formula("samples * sequence_length * bytes_per_token / 1e9"),
                {"samples": tr.dataset_samples, "sequence_length": g.sequence_length,
                 "bytes_per_token": token_bytes(vocab)},
                "GB",
                f"{MEGATRON_TOKEN_BYTES}; a sample is one sequence of the group's length",
            )  # fmt: skip
            return gb, "dataset samples x tokens per sample x bytes per token (tokenized)"
        if tr is not None and tr.dataset_tokens and vocab:
            gb = self.rec.expr(
                f"{key}.dataset_gb",
                Formula("tokens * bytes_per_token / 1e9"),
                {"tokens": tr.dataset_tokens, "bytes_per_token": token_bytes(vocab)},
                "GB",
                MEGATRON_TOKEN_BYTES,
            )
            return gb, "dataset tokens x bytes per token (tokenized)"
        if self.data.dataset_gb is not None:
            return None, "counted in the dataset size given (data.dataset_gb)"
        return None, "not known: give the dataset in samples or tokens, or data.dataset_gb"

    def _model_rate(
        self, key: str, g: WorkloadGroup, recompute: Recompute, params: float, active: float
    ) -> _Rate | None:
        """Samples or tokens one GPU consumes per second when compute bound, as bytes."""
        preset, vocab = self._preset(g), self._vocab(g)
        peak, path = compute.peak_tflops(self.gpu, g.precision)
        if preset is not None and preset.architecture is ModelArch.CNN:
            if not (preset.forward_gflops_per_sample and preset.sample_bytes):
                return None
            factor = 4 if compute.flops_multiplier(recompute) == 8 else 3
            base = self.f.assumptions
            util, util_src = model_utilization(base, preset, a=group_assumptions(base, g))
            samples = self.rec.expr(
                f"{key}.samples_per_s_per_gpu",
                Formula("peak_tflops * 1e12 * utilization / (passes * forward_flops_per_sample)"),
                {
                    "peak_tflops": peak,
                    "utilization": util,
                    "passes": factor,
                    "forward_flops_per_sample": preset.forward_gflops_per_sample * 1e9,
                },
                "samples/s",
                f"{sources.NARAYANAN}; {path.upper()} peak; utilization: {util_src}",
            )
            gbs = self.rec.expr(
                f"{key}.read_gbs_per_gpu",
                Formula("samples_per_s * sample_bytes / 1e9"),
                {"samples_per_s": samples, "sample_bytes": preset.sample_bytes},
                "GB/s",
                f"{preset.name} preset ({preset.source})",
            )
            return _Rate(gbs, "compute-bound samples/s x bytes per sample")
        if vocab is None:
            return None
        mult = compute.flops_multiplier(recompute)
        frozen = bool(g.fine_tuning and g.fine_tuning.method is not FineTuningMethod.FULL)
        if frozen:
            mult -= 2  # a frozen base has no weight gradients: 2 FLOPs per parameter less
        tokens = self.rec.expr(
            f"{key}.tokens_per_s_per_gpu",
            Formula("peak_tflops * 1e12 * utilization / (flops_per_parameter * active_parameters)"),
            {
                "peak_tflops": peak,
                "utilization": self.f.assumptions.achievable_utilization,
                "flops_per_parameter": mult,
                "active_parameters": active,
            },
            "tokens/s",
            f"{sources.KAPLAN}"
            + ("; a frozen base (LoRA, QLoRA) has no weight gradients" if frozen else "")
            + f"; {path.upper()} peak; utilization: {sources.ASSUMPTION}",
        )
        gbs = self.rec.expr(
            f"{key}.read_gbs_per_gpu",
            Formula("tokens_per_s * bytes_per_token / 1e9"),
            {"tokens_per_s": tokens, "bytes_per_token": token_bytes(vocab)},
            "GB/s",
            MEGATRON_TOKEN_BYTES,
        )
        return _Rate(gbs, "compute-bound tokens/s x bytes per token")

    # ------------------------------------------------------------------ the cluster

    def plan(self) -> StorageResult:
        rec, data, f = self.rec, self.data, self.f
        needs = [
            self._need(i, g, w)
            for i, (g, w) in enumerate(zip(f.groups, self.workloads, strict=True))
        ]
        given = data.dataset_gb is not None
        no_dataset = [] if given else [n.workload for n in needs if n.dataset_gb is None]
        no_read = [n.workload for n in needs if n.read_gbs is None]
        no_checkpoints = [n.workload for n in needs if n.checkpoints_gb is None]
        no_models = [n.workload for n in needs if n.model_files_gb is None]
        no_kept = list(dict.fromkeys([*no_checkpoints, *no_models]))
        datasets, capacity_tb = self._capacity(needs, no_dataset, no_kept)
        read, per_host = self._reads(needs, no_read)
        self._not_known(no_dataset, no_read, no_kept)
        nic = f.nic
        net = host_network_gbs(f.fabric, f.nics_per_host, nic)
        if net is not None:
            rec.expr(
                "storage.host_network_gbs",
                Formula("nics_per_host * nic_gbps / 8"),
                {"nics_per_host": f.nics_per_host, "nic_gbps": net * 8 / f.nics_per_host},
                "GB/s",
                f"{NIC_RATE}; per NIC the lowest of the {FABRIC_LABEL[f.fabric]} fabric, the NIC port "
                "and its PCIe link",
            )
            if per_host is not None and per_host > net * 1.0001:
                rec.warn(
                    "nic-below-storage-need",
                    f"A host's GPUs can read {per_host:,.2f} GB/s but its NICs carry "
                    f"{net:,.2f} GB/s, shared with GPU traffic; add NICs, a faster fabric or "
                    "dedicated storage NICs",
                )
        storage = f.storage
        sized = self._size_system(storage, capacity_tb, read, no_dataset, no_read, no_kept)
        blockers = gds_blockers(storage, nic, f.rdma, f.groups, self.gpu)
        gds_outcome(storage, blockers, rec)
        return StorageResult(
            system=storage.id if storage else None,
            system_name=storage.product_name if storage else None,
            needs=needs,
            datasets_gb=datasets or 0.0,
            dataset_not_known=no_dataset,
            checkpoints_gb=_known_sum(n.checkpoints_gb for n in needs),
            model_files_gb=_known_sum(n.model_files_gb for n in needs),
            checkpoints_not_known=no_checkpoints,
            model_files_not_known=no_models,
            capacity_needed_tb=capacity_tb or 0.0,
            read_gbs_needed=read or 0.0,
            read_gbs_per_host_needed=per_host or 0.0,
            read_not_known=no_read,
            host_network_gbs=net,
            gpudirect_storage=not blockers,
            gpudirect_storage_blockers=blockers,
            **sized,
        )

    def _capacity(
        self, needs: list[DataNeed], no_dataset: list[str], no_kept: list[str]
    ) -> tuple[float | None, float | None]:
        """All dataset versions and the capacity needed, from the needs that are known; a term
        no group's figure is known for stays out of the logged formula (None), rather than
        standing in it as 0, and the capacity is None when nothing of it is known."""
        rec, data = self.rec, self.data
        known = [n.dataset_gb for n in needs if n.dataset_gb is not None]
        datasets = None
        if data.dataset_gb is not None or known:
            one_version = data.dataset_gb if data.dataset_gb is not None else sum(known)
            datasets = rec.expr(
                "storage.datasets_gb",
                Formula("dataset_gb * versions"),
                {"dataset_gb": one_version, "versions": data.dataset_versions},
                "GB",
                sources.ASSUMPTION
                + " (data.dataset_versions); one version "
                + (
                    "as given (data.dataset_gb)"
                    if data.dataset_gb is not None
                    else "from the workloads"
                )
                + _and_not_known(no_dataset, "the dataset is"),
            )
        checkpoints = _known_sum(n.checkpoints_gb for n in needs)
        models = _known_sum(n.model_files_gb for n in needs)
        if datasets is None and not (checkpoints or models):
            return None, None
        terms = {"checkpoints_gb": checkpoints, "model_files_gb": models}
        if datasets is not None:
            terms = {"datasets_gb": datasets, **terms}
        capacity_tb = rec.expr(
            "storage.capacity_needed_tb",
            Formula(f"({' + '.join(terms)}) * (1 + growth_headroom) / 1000"),
            {**terms, "growth_headroom": data.growth_headroom},
            "TB",
            sources.ASSUMPTION
            + " (data.growth_headroom)"
            + _and_not_known(no_dataset, "the dataset is")
            + _and_not_known(no_kept, "the checkpoints or model files are"),
        )
        return datasets, capacity_tb

    def _reads(
        self, needs: list[DataNeed], no_read: list[str]
    ) -> tuple[float | None, float | None]:
        """The cluster's and the busiest host's read need from the groups whose read is known;
        None for both when no group's is."""
        known = [n for n in needs if n.read_gbs is not None]
        if not known:
            return None, None
        read = self.rec.expr(
            "storage.read_gbs_needed",
            Formula("groups_read_gbs"),
            {"groups_read_gbs": sum(n.read_gbs or 0.0 for n in known)},
            "GB/s",
            f"{sources.DERIVED}: the sum over the groups' read GB/s ("
            + ", ".join(
                f"{n.workload} {num(n.read_gbs) if n.read_gbs is not None else 'not known'}"
                for n in needs[:20]
            )
            + ")"
            + _and_not_known(no_read, "the read throughput is"),
        )
        per_host = self.rec.expr(
            "storage.read_gbs_per_host_needed",
            Formula("per_gpu_gbs * gpus_per_host"),
            {
                "per_gpu_gbs": max(n.read_gbs_per_gpu or 0.0 for n in known),
                "gpus_per_host": self.f.gpus_per_host,
            },
            "GB/s",
            sources.DERIVED
            + "; a host full of the most demanding group's GPUs"
            + _and_not_known(no_read, "the read throughput is"),
        )
        return read, per_host

    def _not_known(self, no_dataset: list[str], no_read: list[str], no_kept: list[str]) -> None:
        """Name the groups whose need the totals leave out, so no total reads as complete."""
        if no_kept:
            self.rec.warn(
                "storage-kept-not-known",
                f"The checkpoints or model files of {some(no_kept)} are not known (sized by "
                "GPU count, with no model to derive them from): the capacity needed leaves them "
                "out until the group is sized from its model",
                Severity.INFO,
            )
        if no_read:
            self.rec.warn(
                "storage-need-not-modelled",
                f"No read throughput is derived for {some(no_read)} (no model to derive it "
                "from): the storage sizing leaves them out until their read throughput per GPU is "
                "given",
                Severity.INFO,
            )
        if no_dataset:
            self.rec.warn(
                "storage-dataset-not-known",
                f"The dataset size of {some(no_dataset)} is not known: the capacity needed "
                "leaves their training data out until the dataset is given in samples or "
                "tokens, or as a total",
                Severity.INFO,
            )

    def _size_system(
        self,
        storage: Storage | None,
        capacity_tb: float | None,
        read: float | None,
        no_dataset: list[str],
        no_read: list[str],
        no_kept: list[str],
    ) -> dict:
        """The storage nodes for the need that is known; a need nothing of which is known
        sizes no nodes (its node count is None, not the count for 0)."""
        empty = {
            "nodes_for_capacity": None,
            "nodes_for_throughput": None,
            "nodes": None,
            "nodes_given": self.data.storage_nodes is not None,
            "usable_tb": None,
            "read_gbs_available": None,
            "rack_units": None,
        }
        if storage is None:
            needed = _needed(
                capacity_tb, read, no_dataset, no_read, " of read throughput", no_kept=no_kept
            )
            self.rec.warn(
                "storage-not-chosen",
                f"No storage system chosen: the design needs {needed} (hardware.storage)",
                Severity.INFO,
            )
            return empty
        rec, given = self.rec, self.data.storage_nodes
        by_cap = by_read = None
        if capacity_tb is not None:
            by_cap = int(
                rec.expr(
                    "storage.nodes_for_capacity",
                    Formula("ceil(capacity_tb / usable_tb_per_node - 1e-9)"),
                    {
                        "capacity_tb": capacity_tb,
                        "usable_tb_per_node": storage.usable_capacity_tb_per_node,
                    },
                    "nodes",
                    confirm.flag(
                        f"{storage.model} ({storage.source})",
                        storage,
                        "usable_capacity_tb_per_node",
                    ),
                )
            )
        if read is not None:
            by_read = int(
                rec.expr(
                    "storage.nodes_for_throughput",
                    Formula("ceil(read_gbs / read_gbs_per_node - 1e-9)"),
                    {"read_gbs": read, "read_gbs_per_node": storage.read_throughput_gbs_per_node},
                    "nodes",
                    confirm.flag(
                        f"{storage.model} ({storage.source})",
                        storage,
                        "read_throughput_gbs_per_node",
                    ),
                )
            )
        terms: dict[str, float] = {"min_nodes": storage.min_nodes}
        if by_cap is not None:
            terms["for_capacity"] = by_cap
        if by_read is not None:
            terms["for_throughput"] = by_read
        nodes = int(
            rec.expr(
                "storage.nodes",
                Formula("given")
                if given
                else Formula(f"max({', '.join(terms)})" if len(terms) > 1 else "min_nodes"),
                {"given": given} if given else terms,
                "nodes",
                "Design input (data.storage_nodes)" if given else STORAGE_SIZING,
            )
        )
        usable = nodes * storage.usable_capacity_tb_per_node
        available = nodes * storage.read_throughput_gbs_per_node
        name = storage.product_name
        if nodes < storage.min_nodes:
            rec.warn(
                "storage-below-minimum-nodes",
                f"A {name} cluster needs at least {storage.min_nodes} nodes; the design gives "
                f"{count(nodes, 'storage node')} (data.storage_nodes)",
            )
        if capacity_tb is not None and usable < capacity_tb * 0.9999:
            rec.warn(
                "storage-capacity-below-need",
                f"{nodes} x {name} hold {usable:,.0f} TB usable for a need of "
                f"{capacity_tb:,.1f} TB; {by_cap} nodes are needed",
            )
        if read is not None and available < read * 0.9999:
            rec.warn(
                "storage-throughput-below-need",
                f"{nodes} x {name} read {available:,.2f} GB/s for a need of {read:,.2f} GB/s; "
                f"the GPUs will wait for data ({by_read} nodes are needed)",
            )
        reason = "the number given in the design" if given else _reason(storage, by_cap, by_read)
        need = (
            f"for a need of {_needed(capacity_tb, read, no_dataset, no_read, no_kept=no_kept)}"
            if capacity_tb or read
            else "the smallest configuration, as the design gives no data sizes or read rates"
        )
        offered = confirm.flag(
            f"{nodes} x {name}, {usable:,.0f} TB usable and {available:,.1f} GB/s of read "
            "throughput",
            storage,
            "usable_capacity_tb_per_node",
            "read_throughput_gbs_per_node",
        )
        units = count(nodes * storage.rack_units_per_node, "rack unit")
        rec.decide(
            f"Shared storage: {offered}, {need}.",
            f"The node count is {reason}; capacity covers "
            f"{count(self.data.dataset_versions, 'dataset version')}, "
            f"{count(self.data.checkpoint_copies, 'checkpoint')} per job and {self.data.growth_headroom:.0%} growth headroom.",
            implication=f"{count(nodes, 'storage node')} with "
            f"{confirm.flag(units, storage, 'rack_units_per_node')} and their network ports; the "
            "data sizes above are the customer's to confirm.",
        )
        return {
            "nodes_for_capacity": by_cap,
            "nodes_for_throughput": by_read,
            "nodes": nodes,
            "nodes_given": given is not None,
            "usable_tb": usable,
            "read_gbs_available": available,
            "rack_units": nodes * storage.rack_units_per_node,
        }


def _fig(value: float, digits: int) -> str:
    """``digits`` decimals, or significant digits where those would round a need to 0."""
    return num(value) if 0 < value < 0.5 * 10**-digits else f"{value:,.{digits}f}"


def _reason(storage: Storage, by_cap: int | None, by_read: int | None) -> str:
    """Why the node count is what it is; a need not known sizes no nodes and says so."""
    parts = [f"the system's minimum of {count(storage.min_nodes, 'node')}"]
    parts += [f"{count(by_cap, 'node')} for capacity"] if by_cap is not None else []
    parts += [f"{count(by_read, 'node')} for read throughput"] if by_read is not None else []
    missing = [w for w, n in (("capacity", by_cap), ("read throughput", by_read)) if n is None]
    text = parts[0] if len(parts) == 1 else "the larger of " + ", ".join(parts[:-1])
    text += f" and {parts[-1]}" if len(parts) > 1 else ""
    if missing:
        text += f" (no {' or '.join(missing)} need is known to size nodes for)"
    return text


def _needed(
    capacity_tb: float | None,
    read: float | None,
    no_dataset: list[str],
    no_read: list[str],
    what: str = "",
    no_kept: list[str] | None = None,
) -> str:
    """The need a sentence states: "at least" a total that leaves out needs not known, and
    which groups' needs those are."""
    cap = f"{_fig(capacity_tb or 0, 1)} TB"
    unknown = [f"the dataset of {some(no_dataset)}"] if no_dataset else []
    if no_kept:
        unknown.append(f"the checkpoints or model files of {some(no_kept)}")
    if unknown:
        cap = f"at least {cap}" if capacity_tb else "a capacity"
        cap += f" ({' and '.join(unknown)} not known)"
    rate = f"{_fig(read or 0, 2)} GB/s{what}"
    if no_read:
        rate = f"at least {rate}" if read else f"a rate{what}"
        rate += f" (the reads of {some(no_read)} not known)"
    return f"{cap} and {rate}"


def plan_storage(
    facts: StorageFacts, gpu: Gpu, workloads: list[WorkloadResult], rec: Recorder
) -> StorageResult:
    """The storage and data-path part of the Result."""
    return StoragePlanner(facts, gpu, workloads, rec).plan()
