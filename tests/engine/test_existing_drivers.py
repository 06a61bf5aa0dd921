"""Kept hosts that run different NVIDIA host drivers: the driver step says which were read
(not 'not read'), and a new group goes to their free capacity only when every driver read runs
the design's guest drivers (NVIDIA: a host driver supports guest drivers of its own branch and
of the previous one). 535.230.02 is R535, vGPU 16 (NVIDIA AI Enterprise 4); 550.144.02 is
R550, vGPU 17 (NVIDIA AI Enterprise 5)."""

from __future__ import annotations

import json

from tests.conftest import ROOT
from wizard.app.io import design_from_dict
from wizard.engine.decide.planning import plan

SAMPLE = ROOT / "tests" / "data" / "estate" / "expansion.json"
KEPT = "Notebooks A100"


def _sample(drivers: list[str]) -> dict:
    d = json.loads(SAMPLE.read_text(encoding="utf-8"))
    for h, driver in zip(d["existing"]["clusters"][0]["hosts"], drivers, strict=True):
        h["driver"] = driver
    return d


def test_hosts_on_different_drivers_are_named_with_each_driver_read(catalog):
    p = plan(design_from_dict(_sample(["535.230.02", "550.144.02", ""])), catalog)
    (w,) = [w for w in p.estate.work if w.what.startswith("Add the NVIDIA host driver")]
    assert "different NVIDIA drivers (535.230.02, 550.144.02; on some it was not read)" in w.why
    assert "not read (no nvidia-smi report)" not in w.why
    assert w.reboots == 3


def _analysts(drivers: list[str]) -> dict:
    """The sample with a new MIG group beside the kept notebooks, on A100 hosts."""
    d = _sample(drivers)
    d["workloads"] = [
        d["workloads"][0],
        {"name": "Analysts' notebooks", "kind": "development", "count": 2,
         "shared": {"gpu_memory_gb": 40, "concurrency": 1.0}, "sharing_mode": "mig"},
    ]  # fmt: skip
    d["hardware"] = {"gpu": "a100-pcie-80gb", "server": "dell-r750xa", "gpus_per_host": 4}
    return d


def test_one_host_on_an_old_branch_keeps_a_new_group_off_the_cluster(catalog):
    mixed = plan(design_from_dict(_analysts(["", "535.230.02", ""])), catalog)
    placed = next(x for x in mixed.estate.placements if x.workload == "Analysts' notebooks")
    assert placed.cluster == "GPU cluster"
    assert "some of its hosts run driver 535.230.02" in placed.reason
    # the same cluster with no driver read does not refuse: the driver step says to confirm it
    unread = plan(design_from_dict(_analysts(["", "", ""])), catalog)
    placed = next(x for x in unread.estate.placements if x.workload == "Analysts' notebooks")
    assert placed.cluster == KEPT


def test_two_drivers_read_on_every_host_are_named_as_different(catalog):
    """Every host read, on two drivers: the driver step names both, with no host unread."""
    p = plan(design_from_dict(_sample(["535.230.02", "550.144.02", "550.144.02"])), catalog)
    (w,) = [w for w in p.estate.work if w.what.startswith("Add the NVIDIA host driver")]
    assert "different NVIDIA drivers (535.230.02, 550.144.02)" in w.why


def test_one_old_driver_on_every_host_is_the_clusters_not_some_hosts(catalog):
    """All three hosts on R535 (vGPU 16), two branches before the design's guest drivers: the
    new group stays off the cluster because its hosts run that driver, not some of them."""
    p = plan(design_from_dict(_analysts(["535.230.02"] * 3)), catalog)
    placed = next(x for x in p.estate.placements if x.workload == "Analysts' notebooks")
    assert placed.cluster == "GPU cluster"
    assert "its hosts run driver 535.230.02" in placed.reason
    assert "some of its hosts" not in placed.reason


def test_an_old_driver_is_named_with_its_branch_and_the_end_of_its_support(catalog):
    """Every host on 535.230.02: the driver step names its release and branch (NVIDIA AI
    Enterprise 4, R535) and the date its support ends, July 2026 (the archived-branches table
    in catalogs/software.toml: 'NVIDIA AI Enterprise Infra 4 (LTSB) | R535 | ... | July
    2026'), before the release the plan runs."""
    p = plan(design_from_dict(_sample(["535.230.02"] * 3)), catalog)
    (w,) = [w for w in p.estate.work if w.what.startswith("Add the NVIDIA host driver")]
    assert w.why.startswith(
        "the hosts run NVIDIA driver 535.230.02 (NVIDIA AI Enterprise 4, branch R535), "
        "supported until 31 July 2026; the plan runs NVIDIA AI Enterprise "
    )
