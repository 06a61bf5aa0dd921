"""The data path: capacity for datasets, checkpoints and model files, the read throughput that
keeps the GPUs fed, the storage system and NICs against it, and GPUDirect Storage eligibility."""

import json

import pytest

from tests.conftest import run_cli
from tests.engine.conftest import calc, design_dict
from wizard.app.io import design_from_dict
from wizard.base.bundled import example_names
from wizard.engine.fitout.storage import host_network_gbs, token_bytes
from wizard.engine.size import size
from wizard.model.design import Design, Fabric


def _size(doc, catalog):
    return size(design_from_dict(doc), catalog)


def _codes(result):
    return {w.code: w for w in result.warnings}


# --------------------------------------------------------------------------- worked examples


def test_imagenet_resnet50_read_throughput(sized):
    """ResNet-50 on an A100 PCIe 80GB, BF16: 312 dense TFLOPS (A100 datasheet) x 0.5 x 0.39
    (the default utilization and ResNet-50's measured share of it) / (3 x 8.18 GFLOPs per
    224x224 image, forward + 2 x backward) = 2,479 images/s (NVIDIA measured 2,470); x 110 kB
    per ImageNet JPEG (138 GB / 1,281,167 images, image-net.org) = 0.273 GB/s."""
    r = sized["imagenet-resnet50"]
    images = 312e12 * 0.5 * 0.39 / (3 * 8.18e9)
    assert images == pytest.approx(2479.2, abs=0.1)
    assert images == pytest.approx(2470, rel=0.01)
    assert calc(r, "storage.workloads[0].samples_per_s_per_gpu").value == pytest.approx(images)
    assert calc(r, "storage.workloads[0].read_gbs_per_gpu").value == pytest.approx(
        images * 110e3 / 1e9, rel=1e-6
    )
    (need,) = r.storage.needs
    assert need.read_gbs == pytest.approx(2479.2 * 110e3 / 1e9, abs=1e-4)  # one GPU in the example
    assert r.storage.read_gbs_needed == pytest.approx(need.read_gbs)
    # Two GPUs per host: a host full of ResNet-50 GPUs reads twice as much.
    assert r.storage.read_gbs_per_host_needed == pytest.approx(2 * 2479.2 * 110e3 / 1e9, abs=1e-4)


def test_imagenet_dataset_and_checkpoints(sized, catalog):
    """1.28 M images x 110 kB = 140.8 GB per version, 2 versions kept by default; a ResNet-50
    checkpoint with SGD + momentum in BF16 is 25.6 M x (2 weights + 4 momentum + 4 FP32 master)
    = 0.256 GB, 3 kept."""
    s = sized["imagenet-resnet50"].storage
    (need,) = s.needs
    assert need.dataset_gb == pytest.approx(140.8)
    assert s.datasets_gb == pytest.approx(281.6)
    assert catalog.models["resnet-50"].parameters == pytest.approx(25.6e6, rel=0.01)
    assert need.checkpoint_gb == pytest.approx(catalog.models["resnet-50"].parameters * 10 / 1e9)
    assert s.checkpoints_gb == pytest.approx(3 * need.checkpoint_gb)
    assert s.capacity_needed_tb == pytest.approx((281.6 + s.checkpoints_gb) * 1.25 / 1000)


def test_checkpoint_of_zero_7_5b_model(catalog):
    """ZeRO paper: a 7.5 B-parameter model trained with mixed-precision Adam holds 16 x 7.5 B =
    120 GB of model states; the checkpoint leaves out the 2-byte FP16 gradients: 14 x 7.5 B =
    105 GB (weights 15 + FP32 master 30 + momentum 30 + variance 30)."""
    doc = design_dict("bert-large-25gbe")
    w = doc["workloads"][0]
    w["model"] = {"custom": {"parameters": 7.5e9, "layers": 32, "hidden_size": 4096, "heads": 32}}
    w.update(precision="fp16", optimizer="adam", sequence_length=1024)
    w["parallelism"] = {"data_parallel": 1, "zero_stage": 3}
    w["training"] = {"dataset_tokens": 1e9}
    r = _size(doc, catalog)
    assert r.storage.needs[0].checkpoint_gb == pytest.approx(105)
    # Tokenized with the custom model's default 32,000-entry vocabulary: 2 bytes per token.
    assert r.storage.needs[0].dataset_gb == pytest.approx(2.0)


