"""The shipped catalogs: required entries, a source on each, and a loader that names bad fields."""

import pytest

from wizard.app.catalog_loader import load_catalog, parse_entries, shipped_text
from wizard.base.errors import CatalogError
from wizard.model.catalog import CATALOG_KINDS, FormFactor, max_boards

REQUIRED = {
    "gpus": [
        "v100-pcie-32gb", "t4", "a2", "a10", "a16", "a30", "a40", "a100-pcie-40gb",
        "a100-pcie-80gb", "a100-sxm4-40gb", "a100-sxm4-80gb", "l4", "l40", "l40s",
        "h100-pcie-80gb", "h100-sxm5-80gb", "h100-nvl-94gb", "h200-sxm-141gb", "h200-nvl-141gb",
        "b200-sxm",
    ],
    "servers": [
        "dell-c4140", "dell-r740xd", "dell-r750xa", "dell-xe8545", "dell-xe9680", "dell-dss8440",
        "hpe-apollo-6500-gen10-plus",
    ],
    "storage": ["dell-isilon-f800"],
    "models": [
        "resnet-50", "bert-base", "bert-large", "gpt-3-175b", "llama-2-7b", "llama-2-13b",
        "llama-2-70b", "llama-3-8b", "llama-3-70b", "llama-3.1-405b", "mixtral-8x7b",
    ],
}  # fmt: skip


def test_required_entries_exist(catalog):
    for kind, ids in REQUIRED.items():
        missing = sorted(set(ids) - set(getattr(catalog, kind)))
        assert missing == [], f"{kind} lacks {missing}"


def test_minimum_breadth(catalog):
    vendors = {s.vendor.split()[0].lower() for s in catalog.servers.values()}
    assert {"dell", "hpe", "lenovo", "supermicro"} <= vendors
    assert len(catalog.servers) >= 8
    assert len(catalog.storage) >= 3
    assert any(s.id.startswith("dell-powerscale") for s in catalog.storage.values())
    models = " ".join(n.model for n in catalog.nics.values())
    for family in ("ConnectX-5", "ConnectX-6", "ConnectX-7", "BlueField-2", "BlueField-3"):
        assert family in models, family
    assert any(not n.vendor.startswith(("NVIDIA", "Mellanox")) for n in catalog.nics.values())
    assert {s.kind.value for s in catalog.switches.values()} == {"ethernet", "infiniband"}
    names = " ".join(x.name for x in catalog.licences.values())
    assert "AI Enterprise" in names
    assert any(x.vendor.startswith(("VMware", "Broadcom")) for x in catalog.licences.values())


def test_every_entry_has_a_source(catalog):
    for kind in CATALOG_KINDS:
        for entry in getattr(catalog, kind).values():
            assert len(entry.source) > 10, f"{kind}/{entry.id} has no real source"


def test_seed_figures(catalog):
    """Figures the seeds quote (multi-GPU deep dive): H100 HBM 2-3.35 TB/s, NVLink generations."""
    assert catalog.gpus["h100-sxm5-80gb"].memory_bandwidth_gbs == pytest.approx(3350, rel=0.01)
    assert catalog.gpus["h100-pcie-80gb"].memory_bandwidth_gbs == pytest.approx(2000, rel=0.01)
    assert catalog.gpus["v100-sxm2-32gb"].nvlink.bandwidth_gbs == 300  # NVLink 2nd gen
    assert catalog.gpus["a100-sxm4-80gb"].nvlink.bandwidth_gbs == 600  # 3rd gen
    assert catalog.gpus["h100-sxm5-80gb"].nvlink.bandwidth_gbs == 900  # 4th gen
    assert catalog.models["bert-large"].parameters == pytest.approx(340e6, rel=0.01)
    assert catalog.models["gpt-3-175b"].parameters == pytest.approx(175e9, rel=0.01)


def test_mig_profiles_are_on_mig_capable_gpus_only(catalog):
    mig = {g.id for g in catalog.gpus.values() if g.mig_capable}
    assert {"a30", "a100-pcie-40gb", "a100-sxm4-80gb", "h100-sxm5-80gb", "b200-sxm"} <= mig
    assert not {"t4", "a10", "l40s", "v100-pcie-32gb", "l4"} & mig


def test_a100_40gb_mig_placements_match_nvidia(catalog):
    """NVIDIA MIG User Guide, A100-SXM4-40GB supported profiles and placements."""
    profiles = {p.name: p for p in catalog.gpus["a100-sxm4-40gb"].mig.profiles}
    expect = {
        "1g.5gb": (7, list(range(7)), 1),
        "2g.10gb": (3, [0, 2, 4], 2),
        "3g.20gb": (2, [0, 4], 4),
        "4g.20gb": (1, [0], 4),
        "7g.40gb": (1, [0], 8),
    }
    for name, (count, starts, size) in expect.items():
        p = profiles[name]
        assert (p.max_count, p.placement_starts, p.placement_size) == (count, starts, size), name


def test_mig_profile_memory_never_exceeds_the_gpu(catalog):
    for gpu in catalog.gpus.values():
        if gpu.mig is None:
            continue
        for p in gpu.mig.profiles:
            assert p.memory_gb <= gpu.memory_gb, (gpu.id, p.name)
            assert p.max_count * p.compute_slices <= gpu.mig.compute_slices, (gpu.id, p.name)


def test_vgpu_profiles_fit_the_framebuffer(catalog):
    for gpu in catalog.gpus.values():
        for p in gpu.vgpu.profiles if gpu.vgpu else []:
            assert p.framebuffer_gb * p.max_per_gpu <= gpu.memory_gb * 1.02, (gpu.id, p.name)


