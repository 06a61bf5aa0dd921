"""One customer wording per design choice: every enum value a design can hold has one, and no
other module keeps its own."""

import ast
import inspect
import re
from enum import StrEnum

import pytest

from tests.conftest import ROOT
from wizard.engine.placement.sharing import LABELS as ENGINE_MODE_LABELS
from wizard.model import design
from wizard.model.design import Fabric, SharingMode, WorkloadKind
from wizard.present import labels

DESIGN_ENUMS = [
    e
    for _, e in inspect.getmembers(design, inspect.isclass)
    # the design file's enums, wherever its parts are defined (design, workloads, assumptions)
    if issubclass(e, StrEnum) and e.__module__.startswith("wizard.model.")
]


def test_every_enum_of_the_design_has_a_wording():
    """A new enum in the design, or a new value of one, fails here until it has a label."""
    assert set(DESIGN_ENUMS) == set(labels.BY_ENUM)
    for enum in DESIGN_ENUMS:
        for member in enum:
            text = labels.label(member)
            assert text.strip() and text != member.value, f"{enum.__name__}.{member.name}"


@pytest.mark.parametrize(
    "forms",
    [
        labels.MODE_SHORT,
        labels.KIND_SHORT,
        labels.PRECISION_SHORT,
        labels.FINE_TUNING_SHORT,
        labels.RDMA_SHORT,
        labels.HA_LEVEL_SHORT,
        labels.ADMISSION_MEANING,
    ],
)
def test_every_other_form_covers_its_enum(forms):
    (enum,) = {type(k) for k in forms}
    assert set(forms) == set(enum)
    assert all(v.strip() for v in forms.values())


def test_wordings_are_distinct_within_an_enum():
    for enum, forms in labels.BY_ENUM.items():
        assert len(set(forms.values())) == len(enum), enum.__name__


def test_sharing_modes_read_as_product_names():
    assert labels.MODE == {
        SharingMode.PASSTHROUGH: "Passthrough (DirectPath I/O)",
        SharingMode.VGPU: "Time-sliced vGPU",
        SharingMode.MIG: "MIG-backed vGPU",
        SharingMode.REMOTE: "Network-attached GPU pool",
        SharingMode.MIG_GUEST: "MIG in the guest (GPUs passed through, partitioned in the VM)",
    }
    # the engine writes the same names into the Result's comparison rows
    assert all(ENGINE_MODE_LABELS[m.value] == labels.MODE[m] for m in SharingMode)
    assert labels.mode("as-designed") == ENGINE_MODE_LABELS["as-designed"]
    assert labels.mode_short("as-designed") == "As designed"
    assert labels.mode_short("mig") == "MIG-backed vGPU"


def test_short_kind_is_the_start_of_the_long_one():
    for kind in WorkloadKind:
        assert labels.KIND[kind].startswith(labels.KIND_SHORT[kind].split(" ")[0])


def test_is_infiniband():
    assert {f for f in Fabric if labels.is_infiniband(f)} == {
        Fabric.IB_HDR,
        Fabric.IB_NDR,
        Fabric.IB_XDR,
    }
    assert all(labels.FABRIC[f].startswith("InfiniBand") == labels.is_infiniband(f) for f in Fabric)


# The callers of the presentation layer; the engine keeps only the names it writes itself.
CALLERS = ["wizard/gui", "wizard/cli", "wizard/app/summary.py", "reports"]
OLD_NAMES = [
    "MODE_LABELS",
    "MODE_NAMES",
    "MODE_SHORT",
    "FABRIC_LABELS",
    "RDMA_LABELS",
    "KIND_LABELS",
    "PRECISION_LABELS",
    "KUBERNETES_LABELS",
    "LEVEL_LABELS",
    "ADMISSION_LABELS",
    "GLOSSARY",
    "TERMS",
]


def _sources(paths: list[str]) -> list:
    out = []
    for p in paths:
        path = ROOT / p
        assert path.exists(), p  # a caller moved: follow it, or the scan reads nothing there
        out += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return out


def test_no_caller_keeps_its_own_wording_under_an_old_name():
    """The old names, defined or imported bare (``labels.MODE_SHORT`` is the new home)."""
    pattern = re.compile(r"(?<![\w.])(" + "|".join(OLD_NAMES) + r")\b")
    hits = [
        f"{f.relative_to(ROOT)}: {m.group(1)}"
        for f in _sources(CALLERS)
        for m in pattern.finditer(f.read_text(encoding="utf-8"))
    ]
    assert hits == []


def test_infiniband_is_decided_in_one_place():
    files = _sources([*CALLERS, "wizard/engine", "wizard/model", "wizard/app/recommend.py"])
    hits = [
        f"{f.relative_to(ROOT)}: {text}"
        for f in files
        for text in (
            'startswith("ib-")',
            "Fabric.IB_HDR, Fabric.IB_NDR",
            "Fabric.IB_NDR, Fabric.IB_HDR",
        )
        if text in f.read_text(encoding="utf-8")
    ]
    assert hits == ["wizard/model/design.py: Fabric.IB_HDR, Fabric.IB_NDR"]


def _enum_key(node: ast.expr) -> str | None:
    """'SharingMode' for a key written SharingMode.MIG (or design.SharingMode.MIG)."""
    if isinstance(node, ast.Attribute):
        owner = node.value
        name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", None)
        if name in {e.__name__ for e in DESIGN_ENUMS}:
            return name
    return None


def test_no_caller_maps_a_design_enum_to_text():
    """A dict from a design enum's members (or their values) to text, in the wizard, the
    command line or the report, is a second wording: it belongs in wizard/present/labels.py."""
    values = {m.value: e.__name__ for e in DESIGN_ENUMS for m in e}
    bad = []
    for f in _sources(CALLERS):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Dict) or len(node.keys) < 2:
                continue
            if not all(
                isinstance(v, ast.Constant) and isinstance(v.value, str) for v in node.values
            ):
                continue
            enums = {_enum_key(k) for k in node.keys if k is not None} - {None}
            enums |= {
                values[k.value]
                for k in node.keys
                if isinstance(k, ast.Constant) and isinstance(k.value, str) and k.value in values
            }
            if enums:
                bad.append(f"{f.relative_to(ROOT)}:{node.lineno} {sorted(e for e in enums if e)}")
    assert bad == []
