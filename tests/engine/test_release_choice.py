"""Which NVIDIA AI Enterprise release a design runs: the one it names, else the newest that
supports its GPU. Releases are written here, not read from the shipped catalog, so each rule is
tested on its own."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.base.errors import DesignError
from wizard.engine.platform.compat import check_design
from wizard.engine.platform.releases import ReleaseFacts, release_choice, service_end
from wizard.model.catalog import SoftwareRelease
from wizard.model.design import VsphereRelease


def _release(rid: str, branch: int, archs: list[str]) -> SoftwareRelease:
    return SoftwareRelease(
        id=rid,
        name=f"Release {rid}",
        release=f"{branch}.0",
        vgpu_branch=branch,
        driver_branch="R550",
        gpu_architectures=archs,
        source="written in the test",
    )


# "Support for Volta ... is removed" in a newer release: the older one keeps it.
OLD = _release("old", 17, ["Volta", "Ampere", "Hopper"])
NEW = _release("new", 20, ["Ampere", "Hopper", "Blackwell"])
UNSTATED = _release("unstated", 21, [])


def _catalog(catalog, *releases):
    return catalog.model_copy(update={"software": {r.id: r for r in releases}})


@pytest.mark.parametrize(
    ("example", "expected", "why"),
    [
        ("enterprise", "old", "Volta"),  # V100: the newest release that still lists Volta
        ("llm-serving", "new", "Hopper"),  # H100: the newest release of all
    ],
)
def test_the_newest_release_that_supports_the_gpu(catalog, example, expected, why):
    design = design_from_dict(design_dict(example))
    release, reason = release_choice(ReleaseFacts.of(design, _catalog(catalog, OLD, NEW)))
    assert release is not None and release.id == expected
    assert why in reason


def test_a_release_that_lists_the_gpu_beats_a_newer_one_that_does_not_say(catalog):
    design = design_from_dict(design_dict("llm-serving"))
    release, _ = release_choice(ReleaseFacts.of(design, _catalog(catalog, OLD, NEW, UNSTATED)))
    assert release is not None and release.id == "new"
    design = design_from_dict(design_dict("enterprise"))
    release, reason = release_choice(ReleaseFacts.of(design, _catalog(catalog, NEW, UNSTATED)))
    assert release is not None and release.id == "unstated"
    assert "check that it supports" in reason


def test_a_named_release_is_kept_but_refused_when_it_drops_the_gpu(catalog):
    doc = design_dict("enterprise")  # V100
    doc.setdefault("platform", {})["nvaie_release"] = "new"
    design = design_from_dict(doc)
    cat = _catalog(catalog, OLD, NEW)
    assert release_choice(ReleaseFacts.of(design, cat))[0] is NEW
    problems = [p for p in check_design(design, cat) if p.field == "platform.nvaie_release"]
    assert len(problems) == 1
    assert "does not support Volta GPUs" in problems[0].message
    assert "choose Release old" in problems[0].message


def test_a_named_release_that_supports_the_gpu_is_no_problem(catalog):
    doc = design_dict("enterprise")
    doc.setdefault("platform", {})["nvaie_release"] = "old"
    design = design_from_dict(doc)
    assert not [
        p
        for p in check_design(design, _catalog(catalog, OLD, NEW))
        if p.field == "platform.nvaie_release"
    ]


# ------------------------------------------------------------------ lifecycles
# NVIDIA AI Enterprise lifecycle, Infrastructure Software: "The GPU Drivers ... are supported for
# 1 year unless the branch is designated as an LTSB Infrastructure Branch, in which case it is
# supported for 3 years." Data Center driver branches: R580 LTSB to June 2028, R595 Production
# Branch to March 2027, R620 LTSB to September 2029.


def _dated(rid: str, branch: int, kind: str, eos: str, **extra) -> SoftwareRelease:
    import datetime as dt

    return _release(rid, branch, ["Volta", "Turing", "Ampere", "Hopper", "Blackwell"]).model_copy(
        update={"branch": kind, "end_of_support": dt.date.fromisoformat(eos), **extra}
    )


def _design(example: str = "llm-serving", **platform):
    doc = design_dict(example)
    doc["project"]["date"] = "2026-11-02"
    doc.setdefault("platform", {}).update(platform)
    return design_from_dict(doc)


def test_a_branch_that_outlives_the_service_period_is_chosen_ltsb_first(catalog):
    """From 2 November 2026 for 3 years (to November 2029): a long-term support branch to
    December 2029 is chosen over a newer production branch (March 2027) and over an older
    long-term branch (June 2028) that end before it."""
    lts = _dated("lts", 20, "ltsb", "2029-12-31")
    newer_pb = _dated("pb", 21, "pb", "2027-03-31")
    older = _dated("old-lts", 19, "ltsb", "2028-06-30")
    release, why = release_choice(
        ReleaseFacts.of(_design(), _catalog(catalog, older, lts, newer_pb))
    )
    assert release is lts
    assert "long-term support branch" in why and "November 2029" in why
    # negative: with the period shortened to 1 year (to November 2027), every long-term branch
    # lasts, and the newest of them is still preferred to the newer production branch
    release, _ = release_choice(
        ReleaseFacts.of(_design(service_years=1), _catalog(catalog, older, lts, newer_pb))
    )
    assert release is lts


def test_a_branch_supported_to_the_last_day_of_the_service_period_lasts(catalog):
    """From 2 November 2026 for 3 years the service period ends on 2 November 2029. A long-term
    branch supported to exactly that day covers the period, so it is chosen (long-term first)
    over a production branch supported to December 2029. Negative case: ended a day earlier
    (1 November 2029) it no longer covers the period and the production branch is chosen."""
    edge = _dated("edge", 20, "ltsb", "2029-11-02")
    pb = _dated("pb", 21, "pb", "2029-12-31")
    release, why = release_choice(ReleaseFacts.of(_design(), _catalog(catalog, edge, pb)))
    assert release is edge and "supported beyond" in why
    assert "a long-term support branch first" in why
    short = _dated("edge", 20, "ltsb", "2029-11-01")
    release, why = release_choice(ReleaseFacts.of(_design(), _catalog(catalog, short, pb)))
    assert release is pb and "a long-term support branch first" not in why


def test_a_long_term_branch_beats_a_newer_production_branch_that_also_lasts(catalog):
    lts = _dated("lts", 20, "ltsb", "2030-06-30")
    pb = _dated("pb", 21, "pb", "2030-06-30")
    assert release_choice(ReleaseFacts.of(_design(), _catalog(catalog, lts, pb)))[0] is lts


def test_when_no_branch_lasts_the_longest_supported_is_chosen_and_said(catalog):
    """Nothing reaches November 2029: the branch supported longest (September 2029) is chosen,
    not the newest (a production branch to March 2027), and the reason says when it ends."""
    r620 = _dated("r620", 21, "ltsb", "2029-09-30")
    r595 = _dated("r595", 22, "pb", "2027-03-31")
    release, why = release_choice(ReleaseFacts.of(_design(), _catalog(catalog, r620, r595)))
    assert release is r620
    assert "supported longest" in why and "before September 2029" in why


def test_when_no_branch_lasts_a_long_term_branch_ending_the_same_day_is_preferred(catalog):
    """Nothing reaches November 2029 and two branches both end on 30 September 2029: the
    long-term branch is chosen although the production branch is the newer release. Negative
    case: the production branch ending a day later is chosen, as it is supported longer."""
    lts = _dated("lts", 20, "ltsb", "2029-09-30")
    pb = _dated("pb", 21, "pb", "2029-09-30")
    assert release_choice(ReleaseFacts.of(_design(), _catalog(catalog, lts, pb)))[0] is lts
    assert release_choice(ReleaseFacts.of(_design(), _catalog(catalog, pb, lts)))[0] is lts
    later_pb = _dated("pb", 21, "pb", "2029-10-01")
    assert (
        release_choice(ReleaseFacts.of(_design(), _catalog(catalog, lts, later_pb)))[0] is later_pb
    )


def test_a_release_that_does_not_list_the_vsphere_release_is_passed_over(catalog):
    only_8u3 = _dated("only-8u3", 22, "ltsb", "2030-12-31", vsphere_releases=["8.0u3"])
    any_vsphere = _dated("any", 20, "ltsb", "2029-12-31")
    cat = _catalog(catalog, only_8u3, any_vsphere)
    assert release_choice(ReleaseFacts.of(_design(vsphere="9.0"), cat))[0] is any_vsphere
    assert release_choice(ReleaseFacts.of(_design(vsphere="8.0u3"), cat))[0] is only_8u3


def test_a_late_2026_design_gets_a_long_term_branch_and_its_end_date(sized, catalog):
    """mig-shared (2 November 2026, H100 PCIe): the shipped releases are NVIDIA AI Enterprise 7
    (R580 long-term, to June 2028), 8 (R595 production, to March 2027) and 9 (R620 long-term, to
    September 2029). None lasts 3 years; 9 lasts longest. The decision names the branch and its
    end of support, and a Note says the upgrade falls inside the service period; with a 2-year
    period (to November 2028) 9 outlives it and no Note is raised."""
    r = sized["mig-shared"]
    assert r.software.nvaie_release == "nvaie-9"
    (text,) = [d.text for d in r.decisions if "The platform runs" in d.text]
    assert "long-term support branch" in text and "September 2029" in text
    assert "release-support-ends-in-service" in {w.code for w in r.warnings}
    doc = design_dict("mig-shared")
    doc.setdefault("platform", {})["service_years"] = 2
    from wizard.engine.size import size

    r = size(design_from_dict(doc), catalog)
    assert r.software.nvaie_release == "nvaie-9"
    assert "release-support-ends-in-service" not in {w.code for w in r.warnings}


def test_a_named_release_whose_support_ended_is_flagged(catalog):
    """NVIDIA AI Enterprise 5 (R550) ended in April 2025: named by a design of November 2026 it
    is kept but flagged."""
    from wizard.engine.size import size

    doc = design_dict("mig-shared")
    doc.setdefault("platform", {})["nvaie_release"] = "nvaie-5"
    r = size(design_from_dict(doc), catalog)
    found = {w.code: w.message for w in r.warnings}
    assert "release-support-ended" in found and "April 2025" in found["release-support-ended"]


@pytest.mark.parametrize(
    ("date", "years", "end"),
    [
        ("2028-02-29", 3, "2031-02-28"),  # no 29 February in 2031: the day before
        ("2028-02-29", 4, "2032-02-29"),  # 2032 is a leap year: the same day
        ("2026-11-02", 3, "2029-11-02"),  # negative case: an ordinary day keeps its date
    ],
)
def test_the_service_period_ends_on_the_same_day_years_later(catalog, date, years, end):
    """The service period runs ``service_years`` whole years from the proposal's date; a period
    starting on 29 February ends on 28 February of a year without one."""
    doc = design_dict("llm-serving")
    doc["project"]["date"] = date
    doc.setdefault("platform", {})["service_years"] = years
    assert service_end(ReleaseFacts.of(design_from_dict(doc), catalog)) == dt.date.fromisoformat(
        end
    )


@pytest.mark.parametrize(
    ("eos", "warned"),
    [
        ("2026-11-01", "release-support-ended"),  # the day before the proposal's date
        ("2026-11-02", "release-support-ends-in-service"),  # the proposal's date itself
        ("2029-11-01", "release-support-ends-in-service"),  # the day before the period's end
        ("2029-11-02", None),  # the period's last day (3 years from 2 November 2026)
    ],
)
def test_a_named_release_is_flagged_by_where_its_support_ends(catalog, eos, warned):
    """The proposal is dated 2 November 2026 with a 3-year service period, to 2 November 2029.
    A named branch supported to the proposal's date is still supported on it (it ends within
    the period, which is a Note); one supported to the period's last day covers it."""
    from wizard.engine.size import size

    named = _dated("named", 20, "ltsb", eos)
    r = size(_design(nvaie_release="named"), _catalog(catalog, named))
    codes = {w.code for w in r.warnings} & {
        "release-support-ended",
        "release-support-ends-in-service",
    }
    assert codes == ({warned} if warned else set())


