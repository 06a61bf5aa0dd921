"""The engine's face is narrow: readers get ``plan``, the Plan's types, the rule book's reasons
and answers, and the named constants the documents quote; every figure a reader prints is a
field of the Plan, filled by the engine, never counted again by the reader.

Each figure that moved from a reader's own arithmetic into the Plan is pinned here to a value
worked by hand from a cited source:

- Llama 3.1 8B (Meta, The Llama 3 Herd of Models, arXiv:2407.21783, Table 3; config.json of
  meta-llama/Llama-3.1-8B): 32 layers of 4,096, 32 heads of 128, 8 KV heads, FFN 14,336,
  vocabulary 128,256, untied embeddings: 8,030,261,248 parameters (Meta's model card: 8.03 B);
  KV cache per token = 2 x layers x KV heads x head dim x bytes = 2 x 32 x 8 x 128 x 2 =
  131,072 bytes in BF16.
- Out-of-band switches: NVIDIA SN2201, 48 x 1 GbE RJ45 (its data sheet), one per rack for
  every 48 management ports; PDUs: two per rack on the A and B feeds (Uptime Institute Tier
  III/IV dual-corded topology)."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pytest

import wizard.engine as face
from tests.engine.conftest import calc, chat_design, design_dict
from wizard.app.io import design_from_dict
from wizard.engine import plan
from wizard.engine.basis.expr import Formula
from wizard.engine.size import size

ROOT = Path(__file__).resolve().parents[2]

# the sizing's one door and its variants: a design as the customer drew it, the options compared
ENTRIES = {"plan", "compare", "as_designed", "check_design"}
# the rule book's answers a reader asks of the design before it is sized: a verdict, not a
# figure (why a part does not fit; which groups an expansion's existing clusters carry, so new
# hardware is chosen for the rest)
RULES = {"new_hosts_design", "why_not"}


def kind(name: str, obj: object) -> str | None:
    """The allowed kind of a name on the face, or None for one that does not belong there."""
    if name in ENTRIES:
        return "entry"
    if isinstance(obj, type) and obj.__module__.startswith("wizard."):
        return "plan type"
    if callable(obj) and (name.endswith("_reason") or name in RULES):
        return "rule"
    if name.isupper() and isinstance(obj, (int, float, str, dict)):
        return "quoted constant"
    return None


def test_the_face_holds_only_the_allowed_kinds_of_names():
    wrong = {n: getattr(face, n) for n in face.__all__ if kind(n, getattr(face, n)) is None}
    assert not wrong


@pytest.mark.parametrize(
    ("name", "where"),
    [
        ("kv_bytes", "wizard.engine.demand.inference"),
        ("parameter_count", "wizard.engine.demand.model_shape"),
        ("oob_switches", "wizard.engine.fitout.portmap"),
        ("joins", "wizard.engine.decide.estate"),
        ("missed_at", "wizard.engine.decide.targets"),
    ],
)
def test_a_figure_helper_is_no_allowed_kind_and_is_off_the_face(name, where):
    """Negative case: the helpers readers once counted figures with are none of the kinds."""
    import importlib

    helper = getattr(importlib.import_module(where), name)
    assert kind(name, helper) is None
    assert name not in face.__all__


def _engine_names_read(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        a.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "wizard.engine"
        for a in node.names
    }


def test_every_reader_reads_only_names_on_the_face():
    readers = [
        p
        for top in ("reports", "wizard", "scripts")
        for p in (ROOT / top).rglob("*.py")
        if "engine" not in p.relative_to(ROOT).parts[:2]
    ]
    off = {
        str(p.relative_to(ROOT)): n
        for p in readers
        if (n := _engine_names_read(p) - set(face.__all__))
    }
    assert not off


def test_a_custom_models_parameter_count_is_on_its_workload_and_logged(catalog):
    """Llama 3.1 8B given by its shape only: 32 x (2 x 4,096^2 + 2 x 4,096 x 1,024 + 3 x 4,096
    x 14,336 + 2 x 4,096) + 2 x 128,256 x 4,096 + 4,096 = 8,030,261,248."""
    custom = dict(layers=32, hidden_size=4096, heads=32, kv_heads=8, vocab_size=128_256,
                  ffn_hidden_size=14336)  # fmt: skip
    doc = {
        "workloads": [{"name": "Chat", "kind": "inference", "model": {"custom": custom},
                       "precision": "bf16", "inference": {"input_tokens": 1000,
                                                          "output_tokens": 200}}],
        "hardware": {"gpu": "h100-sxm5-80gb", "server": "dell-xe9680", "gpus_per_host": 8,
                     "nvlink": True},
    }  # fmt: skip
    r = size(design_from_dict(doc), catalog)
    w = r.workloads[0]
    assert w.parameters == 8_030_261_248
    assert w.active_parameters == 8_030_261_248  # dense: every parameter serves every token
    logged = calc(r, "workloads[0].model.parameters")
    assert logged.value == w.parameters
    # the log cannot lie: its formula with its own inputs gives its value
    assert Formula(logged.formula)(**logged.inputs) == logged.value
    # KV bytes per token, 2 x 32 x 8 x 128 x 2 = 131,072 in BF16 (the serving stack's default
    # for BF16 weights), logged in GB
    assert w.kv_cache_bytes_per_element == 2
    kv = calc(r, "workloads[0].serving.kv_gb_per_token")
    assert kv.value * 1e9 == pytest.approx(131_072)
    assert Formula(kv.formula)(**kv.inputs) == kv.value


@pytest.mark.parametrize(
    ("precision", "kv", "gpu", "expected"),
    [
        ("bf16", None, "h100-sxm5-80gb", 2),  # 16-bit weights keep a 16-bit cache
        ("fp8", None, "h100-sxm5-80gb", 1),  # FP8 weights on Hopper: NIM's FP8 profiles
        ("fp8", None, "a100-sxm4-80gb", 2),  # negative: no FP8 tensor cores on Ampere
        ("bf16", "fp8", "a100-sxm4-80gb", 1),  # a chosen precision is kept
    ],
)
def test_the_kv_cache_bytes_per_element_is_on_the_workload(catalog, precision, kv, gpu, expected):
    doc = chat_design(precision, kv, gpu)
    w = size(design_from_dict(doc), catalog).workloads[0]
    assert w.kv_cache_bytes_per_element == expected
    assert w.parameters == catalog.models["llama-3.1-8b"].parameters
    if w.serving is not None:  # one figure: the service's sizing and the group's agree
        assert w.serving.kv_cache_bytes_per_element == expected


def test_a_group_without_a_model_or_a_service_has_no_model_figures(catalog):
    """Negative case: a group of notebook users given by memory has no model to count."""
    doc = design_dict("starter")
    r = plan(design_from_dict(doc), catalog)
    for w in r.workloads:
        group = next(g for g in r.design.workloads if g.name == w.name)
        assert (w.parameters is None) == (group.model is None)
        assert (w.kv_cache_bytes_per_element is None) == (group.inference is None)


@pytest.mark.parametrize("example", ["starter", "hgx-h200-llm", "enterprise"])
def test_each_rack_holds_its_out_of_band_switches_and_pdus(catalog, example):
    """Each rack: one SN2201 for every 48 management ports it holds (servers' BMCs, switches,
    storage, distribution units), two PDUs; the bill's lines are their sums over the racks."""
    p = plan(design_from_dict(design_dict(example)), catalog)
    racks = p.estate.racks
    assert racks
    for r in racks:
        managed = sum(1 for i in r.items if i.kind in ("server", "switch", "storage", "cdu"))
        placed = sum(1 for i in r.items if i.kind == "oob")
        assert r.oob_switches == (placed or math.ceil(managed / 48))
        assert r.oob_switches >= 1 if managed else r.oob_switches == placed
        assert r.pdus == 2
    lines = {ln.item.split(":")[0]: ln for ln in p.estate.bom.lines}
    assert lines["pdu"].quantity == 2 * len(racks)
    oob = next(ln for ln in p.estate.bom.lines if "out-of-band" in ln.description)
    assert oob.quantity == sum(r.oob_switches for r in racks)


def test_every_shared_network_names_its_clusters_and_counts_their_hosts(catalog):
    """One cluster: each of its networks joins it and cables all its hosts."""
    p = plan(design_from_dict(design_dict("starter")), catalog)
    hosts = p.estate.clusters[0].hosts
    assert p.estate.network
    for net in p.estate.network:
        assert net.clusters == [p.estate.clusters[0].name]
        assert net.hosts == hosts


@pytest.mark.parametrize(
    ("figure", "pessimistic", "target", "at_risk"),
    [
        ("ttft_ms", 520.0, 500.0, True),  # a time above its ceiling
        ("ttft_ms", 480.0, 500.0, False),
        ("tokens_per_s_total", 950.0, 1000.0, True),  # a rate below its floor
        ("tokens_per_s_total", 1050.0, 1000.0, False),
        ("time_to_train_hours", 30.0, 24.0, True),
    ],
)
def test_a_range_says_whether_its_pessimistic_end_misses_a_target(
    figure, pessimistic, target, at_risk
):
    """The verdict "at risk" is the range's (a Plan type's), so no reader compares again."""
    rng = face.FigureRange("Chat", figure, 0.0, 0.0, 0.0, pessimistic)
    assert rng.misses(target) is at_risk
