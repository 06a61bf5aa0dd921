"""The executive summary tells a CIO what matters on one page: the size with racks and storage,
every target against its estimate, the top risks in words (not a count), the cost when prices
are given, and the decisions left to the customer."""

from __future__ import annotations

from reports.data import build_data
from reports.sections.summary import decisions_to_take, headline, paragraph, performance, risks
from tests.reports.conftest import page_texts, squash, summary_page
from wizard.model.prices import PriceList


def test_the_top_risk_says_how_much_of_the_enterprise_depends_on_bitfusion(example_pdf):
    """Enterprise: data scientists 6, HPC users 4, developers 2 and distributed ML 4 reach GPUs
    through the pool: 6 + 4 + 2 + 4 = 16 of the 28 GPUs the workloads need."""
    _, reader = example_pdf("enterprise")
    text = " ".join(summary_page(page_texts(reader)).split())
    assert (
        "Caution: 16 of the 28 GPUs the workloads need are reached through a network-attached"
        in text
    )
    assert "Bitfusion" in text


def test_no_high_availability_is_said_as_what_one_failure_leaves(example_data, example_pdf):
    """BERT-Large runs N+0 on 4 hosts of 4 GPUs: a host failure leaves 16 - 4 = 12 GPUs; the
    summary says that, never "after 0 host failures"."""
    data = example_data("bert-large-25gbe")
    assert ("GPUs left if a host fails", "12") in headline(data)
    assert "a host failure leaves 12 GPUs for a demand of 16" in paragraph(data)
    _, reader = example_pdf("bert-large-25gbe")
    text = " ".join(summary_page(page_texts(reader)).split())
    assert "0 host failures" not in text and "adds 0" not in text


def test_the_summary_counts_racks_and_names_the_storage(example_data, example_pdf):
    data = example_data("enterprise")
    assert ("rack", "1") in headline(data) or ("racks", str(len(data.result.racks.racks))) in (
        headline(data)
    )
    st = data.result.storage
    assert f"Shared storage: {st.nodes} nodes of {st.system_name}" in paragraph(data)
    bert = example_data("bert-large-25gbe")
    assert "No shared storage is chosen" in paragraph(bert)
    assert any("no shared storage is chosen" in d for d in decisions_to_take(bert))
    assert not any("shared storage" in d for d in decisions_to_take(data))


def test_every_target_is_set_against_its_estimate(example_data, example_pdf):
    """llm-serving states a time between tokens and a throughput for its chat service; each is a
    row of the summary with its verdict."""
    data = example_data("llm-serving")
    statuses = performance(data)
    targets = [(w.name, t.metric) for w in data.result.workloads if w.serving
               for t in w.serving.targets]  # fmt: skip
    assert [(t.workload, t.metric) for t in statuses] == targets and targets
    _, reader = example_pdf("llm-serving")
    text = squash(summary_page(page_texts(reader)))
    from wizard.present.options_table import METRIC_NAMES, verdict

    for t in statuses:
        assert squash(f"{t.workload}{METRIC_NAMES[t.metric]}") in text
        assert squash(verdict(t)) in text


def test_a_training_group_without_a_target_still_shows_its_time_in_days(example_pdf):
    """BERT-Large states no target; its time to train (about 1,000 h) is shown with the days
    (1,000 / 24 = 42)."""
    _, reader = example_pdf("bert-large-25gbe")
    text = " ".join(summary_page(page_texts(reader)).split())
    assert "none stated" in text and "days)" in text


def test_risks_are_the_most_severe_in_words_and_notes_stay_out(example_data):
    data = example_data("enterprise")
    top = risks(data)
    assert top and all(r.startswith(("Risk: ", "Caution: ")) for r in top)
    notes = [w.message for w in data.result.warnings if w.severity.value == "info"]
    assert not any(n in r for n in notes for r in top)


def test_the_cost_appears_when_a_price_list_is_given(example_data):
    """One priced line: 8 Dell PowerEdge C4140 at EUR 50,000 = EUR 400,000 of hardware."""
    from reports.doctree import Para
    from reports.sections.summary import _cost
    from reports.story import Story
    from reports.styles import make_styles

    base = example_data("enterprise")
    priced = build_data(base.design, base.catalog,
                        PriceList(currency="EUR", prices={"server:dell-c4140": 50_000}))  # fmt: skip
    (para,) = _cost(Story(priced, make_styles(), 480))
    assert isinstance(para, Para)
    text = para.text
    assert "EUR 400,000 of hardware" in text
    (none,) = _cost(Story(base, make_styles(), 480))
    assert "no price list" in none.text
