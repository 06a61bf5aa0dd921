"""Which NVIDIA AI Enterprise release a design runs and why: the one it names, else the release
that runs its GPU, vSphere release and board and is supported through the service period; with
the period's start and end and where a release's end of support is stated."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from wizard.base.errors import DesignError
from wizard.engine.basis.sources_platform import FM_CRX_9
from wizard.engine.platform.deployment import BRANCH_NAME
from wizard.engine.platform.platform_rules import blackwell_board
from wizard.model.catalog import Catalog, Gpu, Server, SoftwareRelease
from wizard.model.design import VSPHERE_LABELS, Design, SharingMode, VsphereRelease


@dataclass(frozen=True)
class ReleaseFacts:
    """What choosing the release reads, and nothing more: the release the design names (if
    any), its vSphere release, whether any group runs on vGPUs (an HGX Blackwell board runs
    them only on releases that list it), the proposal's date and service years, the GPU and
    server (None where the catalog lacks them) and the catalog's releases by id."""

    named: str | None
    vsphere: VsphereRelease
    virtual: bool
    date: dt.date | None
    service_years: int
    gpu: Gpu | None
    server: Server | None
    releases: Mapping[str, SoftwareRelease]

    @classmethod
    def of(cls, design: Design, catalog: Catalog) -> ReleaseFacts:
        p = design.platform
        return cls(
            named=p.nvaie_release,
            vsphere=p.vsphere,
            virtual=any(
                g.sharing_mode in (SharingMode.VGPU, SharingMode.MIG) for g in design.workloads
            ),
            date=design.project.date,
            service_years=p.service_years,
            gpu=catalog.gpus.get(design.hardware.gpu),
            server=catalog.servers.get(design.hardware.server),
            releases=catalog.software,
        )


def choose_release(design: Design, catalog: Catalog) -> SoftwareRelease | None:
    """The NVIDIA AI Enterprise release the design runs (see ``release_choice``)."""
    return release_choice(ReleaseFacts.of(design, catalog))[0]


def service_start(facts: ReleaseFacts) -> dt.date:
    """The day the service period starts: the proposal's date, or (none given) the newest
    release date in the catalog, so the choice never depends on the day it is computed."""
    if facts.date is not None:
        return facts.date
    known = [r.released for r in facts.releases.values() if r.released is not None]
    return max(known, default=dt.date(2026, 1, 1))


def service_end(facts: ReleaseFacts) -> dt.date:
    start = service_start(facts)
    years = facts.service_years
    try:
        return start.replace(year=start.year + years)
    except ValueError:  # 29 February
        return start.replace(year=start.year + years, day=28)


def release_fits(r: SoftwareRelease, facts: ReleaseFacts) -> bool:
    """Whether ``r`` runs this design's GPU, vSphere release and NVSwitch board (a release that
    does not say is taken as fitting; the checks of the design name what it must confirm)."""
    gpu, server = facts.gpu, facts.server
    if gpu is not None and r.supports(gpu.architecture) is False:
        return False
    if r.vsphere_releases and facts.vsphere.value not in r.vsphere_releases:
        return False
    if gpu is not None and server is not None and facts.virtual and blackwell_board(gpu, server):
        return "Blackwell" in r.vsphere_nvswitch_architectures
    return True


def window_sources(r: SoftwareRelease, gpu: Gpu, server: Server) -> list[str]:
    """Where a release's end of support is stated (the part of its lifecycle source that names
    its driver branch), and on an HGX Blackwell board why no later release runs it."""
    parts = [p.strip() for p in r.lifecycle_source.split(";") if p.strip()]
    dated = [p for p in parts if r.driver_branch in p and "end of life" in p] or [
        p for p in parts if r.driver_branch in p
    ][:1]
    return dated + ([FM_CRX_9] if blackwell_board(gpu, server) else [])


def release_choice(facts: ReleaseFacts) -> tuple[SoftwareRelease | None, str]:
    """The release and why it was chosen, in words for the decision log: the one the design
    names; else, among the releases that run its GPU, vSphere release and board, those whose
    branch is supported to the end of the service period, a long-term support branch first,
    then the newest; when none lasts that long, the one supported longest."""
    wanted = facts.named
    if wanted is not None:
        release = facts.releases.get(wanted)
        if release is None:
            known = ", ".join(sorted(facts.releases)) or "none"
            raise DesignError(
                f"platform.nvaie_release: unknown NVIDIA AI Enterprise release '{wanted}' "
                f"(known: {known})"
            )
        return release, "as the design asks"
    releases = sorted(facts.releases.values(), key=lambda r: (r.vgpu_branch, r.release))
    if not releases:
        return None, ""
    gpu = facts.gpu
    fitting = [r for r in releases if release_fits(r, facts)]
    # a release whose GPU list names the GPU before one whose list is not recorded
    listed = [r for r in fitting if gpu is not None and r.supports(gpu.architecture)]
    fitting = listed or fitting
    what = (
        f"{gpu.architecture} GPUs such as the {gpu.name} on {VSPHERE_LABELS[facts.vsphere]}"
        if gpu is not None
        else VSPHERE_LABELS[facts.vsphere]
    )
    if gpu is not None and not listed:
        what += f" (its GPU list is not recorded: check that it supports the {gpu.name})"
    if not any(r.vsphere_releases for r in fitting):
        what += " (the catalog does not record the vSphere releases NVIDIA lists for it)"
    if not fitting:
        newest = releases[-1]
        return newest, f"the newest in the catalog, although none of its releases supports {what}"
    end = service_end(facts)
    lasting = [r for r in fitting if r.end_of_support is not None and r.end_of_support >= end]
    years = facts.service_years
    period = f"the {years}-year service period (to {end:%B %Y})"
    if lasting:
        best = max(lasting, key=lambda r: (r.branch == "ltsb", r.vgpu_branch, r.release))
        return best, (
            f"the newest release that supports {what} and whose {BRANCH_NAME[best.branch]} is "
            f"supported beyond {period}"
            + (", a long-term support branch first" if best.branch == "ltsb" else "")
        )
    dated = [r for r in fitting if r.end_of_support is not None]
    if dated:
        best = max(dated, key=lambda r: (r.end_of_support, r.branch == "ltsb", r.vgpu_branch))
        return best, (
            f"of the releases that support {what}, the one supported longest; no branch is "
            f"supported for {period}, so the platform moves to a later branch before "
            f"{best.end_of_support:%B %Y}"
        )
    last = fitting[-1]
    return last, f"the newest in the catalog that supports {what} (support dates not recorded)"
