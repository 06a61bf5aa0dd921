"""An option saved from the design is a snapshot: a later edit of the design (here tensor
parallelism and the model's precision of a group) leaves the option's groups as saved; an
option of an older file (group changes only) still follows the design's other answers."""

from __future__ import annotations

import json

from wizard.base.bundled import example_text
from wizard.model.design import Design, DesignOption, GroupChange, Precision


def _design() -> Design:
    return Design.model_validate(json.loads(example_text("llm-serving")))


def test_an_edit_after_saving_leaves_the_option_as_saved():
    d = _design()
    saved = d.model_copy(update={"options": [d.as_option("As saved")]})
    g = saved.workloads[0]
    edited_group = g.model_copy(
        update={"parallelism": g.parallelism.model_copy(update={"tensor_parallel": 8})}
    )
    edited = saved.model_copy(update={"workloads": [edited_group]})
    assert edited.workloads[0].parallelism.tensor_parallel == 8
    # the option keeps the tensor parallelism it was saved with (the engine's choice)
    assert edited.option("As saved").workloads[0].parallelism.tensor_parallel is None
    assert edited.option("As saved").workloads == d.workloads
    # its file form holds the groups whole
    back = Design.model_validate_json(edited.model_dump_json())
    assert back.option("As saved").workloads == d.workloads


def test_making_an_option_the_proposal_puts_its_design_in_place():
    d = _design()
    option = d.as_option("FP8")
    option = option.model_copy(
        update={"workloads": [d.workloads[0].model_copy(update={"precision": Precision.FP8})]}
    )
    both = d.model_copy(update={"options": [option]})
    shown = both.with_option("FP8")
    assert shown.proposed == "FP8" and shown.workloads[0].precision is Precision.FP8
    assert shown.options == both.options  # the options stay
    assert shown.as_designed() == shown.option("FP8")  # one design: the pages and the proposal


def test_an_older_option_of_group_changes_still_reads():
    d = _design()
    old = DesignOption(
        name="MIG", groups=[GroupChange(group=d.workloads[0].name, precision=Precision.FP8)]
    )
    both = d.model_copy(update={"options": [old]})
    assert both.option("MIG").workloads[0].precision is Precision.FP8
    assert both.option("MIG").workloads[0].inference == d.workloads[0].inference