@pytest.mark.parametrize(
    ("eos", "warned"),
    [
        ("2029-11-01", "release-support-window"),  # ends a day before the period's end
        ("2029-11-02", None),  # supported to the period's last day: no gap to accept
    ],
)
def test_a_stranded_branch_is_a_risk_only_when_it_ends_inside_the_period(catalog, eos, warned):
    """A later release that lists only Volta GPUs does not run this H100 design, so the named
    branch has no successor. Supported to a day before the period's end (2 November 2029), that
    gap is a risk with its decision; supported to the last day, there is no gap."""
    from wizard.engine.size import size

    named = _dated("named", 20, "ltsb", eos)
    later = _dated("later", 21, "ltsb", "2031-06-30").model_copy(
        update={"gpu_architectures": ["Volta"]}
    )
    r = size(_design(nvaie_release="named"), _catalog(catalog, named, later))
    codes = {w.code for w in r.warnings} & {
        "release-support-window",
        "release-support-ends-in-service",
        "release-support-ended",
    }
    assert codes == ({warned} if warned else set())


def test_an_undated_design_starts_its_service_period_at_the_newest_release(catalog):
    """With no proposal date the service period starts on the newest release date in the
    catalog (here 15 March 2026 beats 1 August 2025), so the choice does not depend on the day it
    is computed; with no release dated either, it starts on 1 January 2026."""
    from wizard.engine.platform.releases import service_start

    doc = design_dict("llm-serving")
    doc["project"].pop("date", None)
    design = design_from_dict(doc)
    assert design.project.date is None
    older = OLD.model_copy(update={"released": dt.date(2025, 8, 1)})
    newer = NEW.model_copy(update={"released": dt.date(2026, 3, 15)})
    assert service_start(ReleaseFacts.of(design, _catalog(catalog, older, newer))) == dt.date(
        2026, 3, 15
    )
    assert service_start(ReleaseFacts.of(design, _catalog(catalog, OLD, NEW))) == dt.date(
        2026, 1, 1
    )


