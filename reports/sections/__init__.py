"""The proposal's sections, in reading order. Each is a function of the report data that returns
its flowables, or ``None`` when the Result holds nothing for it: a section is left out rather
than filled with guesses."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reports.data import cluster_views
from reports.doctree import Block
from reports.sections import (
    appendix,
    bom,
    cabling,
    cost,
    decisions,
    ha,
    measurements,
    network,
    operations,
    options,
    power,
    requirements,
    risks,
    sharing,
    sizing,
    software,
    storage,
    summary,
    topology,
    whole,
)
from reports.story import Story


@dataclass(frozen=True)
class Section:
    title: str
    build: Callable[[Story], list[Block] | None]
    # a GPU cluster's own section: written once for each cluster, under its name when there
    # are several; the others are the whole design's
    per_cluster: bool = False


# One list for a design of one cluster or several: the whole design's summary and options, each
# GPU cluster's own sections, then what the clusters share (networks, power and space, cabling,
# the one bill, the cost), operations, the design's own decisions, the risks and the sources.
SECTIONS: list[Section] = [
    Section("Executive summary", summary.build),
    Section("Options considered", options.build),
    Section("Requirements", requirements.build, per_cluster=True),
    Section("Sizing per workload", sizing.build, per_cluster=True),
    Section("Measurements used", measurements.build, per_cluster=True),
    Section("Sharing modes and GPU layouts", sharing.build, per_cluster=True),
    Section("Cluster size and high availability", ha.build, per_cluster=True),
    Section("Host topology", topology.build, per_cluster=True),
    Section("Storage and data path", storage.build, per_cluster=True),
    Section("Software stack and platform checklist", software.build, per_cluster=True),
    Section("Design decisions", decisions.build, per_cluster=True),
    Section("Network fabric", network.build),
    Section("Power and space", power.build),
    Section("Cabling and port map", cabling.build),
    Section("Bill of materials", bom.build),
    Section("Cost of ownership", cost.build),
    Section("Security and operations", operations.build),
    Section("Where each workload group runs", whole.placements),
    Section("Decisions for the whole design", whole.decisions_of_the_design),
    Section("Calculations for the whole design", whole.calculations_of_the_design),
    Section("Risks and warnings", risks.build),
    Section("Appendix", appendix.build),
]


def build_all(story: Story) -> list[Block]:
    """Every section with data, numbered in order: the whole design's read ``story.data``, each
    cluster's its own view. The appendix comes last because it lists the sources the other
    sections cited."""
    whole_design = story.data
    clusters = cluster_views(whole_design)
    story.clusters = clusters
    names = [c.name for c in whole_design.plan.clusters]
    named = len(clusters) > 1
    out: list[Block] = []
    i = 0
    while i < len(SECTIONS):
        if not SECTIONS[i].per_cluster:
            story.data = whole_design
            out += build_sections(story, [SECTIONS[i]])
            i += 1
            continue
        run = []
        while i < len(SECTIONS) and SECTIONS[i].per_cluster:
            run.append(SECTIONS[i])
            i += 1
        for name, view in zip(names, clusters, strict=True):
            if view.result is not story.data.result:
                story.shown_calculations = set()  # each cluster logs its own figures
            story.data = view
            out += build_sections(story, run, prefix=f"{name}: " if named else "")
    story.data = whole_design
    return out


def build_sections(story: Story, sections: list[Section], prefix: str = "") -> list[Block]:
    """``sections`` with data, numbered on from the story's count; ``prefix`` goes before each
    title (a cluster's name, say), the first letter of the title then kept as written."""
    out: list[Block] = []
    for section in sections:
        saved = (story.section, story.subsection)
        # under a cluster's name the title reads on: "HGX cluster: sizing per workload"
        title = section.title[0].lower() + section.title[1:] if prefix else section.title
        heading = story.h1(prefix + title)
        body = section.build(story)
        if body is None:
            story.section, story.subsection = saved
            continue
        out += heading + body
    return out
