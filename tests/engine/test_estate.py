"""Designs of several clusters: a design of one sizes exactly as before, groups run where the
design pins them or where they take the least GPU power, every GPU cluster is sized and made
highly available on its own, the management domain has its published minimum, the networks the
clusters share are sized once, and the bill of materials matches the clusters' counts."""

from __future__ import annotations

import copy

import pytest

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict, design_from_text
from wizard.base.bundled import example_names, example_text
from wizard.base.errors import DesignError
from wizard.engine.basis.record import Recorder
from wizard.engine.decide.cpu_clusters import MANAGEMENT_MIN_HOSTS
from wizard.engine.decide.estate import size_estate
from wizard.engine.fitout.bom import OOB_ITEM
from wizard.engine.fitout.fabric import size_plane
from wizard.engine.size import size
from wizard.model.buildout import BomCategory
from wizard.model.catalog import SwitchKind
from wizard.model.design import ClusterRole

H100 = {"gpu": "h100-sxm5-80gb", "server": "dell-xe9680", "gpus_per_host": 8,
        "nic": "cx7-ndr-1p", "nics_per_host": 8, "fabric": "ib-ndr", "rdma": "infiniband",
        "gpudirect_rdma": True, "nvlink": True, "service_fabric": "100gbe"}  # fmt: skip
L40S = {"gpu": "l40s", "server": "lenovo-sr675-v3", "gpus_per_host": 4, "nic": "cx7-200g-2p",
        "nics_per_host": 1, "fabric": "200gbe", "rdma": "roce-v2",
        "service_fabric": "100gbe"}  # fmt: skip


def acme(pinned: bool = True) -> dict:
    """30 notebooks (16 GB each, time-sliced vGPU) on an L40S cluster; a 70B chat service and a
    70B LoRA fine-tuning on an HGX H100 cluster; N+1 on each; a VCF management domain."""
    rtx, hgx = design_dict("rtx-pro-vsphere"), design_dict("hgx-h200-llm")
    notebooks, tune, chat = rtx["workloads"][0], hgx["workloads"][0], hgx["workloads"][1]
    groups = [(notebooks, "Notebook cluster"), (chat, "HGX cluster"), (tune, "HGX cluster")]
    return {
        "project": {"customer": "Acme"},
        "workloads": [dict(g, cluster=c) if pinned else g for g, c in groups],
        "hardware": L40S,
        "cluster_name": "Notebook cluster",
        "ha": {"level": "n+1"},
        "clusters": [
            {
                "name": "HGX cluster",
                "role": "gpu-cluster",
                "hardware": H100,
                "ha": {"level": "n+1"},
            },
            {"name": "Management domain", "role": "management-domain", "server": "dell-r760xa"},
        ],
        "platform": {"vsphere": "9.0", "private_ai_foundation": True},
        "assumptions": {"max_rack_power_kw": 40},
    }


@pytest.mark.parametrize("name", example_names())
def test_a_design_of_one_cluster_sizes_as_before(name, catalog):
    design = design_from_text(example_text(name), name)
    e = size_estate(design, catalog)
    r = size(design, catalog)
    (c,) = e.clusters
    assert c.result == r
    # its network, bill and power too: one price list then gives one cost either way (a
    # separate network rack with optics to every host was the estate's own, once)
    assert e.bom == r.bom
    # the estate's list of networks adds who joins each and its hosts: the one cluster, all
    assert [p.model_copy(update={"clusters": [], "hosts": None}) for p in e.network] == (
        r.topology.fabric.planes
    )
    assert all(p.clusters == [c.name] and p.hosts == r.cluster.hosts_total for p in e.network)
    assert e.totals.total_kw == pytest.approx(r.power.total_kw)
    assert e.totals.host_racks + e.totals.network_racks == len(r.racks.racks)


def test_size_refuses_several_clusters_rather_than_sizing_one(catalog):
    with pytest.raises(DesignError, match="this design has 3 clusters"):
        size(design_from_dict(acme()), catalog)


