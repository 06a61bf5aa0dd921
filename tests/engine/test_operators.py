"""The Kubernetes operators and platform services of NVIDIA AI Enterprise in the software stack
and the platform checklist: which release lists the NIM Operator and NVIDIA Run:ai (and in which
version), when a design gets each line, and the vSphere Supervisor steps of a design on the
vSphere Kubernetes Service. Each expected value sits beside the document it comes from."""

import pytest

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine.size import size

# NVIDIA AI Enterprise 5.2 Release Notes, Announcements: "The NVIDIA NIM Operator is now part of
# NVIDIA AI Enterprise." Its table lists "NVIDIA NIM Operator 1.0.0"; the 5.3 table lists
# "NVIDIA NIM Operator v1.0.1".
REL_5_3 = "NVIDIA AI Enterprise Infra 5.3 Release Notes, Supported Product Documentation"
# The 4.4 and 4.5 tables list the GPU Operator and the Network Operator and no NIM Operator row.
REL_4_5 = "NVIDIA AI Enterprise Infra 4.5 Release Notes, Table 1 Supported Product Documentation"
# NVIDIA AI Enterprise 8.x, GPU Operator with NVIDIA AI Enterprise: "NVIDIA Network Operator,
# NVIDIA DPU Operator (DPF), NVIDIA NIM Operator, NVIDIA DOCA, and NVIDIA Run:ai stay in the
# Release Notes."
DOCS_8 = "NVIDIA AI Enterprise 8.x documentation, GPU Operator with NVIDIA AI Enterprise"

NIM = "NVIDIA NIM Operator"
RUN_AI = "NVIDIA Run:ai (optional GPU scheduler)"
SUPERVISOR = "vSphere Supervisor on the GPU cluster (Workload Management)"
VM_CLASS = "VM class of the GPU worker nodes (assigned to the vSphere Namespace)"


def _size(doc, catalog):
    return size(design_from_dict(doc), catalog)


def _components(doc, catalog):
    return {c.name: c for c in _size(doc, catalog).software.components}


def _settings(doc, catalog):
    return {c.setting for c in _size(doc, catalog).software.checklist}


def _by_branch(catalog):
    return sorted(catalog.software.values(), key=lambda r: r.vgpu_branch)


# ------------------------------------------------------------------------- the catalog


@pytest.mark.parametrize(
    ("release", "listed", "version", "source"),
    [
        ("nvaie-4", False, "", REL_4_5),  # no NIM Operator row in 4.4 or 4.5
        ("nvaie-5", True, "v1.0.1", REL_5_3),  # "NVIDIA NIM Operator v1.0.1"
        ("nvaie-8", True, "", DOCS_8),  # named among the 8.x components; 8.2 version not read
    ],
)
def test_nim_operator_by_release(catalog, release, listed, version, source):
    r = catalog.software[release]
    assert (r.lists("nim-operator"), r.nim_operator) == (listed, version), source


def test_the_nim_operator_is_first_listed_by_5_and_run_ai_by_8(catalog):
    """5.2 announces the NIM Operator (the catalog quotes 5.3); Run:ai is named by the 8.x
    documentation and by no table the catalog read before it (4.x and 5.x have no row)."""
    first_nim = next(r for r in _by_branch(catalog) if r.lists("nim-operator"))
    first_run_ai = next(r for r in _by_branch(catalog) if r.lists("run-ai"))
    assert first_nim.id == "nvaie-5", REL_5_3
    assert first_run_ai.id == "nvaie-8", DOCS_8
    for r in (catalog.software["nvaie-4"], catalog.software["nvaie-5"]):
        assert r.lists("run-ai") is False, r.id


def test_every_release_lists_the_gpu_and_network_operators_where_its_table_was_read(catalog):
    for r in catalog.software.values():
        if r.kubernetes_software:
            assert {"gpu-operator", "network-operator"} <= set(r.kubernetes_software), r.id


@pytest.mark.parametrize("release", ["nvaie-6", "nvaie-7", "nvaie-9"])
def test_a_release_whose_table_was_not_read_does_not_say(catalog, release):
    r = catalog.software[release]
    assert r.lists("nim-operator") is None and r.lists("run-ai") is None
    assert {"kubernetes_software", "nim_operator", "run_ai"} <= set(r.unsettled)


def test_every_unsettled_figure_is_explained_in_the_note(catalog):
    for r in catalog.software.values():
        for field in r.unsettled:
            assert field in r.source_note, f"{r.id}: {field} not in source_note"


def test_a_version_implies_the_release_lists_the_software(catalog):
    for r in catalog.software.values():
        if r.nim_operator:
            assert r.lists("nim-operator"), r.id
        if r.run_ai:
            assert r.lists("run-ai"), r.id
        if r.kubernetes_software:
            assert r.kubernetes_software_source, r.id


# ------------------------------------------------------------------- the NIM Operator