def test_seed_servers_hold_their_gpus(catalog):
    g, s = catalog.gpus, catalog.servers
    assert max_boards(s["dell-xe9680"], g["h100-sxm5-80gb"]) == 8
    assert max_boards(s["dell-xe8545"], g["a100-sxm4-80gb"]) == 4
    assert max_boards(s["dell-xe9680"], g["h100-pcie-80gb"]) == 0  # HGX: SXM only
    assert max_boards(s["dell-r750xa"], g["h100-pcie-80gb"]) >= 2
    assert max_boards(s["dell-dss8440"], g["a100-pcie-40gb"]) >= 8
    assert s["dell-dss8440"].pcie_topology.value == "pcie-switch"
    for server in s.values():
        if server.pcie_topology.value == "hgx":
            assert all(g[x].form_factor is FormFactor.SXM for x in server.hgx_gpus), server.id


def test_every_server_reference_resolves(catalog):
    for server in catalog.servers.values():
        for ref in [*server.hgx_gpus, *server.qualified_gpus]:
            assert ref in catalog.gpus, f"{server.id} names unknown GPU {ref}"


def test_shipped_files_parse_one_by_one():
    for kind in CATALOG_KINDS:
        assert parse_entries(shipped_text(kind), kind, f"catalogs/{kind}.toml")


# ------------------------------------------------------------------------- the loader


GOOD_NIC = """
[[nics]]
id = "acme-25"
vendor = "Acme"
model = "Acme 25G"
kind = "nic"
ports = 2
port_speed_gbps = 25
pcie_gen = 3
pcie_lanes = 8
protocols = ["ethernet"]
gpudirect_rdma = false
source = "Acme NIC datasheet (sample)"
"""


def test_malformed_entry_names_file_entry_and_field():
    bad = GOOD_NIC.replace("ports = 2", "ports = -1")
    with pytest.raises(CatalogError) as info:
        parse_entries(bad, "nics", "my/nics.toml")
    (line,) = info.value.problems
    assert line.startswith("my/nics.toml: entry 'acme-25': ports:") and "-1" in line


def test_missing_source_and_unknown_key_are_errors():
    bad = GOOD_NIC.replace('source = "Acme NIC datasheet (sample)"', 'colour = "red"')
    with pytest.raises(CatalogError) as info:
        parse_entries(bad, "nics", "nics.toml")
    text = "\n".join(info.value.problems)
    assert "entry 'acme-25': source: required field is missing" in text
    assert "entry 'acme-25': colour: unknown field" in text


def test_duplicate_ids_and_bad_toml():
    with pytest.raises(CatalogError, match="duplicate id 'acme-25'"):
        parse_entries(GOOD_NIC + GOOD_NIC, "nics", "nics.toml")
    with pytest.raises(CatalogError, match="not valid TOML"):
        parse_entries("[[nics]\nid=", "nics", "nics.toml")
    with pytest.raises(CatalogError, match="unknown top-level key"):
        parse_entries(GOOD_NIC.replace("[[nics]]", "[[nic]]"), "nics", "nics.toml")


def test_user_catalog_adds_and_overrides(tmp_path, catalog):
    some_gpu = catalog.gpus["t4"]
    override = some_gpu.model_copy(update={"name": "T4 (site-tested)"})
    (tmp_path / "nics.toml").write_text(GOOD_NIC)
    (tmp_path / "gpus.toml").write_text(_as_toml("gpus", override.model_dump(mode="json")))
    merged = load_catalog(tmp_path)
    assert "acme-25" in merged.nics
    assert merged.gpus["t4"].name == "T4 (site-tested)"
    assert len(merged.gpus) == len(catalog.gpus)


def test_bad_user_catalog_is_reported(tmp_path):
    (tmp_path / "nics.toml").write_text(GOOD_NIC.replace('kind = "nic"', 'kind = "router"'))
    with pytest.raises(CatalogError) as info:
        load_catalog(tmp_path)
    assert str(tmp_path / "nics.toml") in info.value.problems[0]
    assert "kind" in info.value.problems[0]
    (tmp_path / "nics.toml").write_bytes(b"\xff\xfe bad")
    with pytest.raises(CatalogError, match="not UTF-8"):
        load_catalog(tmp_path)


def _as_toml(kind: str, entry: dict) -> str:
    """A tiny TOML writer for test fixtures (strings, numbers, booleans, lists, tables)."""
    lines = [f"[[{kind}]]"]

    def value(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{k} = {value(x)}" for k, x in v.items() if x is not None) + "}"
        return repr(v)

    for k, v in entry.items():
        if v is None:
            continue
        lines.append(f"{k} = {value(v)}")
    return "\n".join(lines) + "\n"


def test_every_gpu_can_be_designed_with(catalog):
    """Each GPU in the catalog has a server that holds it, and a one-host design sizes on it."""
    from wizard.app.io import design_from_dict
    from wizard.engine.size import size
    from wizard.model.catalog import max_boards

    missing = []
    for gpu in catalog.gpus.values():
        hosts = [s for s in catalog.servers.values() if max_boards(s, gpu) > 0]
        if not hosts:
            missing.append(gpu.id)
            continue
        server = min(hosts, key=lambda s: s.id)
        per_host = max_boards(server, gpu) * gpu.gpus_per_board
        doc = {
            "workloads": [{"name": "Users", "kind": "development", "count": 1,
                           "shared": {"gpus_per_job": 1}}],
            "hardware": {"gpu": gpu.id, "server": server.id, "gpus_per_host": per_host},
        }  # fmt: skip
        assert size(design_from_dict(doc), catalog).cluster.gpus_total >= 1, gpu.id
    assert missing == [], f"no server in the catalog holds {missing}"
