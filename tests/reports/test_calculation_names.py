"""The calculation log's quantities read as words in the proposal: a duration's unit suffix
becomes "time" (the value column shows the unit), a group's index reads as its name."""

from wizard.model.result import Calculation
from wizard.present.formula_text import quantity


def _calc(id_: str) -> Calculation:
    return Calculation(id=id_, formula="a", inputs={"a": 1.0}, value=1.0, unit="s", source="x")


def test_a_duration_reads_as_a_time_and_a_group_by_its_name():
    groups = ["Chat service", "Notebooks"]
    assert quantity(_calc("workloads[0].serving.decode.comm_s"), "workloads[0].") == (
        "serving: decode comm time"
    )
    assert quantity(_calc("workloads[1].vmotion_stun_s"), "workloads[1].") == "vMotion stun time"
    assert quantity(_calc("workloads[0].serving.ttft_ms"), "workloads[0].") == "serving: TTFT"
    assert quantity(_calc("software.workloads[1].mmio_size_gb"), "software.", groups) == (
        "Notebooks: MMIO size GB"
    )


def test_only_a_last_word_that_is_a_time_unit_changes():
    """'tokens per s per GPU' keeps its 's'; a name of one word is left as it is."""
    assert quantity(_calc("storage.tokens_per_s_per_gpu"), "storage.") == "tokens per s per GPU"
    assert quantity(_calc("s"), "") == "s"
    # an index beyond the groups given stays as written rather than naming the wrong group
    assert quantity(_calc("software.workloads[5].mmio_size_gb"), "software.", ["A"]) == (
        "workloads[5]: MMIO size GB"
    )
