"""A new document's sections are made from their defaults when first read, without validation:
they must be the very values a validated default gives, or the first page would start from a
design that the file format would not produce."""

import pytest

from wizard.gui.document import SECTIONS, DesignDocument, _default
from wizard.model.design import Design


def test_every_section_default_equals_the_validated_default():
    for name in SECTIONS:
        field = Design.model_fields[name]
        want = None if field.is_required() else field.get_default(call_default_factory=True)
        assert _default(name) == want, name


def test_a_new_document_is_the_default_design_once_hardware_is_given(qtbot):
    doc = DesignDocument()
    assert doc.missing() == ["hardware"]
    hardware = {"gpu": "l40s", "server": "dell-r760xa", "gpus_per_host": 2}
    want = Design.model_validate({"hardware": hardware})
    doc.set("hardware", want.hardware)
    assert doc.design() == want


def test_an_unknown_section_is_refused(qtbot):
    doc = DesignDocument()
    with pytest.raises(KeyError):
        doc.get("hardwear")
    with pytest.raises(KeyError):
        doc.set("hardwear", None)