def test_the_enterprise_design_with_its_client_cluster_keeps_its_headline(catalog):
    """White paper 9.4.1: the GPU cluster (vGPU users and the pool serving the compute cluster's
    clients) is 8 hosts, 32 GPUs, 28 after a failure; the client cluster is sized apart and does
    not change it."""
    doc = design_dict("enterprise")
    doc["clusters"] = [{"name": "Client cluster", "role": "compute-cluster", "server": "dell-r740xd",
                        "hosts": 4}]  # fmt: skip
    e = size_estate(design_from_dict(doc), catalog)
    gpu, client = e.clusters
    assert (gpu.hosts, gpu.gpus, gpu.result.cluster.gpus_after_failures) == (8, 32, 28)
    assert (client.role, client.hosts, client.gpus) == (ClusterRole.COMPUTE, 4, 0)
    assert e.totals.hosts == 8 + 4


def test_each_gpu_cluster_is_sized_and_made_available_on_its_own(catalog):
    e = size_estate(design_from_dict(acme()), catalog)
    notebook, hgx, mgmt = e.clusters
    assert notebook.workloads == ["Data scientists' notebooks"]
    assert hgx.workloads == ["Llama 3.3 70B chat service", "Llama 3.1 70B LoRA fine-tuning"]
    for c in (notebook, hgx):  # N+1 per cluster: one host more than the demand needs
        r = c.result
        assert r.cluster.hosts_for_ha == 1
        assert c.hosts == r.cluster.hosts_for_capacity + 1
        assert c.gpus_idle == c.gpus - r.cluster.gpus_demand
    # 30 users x 16 GB on 48 GB L40S: 3 per GPU (48 // 16), 30 / 3 = 10 GPUs, 4 per host: 3 hosts
    assert notebook.gpus_demand == 10 and notebook.result.cluster.hosts_for_capacity == 3
    assert e.totals.gpus == notebook.gpus + hgx.gpus
    assert e.totals.hosts == notebook.hosts + hgx.hosts + mgmt.hosts
    # the management domain's hosts carry no GPUs: none fitted, none needed, none idle
    assert (mgmt.gpus, mgmt.gpus_demand, mgmt.gpus_idle) == (0, 0, 0)
    assert e.totals.gpus_demand == notebook.gpus_demand + hgx.gpus_demand
    assert e.totals.gpus_idle == notebook.gpus_idle + hgx.gpus_idle


def test_the_management_domain_has_its_published_minimum(catalog):
    """VCF management domain: at least 4 hosts with one availability zone; more when stated."""
    doc = acme()
    assert (
        size_estate(design_from_dict(doc), catalog).clusters[2].hosts == 4 == (MANAGEMENT_MIN_HOSTS)
    )
    # the calculation log says what the design stated: nothing (0), not a host
    e = size_estate(design_from_dict(doc), catalog)
    (calc,) = [c for c in e.calculations if c.id == "clusters.Management domain.hosts"]
    assert calc.inputs == {"stated": 0, "minimum": 4} and calc.value == 4
    assert e.clusters[2].reason == "the management domain's minimum of 4 hosts"
    doc["clusters"][1]["hosts"] = 2  # below the minimum: raised to it
    assert size_estate(design_from_dict(doc), catalog).clusters[2].hosts == 4
    doc["clusters"][1]["hosts"] = 6  # above: as stated
    assert size_estate(design_from_dict(doc), catalog).clusters[2].hosts == 6


def test_a_vcf_design_without_a_management_domain_says_so(catalog):
    """VMware Cloud Foundation calls for the management domain, with Private AI Foundation (an
    add-on to VCF) or without it; vSphere Foundation does not."""
    doc = acme()
    doc["clusters"].pop()
    codes = [w.code for w in size_estate(design_from_dict(doc), catalog).warnings]
    assert "no-management-domain" in codes
    for platform, paif, warned in (
        ("vmware-vcf", False, True),
        ("vmware-vvf", False, False),
    ):
        doc = acme()
        doc["clusters"].pop()
        doc["licensing"] = {"platform": platform}
        doc["platform"]["private_ai_foundation"] = paif
        codes = [w.code for w in size_estate(design_from_dict(doc), catalog).warnings]
        assert ("no-management-domain" in codes) is warned, (platform, paif)
    codes = [w.code for w in size_estate(design_from_dict(acme()), catalog).warnings]
    assert "no-management-domain" not in codes


