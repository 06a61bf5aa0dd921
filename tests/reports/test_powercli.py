"""The vSphere steps' PowerCLI script read with a real PowerShell grammar (tree-sitter-powershell).

PowerShell's own tokenizer takes more characters as quotes than ``'`` and ``"``: PowerShell/
PowerShell, src/System.Management.Automation/engine/parser/CharTraits.cs, ``SpecialChars``:
'QuoteSingleLeft = (char)0x2018', 'QuoteSingleRight = (char)0x2019', 'QuoteSingleBase =
(char)0x201a', 'QuoteReversed = (char)0x201b', 'QuoteDoubleLeft = (char)0x201c',
'QuoteDoubleRight = (char)0x201d', 'QuoteLowDoubleLeft = (char)0x201E', and 'EnDash', 'EmDash',
'HorizontalBar' (0x2013-0x2015) as dashes. The tree-sitter grammar knows only the ASCII ones, so
every script is parsed as PowerShell reads it: those characters replaced by their ASCII
equivalents first.
"""

from __future__ import annotations

import base64
import re
from functools import cache

import pytest
import tree_sitter_powershell
from tree_sitter import Language, Node, Parser

from reports.exports import powercli
from reports.exports.powercli import powercli_script
from wizard.app.io import design_from_text
from wizard.base.bundled import example_names, example_text
from wizard.engine import plan
from wizard.model.design import KubernetesPlatform

_AS_POWERSHELL_READS = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u2015": "-",
    }
)
_BASE64_LITERAL = re.compile(r"'[A-Za-z0-9+/=]*'")
_PARSER = Parser(Language(tree_sitter_powershell.language()))

# The injection the issue found: U+201A ends a single-quoted string for PowerShell.
PAYLOAD = "DC-16C\u201a) 0 256; Start-Process calc; #"
HOSTILE_GROUP = (
    "Chat \u2018\u2019\u201a\u201b \u201c\u201d\u201e `$(Start-Process calc)` <# #>\n"
    "Start-Process calc; # \u201b; Start-Process calc"
)


class Script:
    """A script parsed as PowerShell reads it."""

    def __init__(self, text: str):
        self.text = text
        self.src = text.translate(_AS_POWERSHELL_READS).encode("utf-8")
        self.tree = _PARSER.parse(self.src)

    def of(self, node: Node) -> str:
        return self.src[node.start_byte : node.end_byte].decode("utf-8")

    def nodes(self, *types: str) -> list[Node]:
        out, todo = [], [self.tree.root_node]
        while todo:
            n = todo.pop()
            if n.type in types:
                out.append(n)
            todo.extend(reversed(n.children))
        return out

    def broken(self) -> list[str]:
        out, todo = [], [self.tree.root_node]
        while todo:
            n = todo.pop()
            if n.type == "ERROR" or n.is_missing:
                out.append(f"{n.type} at {n.start_point}: {self.of(n)[:80]!r}")
            todo.extend(n.children)
        return out

    def commands(self) -> list[str]:
        return [self.of(n).lower() for n in self.nodes("command_name")]

    def body_start(self) -> int:
        """Where the generator's constant prelude ends: what follows depends on the design."""
        prelude = powercli._PRELUDE.rstrip().encode("utf-8")
        at = self.src.index(prelude)
        return at + len(prelude)

    def body_end(self) -> int:
        return self.src.index(powercli._POSTLUDE.rstrip().encode("utf-8"))


def _old_ps(text: str) -> str:
    """The escaping the script used before (reports/exports/powercli.py at 6599bb2)."""
    cleaned = "".join(ch if ch.isprintable() else " " for ch in text)
    return "'" + cleaned.replace("'", "''").replace("\u2018", "''").replace("\u2019", "''") + "'"


@cache
def _plan(name: str):
    from wizard.app.catalog_loader import load_catalog

    catalog = load_catalog(include_user=False)
    return plan(design_from_text(example_text(name)), catalog), catalog


def _script(name: str) -> str:
    p, catalog = _plan(name)
    (cluster,) = [c for c in p.clusters if c.result.software.vsphere_steps is not None]
    return powercli_script(cluster.result, p.design.project.project_name, "", catalog)