def _facts(catalog, releases, **update) -> ReleaseFacts:
    """The stage's input built by hand: no design; the GPU and server are catalog entries."""
    base = {
        "named": None,
        "vsphere": VsphereRelease("8.0u3"),
        "virtual": True,
        "date": dt.date(2026, 11, 2),
        "service_years": 3,
        "gpu": catalog.gpus["b200-sxm"],
        "server": catalog.servers["nvidia-dgx-b200"],
        "releases": {r.id: r for r in releases},
    }
    return ReleaseFacts(**(base | update))


def test_the_release_stage_reads_its_facts_alone(catalog):
    """On an HGX B200 board vSphere runs vGPUs only on a release that lists Blackwell among its
    NVSwitch architectures (NVIDIA AI Enterprise 8.x), so with a group on vGPUs the older
    release that lists it wins over a newer one that does not; with every group passed through,
    the newest wins. A named release is taken as named; an unknown name is refused on its
    field; a release for another vSphere release is passed over."""
    board = _release("board", 20, ["Blackwell"]).model_copy(
        update={"vsphere_nvswitch_architectures": ["Blackwell"]}
    )
    newer = _release("newer", 21, ["Blackwell"])
    assert release_choice(_facts(catalog, [board, newer]))[0] is board
    assert release_choice(_facts(catalog, [board, newer], virtual=False))[0] is newer
    assert release_choice(_facts(catalog, [board, newer], named="newer")) == (
        newer,
        "as the design asks",
    )
    with pytest.raises(
        DesignError, match=r"platform.nvaie_release: .*'gone' \(known: board, newer\)"
    ):
        release_choice(_facts(catalog, [board, newer], named="gone"))
    only_9 = newer.model_copy(update={"vsphere_releases": ["9.0"]})
    assert release_choice(_facts(catalog, [board, only_9], virtual=False))[0] is board


