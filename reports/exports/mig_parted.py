"""The per-host MIG partition config in the YAML format NVIDIA's ``nvidia-mig-parted`` reads.

Format (github.com/NVIDIA/mig-parted, README "Quick Start" and examples/config.yaml): a
``version: v1`` document whose ``mig-configs`` map names to lists of device entries, each with
``devices`` (``all`` or a list of GPU indices), ``mig-enabled`` and, when enabled,
``mig-devices`` mapping a MIG profile name (e.g. ``"3g.40gb"``) to a count. mig-parted chooses
the placements itself; the counts per GPU are what it needs.

One config per host (``host-1``, ``host-2``, ...) holds its MIG GPUs; the host's other GPUs are
listed with ``mig-enabled: false`` so applying the config leaves no stale partitions. Apply on a
host with ``nvidia-mig-parted apply -f mig-config.yaml -c host-N``. The YAML is written by hand:
the structure is fixed and small, and every string is quoted, so no YAML library is needed.
"""

from __future__ import annotations

import json
from collections import Counter

from wizard.base.errors import UserError
from wizard.model.result import HostAssignment, Result

# Every design's MIG groups run as MIG-backed vGPUs on vSphere, where partitions are not written
# in advance; the file format below is for Linux hosts and guests that partition their own GPUs.
VSPHERE_MIG_REFUSAL = (
    "mig-config: this design runs MIG-backed vGPUs on vSphere, where only MIG mode is set by "
    "hand: vSphere creates each GPU instance when its VM powers on (NVIDIA AI Enterprise: 'If you "
    "are using VMware vSphere, omit this task. VMware vSphere creates the GPU instances "
    "automatically.'), and nvidia-mig-parted is a tool for Linux hosts and guests that partition "
    "their own GPUs; write the vSphere host and VM steps instead: gpuwizard vsphere-steps DESIGN "
    "-o vsphere-steps.ps1"
)


# A GPU cut into MIG instances: by vSphere for MIG-backed vGPUs, or in the VM that holds it
MIG_GPU_MODES = ("mig", "mig-guest")


def _quote(text: str) -> str:
    """A double-quoted YAML scalar; JSON string escaping is valid YAML."""
    return json.dumps(text, ensure_ascii=False)


def _host_entries(host: HostAssignment) -> list[tuple[list[int], dict[str, int] | None]]:
    """(GPU indices, profile counts or None for MIG off), GPUs with equal layouts together."""
    groups: dict[tuple[tuple[str, int], ...] | None, list[int]] = {}
    for g in host.gpus:
        if g.mode in MIG_GPU_MODES:
            counts = Counter(s.profile for s in g.slots if s.kind == "mig" and s.profile)
            key: tuple[tuple[str, int], ...] | None = tuple(sorted(counts.items()))
        else:
            key = None
        groups.setdefault(key, []).append(g.gpu)
    out = []
    for key, gpus in groups.items():
        out.append((sorted(gpus), dict(key) if key is not None else None))
    return sorted(out, key=lambda e: e[0][0])


def _in_vm(host: HostAssignment, guest: set[str]) -> HostAssignment:
    """The host's GPUs as the VM that partitions them sees them: only those it holds (with an
    instance of a group partitioned in the guest), numbered from 0 in their order."""
    mine = [g for g in host.gpus if any(s.workload in guest for s in g.slots)]
    return host.model_copy(
        update={"gpus": [g.model_copy(update={"gpu": i}) for i, g in enumerate(mine)]}
    )


def _spares_note(result: Result) -> list[str]:
    """Hosts beyond the packed ones (HA and maintenance reserve) carry no workload here, but a
    VM restarted on one needs its MIG instances there: say so."""
    packed = len(result.packing.hosts)
    total = result.cluster.hosts_total
    if total <= packed:
        return []
    spares = f"host-{packed + 1}" if total == packed + 1 else f"host-{packed + 1} to host-{total}"
    return [
        f"# {spares}: reserve for HA and maintenance, no workload placed. Give a reserve host",
        "# the config of the host whose VMs it takes over (or the all-disabled one otherwise).",
    ]


def has_mig(result: Result) -> bool:
    return any(g.mode in MIG_GPU_MODES for h in result.packing.hosts for g in h.gpus)


def mig_parted_yaml(result: Result, title: str = "") -> str:
    """The config text. Raises UserError when the design places nothing on MIG."""
    if not has_mig(result):
        raise UserError(
            "mig-config: no workload group in this design runs on MIG instances; choose MIG "
            "as a group's GPU sharing mode first"
        )
    guest = {w.name for w in result.workloads if w.sharing.mode == "mig-guest"}
    # the VM's GPUs are those with an instance of a group partitioned in the guest
    if not guest and result.software is not None and result.software.vsphere_steps is not None:
        raise UserError(VSPHERE_MIG_REFUSAL)
    title = " ".join(title.split())  # one line: it goes into a comment
    apply = (
        [
            "# The GPUs are passed through whole to one VM per host, which partitions them: on",
            "# a Kubernetes worker, give this file to the GPU Operator's MIG Manager as its",
            "# custom config map and label the node nvidia.com/mig.config=host-N; without",
            "# Kubernetes, run in the VM: nvidia-mig-parted apply -f THIS_FILE -c host-N.",
            "# The VM numbers its GPUs 0, 1, ... in PCI order.",
        ]
        if guest
        else ["# Apply on host N with: nvidia-mig-parted apply -f THIS_FILE -c host-N"]
    )
    lines = [
        f"# MIG partitions per host{': ' + title if title else ''}",
        f"# GPU: {result.gpu}, server: {result.server}. Generated by gpuwizard.",
        *apply,
        *_spares_note(result),
        "version: v1",
        "mig-configs:",
        "  all-disabled:",
        "    - devices: all",
        "      mig-enabled: false",
    ]
    for host in result.packing.hosts:
        if not any(g.mode in MIG_GPU_MODES for g in host.gpus):
            continue
        lines += ["", f"  host-{host.host + 1}:"]
        for gpus, counts in _host_entries(_in_vm(host, guest) if guest else host):
            lines.append(f"    - devices: [{', '.join(str(i) for i in gpus)}]")
            if counts is None:
                lines.append("      mig-enabled: false")
                continue
            lines += ["      mig-enabled: true", "      mig-devices:"]
            lines += [f"        {_quote(p)}: {n}" for p, n in counts.items()]
    return "\n".join(lines) + "\n"