def test_unpinned_groups_run_where_they_take_the_least_gpu_power(catalog):
    """Notebooks: 10 L40S x 350 W = 3.5 kW against 80 / 16 = 5 per H100, 6 x 700 W = 4.2 kW,
    so the L40S cluster; the 70B chat service takes fewer watts on H100s."""
    e = size_estate(design_from_dict(acme(pinned=False)), catalog)
    where = {p.workload: p for p in e.placements}
    nb = where["Data scientists' notebooks"]
    assert nb.cluster == "Notebook cluster" and nb.chosen_by_engine
    assert "3.50 kW" in nb.reason and "4.20 kW" in nb.reason
    (kw,) = [c for c in e.calculations if c.id == "placement.Data scientists' notebooks.gpu_kw"]
    assert kw.value == pytest.approx(10 * 350 / 1000)
    assert where["Llama 3.3 70B chat service"].cluster == "HGX cluster"
    assert any("'Data scientists' notebooks' runs on" in d.text for d in e.decisions)


def test_a_pin_to_a_cluster_that_is_not_a_gpu_cluster_is_refused():
    doc = acme()
    doc["workloads"][0]["cluster"] = "Management domain"
    with pytest.raises(DesignError, match="'Management domain' is not a GPU cluster"):
        design_from_dict(doc)


def test_a_refusal_names_the_group_as_the_design_numbers_it(catalog):
    """The HGX cluster sizes groups 1 and 2 of the design as its 0 and 1; a refusal there must
    point at the design's workloads[2], not the cluster's workloads[1]."""
    doc = acme()
    doc["workloads"][2]["model"] = {"preset": "no-such-model"}
    with pytest.raises(DesignError) as err:
        size_estate(design_from_dict(doc), catalog)
    (problem,) = err.value.problems
    assert problem.startswith("workloads[2].model") and "on 'HGX cluster'" in problem


def test_a_group_no_cluster_can_run_is_refused_at_its_cluster_field(catalog):
    """Unpinned, the engine tries each GPU cluster; when none can run the group the refusal names
    the group's cluster field and says why each cluster cannot, without the one-cluster view's
    field paths (that view numbers the group 0)."""
    doc = acme(pinned=False)
    doc["workloads"][1]["sharing_mode"] = "mig"
    doc["workloads"][1]["gpus_per_member"] = 2
    doc["hardware"] = dict(L40S)  # no MIG on the L40S
    with pytest.raises(DesignError) as err:
        size_estate(design_from_dict(doc), catalog)
    (problem,) = err.value.problems
    assert problem.startswith("workloads[1].cluster: no GPU cluster of the design can run")
    assert "'Notebook cluster': the NVIDIA L40S does not support MIG" in problem
    assert "'HGX cluster': " in problem and "workloads[0]" not in problem