def test_a_language_dataset_in_samples_is_sized(catalog):
    """Llama 2 7B fine-tuned on 50,000 samples of 4,096 tokens (a sample is one sequence of the
    group's length, as the training plan counts iterations): 50,000 x 4,096 = 204.8 M tokens x
    2 bytes (32,000-entry vocabulary) = 0.4096 GB tokenized; not 0 GB with a request for what
    was given. Given in tokens too, the tokens win (they are the exact figure)."""
    doc = design_dict("gpt3-175b")
    w = doc["workloads"][0]
    w.update(kind="training", model={"preset": "llama-2-7b"}, precision="bf16", optimizer="adamw",
             sequence_length=4096)  # fmt: skip
    w["training"] = {"dataset_samples": 50_000}
    w["parallelism"] = {"data_parallel": 8}
    r = _size(doc, catalog)
    assert r.storage.needs[0].dataset_gb == pytest.approx(50_000 * 4096 * 2 / 1e9)
    assert calc(r, "storage.workloads[0].dataset_gb").inputs["sequence_length"] == 4096
    w["training"] = {"dataset_samples": 50_000, "dataset_tokens": 1e9}
    assert _size(doc, catalog).storage.needs[0].dataset_gb == pytest.approx(1e9 * 2 / 1e9)


def test_llm_training_reads_tokens(catalog):
    """Llama 2 7B (32,000-entry vocabulary, 2 bytes per token) on 2 T tokens (Llama 2 paper):
    4,000 GB tokenized; an H100 SXM at 989 BF16 TFLOPS x 0.5 consumes 989e12 x 0.5 / (6 x
    6.74 B) tokens/s, about 24.5 kB/s: language-model training is light on storage reads."""
    doc = design_dict("gpt3-175b")
    w = doc["workloads"][0]
    w.update(kind="training", model={"preset": "llama-2-7b"}, precision="bf16", optimizer="adamw")
    w["training"] = {"dataset_tokens": 2e12}
    w["parallelism"] = {"data_parallel": 8}
    r = _size(doc, catalog)
    params = catalog.models["llama-2-7b"].parameters
    peak = catalog.gpus["h100-sxm5-80gb"].tflops.bf16
    tokens = peak * 1e12 * 0.5 / (6 * params)
    assert calc(r, "storage.workloads[0].tokens_per_s_per_gpu").value == pytest.approx(tokens)
    need = r.storage.needs[0]
    assert need.dataset_gb == pytest.approx(4000)
    assert need.read_gbs_per_gpu == pytest.approx(tokens * 2 / 1e9)
    assert need.read_gbs_per_gpu < 1e-4


def test_read_rate_follows_the_recomputation_the_engine_chose(catalog):
    """Llama 3 70B LoRA with 4-sample micro-batches: the engine picks full recomputation, so the
    GPUs read tokens as slowly as when the design asks for it. Per parameter and token: forward
    2, the recomputed forward 2, the backward pass's activation gradients 2, and no weight
    gradients for the frozen base (Hu et al., LoRA, section 4.2): 6 FLOPs, not full training's 8."""
    doc = design_dict("hgx-h200-llm")
    doc["workloads"][0]["micro_batch_size"] = 4
    chosen = _size(doc, catalog)
    assert chosen.workloads[0].layout.recompute == "full"
    doc["workloads"][0]["recompute"] = "full"
    given = _size(doc, catalog)
    key = "storage.workloads[0].tokens_per_s_per_gpu"
    assert calc(chosen, key).inputs["flops_per_parameter"] == 2 + 2 + 2
    assert calc(chosen, key).value == pytest.approx(calc(given, key).value)
    assert chosen.storage.read_gbs_needed == pytest.approx(given.storage.read_gbs_needed)


