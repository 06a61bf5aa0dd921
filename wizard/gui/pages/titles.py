"""Every page's title and subtitle, where the step list and the Go menu read them without
importing the pages, which the wizard makes only when they are first needed."""

from __future__ import annotations

PROJECT = (
    "Project",
    "Who the design is for. These details go on the proposal's cover.",
)
WORKLOADS = (
    "Workloads",
    "What the GPUs are for. Add a group per kind of work; the editor asks only what "
    "that kind needs. Hover a label for a one-sentence explanation.",
)
HARDWARE = (
    "Hardware",
    "The GPU, the server that holds it and the network between hosts. Choices that "
    "cannot work together are disabled or flagged with the reason.",
)
SHARING = (
    "Sharing mode",
    "How each group's VMs get GPUs. Modes a group cannot use are disabled, with the "
    "reason in the tooltip.",
)
HA = (
    "HA policy",
    "How much spare capacity the cluster keeps for host failures and maintenance. "
    "The capacity after failures updates as you change the policy.",
)
REVIEW = (
    "Review",
    "The sized design. It follows every change on the earlier pages.",
)
EXPORT = (
    "Export",
    "Write the proposal, the design file, the bill of materials and deployment "
    "snippets. A failed write never touches an existing file or the design in this "
    "window.",
)
