"""The plan of an expansion: an existing cluster of the estate is a cluster of the plan whose
hosts are kept; new groups go to its free capacity first where the rules allow, then to new hosts
of the design's hardware; the bill carries only what is bought, power and racks the whole estate;
what changes on the kept hosts is work with its reboots.

The sample (tests/data/estate/expansion.json): three Dell R750xa hosts with four A100 PCIe 80GB
each, running six notebooks on MIG-backed vGPU (A100D-3-40C, two per host), NVIDIA driver
535.230.02 (vGPU 16, NVIDIA AI Enterprise 4); new: a Llama 3.3 70B chat service in FP8 and LoRA
fine-tuning of Llama 3.1 70B, on the design's HGX H200 hardware, N+1, VCF with Private AI
Foundation (vSAN, so a cluster of at least 3 hosts)."""

from __future__ import annotations

import copy
import json

import pytest

from tests.conftest import ROOT
from wizard.app.io import design_from_dict
from wizard.engine.decide.planning import plan
from wizard.engine.size import size

SAMPLE = ROOT / "tests" / "data" / "estate" / "expansion.json"
KEPT = "Notebooks A100"


def _sample() -> dict:
    return json.loads(SAMPLE.read_text(encoding="utf-8"))


def _plan(d: dict, catalog):
    return plan(design_from_dict(d), catalog)


def _cluster(p, name):
    return next(c for c in p.estate.clusters if c.name == name)


def _lines(lines, cluster=None):
    out: dict[str, int] = {}
    for ln in lines:
        if cluster is None or ln.cluster == cluster:
            out[ln.item] = out.get(ln.item, 0) + ln.quantity
    return out


@pytest.fixture(scope="module")
def sample(catalog):
    return _plan(_sample(), catalog)


def test_the_notebooks_stay_on_the_existing_hosts_and_nothing_is_added_there(sample):
    kept = _cluster(sample, KEPT)
    (placed,) = [p for p in sample.estate.placements if p.workload == "Notebooks"]
    assert placed.cluster == KEPT and not placed.chosen_by_engine
    # 6 notebooks x 40 GB as 3g.40gb MIG instances, 2 per A100 80GB: 3 GPUs -> 1 host of 4;
    # N+1: 1 more; VCF workload domain on vSAN: at least 3 -> 1 more; 3 needed, 3 there.
    assert kept.gpus_demand == 3
    assert (kept.hosts, kept.existing_hosts, kept.gpus) == (3, 3, 12)
    assert "3 existing hosts kept" in kept.reason


def test_only_the_hosts_the_new_groups_need_are_added(sample, catalog):
    d = _sample()
    new_only = copy.deepcopy(d)
    new_only["workloads"] = [w for w in d["workloads"] if w["name"] != "Notebooks"]
    new_only["existing"] = {"clusters": []}
    alone = size(design_from_dict(new_only), catalog)
    new = _cluster(sample, "GPU cluster")
    assert new.existing_hosts == 0
    assert new.hosts == alone.cluster.hosts_total
    assert set(new.workloads) == {"Llama 3.3 70B chat service", "Llama 3.1 70B LoRA fine-tuning"}
    chat = next(x for x in sample.estate.placements if x.workload.endswith("chat service"))
    # the chat service runs time-sliced vGPU; the kept hosts run MIG-backed vGPU
    assert chat.reason == (
        "the design's only new GPU cluster; not on the existing cluster 'Notebooks A100': its "
        "hosts run MIG-backed vGPU, the group time-sliced vGPU"
    )
    # 6 hosts in all: 3 kept + the new cluster's 3 (2 for the demand, 1 for N+1)
    assert sample.estate.totals.hosts == 3 + new.hosts


def test_the_bill_carries_what_is_bought_and_the_kept_hosts_apart(sample):
    bought = _lines(sample.estate.bom.lines)
    kept = _lines(sample.estate.kept)
    assert "server:dell-r750xa" not in bought and "gpu:a100-pcie-80gb" not in bought
    assert kept["server:dell-r750xa"] == 3
    assert kept["gpu:a100-pcie-80gb"] == 3 * 4
    new = _cluster(sample, "GPU cluster")
    assert bought["server:dell-xe9680"] == new.hosts
    assert bought["gpu:h200-sxm-141gb"] == new.hosts * 8
    assert all(ln.cluster == KEPT for ln in sample.estate.kept)


