"""The rules a serving layout follows, each with a case where it decides and one where it does
not: tensor parallelism dividing the heads inside one host, pipeline stages only across hosts,
the memory headroom, the fewest GPUs that meet every target, and slices of shared GPUs."""

from __future__ import annotations

import pytest

from tests.engine.conftest import calc
from wizard.app.io import design_from_dict
from wizard.engine.size import size

H100_SXM_GBS = 3350  # H100 SXM5 datasheet
H100_PCIE_GBS = 2000  # H100 PCIe datasheet


def serving_design(model: dict, inference: dict | None = None, **extra) -> dict:
    group = {
        "name": "Chat",
        "kind": "inference",
        "model": model,
        "precision": extra.pop("precision", "bf16"),
        "inference": {"input_tokens": 1000, "output_tokens": 200, **(inference or {})},
    }
    group.update(extra.pop("group", {}))
    hardware = {
        "gpu": "h100-sxm5-80gb",
        "server": "dell-xe9680",
        "gpus_per_host": 8,
        "nvlink": True,
    }
    hardware.update(extra.pop("hardware", {}))
    return {"workloads": [group], "hardware": hardware, **extra}


def sized(doc: dict, catalog):
    return size(design_from_dict(doc), catalog)


def custom(heads: int, kv_heads: int, params: float = 60e9) -> dict:
    return {
        "custom": {
            "parameters": params,
            "layers": 48,
            "hidden_size": heads * 128,
            "heads": heads,
            "kv_heads": kv_heads,
        }
    }


def planner(doc: dict, catalog):
    from wizard.engine.basis.record import Recorder
    from wizard.engine.demand.inference import ServingPlanner, transformer
    from wizard.engine.demand.sizer import DemandFacts

    d = design_from_dict(doc)
    g = d.workloads[0]
    c = g.model.custom
    m = transformer(
        "m",
        c.parameters,
        c.parameters,
        c.layers,
        c.hidden_size,
        c.heads,
        c.kv_heads or c.heads,
        g.precision,
        None,
        catalog.gpus[d.hardware.gpu],
        None,
        None,
    )
    gpu, server = catalog.gpus[d.hardware.gpu], catalog.servers[d.hardware.server]
    return ServingPlanner("w", g, DemandFacts.of(d, catalog), gpu, server, m, Recorder())


def test_tensor_parallel_divides_attention_and_kv_heads(catalog):
    """12 heads: 8 does not divide them. 4 KV heads under TP 8 would be replicated, but TP 8 is
    already out; 3 KV heads: TP 2 neither divides 3 nor is divided by it."""
    tps = {p.tensor for p in planner(serving_design(custom(12, 4)), catalog).layouts()}
    assert tps == {1, 2, 4}
    tps = {p.tensor for p in planner(serving_design(custom(12, 3)), catalog).layouts()}
    assert tps == {1}  # 12 / 4 = 3 heads, but 3 KV heads over 4 GPUs is neither split nor copied
    tps = {p.tensor for p in planner(serving_design(custom(16, 2)), catalog).layouts()}
    assert tps == {1, 2, 4, 8}  # 2 KV heads: TP 4 and 8 hold copies of them


def test_the_kv_cache_splits_over_no_more_gpus_than_it_has_kv_heads():
    """Tensor parallelism gives each GPU its share of the KV heads; past one head per GPU the
    heads are copied, not split further (vLLM replicates KV heads when the tensor-parallel size
    exceeds their number): 8 KV heads over 4 GPUs: 4 shards; over 16: still 8; one KV head
    (multi-query attention) over 8: 1. A latent cache has no heads: every GPU keeps it whole."""
    from wizard.engine.demand.serving_physics import Transformer, kv_shards

    def model(kv_heads: int, latent: int = 0) -> Transformer:
        return Transformer("m", 70e9, 70e9, 80, 8192, 64, kv_heads, 2, 2, kv_latent_dim=latent)

    assert [kv_shards(model(8), t) for t in (1, 4, 8, 16)] == [1, 4, 8, 8]
    assert kv_shards(model(1), 8) == 1
    assert kv_shards(model(8, latent=512), 8) == 1


def test_tensor_parallel_stays_inside_one_host(catalog):
    doc = serving_design(custom(16, 16), hardware={"gpus_per_host": 4})
    assert {p.tensor for p in planner(doc, catalog).layouts()} == {1, 2, 4}


def test_pipeline_stages_only_when_one_host_cannot_hold_the_model(catalog):
    """Llama 3.1 405B in BF16 is 810 GB: 8 x 72 GB planned per host holds 576 GB, so each
    replica is TP 8 on two hosts. Llama 3 70B in BF16 (140 GB) fits one host: no stages."""
    big = sized(serving_design({"preset": "llama-3.1-405b"}), catalog).workloads[0]
    assert (big.layout.tensor_parallel, big.layout.pipeline_parallel) == (8, 2)
    assert 810 > 8 * 0.9 * 80
    small = sized(serving_design({"preset": "llama-3-70b"}), catalog).workloads[0]
    assert small.layout.pipeline_parallel == 1


def test_memory_headroom_decides_the_smallest_layout(catalog):
    """70B in BF16 on TP 2 is 70 GB per GPU: with 90 % of 80 GB planned and 2 GB of workspace
    nothing is left for the KV cache, so TP 4; with all 80 GB planned, TP 2 holds it."""
    doc = serving_design({"preset": "llama-3-70b"})
    assert sized(doc, catalog).workloads[0].layout.tensor_parallel == 4
    doc["assumptions"] = {"serving_memory_utilization": 1.0}
    assert sized(doc, catalog).workloads[0].layout.tensor_parallel == 2