def _serving(kubernetes: str, release: str) -> dict:
    doc = design_dict("llm-serving")  # one inference group
    doc["platform"] = {"kubernetes": kubernetes, "nvaie_release": release}
    return doc


def test_a_served_model_on_kubernetes_gets_the_nim_operator_of_its_release(catalog):
    nim = _components(_serving("upstream", "nvaie-5"), catalog)[NIM]
    assert nim.version == "v1.0.1", REL_5_3
    assert nim.layer == "kubernetes"
    assert "GPU Operator" in nim.needed_for  # the NIM Operator needs it on the cluster


def test_a_release_that_does_not_say_gets_the_line_without_a_version(catalog):
    assert _components(_serving("openshift", "nvaie-7"), catalog)[NIM].version == ""


def test_no_kubernetes_no_nim_operator(catalog):
    assert NIM not in _components(_serving("none", "nvaie-5"), catalog)


def test_a_release_before_the_nim_operator_does_not_list_it(catalog):
    """NVIDIA AI Enterprise 4: no NIM Operator row in its release notes (it joined with 5.2)."""
    names = _components(_serving("upstream", "nvaie-4"), catalog)
    assert NIM not in names
    assert "NVIDIA GPU Operator (helm repository https://helm.ngc.nvidia.com/nvidia)" in names


def test_a_design_that_serves_no_model_gets_no_nim_operator(catalog):
    doc = design_dict("imagenet-resnet50")  # training only
    doc["platform"] = {"kubernetes": "upstream", "nvaie_release": "nvaie-5"}
    assert NIM not in _components(doc, catalog)


# ------------------------------------------------------------------------- Run:ai


def _shared(kubernetes: str, release: str) -> dict:
    doc = design_dict("rtx-pro-vsphere")  # a development group sized from its users
    doc["platform"]["kubernetes"] = kubernetes
    doc["platform"]["nvaie_release"] = release
    return doc


def test_shared_gpus_on_kubernetes_get_run_ai_where_the_release_lists_it(catalog):
    run_ai = _components(_shared("vks", "nvaie-8"), catalog)[RUN_AI]
    assert run_ai.version == ""  # the 8.2 version was not read
    assert run_ai.needed_for.startswith("Optional:")


@pytest.mark.parametrize(
    "release",
    [
        "nvaie-5",  # its table was read: no Run:ai row
        "nvaie-9",  # its table was not read: the release does not say
    ],
)
def test_no_run_ai_where_the_release_does_not_list_it(catalog, release):
    assert RUN_AI not in _components(_shared("vks", release), catalog)


def test_no_run_ai_without_kubernetes_or_shared_gpus(catalog):
    assert RUN_AI not in _components(_shared("none", "nvaie-8"), catalog)
    assert RUN_AI not in _components(_serving("upstream", "nvaie-8"), catalog)  # no shared group


# --------------------------------------------------------- vSphere Supervisor (VKS)


def test_vks_enables_the_supervisor_and_the_gpu_vm_class(catalog):
    """VMware vSphere 8.0: the Supervisor 'creates a Kubernetes control plane directly in the
    hypervisor layer'; 'To use vGPU with TKGS clusters, define a custom VM class', whose vGPU
    profile is read from the device."""
    doc = _shared("vks", "nvaie-8")
    assert {SUPERVISOR, VM_CLASS} <= _settings(doc, catalog)
    supervisor = _components(doc, catalog)["vSphere Supervisor with the vSphere Kubernetes Service"]
    assert supervisor.layer == "vcenter"


def test_other_kubernetes_platforms_get_no_supervisor_steps(catalog):
    settings = _settings(_shared("upstream", "nvaie-8"), catalog)
    assert SUPERVISOR not in settings and VM_CLASS not in settings
    assert "vSphere Supervisor with the vSphere Kubernetes Service" not in _components(
        _shared("openshift", "nvaie-8"), catalog
    )


def test_passthrough_on_vks_gets_the_supervisor_but_no_vgpu_vm_class(catalog):
    doc = design_dict("imagenet-resnet50")  # passthrough
    doc["platform"] = {"kubernetes": "vks"}
    settings = _settings(doc, catalog)
    assert SUPERVISOR in settings and VM_CLASS not in settings


def test_the_new_lines_read_as_plain_words(catalog):
    """Customer-facing text: product names and plain words, no catalog or code identifiers."""
    result = _size(_shared("vks", "nvaie-8"), catalog)
    texts = [
        t
        for c in result.software.components
        if c.name in (NIM, RUN_AI, "vSphere Supervisor with the vSphere Kubernetes Service")
        for t in (c.name, c.version, c.needed_for)
    ] + [
        t
        for i in result.software.checklist
        if i.setting in (SUPERVISOR, VM_CLASS)
        for t in (i.setting, i.value, i.reason)
    ]
    assert len(texts) >= 9
    for text in texts:
        for word in ("nim-operator", "run-ai", "run_ai", "kubernetes_software", "nvaie-"):
            assert word not in text, text