def test_a_lora_checkpoint_holds_the_adapters_and_the_job_reads_its_base_model(sized):
    """hgx-h200-llm's LoRA run of Llama 3.1 70B (rank 16 on attention and MLP): Hu et al.,
    section 4.2, save only the adapters (GPT-3 175B: 35 MB instead of 350 GB). Its 207,093,760
    trainable parameters x 14 bytes (BF16 weights 2, Adam states 8, FP32 master 4) = 2.90 GB a
    checkpoint, x 3 copies = 8.70 GB, where the whole model's state would be 70 B x 14 = 980 GB.
    The job starts from the published BF16 base model: 70 B x 2 = 140 GB of model files."""
    r = sized["hgx-h200-llm"]
    lora = next(n for n in r.storage.needs if "LoRA" in n.workload)
    assert r.workloads[0].training.trainable_parameters == 207_093_760
    assert lora.checkpoint_gb == pytest.approx(207_093_760 * 14 / 1e9)
    assert lora.checkpoints_gb == pytest.approx(3 * 207_093_760 * 14 / 1e9)
    assert lora.model_files_gb == pytest.approx(70e9 * 2 / 1e9)


def test_full_fine_tuning_checkpoints_every_weight(catalog):
    """The same run as full fine-tuning saves the whole model state: 70 B x 14 = 980 GB."""
    doc = design_dict("hgx-h200-llm")
    doc["workloads"][0]["fine_tuning"] = {"method": "full"}
    r = _size(doc, catalog)
    assert r.storage.needs[0].checkpoint_gb == pytest.approx(70e9 * 14 / 1e9)


def test_token_bytes_follow_megatron_dtype():
    assert token_bytes(32_000) == 2
    assert token_bytes(65_499) == 2
    assert token_bytes(65_500) == 4
    assert token_bytes(128_256) == 4  # Llama 3


def test_serving_keeps_model_files_not_datasets(sized):
    """Llama 3 70B served in BF16: 70.6 B x 2 bytes of weights, no dataset, no reads per request."""
    s = sized["llm-serving"].storage
    (need,) = s.needs
    assert need.model_files_gb == pytest.approx(70.6e9 * 2 / 1e9, rel=0.01)
    assert (need.dataset_gb, need.read_gbs) == (0, 0)


# ------------------------------------------------------------------------ storage system


def test_engine_sizes_storage_nodes_for_throughput(catalog):
    """Enterprise cluster, 28 GPUs at a stated 2 GB/s each = 56 GB/s; an Isilon F800 node reads
    3.75 GB/s, so ceil(56 / 3.75) = 15 nodes, above the 4-node minimum."""
    doc = design_dict("enterprise")
    doc["data"] = {"read_gbs_per_gpu": 2}
    s = _size(doc, catalog).storage
    assert s.read_gbs_needed == pytest.approx(56)
    assert (s.nodes_for_throughput, s.nodes, s.nodes_given) == (15, 15, False)
    assert s.read_gbs_available == pytest.approx(15 * 3.75)
    assert s.rack_units == 15


def test_minimum_nodes_when_the_need_is_small(sized):
    s = sized["imagenet-resnet50"].storage
    assert (s.nodes_for_capacity, s.nodes_for_throughput, s.nodes) == (1, 1, 3)  # F900 min 3
    assert s.usable_tb == pytest.approx(3 * 295)


def test_throughput_below_need_warns(catalog):
    doc = design_dict("enterprise")
    doc["data"] = {"read_gbs_per_gpu": 2, "storage_nodes": 4}
    r = _size(doc, catalog)
    w = _codes(r)["storage-throughput-below-need"]
    assert "15.00 GB/s for a need of 56.00 GB/s" in w.message and "15 nodes" in w.message


def test_throughput_equal_to_the_need_does_not_warn(catalog):
    """28 GPUs of the enterprise example reading 15 / 28 GB/s each need 15 GB/s, exactly what
    4 nodes of 3.75 GB/s read: no warning (a 1e-4 tolerance absorbs the rounding of 28 x 15 /
    28). At 0.54 GB/s a GPU the need is 15.12 GB/s, above the 15: warned."""
    doc = design_dict("enterprise")
    doc["data"] = {"read_gbs_per_gpu": 15 / 28, "storage_nodes": 4}
    r = _size(doc, catalog)
    assert r.storage.read_gbs_needed == pytest.approx(15)
    assert r.storage.read_gbs_available == pytest.approx(4 * 3.75)
    assert "storage-throughput-below-need" not in _codes(r)
    doc["data"]["read_gbs_per_gpu"] = 0.54
    assert "storage-throughput-below-need" in _codes(_size(doc, catalog))
    # at the edge of the tolerance, a need of 15 / 0.9999 GB/s: 15 GB/s is not below
    # 0.9999 x the need, so still no warning
    doc["data"]["read_gbs_per_gpu"] = 15 / 0.9999 / 28
    r = _size(doc, catalog)
    assert r.storage.read_gbs_needed * 0.9999 == 15
    assert "storage-throughput-below-need" not in _codes(r)