def test_a_latency_target_buys_a_wider_layout_only_when_needed(catalog):
    """Llama 3 8B in FP8, one request: on one H100 a token reads 8 GB at 60 % of 3,350 GB/s,
    about 4.0 ms. A 3 ms target needs TP 2 (4 GB per GPU, about 2 ms plus all-reduces); with no
    target one GPU is the fewest."""
    doc = serving_design({"preset": "llama-3-8b"}, precision="fp8")
    assert sized(doc, catalog).workloads[0].layout.tensor_parallel == 1
    assert 8 / (H100_SXM_GBS * 0.6) * 1000 > 3
    doc["workloads"][0]["inference"]["itl_target_ms"] = 3
    w = sized(doc, catalog).workloads[0]
    assert w.layout.tensor_parallel == 2
    assert w.serving.itl_ms <= 3
    assert all(t.met for t in w.serving.targets)


def test_the_fewest_replicas_that_carry_the_throughput(catalog):
    doc = serving_design({"preset": "llama-3-8b"}, {"target_tokens_per_s": 20_000}, precision="fp8")
    w = sized(doc, catalog).workloads[0]
    assert w.serving.tokens_per_s_total >= 20_000
    doc["workloads"][0]["parallelism"] = {
        "tensor_parallel": w.layout.tensor_parallel,
        "pipeline_parallel": 1,
        "data_parallel": w.replicas - 1,
    }
    fewer = sized(doc, catalog)
    assert not next(t for t in fewer.workloads[0].serving.targets if t.metric == "throughput").met
    assert any(x.code == "serving-throughput-target-missed" for x in fewer.warnings)


def test_a_target_no_layout_meets_is_named_with_what_would_meet_it(catalog):
    doc = serving_design({"preset": "llama-3-8b"}, {"itl_target_ms": 0.5})
    r = sized(doc, catalog)
    (warning,) = [x for x in r.warnings if x.code == "serving-itl-target-missed"]
    s = r.workloads[0].serving
    (itl,) = [t for t in s.targets if t.metric == "itl"]
    assert not itl.met and itl.shortfall == pytest.approx(s.itl_ms / 0.5 - 1)
    assert "time between tokens" in warning.message and f"{itl.shortfall:.0%}" in warning.message
    assert "FP8 weights" in warning.message and "more memory bandwidth" in warning.message
    # the layout that comes closest is TP 4, not the widest: per token, TP 8 halves TP 4's 16 GB /
    # 4 of weight reads (2.0 ms at 0.6 of 3,350 GB/s, 1.0 at TP 8) but its 64 all-reduces wait
    # on 7 peers, 8 + 6 x 8 = 56 us each, against TP 4's 8 + 2 x 8 = 24 us: 3.6 ms against 1.5
    assert 64 * 56e-6 - 64 * 24e-6 > 16 / 4 / (3350 * 0.6) - 16 / 8 / (3350 * 0.6)
    assert r.workloads[0].layout.tensor_parallel == 4


def _mig_design(**inference) -> dict:
    return serving_design(
        {"preset": "llama-3-8b"},
        {"input_tokens": 1000, "output_tokens": 200, **inference},
        precision="fp8",
        group={"sharing_mode": "mig"},
        hardware={
            "gpu": "h100-pcie-80gb",
            "server": "dell-r760xa",
            "gpus_per_host": 2,
            "nvlink": False,
        },
    )


def test_a_mig_instance_serves_with_its_share_of_bandwidth(catalog):
    """A light load on MIG runs on the smallest instance that holds the 8 GB model: 1g.20gb,
    with 2 of 8 memory slices, so a decode step reads at 2/8 of 2,000 GB/s."""
    r = sized(_mig_design(target_tokens_per_s=50), catalog)
    s = r.workloads[0].serving
    assert s.slice_profile == "1g.20gb"
    weights = calc(r, "workloads[0].serving.decode.weights_s")
    kv = calc(r, "workloads[0].serving.decode.kv_s")
    rate = H100_PCIE_GBS * 2 / 8 * 0.6
    assert weights.value == pytest.approx(weights.inputs["weights_read_gb"] / rate)
    assert kv.value == pytest.approx(
        kv.inputs["batch"] * kv.inputs["context"] * kv.inputs["kv_gb_per_token"] / rate
    )
    assert r.workloads[0].sharing.slot_profile == "1g.20gb"


def test_a_heavier_load_takes_a_larger_instance_or_a_whole_gpu(catalog):
    light = sized(_mig_design(target_tokens_per_s=50), catalog).workloads[0]
    heavy = sized(_mig_design(target_tokens_per_s=3000), catalog).workloads[0]
    assert heavy.serving.gpu_share * heavy.replicas > light.serving.gpu_share * light.replicas
    assert heavy.serving.tokens_per_s_total >= 3000


def test_time_sliced_vgpu_serves_with_its_time_slice(catalog):
    doc = _mig_design(target_tokens_per_s=50)
    doc["workloads"][0]["sharing_mode"] = "vgpu"
    r = sized(doc, catalog)
    s = r.workloads[0].serving
    assert s.slice_profile is not None and s.gpu_share < 1
    step = calc(r, "workloads[0].serving.decode.weights_s")
    assert step.inputs["bandwidth_gbs"] == pytest.approx(H100_PCIE_GBS * s.gpu_share)
    assert r.workloads[0].sharing.slot_profile == s.slice_profile
