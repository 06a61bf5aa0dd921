"""The proposal's sections, in reading order. Each is a function of the report data that returns
its flowables, or ``None`` when the Result holds nothing for it: a section is left out rather
than filled with guesses."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reportlab.platypus import Flowable

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
)
from reports.story import Story


@dataclass(frozen=True)
class Section:
    title: str
    build: Callable[[Story], list[Flowable] | None]


SECTIONS: list[Section] = [
    Section("Executive summary", summary.build),
    Section("Options considered", options.build),
    Section("Requirements", requirements.build),
    Section("Sizing per workload", sizing.build),
    Section("Measurements used", measurements.build),
    Section("Sharing modes and GPU layouts", sharing.build),
    Section("Cluster size and high availability", ha.build),
    Section("Host topology", topology.build),
    Section("Network fabric", network.build),
    Section("Storage and data path", storage.build),
    Section("Software stack and platform checklist", software.build),
    Section("Power and space", power.build),
    Section("Cabling and port map", cabling.build),
    Section("Bill of materials", bom.build),
    Section("Cost of ownership", cost.build),
    Section("Security and operations", operations.build),
    Section("Design decisions", decisions.build),
    Section("Risks and warnings", risks.build),
    Section("Appendix", appendix.build),
]


def build_all(story: Story) -> list[Flowable]:
    """Every section with data, numbered in order. The appendix comes last because it lists the
    sources the other sections cited."""
    return build_sections(story, SECTIONS)


def build_sections(story: Story, sections: list[Section], prefix: str = "") -> list[Flowable]:
    """``sections`` with data, numbered on from the story's count; ``prefix`` goes before each
    title (a cluster's name, say), the first letter of the title then kept as written."""
    out: list[Flowable] = []
    for section in sections:
        saved = (story.section, story.subsection)
        heading = story.h1(prefix + section.title)
        body = section.build(story)
        if body is None:
            story.section, story.subsection = saved
            continue
        out += heading + body
    return out
