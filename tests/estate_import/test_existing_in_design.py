"""The estate read enters the design as its existing clusters (schema 3), and a version-2
design migrates to none."""

import json
import typing

import pytest
from pydantic import ValidationError

from tests.conftest import ROOT
from wizard import cli
from wizard.app.io import design_from_dict, migrate
from wizard.estate_import import read_estate
from wizard.estate_import.to_design import existing_estate
from wizard.model.design import SCHEMA_VERSION, Design, SharingMode
from wizard.model.existing import ExistingCluster, ExistingHost, ExistingMode

from .test_inventory_script import _export_csv

EXAMPLE = ROOT / "resources" / "examples" / "enterprise.json"


def _notebook_estate(tmp_path):
    """Three hosts with four A100 PCIe 80GB each, two notebook VMs per host on MIG-backed vGPU
    (A100D-3-40C), as the inventory script's CSV."""
    rows = []
    for i in range(1, 4):
        host = f"esx0{i}"
        rows.append({"Record": "host", "Cluster": "Notebooks", "Host": host,
                     "Vendor": "Dell Inc.", "Model": "PowerEdge R750xa"})  # fmt: skip
        rows += [
            {"Record": "gpu", "Cluster": "Notebooks", "Host": host, "GpuPciId": f"0000:{s:02x}:00.0",
             "GpuName": "GA100 [A100 PCIe 80GB]", "GpuMemoryMiB": "81920"}
            for s in (0x17, 0x31, 0xB1, 0xCA)
        ]  # fmt: skip
        rows += [
            {"Record": "vm", "Cluster": "Notebooks", "Host": host, "VM": f"nb-{i}{n}",
             "VgpuType": "grid_a100d-3-40c"}
            for n in range(2)
        ]  # fmt: skip
    path = tmp_path / "estate.csv"
    path.write_bytes(_export_csv(rows))
    return path


def test_the_estate_as_the_design_holds_it(tmp_path, catalog):
    estate = existing_estate(read_estate([_notebook_estate(tmp_path)], catalog))
    (cluster,) = estate.clusters
    assert cluster.name == "Notebooks" and cluster.source == "estate.csv"
    assert [h.name for h in cluster.hosts] == ["esx01", "esx02", "esx03"]
    for h in cluster.hosts:
        assert (h.server, h.gpu, h.gpus, h.sharing_mode) == (
            "dell-r750xa",
            "a100-pcie-80gb",
            4,
            "mig",
        )
        assert h.server_as_read == "Dell Inc. PowerEdge R750xa"
        assert h.gpu_as_read == "4 × GA100 [A100 PCIe 80GB]"
        assert [(u.vm, u.vgpu_type, u.workload) for u in h.in_use] == [
            (f"nb-{h.name[-1]}0", "A100D-3-40C", None), (f"nb-{h.name[-1]}1", "A100D-3-40C", None)
        ]  # fmt: skip


def test_a_host_mixing_gpu_models_keeps_both_names_and_no_catalog_gpu(tmp_path, catalog):
    rows = [{"Record": "host", "Cluster": "Mixed", "Host": "esx09", "Vendor": "Dell Inc.",
             "Model": "PowerEdge R750xa"},
            {"Record": "gpu", "Host": "esx09", "GpuPciId": "0000:17:00.0", "GpuName": "NVIDIA L40S"},
            {"Record": "gpu", "Host": "esx09", "GpuPciId": "0000:31:00.0", "GpuName": "NVIDIA A10"}]  # fmt: skip
    path = tmp_path / "mixed.csv"
    path.write_bytes(_export_csv(rows))
    (host,) = existing_estate(read_estate([path], catalog)).clusters[0].hosts
    assert (host.gpu, host.gpus, host.gpu_as_read) == (None, 2, "1 × NVIDIA A10, 1 × NVIDIA L40S")


def test_a_name_the_design_cannot_hold_is_refused_naming_the_cluster(tmp_path, catalog):
    rows = [{"Record": "host", "Cluster": "C", "Host": "esx01"},
            {"Record": "vm", "Host": "esx01", "VM": "bad\x1bname", "VgpuType": "grid_a100-4c"}]  # fmt: skip
    path = tmp_path / "bad.csv"
    path.write_bytes(_export_csv(rows))
    with pytest.raises(
        cli.UserError,
        match=r"existing cluster 'C', host 'esx01': in_use\[0\]\.vm: holds the control",
    ):
        existing_estate(read_estate([path], catalog))


def test_the_modes_are_the_designs():
    assert set(typing.get_args(ExistingMode)) == {
        SharingMode.PASSTHROUGH.value, SharingMode.VGPU.value, SharingMode.MIG.value
    }  # fmt: skip


def test_the_model_refuses_what_no_estate_is():
    with pytest.raises(ValidationError, match="host 'ESX01' is listed twice"):
        ExistingCluster(name="C", hosts=[ExistingHost(name="esx01"), ExistingHost(name="ESX01")])
    with pytest.raises(ValidationError, match="less than or equal to 16"):
        ExistingHost(name="esx01", gpus=17)
    with pytest.raises(ValidationError, match="existing cluster 'c' is listed twice"):
        Design.model_validate(
            {"hardware": {"gpu": "l40s", "server": "dell-r760xa", "gpus_per_host": 2},
             "existing": {"clusters": [{"name": "C", "hosts": [{"name": "a"}]},
                                       {"name": "c", "hosts": [{"name": "b"}]}]}}
        )  # fmt: skip


def test_a_version_2_design_migrates_to_no_existing_estate():
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert doc["schema_version"] == 2 and "existing" not in doc  # saved before version 3
    migrated = migrate(dict(doc))
    assert migrated["schema_version"] == SCHEMA_VERSION == 3
    assert migrated["existing"] == {"clusters": []}
    assert design_from_dict(doc).existing.clusters == []


def test_import_estate_into_a_design(tmp_path, capsys):
    out = tmp_path / "expansion.json"
    src = _notebook_estate(tmp_path)
    args = ["--no-user-catalog", "import-estate", str(src), "--into", str(EXAMPLE), "-o", str(out)]
    assert cli.main(args) == cli.EXIT_OK
    assert f"wrote {out} (existing: 1 cluster)" in capsys.readouterr().err
    design = design_from_dict(json.loads(out.read_text(encoding="utf-8")))
    assert design.schema_version == 3
    assert [h.gpus for h in design.existing.clusters[0].hosts] == [4, 4, 4]
    # The rest of the design is the example's, untouched.
    example = design_from_dict(json.loads(EXAMPLE.read_text(encoding="utf-8")))
    assert design.model_copy(update={"existing": example.existing}) == example


def test_into_needs_an_output_that_is_no_input(tmp_path, capsys):
    src = str(_notebook_estate(tmp_path))
    base = ["--no-user-catalog", "import-estate", src, "--into", str(EXAMPLE)]
    assert cli.main(base) == cli.EXIT_BAD_INPUT
    (line,) = capsys.readouterr().err.splitlines()
    assert "name the design file to write with -o" in line
    assert cli.main([*base, "-o", str(EXAMPLE)]) == cli.EXIT_BAD_INPUT
    (line,) = capsys.readouterr().err.splitlines()
    assert "is also an input" in line