def test_power_and_racks_count_the_whole_estate(sample):
    kept, new = _cluster(sample, KEPT), _cluster(sample, "GPU cluster")
    t = sample.estate.totals
    assert t.hosts_kw == pytest.approx(kept.hosts_kw + new.hosts_kw)
    assert kept.hosts_kw > 0
    # the kept hosts' racks count, but only the new racks are on the bill
    assert t.host_racks + t.network_racks == len(sample.estate.racks) + kept.host_racks
    racks_bought = _lines(sample.estate.bom.lines)["rack:42u"]
    assert racks_bought == len(sample.estate.racks)


def test_the_driver_branch_change_is_work_with_a_reboot_per_host(sample):
    (w,) = sample.estate.work
    assert w.cluster == KEPT and len(w.hosts) == 3
    # R535 (NVIDIA AI Enterprise 4) ended 31 July 2026; the plan's release is another branch
    assert "535.230.02" in w.why and "R535" in w.why
    assert w.reboots == 3
    assert "Cluster and Host Compliance" in w.source  # VMware's wording on remediation
    # MIG mode is already on: no MIG step; the hosts already run vGPU: no firmware step
    steps = _cluster(sample, KEPT).result.software.vsphere_steps.hosts
    assert [s.action for s in steps] == ["driver"]


def test_the_same_driver_branch_is_no_work(catalog):
    d = _sample()
    release = plan(design_from_dict(d), catalog).estate.clusters[0].result.software
    branch = release.driver_branch[1:]
    for h in d["existing"]["clusters"][0]["hosts"]:
        h["driver"] = f"{branch}.1.1"
    p = _plan(d, catalog)
    assert p.estate.work == []
    assert _cluster(p, KEPT).result.software.vsphere_steps.hosts == []


def _new_notebooks(d: dict, n: int, mode: str = "mig") -> dict:
    d["workloads"].append(
        {"name": "Analysts' notebooks", "kind": "development", "count": n,
         "shared": {"gpu_memory_gb": 40, "concurrency": 1.0}, "sharing_mode": mode}
    )  # fmt: skip
    for h in d["existing"]["clusters"][0]["hosts"]:
        h["driver"] = ""  # not read: the release does not refuse
    return d


def test_a_new_group_goes_to_free_existing_capacity_first(catalog):
    # 6 more notebooks: 3 GPUs more, 6 in all -> 2 hosts + 1 for N+1 = 3, the 3 kept hosts
    p = _plan(_new_notebooks(_sample(), 6), catalog)
    (placed,) = [x for x in p.estate.placements if x.workload == "Analysts' notebooks"]
    assert placed.cluster == KEPT and placed.chosen_by_engine
    kept = _cluster(p, KEPT)
    assert (kept.hosts, kept.existing_hosts, kept.gpus_demand) == (3, 3, 6)
    assert "server:dell-r750xa" not in _lines(p.estate.bom.lines)
    # the driver was not read: confirming it is listed, with its reboots
    (w,) = p.estate.work
    assert "not read" in w.why and w.reboots == 3


def test_a_new_group_beyond_the_free_capacity_goes_to_new_hosts(catalog):
    # on new hosts like the kept ones (the design's hardware), only notebooks:
    # 10 more notebooks: 5 GPUs more, 8 in all -> 2 hosts + 1 for N+1 = 3: they fit the 3 kept;
    # 12 more: 6 GPUs, 9 in all -> 3 hosts + 1 = 4 > 3: the group goes to new hosts
    def design(n):
        d = _new_notebooks(_sample(), n)
        d["workloads"] = [w for w in d["workloads"] if "notebooks" in w["name"].lower()]
        d["hardware"] = {"gpu": "a100-pcie-80gb", "server": "dell-r750xa", "gpus_per_host": 4}
        return d

    fit = _plan(design(10), catalog)
    assert _cluster(fit, KEPT).workloads == ["Notebooks", "Analysts' notebooks"]
    assert [c.name for c in fit.estate.clusters] == [KEPT]
    over = _plan(design(12), catalog)
    placed = next(x for x in over.estate.placements if x.workload == "Analysts' notebooks")
    assert placed.cluster == "GPU cluster"
    why = next(
        x for x in over.estate.decisions if x.text == "'Analysts' notebooks' runs on new hosts."
    )
    assert "needs 4 hosts" in why.reason and "the cluster has 3" in why.reason
    # 12 notebooks -> 6 GPUs -> 2 hosts, N+1 -> 3, VCF minimum 3: 3 new hosts bought
    assert _lines(over.estate.bom.lines)["server:dell-r750xa"] == 3
    assert _lines(over.estate.kept)["server:dell-r750xa"] == 3