@cache
def _hostile(vks: bool = False) -> tuple[str, list[str]]:
    """rtx-pro-vsphere with a group named with every quote PowerShell knows, backticks, $(),
    block-comment markers and a line break, and a user catalog whose vGPU types carry the
    payload; the project title and the cluster name too. Without ``vks`` its VMs are named VMs
    (the group names reach the script's table), with it VM classes (named after the groups)."""
    from wizard.app.catalog_loader import load_catalog

    catalog = load_catalog(include_user=False)
    design = design_from_text(example_text("rtx-pro-vsphere"))
    gpu = catalog.gpus[design.hardware.gpu]
    profiles = [p.model_copy(update={"name": p.name + PAYLOAD[6:]}) for p in gpu.vgpu.profiles]
    hostile_gpu = gpu.model_copy(
        update={"vgpu": gpu.vgpu.model_copy(update={"profiles": profiles})}
    )
    catalog = catalog.model_copy(update={"gpus": {**catalog.gpus, gpu.id: hostile_gpu}})
    workloads = [design.workloads[0].model_copy(update={"name": HOSTILE_GROUP})]
    k8s = design.platform.kubernetes if vks else KubernetesPlatform.NONE
    design = design.model_copy(
        update={
            "workloads": workloads + design.workloads[1:],
            "platform": design.platform.model_copy(update={"kubernetes": k8s}),
        }
    )
    result = plan(design, catalog).clusters[0].result
    steps = result.software.vsphere_steps
    texts = [v.workload for v in steps.vms] + [d for v in steps.vms for d in v.gpu_devices]
    assert HOSTILE_GROUP in texts and any(d.endswith(PAYLOAD[6:]) for d in texts)
    return powercli_script(result, HOSTILE_GROUP, "HGX\u201a; Start-Process calc", catalog), texts


def _scripts() -> list[tuple[str, str]]:
    out = []
    for name in example_names():
        p, _ = _plan(name)
        if any(c.result.software.vsphere_steps is not None for c in p.clusters):
            out.append((name, _script(name)))
    return out


def test_every_example_with_vsphere_steps_is_checked():
    names = [n for n, _ in _scripts()]
    # hand count: the examples whose design runs GPU VMs on vSphere
    assert {"bert-large-25gbe", "imagenet-resnet50", "mig-shared", "hgx-h200-llm",
            "rtx-pro-vsphere", "enterprise"} <= set(names)  # fmt: skip


@pytest.mark.parametrize("which", ["examples", "hostile", "hostile-vks"])
def test_the_script_parses_and_every_design_text_is_base64(which):
    """No error or missing node; every string literal after the generator's constant prelude is
    Base64 (the design's and the catalog's texts) or empty; outside comments nothing but ASCII."""
    scripts = {
        "examples": _scripts,
        "hostile": lambda: [("hostile", _hostile()[0])],
        "hostile-vks": lambda: [("hostile-vks", _hostile(vks=True)[0])],
    }[which]()
    for name, text in scripts:
        s = Script(text)
        assert s.broken() == [], name
        start, end = s.body_start(), s.body_end()
        for lit in s.nodes("string_literal"):
            if start <= lit.start_byte < end:
                assert _BASE64_LITERAL.fullmatch(s.of(lit)), (name, s.of(lit))
        code = bytearray(s.src[start:end])
        for c in s.nodes("comment"):
            if start <= c.start_byte < end:
                code[c.start_byte - start : c.end_byte - start] = b" " * (c.end_byte - c.start_byte)
        assert bytes(code).isascii(), name
        for c in s.nodes("comment"):
            body = s.of(c)
            assert "\n" not in body and "#>" not in body[1:] and not body.startswith("<#"), body
        assert "start-process" not in s.commands(), name


def test_the_hostile_names_reach_the_script_whole_as_base64():
    text, texts = _hostile()
    s = Script(text)
    start, end = s.body_start(), s.body_end()
    decoded = {
        base64.b64decode(s.of(lit)[1:-1]).decode("utf-8")
        for lit in s.nodes("string_literal")
        if start <= lit.start_byte < end and len(s.of(lit)) > 2
    }
    assert set(texts) <= decoded
    # the cluster's name is never offered as a ready -Cluster argument when it could quote
    assert "-Cluster <cluster>" in text and "HGX\u201a" not in text.split("\n# GPU:")[1]