def test_capacity_below_need_warns(catalog):
    """1 PB of data x 2 versions x 1.25 headroom = 2,500 TB against 4 x 185 TB = 740 TB."""
    doc = design_dict("enterprise")
    doc["data"] = {"dataset_gb": 1e6, "storage_nodes": 4}
    r = _size(doc, catalog)
    assert r.storage.capacity_needed_tb == pytest.approx(2500)
    assert "14 nodes are needed" in _codes(r)["storage-capacity-below-need"].message


def test_capacity_equal_to_the_need_does_not_warn(catalog):
    """296,000 GB of data x 2 versions x 1.25 headroom = 740 TB, exactly 4 x 185 TB: no
    warning; 296,100 GB needs 740.25 TB: warned."""
    doc = design_dict("enterprise")
    doc["data"] = {"dataset_gb": 296_000, "storage_nodes": 4}
    r = _size(doc, catalog)
    assert (r.storage.capacity_needed_tb, r.storage.usable_tb) == (pytest.approx(740), 740)
    assert "storage-capacity-below-need" not in _codes(r)
    doc["data"]["dataset_gb"] = 296_100
    assert "storage-capacity-below-need" in _codes(_size(doc, catalog))


def test_fewer_nodes_than_the_system_minimum_warns(catalog):
    doc = design_dict("enterprise")
    doc["data"] = {"storage_nodes": 2}
    assert "storage-below-minimum-nodes" in _codes(_size(doc, catalog))


def test_no_storage_chosen_is_said(sized):
    r = sized["llm-serving"]
    assert r.storage.system is None and r.storage.nodes is None
    assert "storage-not-chosen" in _codes(r)


def test_groups_without_a_model_are_named_when_no_rate_is_given(sized):
    w = _codes(sized["enterprise"])["storage-need-not-modelled"]
    assert "Data scientists" in w.message and w.severity == "info"


# -------------------------------------------------------------------------------- NICs


def test_nic_below_storage_need_warns(catalog):
    """Starter: one NIC on 10 GbE carries 1.25 GB/s; two GPUs at 1 GB/s each need 2 GB/s."""
    doc = design_dict("starter")
    doc["data"] = {"read_gbs_per_gpu": 1}
    r = _size(doc, catalog)
    assert r.storage.host_network_gbs == pytest.approx(1.25)
    assert r.storage.read_gbs_per_host_needed == pytest.approx(2)
    assert "nic-below-storage-need" in _codes(r)


def test_host_network_is_capped_by_nic_port_and_pcie(catalog):
    """8 x ConnectX-7 NDR on an NDR InfiniBand fabric (the GPT-3 175B example's hosts)."""
    cx7 = catalog.nics["cx7-ndr-1p"]
    assert host_network_gbs(Fabric.IB_NDR, 8, cx7) == pytest.approx(8 * 400 / 8)
    # The same card in a Gen3 x16 slot: 15.75 GB/s = 126 Gb/s per NIC (PCI-SIG).
    gen3 = cx7.model_copy(update={"pcie_gen": 3})
    assert host_network_gbs(Fabric.IB_NDR, 8, gen3) == pytest.approx(8 * 15.75)
    # A 25 GbE port on a 100 GbE fabric runs at 25 Gb/s.
    assert host_network_gbs(Fabric.GBE_100, 8, catalog.nics["bcm-p225p"]) == (
        pytest.approx(8 * 25 / 8)
    )
    # no NIC chosen: the fabric's speed per NIC; no NICs at all: not known
    assert host_network_gbs(Fabric.GBE_25, 2, None) == pytest.approx(2 * 25 / 8)
    assert host_network_gbs(Fabric.GBE_25, 0, None) is None