def test_a_group_in_another_sharing_mode_is_not_put_on_existing_hosts(catalog):
    p = _plan(_new_notebooks(_sample(), 2, mode="vgpu"), catalog)
    placed = next(x for x in p.estate.placements if x.workload == "Analysts' notebooks")
    assert placed.cluster == "GPU cluster"
    why = next(x for x in p.estate.decisions if x.text.startswith("'Analysts' notebooks'"))
    assert "MIG-backed vGPU" in why.reason and "time-sliced vGPU" in why.reason


def test_an_older_release_refuses_a_new_group(catalog):
    d = _new_notebooks(_sample(), 2)
    d["workloads"] = [w for w in d["workloads"] if "notebooks" in w["name"].lower()]
    d["hardware"] = {"gpu": "a100-pcie-80gb", "server": "dell-r750xa", "gpus_per_host": 4}
    for h in d["existing"]["clusters"][0]["hosts"]:
        h["driver"] = "535.230.02"  # vGPU 16: its host driver does not run the plan's guests
    p = _plan(d, catalog)
    placed = next(x for x in p.estate.placements if x.workload == "Analysts' notebooks")
    assert placed.cluster == "GPU cluster"
    why = next(
        x for x in p.estate.decisions if x.text == "'Analysts' notebooks' runs on new hosts."
    )
    assert "535.230.02" in why.reason and "guest drivers" in why.reason


def test_a_grown_existing_cluster_buys_only_its_added_hosts_and_ha_counts_them_all(catalog):
    d = _sample()
    d["workloads"][0]["count"] = 18
    # 18 notebooks -> 9 GPUs -> 3 hosts of 4; N+1 -> 4 hosts: the 3 kept and 1 added
    p = _plan(d, catalog)
    kept = _cluster(p, KEPT)
    assert (kept.hosts, kept.existing_hosts) == (4, 3)
    assert kept.result.cluster.hosts_for_ha == 1
    bought, held = _lines(p.estate.bom.lines, KEPT), _lines(p.estate.kept, KEPT)
    assert (bought["server:dell-r750xa"], held["server:dell-r750xa"]) == (1, 3)
    assert (bought["gpu:a100-pcie-80gb"], held["gpu:a100-pcie-80gb"]) == (4, 12)
    assert any(w.code == "existing-cluster-grows" for w in p.estate.warnings)


def test_vgpus_in_use_for_no_group_hold_their_hosts(catalog):
    d = _sample()
    hosts = d["existing"]["clusters"][0]["hosts"]
    # 8 unnamed A100D-3-40C vGPUs: 40 of 80 GB each, 4 GPUs' worth -> 1 host of 4 held
    hosts[0]["in_use"] += [{"vm": f"old-{n}", "vgpu_type": "A100D-3-40C"} for n in range(8)]
    d["workloads"][0]["count"] = 12
    # 12 notebooks -> 6 GPUs -> 2 hosts, N+1 -> 3, + 1 held = 4: one host added
    p = _plan(d, catalog)
    kept = _cluster(p, KEPT)
    assert (kept.hosts, kept.existing_hosts) == (4, 3)
    assert "1 holding vGPUs in use" in kept.reason


def test_a_pinned_group_in_another_mode_turns_mig_off_with_reboots(catalog):
    d = _sample()
    d["workloads"][0]["sharing_mode"] = "vgpu"
    p = _plan(d, catalog)
    work = {w.what.split(":")[0]: w for w in p.estate.work}
    mig = next(w for k, w in work.items() if k.startswith("MIG mode"))
    # Ampere under ESXi: NVIDIA says reboot the hypervisor host after a MIG mode change
    assert mig.reboots == 3 and "Reboot the hypervisor host" in mig.source