@pytest.mark.parametrize("quote", ["\u201a", "\u201b"])
def test_the_old_escaping_let_a_low_quote_end_the_string(quote):
    """The escaping before: U+201A or U+201B in a vGPU type ends the string, and the rest of the
    name is a command of its own; the Base64 form keeps it one literal."""
    payload = PAYLOAD.replace("\u201a", quote)
    old = Script(f"Set-GpuVm $name @({_old_ps(payload)}) 0 256\n")
    assert "start-process" in old.commands()
    new = Script(f"Set-GpuVm -Name $name -VgpuTypes @({powercli._text(payload)}) -Passthrough 0\n")
    assert new.broken() == [] and "start-process" not in new.commands()


def test_a_comment_keeps_no_line_break_or_block_marker():
    assert powercli._comment("a\nb\u2028c <#x#> <<##>>") == "a b c <x> <<>>"


# Each state-changing call and the property its `if` must read before it changes anything.
_READS = {
    "UpdateGraphicsConfig": ("GraphicsType", "VgpuMode"),
    "UpdatePassthruConfig": ("PassthruEnabled", "HardwareLabel"),
    "restart-vmhost": ("RebootRequired",),
    "read-host": ("Find-VgpuType",),  # MIG mode, set by hand in the ESXi shell
}
_SPEC_READS = {
    "MemoryReservationLockedToMax": "MemoryReservationLockedToMax",
    "ExtraConfig": "ExtraConfig",
    "DeviceChange": "Hardware.Device",
}


def _conditions(s: Script, node: Node) -> list[str]:
    out = []
    while node.parent is not None:
        node = node.parent
        if node.type == "if_statement":
            out.append(s.of(node.child_by_field_name("condition")))
    return out


def _changes(s: Script) -> list[tuple[Node, tuple[str, ...]]]:
    out: list[tuple[Node, tuple[str, ...]]] = []
    for inv in s.nodes("invokation_expression"):
        names = [s.of(m) for m in inv.children if m.type == "member_name"]
        block = inv
        while block.parent is not None and "New-Object" not in s.of(block):
            block = block.parent
        if names and names[-1] == "UpdatePassthruConfig" and "HostSriovConfig" in s.of(block):
            # SR-IOV on a fabric adapter reads its functions, not the passthrough label
            out.append((inv, ("SriovEnabled", "NumVirtualFunction")))
        elif names and names[-1] in _READS:
            out.append((inv, _READS[names[-1]]))
        elif names and names[-1] == "ReconfigVM":
            block = inv
            while block.type != "statement_block" or "$spec = " not in s.of(block):
                block = block.parent
            props = set(re.findall(r"\$spec\.(\w+) =", s.of(block)))
            assert props, s.of(block)
            out.append((inv, tuple(_SPEC_READS[p] for p in props)))
    for cmd in s.nodes("command"):
        name = s.of(cmd.child_by_field_name("command_name")).lower()
        if name in _READS:
            out.append((cmd, _READS[name]))
        elif name == "invoke-createnamespacemanagementvirtualmachineclasses":
            out.append((cmd, ("$existing.Count",)))  # a VM class is created only when absent
        elif name == "set-vmhost" and "-State" in s.of(cmd):
            out.append((cmd, ("ConnectionState",)))
        elif name in ("set-vm", "new-harddisk", "add-passthroughdevice", "set-vmhostgraphics"):
            out.append((cmd, ("never",)))  # the script changes VMs only through ReconfigVM
    return out


@pytest.mark.parametrize(
    "name", ["mig-shared", "bert-large-25gbe", "rtx-pro-vsphere", "hgx-h200-llm"]
)
def test_every_change_sits_in_an_if_that_reads_what_it_changes(name):
    s = Script(_script(name))
    changes = _changes(s)
    kinds = {s.of(n).split("(")[0].split()[0].split(".")[-1] for n, _ in changes}
    assert {"UpdateGraphicsConfig", "UpdatePassthruConfig", "ReconfigVM", "Restart-VMHost",
            "Set-VMHost", "Read-Host"} <= kinds  # fmt: skip
    for node, reads in changes:
        conditions = " ".join(_conditions(s, node))
        for prop in reads:
            assert prop in conditions, (s.of(node)[:60], prop, conditions[:200])
        assert "$Apply" in conditions, s.of(node)[:60]  # a dry run changes nothing


