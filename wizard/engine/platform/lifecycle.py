"""A release's support over the service period: warned where its branch ends before the period
does, and where no later release in the catalog runs the design to move to (a risk the customer
accepts, with its decision)."""

from __future__ import annotations

import datetime as dt

from wizard.base.numbers import count
from wizard.engine.basis.boards import nvswitch_board
from wizard.engine.basis.record import Recorder
from wizard.engine.platform.deployment import BRANCH_NAME
from wizard.engine.platform.releases import (
    ReleaseFacts,
    release_fits,
    service_end,
    service_start,
    window_sources,
)
from wizard.model.catalog import Gpu, Server, SoftwareRelease
from wizard.model.design import VSPHERE_LABELS
from wizard.model.result import Severity


def lifecycle(
    r: SoftwareRelease, facts: ReleaseFacts, gpu: Gpu, server: Server, rec: Recorder
) -> None:
    """Whether the release's branch is supported for the service period, warned where not."""
    eos = r.end_of_support
    if eos is None:
        return
    start, end = service_start(facts), service_end(facts)
    branch = f"{r.name} ({BRANCH_NAME[r.branch]} {r.driver_branch})"
    if eos < start:
        rec.warn(
            "release-support-ended",
            f"{branch} was supported to {eos:%B %Y}, before the proposal's date "
            f"({start:%d %B %Y}): choose a release whose branch is still supported "
            f"({r.lifecycle_source.split(';')[0]})",
        )
    elif eos < end and stranded(r, facts):
        _no_successor(r, branch, (start, end), facts, gpu, server, rec)
    elif eos < end:
        rec.warn(
            "release-support-ends-in-service",
            f"{branch} is supported to {eos:%B %Y}, before the end of the "
            f"{facts.service_years}-year service period ({end:%B %Y}): plan the "
            "move to a later branch (hosts first, then guests) before then",
            Severity.INFO,
        )


def stranded(r: SoftwareRelease, facts: ReleaseFacts) -> bool:
    """Whether the catalog has later releases than ``r`` and none of them, supported beyond
    ``r``, runs this design (its GPU, vSphere release and board): the platform then has no
    release to move to when ``r``'s branch ends. The newest release is never stranded: its
    successor is simply not out yet."""
    later = [s for s in facts.releases.values() if s.vgpu_branch > r.vgpu_branch]
    eos = r.end_of_support
    return bool(later) and not any(
        s.end_of_support is not None
        and eos is not None
        and s.end_of_support > eos
        and release_fits(s, facts)
        for s in later
    )


def _no_successor(
    r: SoftwareRelease,
    branch: str,
    period: tuple[dt.date, dt.date],
    facts: ReleaseFacts,
    gpu: Gpu,
    server: Server,
    rec: Recorder,
) -> None:
    """The release ends within the service period and the later releases in the catalog do
    not run this design: not upgrade advice but a risk the customer accepts, with its
    decision."""
    start, end = period
    eos = r.end_of_support
    assert eos is not None
    months = (eos.year - start.year) * 12 + eos.month - start.month
    where = "board" if nvswitch_board(gpu, server) else "GPU"
    board = (
        f"the {gpu.name} {where} of the {server.vendor} {server.model} "
        f"under {VSPHERE_LABELS[facts.vsphere]}"
    )
    rec.warn(
        "release-support-window",
        f"{branch} runs {board} as designed, and it is supported to {eos:%B %Y}: about "
        f"{count(max(months, 0), 'month')} after the proposal's date, and before the end of "
        f"the {facts.service_years}-year service period ({end:%B %Y}). The later "
        f"releases do not run this {where} for this use, so after that date the hosts run an "
        f"unsupported driver unless NVIDIA adds the {where} to a later release "
        f"({'; '.join(window_sources(r, gpu, server))})",
        Severity.WARNING,
    )
    rec.decide(
        f"The design accepts that {r.name} is supported only to {eos:%B %Y} on {board}.",
        f"No later release in the catalog runs this {where} as designed; "
        "the customer signs for the gap or changes the design before ordering.",
        implication=f"Before {eos:%B %Y}, move hosts and guests to the first later release "
        f"NVIDIA lists for this {where} under vSphere; if none is listed by then, the hosts "
        "stay on an unsupported branch. To avoid the gap, choose a GPU that a long-term "
        "support branch runs under vSphere for the whole service period.",
    )
