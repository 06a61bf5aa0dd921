"""Which NVIDIA AI Enterprise release a design runs and why: the one it names, else the release
that runs its GPU, vSphere release and board and is supported through the service period; with
the period's start and end and where a release's end of support is stated."""

from __future__ import annotations

import datetime as dt

from wizard.base.errors import DesignError
from wizard.engine.basis.sources_platform import FM_CRX_9
from wizard.engine.platform.deployment import BRANCH_NAME
from wizard.engine.platform.platform_rules import blackwell_board
from wizard.model.catalog import Catalog, Gpu, Server, SoftwareRelease
from wizard.model.design import VSPHERE_LABELS, Design, SharingMode


def choose_release(design: Design, catalog: Catalog) -> SoftwareRelease | None:
    """The NVIDIA AI Enterprise release the design runs (see ``release_choice``)."""
    return release_choice(design, catalog)[0]


def service_start(design: Design, catalog: Catalog) -> dt.date:
    """The day the service period starts: the proposal's date, or (none given) the newest
    release date in the catalog, so the choice never depends on the day it is computed."""
    if design.project.date is not None:
        return design.project.date
    known = [r.released for r in catalog.software.values() if r.released is not None]
    return max(known, default=dt.date(2026, 1, 1))


def service_end(design: Design, catalog: Catalog) -> dt.date:
    start = service_start(design, catalog)
    years = design.platform.service_years
    try:
        return start.replace(year=start.year + years)
    except ValueError:  # 29 February
        return start.replace(year=start.year + years, day=28)


def release_fits(
    r: SoftwareRelease, design: Design, gpu: Gpu | None, server: Server | None
) -> bool:
    """Whether ``r`` runs this design's GPU, vSphere release and NVSwitch board (a release that
    does not say is taken as fitting; the checks of the design name what it must confirm)."""
    if gpu is not None and r.supports(gpu.architecture) is False:
        return False
    if r.vsphere_releases and design.platform.vsphere.value not in r.vsphere_releases:
        return False
    virtual = any(g.sharing_mode in (SharingMode.VGPU, SharingMode.MIG) for g in design.workloads)
    if gpu is not None and server is not None and virtual and blackwell_board(gpu, server):
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


def release_choice(design: Design, catalog: Catalog) -> tuple[SoftwareRelease | None, str]:
    """The release and why it was chosen, in words for the decision log: the one the design
    names; else, among the releases that run its GPU, vSphere release and board, those whose
    branch is supported to the end of the service period, a long-term support branch first,
    then the newest; when none lasts that long, the one supported longest."""
    wanted = design.platform.nvaie_release
    if wanted is not None:
        release = catalog.software.get(wanted)
        if release is None:
            known = ", ".join(sorted(catalog.software)) or "none"
            raise DesignError(
                f"platform.nvaie_release: unknown NVIDIA AI Enterprise release '{wanted}' "
                f"(known: {known})"
            )
        return release, "as the design asks"
    releases = sorted(catalog.software.values(), key=lambda r: (r.vgpu_branch, r.release))
    if not releases:
        return None, ""
    gpu = catalog.gpus.get(design.hardware.gpu)
    server = catalog.servers.get(design.hardware.server)
    fitting = [r for r in releases if release_fits(r, design, gpu, server)]
    # a release whose GPU list names the GPU before one whose list is not recorded
    listed = [r for r in fitting if gpu is not None and r.supports(gpu.architecture)]
    fitting = listed or fitting
    what = (
        f"{gpu.architecture} GPUs such as the {gpu.name} on "
        f"{VSPHERE_LABELS[design.platform.vsphere]}"
        if gpu is not None
        else VSPHERE_LABELS[design.platform.vsphere]
    )
    if gpu is not None and not listed:
        what += f" (its GPU list is not recorded: check that it supports the {gpu.name})"
    if not any(r.vsphere_releases for r in fitting):
        what += " (the catalog does not record the vSphere releases NVIDIA lists for it)"
    if not fitting:
        newest = releases[-1]
        return newest, f"the newest in the catalog, although none of its releases supports {what}"
    end = service_end(design, catalog)
    lasting = [r for r in fitting if r.end_of_support is not None and r.end_of_support >= end]
    years = design.platform.service_years
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