def test_the_old_script_changed_without_reading():
    """At 6599bb2 Restart-VMHost and ReconfigVM sat only inside `if ($Apply)`."""
    old = Script(
        "foreach ($h in $hosts) {\n"
        "    if ($Apply) { Restart-VMHost -VMHost $h -Confirm:$false | Out-Null }\n}\n"
    )
    (node, reads), = _changes(old)  # fmt: skip
    assert not all(p in " ".join(_conditions(old, node)) for p in reads)


def test_one_restart_per_host_and_the_script_waits_for_it():
    s = Script(_script("mig-shared"))
    restarts = [c for c in s.nodes("command") if s.of(c).startswith("Restart-VMHost")]
    assert len(restarts) == 1
    block = restarts[0].parent
    while "Wait-HostBack" not in s.of(block):
        block = block.parent
    after = s.of(block).split("Restart-VMHost", 1)[1]
    assert "Wait-HostBack" in after
    wait = s.text.split("function Wait-HostBack", 1)[1].split("\nfunction ", 1)[0]
    assert "ConnectionState" in wait and "BootTime -gt $BootBefore" in wait
    assert "$ReconnectMinutes" in wait and "throw" in wait


def test_host_steps_follow_the_vendors_order():
    """NVIDIA: install the vGPU Manager and reboot, then the default graphics type; MIG mode after
    the driver; VMware: after the graphics change 'you must restart Xorg on the host' (one
    restart at the end does it)."""
    body = powercli._PRELUDE.split("function Set-GpuHost", 1)[1].split("\nfunction ", 1)[0]
    order = ["SharedPassthruGpuTypes).Count -eq 0", "UpdateGraphicsConfig", "Find-VgpuType",
             "UpdatePassthruConfig", "Restart-VMHost", "-State Connected"]  # fmt: skip
    at = [body.index(x) for x in order]
    assert at == sorted(at)


def test_no_step_changes_an_existing_vms_firmware():
    for name, text in _scripts():
        s = Script(text)
        for a in s.nodes("assignment_expression"):
            left = s.of(a).split("=", 1)[0]
            assert "Firmware" not in left, (name, s.of(a))
    s = Script(_script("mig-shared"))
    (check,) = [
        i for i in s.nodes("if_statement")
        if "Config.Firmware -ne 'efi'" in s.of(i.child_by_field_name("condition"))
    ]  # fmt: skip
    text = s.of(check)
    assert "Add-Blocker" in text and "return" in text
    assert "build a new VM with EFI firmware, install its guest in EFI mode" in text


@pytest.mark.parametrize(("name", "per_host", "per_vm"), [
    # bert-large-25gbe: 4 A100 PCIe per R750xa, all given whole; 4 VMs of 4 GPUs
    ("bert-large-25gbe", 4, 4),
    # imagenet-resnet50: one host, one GPU of its two given whole to one VM
    ("imagenet-resnet50", 1, 1),
])  # fmt: skip
def test_passthrough_is_enabled_first_with_distinct_gpus_per_vm(name, per_host, per_vm):
    text = _script(name)
    s = Script(text)
    assert s.broken() == []
    hosts = text.index("Set-GpuHost -VMHost $h")
    vms = text.index("Set-GpuVm -Name $name")
    assert hosts < vms  # passthrough on the hosts before any VM asks for a GPU
    assert f"-Passthrough {per_host} -FabricFamily " in text[hosts : text.index("\n}", hosts) + 1]
    assert f"-Passthrough {per_vm} -MmioGB" in text[vms:]
    # Dynamic DirectPath I/O with the hardware label, each device its own key; no fixed
    # passthrough device picked by `Select-Object -First` (every VM got the same GPUs)
    assert "VirtualPCIPassthroughDynamicBackingInfo" in text
    assert "$dev.Device.Backing.CustomLabel = $Label" in text
    assert "Add-DynamicDevices $vm $Name $Passthrough $HardwareLabel $script:AllowedGpus" in text
    assert "Get-PassthroughDevice" not in text and "Device.Key = -1" not in text
    assert "$dev.Device.Key = New-DeviceKey" in text
    refuse = text.split("$script:Claimed -gt $script:FreeGpus", 1)[1].split("return", 1)[0]
    assert 'Add-Blocker "VM ${Name} needs $Passthrough GPUs' in refuse
    assert "too few are free" in refuse