def test_the_bill_of_materials_matches_each_clusters_counts(catalog):
    e = size_estate(design_from_dict(acme()), catalog)
    lines = e.bom.lines

    def qty(cluster, category, item=None):
        return sum(
            ln.quantity for ln in lines
            if ln.cluster == cluster and ln.category is category
            and (item is None or ln.item == item)
        )  # fmt: skip

    for c in e.clusters:
        if c.result is None:
            assert qty(c.name, BomCategory.SERVER) == c.hosts
            continue
        t = c.result.topology.totals
        assert qty(c.name, BomCategory.SERVER) == t.hosts == c.hosts
        assert qty(c.name, BomCategory.GPU) == t.gpu_boards
        for nic, n in t.nics.items():
            assert qty(c.name, BomCategory.NIC, f"nic:{nic}") == n
    # network items belong to no single cluster, and match the shared networks' counts
    switches = sum(x.count for p in e.network for x in p.tiers)
    data = [ln for ln in lines if ln.category is BomCategory.SWITCH
            and ln.item not in (OOB_ITEM, "switch:ib-subnet-manager")]  # fmt: skip
    assert sum(ln.quantity for ln in data) == switches
    # and the out-of-band switches: one per rack for each 48 ports racked in it (4 racks here)
    (oob,) = [ln for ln in lines if ln.item == OOB_ITEM]
    assert oob.quantity == sum(-(-len(r.items) // 48) for r in e.racks if r.items)
    assert all(ln.cluster is None for ln in lines if ln.category is BomCategory.SWITCH)
    assert all(ln.cluster for ln in lines if ln.category is BomCategory.SERVER)


def test_a_shared_network_is_sized_once_for_all_its_ports(catalog):
    """Two clusters on one 100 GbE service network: the leaves are sized for the sum of their
    ports, not twice (once per cluster)."""
    e = size_estate(design_from_dict(acme()), catalog)
    (service,) = [p for p in e.network if p.name.startswith("service")]
    per_cluster = [
        p.host_ports
        for c in e.clusters
        if c.result is not None
        for p in c.result.topology.fabric.planes
        if p.name == "service"
    ]
    mgmt_ports = e.clusters[2].hosts * 2  # two service ports per host without GPUs
    assert service.host_ports == sum(per_cluster) + mgmt_ports
    once = size_plane("x", service.host_ports, 100, SwitchKind.ETHERNET, True, 1.0, catalog,
                      Recorder(), "100 GbE", "none")  # fmt: skip
    assert [t.count for t in service.tiers] == [t.count for t in once.tiers]
    oob = next(p for p in e.network if p.name == "oob")
    assert oob.host_ports == e.totals.hosts


def test_one_service_network_is_a_pair_where_any_cluster_on_it_needs_one(catalog):
    """With one service port a GPU host, the GPU clusters alone would want a single switch;
    the management hosts' two ports a host need a redundant pair. One network of that speed
    serves them all (a second network of the same name would list every cluster on both): a
    pair holding 1 port for each GPU host and 2 for each management host, each host with its
    own count, in the clusters' order."""
    doc = acme()
    doc["hardware"] = dict(L40S, service_ports_per_host=1)
    doc["clusters"][0]["hardware"] = dict(H100, service_ports_per_host=1)
    e = size_estate(design_from_dict(doc), catalog)
    (service,) = [p for p in e.network if p.name.startswith("service")]
    notebook, hgx, mgmt = e.clusters
    assert mgmt.result is None
    assert service.redundant
    assert service.clusters == [notebook.name, hgx.name, mgmt.name]
    assert service.hosts == notebook.hosts + hgx.hosts + mgmt.hosts
    assert service.host_ports == notebook.hosts * 1 + hgx.hosts * 1 + mgmt.hosts * 2
    assert service.ports_per_host == [1] * (notebook.hosts + hgx.hosts) + [2] * mgmt.hosts
    (leaf,) = service.tiers
    assert leaf.count == 2  # one pair holds them all


def test_the_service_network_is_a_pair_when_only_the_first_cluster_needs_one(catalog):
    """Two service ports a notebook host, one an HGX host, no management domain: the one
    service network is still a pair (the need of any cluster on it, not of the last one),
    with 2 x notebook hosts + 1 x HGX hosts ports."""
    doc = acme()
    doc["clusters"] = doc["clusters"][:1]
    doc["clusters"][0]["hardware"] = dict(H100, service_ports_per_host=1)
    e = size_estate(design_from_dict(doc), catalog)
    (service,) = [p for p in e.network if p.name.startswith("service")]
    notebook, hgx = e.clusters
    assert service.redundant
    assert service.host_ports == notebook.hosts * 2 + hgx.hosts * 1
    assert service.ports_per_host == [2] * notebook.hosts + [1] * hgx.hosts


def test_a_network_whose_hosts_have_one_port_count_lists_none(catalog):
    """Two service ports on every host, GPU or not: no host differs, so the network states no
    per-host counts (every host has host_ports / hosts)."""
    e = size_estate(design_from_dict(acme()), catalog)
    (service,) = [p for p in e.network if p.name.startswith("service")]
    assert service.host_ports == 2 * service.hosts
    assert service.ports_per_host == []


def test_per_core_licences_cover_the_hosts_without_gpus(catalog):
    """VCF is licensed per core on every host: the management hosts' line counts
    hosts x sockets x max(cores, 16) of their processor."""
    e = size_estate(design_from_dict(acme()), catalog)
    mgmt = e.clusters[2]
    server = catalog.servers[mgmt.server]
    cores = server.cpu_options[0].cores
    (line,) = [ln for ln in e.bom.lines if ln.cluster == mgmt.name and ln.unit == "core licence"]
    assert line.quantity == mgmt.hosts * server.sockets * max(cores, 16)


def test_the_split_against_one_hgx_cluster_for_the_same_demand(catalog):
    """The same three groups on one HGX H100 cluster: 30 notebooks at 16 GB, five to an 80 GB
    GPU = 6 GPUs, the chat 2 (FP8 weights and so an FP8 KV cache: 64 requests of 2,048 + 256
    tokens x 163,840 bytes = 24 GB, within the 2 x 34.7 GB a TP 2 replica leaves), the LoRA run
    8 (6 rounded up to an NVSwitch partition) = 16 GPUs of demand in ceil(16 / 8) = 2 hosts plus
    one for N+1 = 24 GPUs. Split, each cluster keeps
    its own N+1 host, so the split holds more reserve GPUs for this demand (4 + 8 against 8):
    the comparison the options view is for."""
    one = copy.deepcopy(acme(pinned=False))
    one["hardware"], one["cluster_name"] = H100, "HGX cluster"
    one["clusters"] = [one["clusters"][1]]
    single = size_estate(design_from_dict(one), catalog)
    split = size_estate(design_from_dict(acme()), catalog)
    assert single.clusters[0].gpus_demand == 6 + 2 + 8
    assert single.clusters[0].gpus == (2 + 1) * 8
    reserve = sum(c.result.cluster.gpus_total - c.result.cluster.hosts_for_capacity
                  * c.result.cluster.gpus_per_host for c in split.clusters if c.result)  # fmt: skip
    assert reserve == 4 + 8
    assert split.totals.gpus_idle > single.totals.gpus_idle


def test_the_documented_sample_is_this_design():
    """docs/acme-two-clusters.json (and its sample proposal) is the design these tests size."""
    import json

    from tests.conftest import ROOT

    doc = json.loads((ROOT / "docs" / "acme-two-clusters.json").read_text(encoding="utf-8"))
    doc.pop("schema_version")
    doc.pop("project")
    want = acme()
    want.pop("project")
    assert doc == want


def test_a_cpu_clusters_hosts_per_rack_are_the_fewer_by_space_and_by_power(catalog):
    """The management domain's hosts per rack: the fewer of the rack's units over the server's
    and the rack power limit over the host's baseline, each less the out-of-band switch every
    rack keeps (the SN2201: 1 U, 100 W). Under a 10 kW limit 9,900 W is left: a 991 W host
    fits 9 (10 x 991 = 9,910 W is over it), though (42 - 1) U / 2 U = 20 fit by space; a 990 W
    host exactly 10. With 10 hosts the rack count is ceil(10 / 9) = 2 and 10 / 10 = 1, and
    the racks laid out are as many."""
    server = catalog.servers["dell-r760xa"]
    oob = catalog.switches["nvidia-sn2201"]
    assert (server.rack_units, oob.rack_units, oob.power_w) == (2, 1, 100)
    for baseline, per_rack, racks in ((991, 9, 2), (990, 10, 1)):
        cat = catalog.model_copy(
            update={
                "servers": {
                    **catalog.servers,
                    server.id: server.model_copy(update={"baseline_power_w": baseline}),
                }
            }
        )
        doc = acme()
        doc["assumptions"] = {"max_rack_power_kw": 10, "rack_units": 42}
        doc["clusters"][1]["hosts"] = 10
        e = size_estate(design_from_dict(doc), cat)
        calcs = {c.id: c for c in e.calculations}
        each = calcs["clusters.Management domain.hosts_per_rack"]
        assert each.inputs == {
            "rack_units": 42 - 1, "host_units": 2, "rack_limit_w": 10_000 - 100, "host_w": baseline
        }  # fmt: skip
        assert each.value == per_rack
        calc = calcs["clusters.Management domain.racks"]
        assert calc.inputs == {"hosts": 10, "hosts_per_rack": per_rack}, baseline
        assert e.clusters[2].host_racks == racks
        assert e.clusters[2].hosts_kw == pytest.approx(10 * baseline / 1000)  # 9.91, 9.9 kW
        # each rack's hosts stand from U1 up, 2 U apart: 9 and then 1, or all 10 in one
        own = [r for r in e.racks if r.cluster == "Management domain"]
        units = [[i.u_position for i in r.items if i.kind == "server"] for r in own]
        assert units == ([[1 + 2 * k for k in range(9)], [1]] if racks == 2 else
                         [[1 + 2 * k for k in range(10)]])  # fmt: skip


def test_every_rack_of_the_estate_is_the_assumed_rack(catalog):
    """Acme assumes 42 U racks of 40 kW: every rack laid out, of hosts or of the network, is
    that rack, with its out-of-band switch in its top unit and nothing above it."""
    e = size_estate(design_from_dict(acme()), catalog)
    assert e.racks
    for r in e.racks:
        assert (r.height_u, r.power_limit_w) == (42, 40_000), r.name
        assert max(i.u_position + i.height_u - 1 for i in r.items) == 42, r.name
        (top,) = [i for i in r.items if i.u_position + i.height_u - 1 == 42]
        assert top.kind == "oob", r.name
