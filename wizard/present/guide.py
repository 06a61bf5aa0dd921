"""The user guide the wizard shows under Help (F1): what each page asks, why it matters and
what to check before moving on, in the order of the pages. Plain data, so the text is tested
and kept beside the glossary it links to."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class GuideSection:
    anchor: str  # the page it explains; F1 on that page opens here
    title: str
    paragraphs: tuple[str, ...]


GUIDE: tuple[GuideSection, ...] = (
    GuideSection(
        "start",
        "How the wizard works",
        (
            "Seven pages take a design from the workloads to a proposal. Every edit is sized at "
            "once: the status bar at the bottom shows the hosts, GPUs and warnings of the design "
            "as it is now, and the Review page shows every figure with the calculation behind "
            "it.",
            "Edit ▸ Undo (Ctrl+Z) takes back any change, on any page; the design file changes "
            "only when you save it, and an autosave keeps your work if the program stops.",
            "A field that cannot take what you typed says so underneath, with the allowed "
            "values; a page with a problem keeps Next disabled and names the field.",
        ),
    ),
    GuideSection(
        "project",
        "1. Project",
        (
            "The customer, project and architect appear on the proposal's cover, with your "
            "logo if you choose one. The currency is the one your price list uses.",
        ),
    ),
    GuideSection(
        "workloads",
        "2. Workloads",
        (
            "One group per kind of work: training or fine-tuning a model, serving one, "
            "notebooks for data scientists, or other GPU jobs. Give a model (a published preset "
            "or your own shape) and the engine works out memory, GPUs per replica and time; or "
            "give a per-user need (GPU memory, active share) for shared notebooks.",
            "Targets (time to train, time to first token, time between tokens, throughput) "
            "make the sizing add GPUs until they are met; without them the sizing follows the "
            "demand you state.",
            "Active at once: the share of notebook users whose VMs run at the same time. A "
            "powered-on VM keeps its vGPU memory even when idle, so count only users whose VMs "
            "are powered off when they are away.",
        ),
    ),
    GuideSection(
        "hardware",
        "3. Hardware",
        (
            "The GPU, server, GPUs per host, NICs, networks and storage of each GPU cluster. "
            "Choices the parts cannot support are disabled with the reason beside them. "
            "Recommend for me fills the page from the workloads, by cost of ownership when a "
            "price list is chosen on the Export page.",
            "A design can hold several GPU clusters (Add cluster): for example PCIe GPUs for "
            "notebooks and an HGX cluster for training. vSphere HA works per cluster.",
        ),
    ),
    GuideSection(
        "sharing",
        "4. Sharing mode",
        (
            "How each group's VMs get GPUs: passthrough (whole GPUs), time-sliced vGPU, "
            "MIG-backed vGPU or a network-attached GPU pool. The comparison shows what the same "
            "demand needs under each mode.",
        ),
    ),
    GuideSection(
        "ha",
        "5. HA policy",
        (
            "How many host failures each cluster survives (N+1, N+2 or a reserve share) and "
            "whether a host is kept for maintenance. The cards show what is left after the "
            "allowed failures.",
        ),
    ),
    GuideSection(
        "review",
        "6. Review",
        (
            "Every figure of the design: hosts, GPUs, power, racks, the bill of materials, "
            "warnings (Risk, Caution, Note) and the calculation log. Times and rates carry their "
            "range over the stated spread of the assumptions; a target met as estimated but "
            "missed at the pessimistic end is shown as at risk.",
        ),
    ),
    GuideSection(
        "export",
        "7. Export",
        (
            "The proposal as PDF, or as a Word document to finish in Word; the design file; the "
            "bill of materials as CSV or XLSX, priced when you choose a price list; and the "
            "vSphere host and VM steps as a PowerCLI script (the NVIDIA host driver from the "
            "cluster's image, graphics and vGPU mode, MIG mode, passthrough, the GPU fabric's "
            "adapters, and each VM's vGPUs or GPUs, fabric adapters, MMIO and memory "
            "reservation; with the vSphere Kubernetes Service, a VM class per VM shape instead "
            "of named VMs). The script reads each host and VM first and changes only what "
            "differs, so a second run changes nothing; it only reports until you run it with "
            "-Apply, and restarts a host at most once. A design "
            "with a Risk that makes it impossible to build writes neither proposal nor bill of "
            "materials until the Risk is resolved.",
        ),
    ),
)

PAGE_ANCHORS = ("project", "workloads", "hardware", "sharing", "ha", "review", "export")