def test_hostile_names_from_a_design_and_a_user_catalog_through_the_command(tmp_path):
    """End to end: a user catalog (gpus.toml) whose RTX PRO 6000 vGPU types end in the payload and
    a design whose group is named with PowerShell's quotes, backticks, $() and comment markers
    (the design's and the catalog's text gates let all of these through)."""
    from tests.conftest import ROOT, run_cli

    shipped = (ROOT / "catalogs" / "gpus.toml").read_text(encoding="utf-8")
    entry = shipped.split('[[gpus]]\nid = "rtx-pro-6000-bse"', 1)[1].split("[[gpus]]", 1)[0]
    entry = re.sub(r'name = "(DC-\d+C)"', lambda m: f'name = "{m[1]}{PAYLOAD[6:]}"', entry)
    (tmp_path / "cat").mkdir()
    (tmp_path / "cat" / "gpus.toml").write_text(
        '[[gpus]]\nid = "rtx-pro-6000-bse"' + entry, encoding="utf-8"
    )
    group = "Chat \u2018\u2019\u201a\u201b \u201c\u201d\u201e `$(Start-Process calc)` <# #>"
    design = tmp_path / "d.json"
    text = example_text("rtx-pro-vsphere").replace("Data scientists' notebooks", group)
    # named VMs (no Kubernetes), so the group's name reaches the script's table of VMs
    text = text.replace('"kubernetes": "vks"', '"kubernetes": "none"')
    assert '"kubernetes": "none"' in text
    design.write_text(text, encoding="utf-8")
    proc = run_cli("--catalog-dir", str(tmp_path / "cat"), "vsphere-steps", str(design), "-o", "-")
    assert proc.returncode == 0, proc.stderr
    s = Script(proc.stdout)
    assert s.broken() == [] and "start-process" not in s.commands()
    start, end = s.body_start(), s.body_end()
    literals = [s.of(n) for n in s.nodes("string_literal") if start <= n.start_byte < end]
    assert all(_BASE64_LITERAL.fullmatch(x) for x in literals), literals
    decoded = {base64.b64decode(x[1:-1]).decode("utf-8") for x in literals if len(x) > 2}
    assert group in decoded and "DC-16C" + PAYLOAD[6:] in decoded


def _calls(text: str, command: str) -> list[str]:
    return [ln.strip() for ln in text.splitlines() if ln.strip().startswith(command)]


def test_hgx_h200_llm_vms_get_their_fabric_nics_by_passthrough():
    """hgx-h200-llm bills 8 ConnectX-7 NDR adapters per host for 8 H200 GPUs, one under each
    GPU's PCIe switch (NVIDIA AI Enterprise 8.0, 'Device Groups': 'GPU-NIC pairs under the same
    PCIe switch ... are grouped'). By hand: 8 adapters / 8 GPUs = 1 adapter per GPU, so the
    whole-board LoRA VM gets 8 and each one-GPU chat VM 1; 8 one-GPU VMs on a host would take
    8 <= 8 adapters, so whole adapters pass through (no SR-IOV). The hosts enable passthrough
    with the fabric label on the ConnectX-7 functions no virtual switch uses, before any VM asks
    for one, and a VM is refused by name when too few are free."""
    text = _script("hgx-h200-llm")
    s = Script(text)
    assert s.broken() == []
    (host,) = _calls(text, "Set-GpuHost -VMHost $h")
    assert host.endswith("-FabricNics 8 -FabricVfs 0")
    assert "-FabricFamily ([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('" in host
    assert base64.b64encode(b"ConnectX-7").decode() in host
    # a vSphere Kubernetes Service design: the worker nodes come from VM classes
    classes = _calls(text, "Set-GpuVmClass -Id")
    assert sorted(v.rsplit("-FabricNics ", 1)[1] for v in classes) == [
        "1 -FabricSriov $false", "8 -FabricSriov $false",
    ]  # fmt: skip
    assert text.index("Set-GpuHost -VMHost $h") < text.index("Set-GpuVmClass -Id")
    body = powercli._VM_CLASS.split("function Set-GpuVmClass", 1)[1]
    assert "New-DirectDevices $nics $script:AllowedNics $FabricLabel" in body
    assert "-DynamicDirectPathIoDevices $direct" in body
    # named VMs (a design without VKS) get them the same way, by Dynamic DirectPath I/O
    body = powercli._PRELUDE.split("function Set-GpuVm(", 1)[1]
    assert "Add-DynamicDevices $vm $Name $FabricNics $FabricLabel $script:AllowedNics" in body
    assert 'Add-Blocker "VM ${Name} needs $FabricNics fabric adapters' in body
    fabric = powercli._PRELUDE.split("function Get-FabricNics", 1)[1].split("\nfunction ", 1)[0]
    assert "$_.VendorId -eq 0x15b3" in fabric and "$uplinks -notcontains $_.Id" in fabric