def test_an_existing_cluster_the_catalog_cannot_place_is_kept_as_it_is(catalog):
    d = _sample()
    d["existing"]["clusters"][0]["hosts"][1]["gpu"] = None
    d["workloads"] = d["workloads"][1:]  # the notebooks cannot go to the HGX board (MIG)
    p = _plan(d, catalog)
    assert [c.name for c in p.estate.clusters] == ["GPU cluster"]
    assert any(w.code == "existing-cluster-kept-as-is" for w in p.estate.warnings)
    assert p.estate.kept == [] and p.estate.work == []


def test_an_existing_hgx_cluster_on_mig_backed_vgpu_is_reported_and_not_planned(catalog):
    d = _sample()
    d["workloads"] = d["workloads"][1:]
    d["existing"] = {"clusters": [{"name": "HGX today", "hosts": [
        {"name": f"hgx{i}", "server": "dell-xe9680", "gpu": "h200-sxm-141gb", "gpus": 8,
         "sharing_mode": "mig", "in_use": [{"vm": f"vm{i}", "vgpu_type": "H200X-3-71C"}]}
        for i in range(2)
    ]}]}  # fmt: skip
    p = _plan(d, catalog)
    (w,) = [x for x in p.estate.warnings if x.code == "existing-outside-support"]
    # NVIDIA AI Enterprise, 'NVIDIA NVSwitch', quoted by the rule book
    assert "MIG-backed vGPUs are not supported" in w.message and "HGX today" in w.message
    assert "HGX today" not in [c.name for c in p.estate.clusters]
    # the same board on time-sliced vGPU is supported, so it is planned on
    for h in d["existing"]["clusters"][0]["hosts"]:
        h["sharing_mode"] = "vgpu"
        h["in_use"] = [{"vm": "vm", "vgpu_type": "H200X-71C"}]
    p = _plan(d, catalog)
    assert not any(x.code == "existing-outside-support" for x in p.estate.warnings)
    assert "HGX today" in [c.name for c in p.estate.clusters]


def test_the_cost_counts_what_is_bought_and_the_power_of_the_added_hosts(catalog):
    from wizard.app.pricing import load_prices

    d = _sample()
    d["costs"] = {"energy_price": 0.25, "years": 3}
    p = plan(
        design_from_dict(d), catalog, load_prices(ROOT / "resources/examples/prices-sample.toml")
    )
    cost, t = p.cost, p.estate.totals
    kept = _cluster(p, KEPT)
    c = design_from_dict(d).costs
    # GPU-hours over the 24 H200 bought, not the 12 A100 kept: 24 x 8,760 h x 3 years
    assert cost.gpu_hours == 24 * 8760 * 3
    # power: the whole draw less the kept hosts' (the network serves only the new hosts)
    assert cost.power_per_year == pytest.approx(
        (t.total_kw - kept.hosts_kw) * c.average_load * c.pue * 8760 * 0.25
    )
    # the hardware is the bill's: no kept line is in it
    assert cost.hardware == pytest.approx(
        sum(ln.total_price or 0 for ln in p.priced.lines if ln.category.value != "licence")
    )
    assert "Notebooks" not in {w.workload for w in cost.workloads}


def test_new_hardware_is_chosen_for_the_groups_not_on_existing_clusters(catalog):
    from wizard.app.recommend import recommend
    from wizard.base.errors import UserError
    from wizard.engine.decide.estate import new_hosts_design

    design = design_from_dict(_sample())
    new = new_hosts_design(design, catalog)
    assert [g.name for g in new.workloads] == [
        "Llama 3.1 70B LoRA fine-tuning", "Llama 3.3 70B chat service"
    ]  # fmt: skip
    assert new.existing.clusters == []
    # the MIG notebooks stay on the A100s, so the new GPU need not run MIG-backed vGPU
    rec = recommend(design, catalog, keep_gpu=False)
    assert rec.hardware.gpu in catalog.gpus
    only_notebooks = _sample()
    only_notebooks["workloads"] = only_notebooks["workloads"][:1]
    with pytest.raises(UserError, match="every workload group runs on the existing clusters"):
        recommend(design_from_dict(only_notebooks), catalog, keep_gpu=False)
    # a design without an estate is its own new-hosts design
    assert new_hosts_design(new, catalog) is new
