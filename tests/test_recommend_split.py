"""Recommend for me across clusters: the demand divided into users who share GPUs and jobs of
several GPUs, one cluster against two, and the one that draws less power taken."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli
from tests.engine.test_estate import acme
from wizard.errors import UserError
from wizard.io import design_from_dict, load_design
from wizard.recommend_split import partition, recommend_split


def one_cluster() -> dict:
    d = acme(pinned=False)
    d["hardware"] = d["clusters"][0]["hardware"]  # the HGX H100 hardware
    d["clusters"], d["cluster_name"] = [], "GPU cluster"
    return d


def test_partition_puts_gpu_sharing_users_apart_from_multi_gpu_jobs(catalog):
    shared, multi = partition(design_from_dict(one_cluster()), catalog)
    assert "Data scientists' notebooks" in [g.name for g in shared]  # 16 GB vGPU each
    assert "Llama 3.3 70B chat service" in [g.name for g in multi]  # tensor parallel


def test_the_split_takes_the_option_that_draws_less_power(catalog):
    split = recommend_split(design_from_dict(one_cluster()), catalog)
    t1, t2 = split.one.totals, split.two.totals
    assert split.take_two == (t2.total_kw < t1.total_kw)
    assert f"{t1.total_kw:,.1f} kW" in split.why and f"{t2.total_kw:,.1f} kW" in split.why
    assert f"{abs(t1.total_kw - t2.total_kw):,.1f} kW" in split.why
    assert [c.name for c in split.two.clusters] == ["Shared-GPU cluster", "Multi-GPU cluster"]
    assert len(split.one.clusters) == 1
    # the same demand on both sides
    assert sum(len(c.workloads) for c in split.two.clusters) == 3


def test_a_demand_that_does_not_divide_is_said_so(catalog):
    d = one_cluster()
    d["workloads"] = d["workloads"][:1]  # notebooks only
    with pytest.raises(UserError, match="nothing to split"):
        recommend_split(design_from_dict(d), catalog)


def test_recommend_on_the_command_line_names_products_and_writes_the_design(tmp_path):
    src = tmp_path / "d.json"
    src.write_text(json.dumps(one_cluster()), encoding="utf-8")
    proc = run_cli("recommend", str(src))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("GPU: NVIDIA ")
    assert "h100-sxm5-80gb" not in proc.stdout and "25gbe" not in proc.stdout
    out = tmp_path / "split.json"
    proc = run_cli("recommend", str(src), "--split", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("One cluster of ")
    chosen = load_design(out)  # a design the tool reads back
    assert len(chosen.workloads) == 3