def test_vms_that_share_an_adapter_get_sr_iov_functions():
    """mig-shared: 1 ConnectX-7 per host and MIG-backed VMs that share GPUs, so whole adapters
    cannot go one per VM: the hosts enable SR-IOV functions on the adapter (read first), and each
    VM is told to take one function; the script does not pick the function itself."""
    text = _script("mig-shared")
    (host,) = _calls(text, "Set-GpuHost -VMHost $h")
    nics, vfs = host.split("-FabricNics ", 1)[1].split(" -FabricVfs ")
    assert nics == "1" and int(vfs) >= 1
    assert all(v.endswith("-FabricNics 1 -FabricSriov $true")
               for v in _calls(text, "Set-GpuVm -Name $name"))  # fmt: skip
    body = powercli._PRELUDE.split("function Set-GpuHost", 1)[1].split("\nfunction ", 1)[0]
    assert "$sc.NumVirtualFunction = $FabricVfs" in body


@pytest.mark.parametrize("name", ["bert-large-25gbe", "enterprise"])
def test_no_fabric_nics_without_an_rdma_fabric(name):
    """Negative: bert-large-25gbe's 25 GbE fabric has no RDMA and enterprise runs paravirtual
    RDMA (PVRDMA), which reaches VMs through a virtual switch: no adapter is given to a VM."""
    text = _script(name)
    (host,) = _calls(text, "Set-GpuHost -VMHost $h")
    assert host.endswith("-FabricNics 0 -FabricVfs 0") and "-FabricFamily ''" in host
    assert all("-FabricNics 0 " in v for v in _calls(text, "Set-GpuVm -Name $name"))


@pytest.mark.parametrize("name", ["hgx-h200-llm", "rtx-pro-vsphere"])
def test_a_vks_design_makes_vm_classes_not_named_vms(name):
    """The vSphere Kubernetes Service creates its GPU worker nodes from VM classes (VMware: 'to
    use vGPU with the Kubernetes clusters of the Supervisor, define a custom VM class'), so a VKS
    design's script makes one class per VM shape with the PowerCLI vSphere SDK cmdlets Broadcom's
    Private AI Foundation sample uses, names no VM, reads the classes before it creates one, and
    asks for the workers' size rather than inventing it. Negative: mig-shared (no Kubernetes)
    lists named VMs and no class."""
    text = _script(name)
    assert Script(text).broken() == []
    assert _calls(text, "Set-GpuVmClass -Id") and not _calls(text, "Set-GpuVm -Name")
    assert "$VmsByGroup" not in text
    body = powercli._VM_CLASS
    assert "Invoke-ListNamespaceManagementVirtualMachineClasses" in body
    assert "-MemoryReservation 100" in body  # all guest memory reserved, as for GPU VMs
    assert "give the worker nodes' size with -VmClassCpus and -VmClassMemoryGB" in body
    other = _script("mig-shared")
    assert _calls(other, "Set-GpuVm -Name") and not _calls(other, "Set-GpuVmClass -Id")


def test_vm_class_names_are_what_kubernetes_accepts():
    """A Kubernetes name: lowercase letters, digits and hyphens, at most 63 characters, never
    ending in a hyphen; a group of two VM sizes gets one class per size."""
    assert powercli.vm_class_id("Data scientists' notebooks", 1, False) == (
        "gpuwizard-data-scientists-notebooks"
    )
    assert powercli.vm_class_id("Chat", 4, True) == "gpuwizard-chat-4gpu"
    long = powercli.vm_class_id("ünïcödé " * 20 + "x", 8, True)
    assert re.fullmatch(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?", long) and len(long) <= 63
    assert powercli.vm_class_id("!!!", 1, False) == "gpuwizard-group"