def test_the_service_period_is_read_from_the_facts(catalog):
    """3 years from 2 November 2026 end on 2 November 2029; 5 years on 2 November 2031."""
    assert service_end(_facts(catalog, [])) == dt.date(2029, 11, 2)
    assert service_end(_facts(catalog, [], service_years=5)) == dt.date(2031, 11, 2)


@pytest.mark.parametrize(
    ("modes", "virtual"),
    [
        (["vgpu", "remote", "remote"], True),  # one group on vGPUs is enough
        (["remote", "mig", "remote"], True),  # MIG-backed vGPUs too
        (["remote", "remote", "remote"], False),  # none on vGPUs (negative case)
    ],
)
def test_the_facts_say_vgpus_when_any_group_runs_on_them(catalog, modes, virtual):
    """The release facts of the enterprise example (five groups; here its first three, with
    the modes set): a vGPU host needs a release that runs the board's vGPUs when any one group
    runs on them, not only when all do."""
    doc = design_dict("enterprise")
    doc["workloads"] = [
        g | {"sharing_mode": m} for g, m in zip(doc["workloads"], modes, strict=False)
    ]
    for g in doc["workloads"]:
        g.setdefault("constraints", {})["remote_ok"] = True
    facts = ReleaseFacts.of(design_from_dict(doc), catalog)
    assert facts.virtual is virtual
    assert (facts.gpu, facts.server) == (
        catalog.gpus["v100-sxm2-32gb"],
        catalog.servers[doc["hardware"]["server"]],
    )