# ------------------------------------------------------------------- GPUDirect Storage


def test_gpudirect_storage_eligible_with_gds_storage_rdma_nic_and_passthrough(sized):
    s = sized["imagenet-resnet50"].storage
    assert s.gpudirect_storage and s.gpudirect_storage_blockers == []
    assert calc(sized["imagenet-resnet50"], "storage.gpudirect_storage").value == 1


def test_gpudirect_storage_blocked_without_rdma_warns(catalog):
    doc = design_dict("imagenet-resnet50")
    doc["hardware"]["rdma"] = "none"
    r = _size(doc, catalog)
    w = _codes(r)["gpudirect-storage-unavailable"]
    assert w.severity == "warning" and "RoCE v2 or InfiniBand" in w.message
    assert not r.storage.gpudirect_storage


def test_gpudirect_storage_not_with_vgpu_on_ampere(catalog):
    doc = design_dict("imagenet-resnet50")
    doc["workloads"][0]["sharing_mode"] = "vgpu"
    r = _size(doc, catalog)
    assert any("Ampere" in b for b in r.storage.gpudirect_storage_blockers)


def test_gpudirect_storage_needs_a_gds_nic(catalog):
    doc = design_dict("imagenet-resnet50")
    doc["hardware"]["nic"] = "intel-e810-cqda2"
    r = _size(doc, catalog)
    assert any("GPUDirect RDMA" in b for b in r.storage.gpudirect_storage_blockers)


def test_storage_without_gds_is_an_info(sized):
    w = _codes(sized["starter"])["gpudirect-storage-unavailable"]
    assert w.severity == "info" and "does not offer GPUDirect Storage" in w.message


# ----------------------------------------------------------------------- design and CLI


def test_old_design_files_load_with_data_defaults():
    design = Design.model_validate(design_dict("starter"))
    assert design.data.checkpoint_copies == 3 and design.data.dataset_gb is None
    assert design.platform.kubernetes.value == "none" and design.platform.nvaie_release is None


@pytest.mark.parametrize("field,value", [("checkpoint_copies", -1), ("growth_headroom", -0.5),
                                         ("dataset_gb", 0), ("storage_nodes", 0)])  # fmt: skip
def test_bad_data_values_name_the_field(field, value):
    doc = design_dict("starter")
    doc["data"] = {field: value}
    with pytest.raises(Exception) as info:
        design_from_dict(doc)
    assert f"data.{field}" in str(info.value)


