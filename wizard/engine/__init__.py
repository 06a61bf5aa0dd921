"""The pure sizing and topology engine: (Design, Catalog) -> Plan. No Qt, no reportlab, no I/O.

Readers (the command line, the wizard, the reports, Recommend, the calibration) enter through
this package only, a contract in pyproject.toml says so: ``plan`` sizes a design and answers every
figure; the rest are the Plan's types, the rule book's reasons the forms show beside a field
before anything is sized, its answer to which groups an expansion's new hosts carry, and the
named constants the documents quote. A figure a reader prints is a field of the Plan, never
counted again by the reader (tests/engine/test_face.py holds the list)."""

from wizard.engine.decide.cost import HOURS_PER_YEAR
from wizard.engine.decide.cpu_clusters import MANAGEMENT_MIN_HOSTS, MANAGEMENT_SOURCE
from wizard.engine.decide.placing import new_hosts_design
from wizard.engine.decide.planning import ClusterPlan, Plan, as_designed, compare, plan
from wizard.engine.decide.ranges import FIGURE_OF, FigureRange
from wizard.engine.fitout.portmap import PortLink
from wizard.engine.platform.compat import (
    Problem,
    ProblemKind,
    check_design,
    gpudirect_reason,
    group_mode_reason,
    nic_reason,
    nvlink_reason,
    rdma_reason,
    sharing_mode_reason,
    why_not,
)
from wizard.engine.platform.platform_rules import gpudirect_vgpu_reason

__all__ = [
    "FIGURE_OF",
    "HOURS_PER_YEAR",
    "MANAGEMENT_MIN_HOSTS",
    "MANAGEMENT_SOURCE",
    "ClusterPlan",
    "FigureRange",
    "Plan",
    "PortLink",
    "Problem",
    "ProblemKind",
    "as_designed",
    "check_design",
    "compare",
    "gpudirect_reason",
    "gpudirect_vgpu_reason",
    "group_mode_reason",
    "new_hosts_design",
    "nic_reason",
    "nvlink_reason",
    "plan",
    "rdma_reason",
    "sharing_mode_reason",
    "why_not",
]
