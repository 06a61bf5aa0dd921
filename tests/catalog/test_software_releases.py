"""NVIDIA AI Enterprise releases against the published documents: each expected value sits beside
the document it comes from, so a catalog edit that drifts from the source fails here."""

import pytest

from wizard.app.catalog_loader import load_catalog, parse_entries

# Release-notes tables, "Supported Product Documentation".
REL_4_5 = "NVIDIA AI Enterprise Infra 4.5 Release Notes, Table 1 Supported Product Documentation"
REL_5_3 = "NVIDIA AI Enterprise Infra 5.3 Release Notes, Supported Product Documentation"
VGPU_19 = "Virtual GPU Software R580 for VMware vSphere Release Notes, v19.0 (manager 580.65.05)"
TYPES_7 = "NVIDIA AI Enterprise 7.x vGPU Types Reference: Blackwell ... Turing, Volta pages"
TYPES_8_1 = "NVIDIA AI Enterprise 8.1 vGPU Types Reference: Blackwell ... Turing, no Volta page"


def _release(catalog, major: int):
    (release,) = [r for r in catalog.software.values() if r.release.split(".")[0] == str(major)]
    return release


@pytest.mark.parametrize(
    ("major", "vgpu_branch", "driver_branch", "source"),
    [
        (4, 16, "R535", REL_4_5),  # 4.5: vGPU 16.9, driver 535.230.02
        (5, 17, "R550", REL_5_3),  # 5.3: vGPU 17.5, driver 550.144.02
        (7, 19, "R580", VGPU_19),  # vGPU 19.0 is the R580 release family
    ],
)
def test_branches_match_the_documents(catalog, major, vgpu_branch, driver_branch, source):
    r = _release(catalog, major)
    assert (r.vgpu_branch, r.driver_branch) == (vgpu_branch, driver_branch), source


@pytest.mark.parametrize(
    ("major", "versions", "source"),
    [
        (4, ("4.5", "16.9", "535.230.02", "v24.9.2", "v24.10.1"), REL_4_5),
        (5, ("5.3", "17.5", "550.144.02", "v24.9.2", "v24.10.1"), REL_5_3),
    ],
)
def test_component_versions_match_the_release_notes(catalog, major, versions, source):
    r = _release(catalog, major)
    got = (r.release, r.vgpu_version, r.driver_version, r.gpu_operator, r.network_operator)
    assert got == versions, source


def test_vgpu_and_driver_versions_share_the_branch(catalog):
    """A vGPU 16.x build runs on a 535 driver, 17.x on 550 (the release-notes tables)."""
    for r in catalog.software.values():
        if r.vgpu_version:
            assert r.vgpu_version.split(".")[0] == str(r.vgpu_branch), r.id
        if r.driver_version:
            assert r.driver_version.split(".")[0] == r.driver_branch[1:], r.id


def test_one_major_release_per_vgpu_branch(catalog):
    branches = [r.vgpu_branch for r in catalog.software.values()]
    assert len(branches) == len(set(branches))


def test_volta_is_listed_by_7_and_not_by_8(catalog):
    r7, r8 = _release(catalog, 7), _release(catalog, 8)
    assert r7.supports("Volta") is True, TYPES_7
    assert r8.release == "8.2"  # the 8.x line's newest minor, on the same branch as 8.1
    assert r8.supports("Volta") is False, TYPES_8_1
    # Every other generation of the 7.x list stays in 8.x.
    assert set(r7.gpu_architectures) - {"Volta"} == set(r8.gpu_architectures), TYPES_8_1


def test_time_sliced_mig_backed_vgpu_needs_vgpu_19_and_blackwell(catalog):
    """The R580 (vGPU 19) release notes add the 'Time-Sliced, MIG-Backed NVIDIA vGPU' column,
    filled for the RTX PRO 6000 Blackwell Server Edition; earlier branches have no such mode."""
    for r in catalog.software.values():
        if r.vgpu_branch < 19:
            assert r.mig_time_sliced_architectures == [], r.id
        else:
            assert r.mig_time_sliced_architectures == ["Blackwell"], r.id


def test_architectures_are_gpu_catalog_architectures(catalog):
    known = {g.architecture for g in catalog.gpus.values()}
    for r in catalog.software.values():
        for arch in [*r.gpu_architectures, *r.mig_time_sliced_architectures]:
            assert arch in known, f"{r.id}: unknown architecture {arch!r}"
        assert set(r.mig_time_sliced_architectures) <= set(r.gpu_architectures) or not (
            r.gpu_architectures
        ), r.id


def test_a_misspelt_architecture_is_caught(catalog):
    text = (
        '[[software]]\nid = "nvaie-typo"\nname = "x"\nrelease = "9.9"\nvgpu_branch = 99\n'
        'driver_branch = "R999"\ngpu_architectures = ["Hoper"]\nsource = "test"\n'
    )
    (typo,) = parse_entries(text, "software", "software.toml").values()
    known = {g.architecture for g in catalog.gpus.values()}
    assert "Hoper" in typo.gpu_architectures
    assert not set(typo.gpu_architectures) <= known


def test_paif_is_counted_per_core_like_vcf(catalog):
    paif, vcf = catalog.licences["vmware-paif"], catalog.licences["vmware-vcf"]
    assert (paif.unit.value, paif.min_units) == ("per-core", 16)
    assert (paif.unit, paif.min_units) == (vcf.unit, vcf.min_units)
    assert catalog.licences["nvidia-ai-enterprise"].unit.value == "per-gpu"


def test_shipped_catalog_loads_the_new_entries():
    cat = load_catalog()
    assert "vmware-paif" in cat.licences
    assert "nvaie-8" in cat.software