@pytest.mark.parametrize("name", example_names())
def test_every_example_carries_storage_and_software_in_the_cli_json(name, tmp_path):
    out = tmp_path / f"{name}.json"
    assert run_cli("example", name, "-o", str(out)).returncode == 0
    proc = run_cli("size", str(out), "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)["clusters"][0]["result"]  # the estate of one cluster
    assert doc["storage"]["capacity_needed_tb"] >= 0
    assert "gpudirect_storage" in doc["storage"]
    assert doc["software"]["certification"]["server"] == doc["server"]
    assert doc["software"]["checklist"] and doc["software"]["components"]


# ------------------------------------------------------------------ needs that are not known


def _imagenet_and_a_run_without_dataset(catalog):
    doc = design_dict("imagenet-resnet50")
    other = json.loads(json.dumps(doc["workloads"][0]))
    other["name"] = "Unlabelled images"
    del other["training"]  # no samples, no tokens: its dataset cannot be derived
    doc["workloads"].append(other)
    return _size(doc, catalog)


def test_a_total_adds_only_known_datasets_and_names_the_rest(catalog):
    """ResNet-50 on ImageNet: 1.28 M images x 110 kB = 140.8 GB, 2 versions = 281.6 GB. A second
    ResNet-50 group without a dataset adds nothing to that total and is named as not known,
    rather than counted as 0 GB; its checkpoints (known from the model) still count."""
    r = _imagenet_and_a_run_without_dataset(catalog)
    s = r.storage
    known, unknown = s.needs
    assert known.dataset_gb == pytest.approx(1.28e6 * 110e3 / 1e9)
    assert unknown.dataset_gb is None and unknown.dataset_basis.startswith("not known")
    assert s.datasets_gb == pytest.approx(2 * 140.8)
    assert s.dataset_not_known == ["Unlabelled images"]
    checkpoints = 3 * known.checkpoint_gb + 3 * unknown.checkpoint_gb
    assert s.checkpoints_gb == pytest.approx(checkpoints)
    assert s.capacity_needed_tb == pytest.approx((281.6 + checkpoints) * 1.25 / 1000)
    # both read rates come from the model, so the read total is complete
    assert s.read_not_known == [] and unknown.read_gbs == pytest.approx(known.read_gbs)
    w = _codes(r)["storage-dataset-not-known"]
    assert "Unlabelled images" in w.message and "data.dataset_gb" not in w.message
    decision = next(d.text for d in r.decisions if d.text.startswith("Shared storage"))
    assert "at least" in decision and "Unlabelled images" in decision


def test_every_need_known_names_no_group(sized):
    """Negative case: ImageNet alone has its dataset and read rate derived; nothing is left out."""
    s = sized["imagenet-resnet50"].storage
    assert s.dataset_not_known == [] and s.read_not_known == []
    assert "storage-dataset-not-known" not in _codes(sized["imagenet-resnet50"])
    decision = next(d.text for d in sized["imagenet-resnet50"].decisions
                    if d.text.startswith("Shared storage"))  # fmt: skip
    assert "at least" not in decision


def test_groups_without_a_model_read_not_known_not_zero(sized):
    """Starter: two development groups, no model and no read rate given: each group's read
    is None (no logged 0 x GPUs), the total of the known reads is 0 and both are named."""
    r = sized["starter"]
    s = r.storage
    assert [n.read_gbs for n in s.needs] == [None, None]
    assert [n.read_gbs_per_gpu for n in s.needs] == [None, None]
    assert [n.dataset_gb for n in s.needs] == [None, None]
    assert s.read_not_known == ["Data scientists", "Developers"]
    assert s.dataset_not_known == ["Data scientists", "Developers"]
    assert s.read_gbs_needed == 0 and s.capacity_needed_tb == 0
    # no logged total stands for a need nothing of which is known, and no node count is sized
    # from one: the Isilon F800's nodes are its minimum of 4, by that rule alone
    ids = {c.id for c in r.calculations}
    assert not [i for i in ids if i.endswith("].read_gbs")]
    assert not {"storage.read_gbs_needed", "storage.capacity_needed_tb"} & ids
    assert not {"storage.nodes_for_capacity", "storage.nodes_for_throughput"} & ids
    assert (s.nodes_for_capacity, s.nodes_for_throughput, s.nodes) == (None, None, 4)
    assert calc(r, "storage.nodes").formula == "min_nodes"


def test_a_given_rate_or_dataset_size_makes_the_need_known(catalog):
    """Starter with 1 GB/s per GPU and a 500 GB dataset given: every GPU reads 1 GB/s and the
    capacity is 500 GB x 2 versions x 1.25 headroom = 1.25 TB; nothing is left out."""
    doc = design_dict("starter")
    doc["data"] = {"read_gbs_per_gpu": 1, "dataset_gb": 500}
    r = _size(doc, catalog)
    s = r.storage
    assert s.read_not_known == [] and s.dataset_not_known == []
    gpus = sum(w.gpus_total for w in r.workloads)
    assert s.read_gbs_needed == pytest.approx(1 * gpus)
    assert s.capacity_needed_tb == pytest.approx(500 * 2 * 1.25 / 1000)
    assert {"storage-need-not-modelled", "storage-dataset-not-known"}.isdisjoint(_codes(r))


def test_serving_keeps_no_training_data_and_reads_none_per_request(sized):
    """A serving group's training data and per-request reads are a known 0 (its weights are
    read at start-up and counted as model files), so it is never named as not known."""
    s = sized["llm-serving"].storage
    (n,) = s.needs
    assert n.dataset_gb == 0 and n.read_gbs == 0 and n.model_files_gb > 0
    assert s.dataset_not_known == [] and s.read_not_known == []
