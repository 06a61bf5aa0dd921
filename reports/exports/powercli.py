"""The vSphere host and VM steps of a design as a VMware PowerCLI script.

The script is run by the administrator in a PowerCLI session connected to vCenter
(``Connect-VIServer``). It reads the design's steps (``Result.software.vsphere_steps``):

- per host of the named cluster, in maintenance mode one host at a time: the default graphics type
  and each NVIDIA GPU's vGPU mode through the host's graphics manager (``UpdateGraphicsConfig``);
  the firmware settings, the NVIDIA host driver (a vSphere Lifecycle Manager image) and MIG mode
  (``nvidia-smi`` in the ESXi shell) are steps PowerCLI cannot take, so the script prints them and
  waits for the administrator to confirm each;
- per VM the administrator lists under its workload group in ``$VmsByGroup``: EFI firmware, all
  guest memory reserved, the 64-bit MMIO window and the vGPU devices. A vGPU type is found on the
  host by NVIDIA's name (``H100-3-40C`` is offered as ``grid_h100-3-40c`` or ``nvidia_h100-3-40c``
  depending on the release), so the script does not guess the prefix.

Nothing runs unless ``-Apply`` is given: by default the script says what it would change. Every
text from the design goes into single-quoted PowerShell strings with quotes doubled, and into
comments with line breaks removed, so no name in a design becomes code.
"""

from __future__ import annotations

from wizard.base.errors import UserError
from wizard.base.numbers import count
from wizard.model.catalog import Catalog
from wizard.model.result import Result


def _ps(text: str) -> str:
    """A single-quoted PowerShell string literal: nothing inside is expanded or run."""
    cleaned = "".join(ch if ch.isprintable() else " " for ch in text)
    return "'" + cleaned.replace("'", "''").replace("\u2018", "''").replace("\u2019", "''") + "'"


def _comment(text: str) -> str:
    return "".join(ch if ch.isprintable() else " " for ch in " ".join(text.split()))


_PRELUDE = r"""param(
    [Parameter(Mandatory = $true)] [string] $Cluster,
    [switch] $Apply
)
$ErrorActionPreference = 'Stop'

function Confirm-Step([string] $What) {
    if ($Apply) { Read-Host "$What`nPress Enter when done" | Out-Null }
    else { Write-Host "[would ask] $What" }
}

function Set-HostGraphics($VMHost, [string] $VgpuMode) {
    $gm = Get-View $VMHost.ExtensionData.ConfigManager.GraphicsManager
    $cfg = New-Object VMware.Vim.HostGraphicsConfig
    $cfg.HostDefaultGraphicsType = 'sharedDirect'
    $cfg.SharedPassthruAssignmentPolicy = 'performance'
    $devices = @()
    foreach ($d in $gm.GraphicsInfo | Where-Object { $_.VendorName -match 'NVIDIA' }) {
        $t = New-Object VMware.Vim.HostGraphicsConfigDeviceType
        $t.DeviceId = $d.PciId
        $t.GraphicsType = 'sharedDirect'
        if ($VgpuMode) { $t.VgpuMode = $VgpuMode }
        $devices += $t
    }
    $cfg.DeviceType = $devices
    if ($Apply) { $gm.UpdateGraphicsConfig($cfg) }
    else { Write-Host "[would set] $($VMHost.Name): Shared Direct, vGPU mode '$VgpuMode' on $($devices.Count) NVIDIA GPUs" }
}

function Find-VgpuType($VMHost, [string] $NvidiaName) {
    $wanted = $NvidiaName.ToLower()
    $types = $VMHost.ExtensionData.Config.SharedPassthruGpuTypes
    $found = $types | Where-Object { $_.ToLower() -match ('(^|_)' + [regex]::Escape($wanted) + '$') }
    if (-not $found) { throw "vGPU type $NvidiaName is not offered by $($VMHost.Name): is the host driver installed and the GPU in the right mode?" }
    return @($found)[0]
}

function Set-GpuVm([string] $Name, [string[]] $VgpuTypes, [int] $Passthrough, [int] $MmioGB) {
    $vm = Get-VM -Name $Name
    if ($vm.PowerState -ne 'PoweredOff') { throw "$Name must be powered off" }
    $spec = New-Object VMware.Vim.VirtualMachineConfigSpec
    $spec.Firmware = 'efi'
    $spec.MemoryReservationLockedToMax = $true
    $changes = @()
    foreach ($type in $VgpuTypes) {
        $dev = New-Object VMware.Vim.VirtualDeviceConfigSpec
        $dev.Operation = 'add'
        $dev.Device = New-Object VMware.Vim.VirtualPCIPassthrough
        $dev.Device.Key = -1
        $dev.Device.Backing = New-Object VMware.Vim.VirtualPCIPassthroughVmiopBackingInfo
        $dev.Device.Backing.Vgpu = Find-VgpuType $vm.VMHost $type
        $changes += $dev
    }
    $spec.DeviceChange = $changes
    if ($MmioGB -gt 0) {
        $spec.ExtraConfig = @(
            (New-Object VMware.Vim.OptionValue -Property @{ Key = 'pciPassthru.use64bitMMIO'; Value = 'TRUE' }),
            (New-Object VMware.Vim.OptionValue -Property @{ Key = 'pciPassthru.64bitMMIOSizeGB'; Value = "$MmioGB" })
        )
    }
    if ($Apply) {
        $vm.ExtensionData.ReconfigVM($spec)
        if ($Passthrough -gt 0) {
            Get-PassthroughDevice -VMHost $vm.VMHost -Type Pci |
                Where-Object { $_.VendorName -match 'NVIDIA' } |
                Select-Object -First $Passthrough | Add-PassthroughDevice -VM $vm | Out-Null
        }
    } else {
        Write-Host "[would set] ${Name}: EFI, memory reserved, MMIO $MmioGB GB, vGPUs '$($VgpuTypes -join ', ')', $Passthrough passthrough GPUs"
    }
}
"""


def powercli_script(
    result: Result, title: str = "", cluster: str = "", catalog: Catalog | None = None
) -> str:
    """The script text for one GPU cluster (``cluster`` names it in a design of several); with
    the catalog, the GPU and server by their product names. Raises UserError when the cluster
    has no vSphere steps."""
    steps = result.software.vsphere_steps if result.software else None
    if steps is None:
        where = f"the cluster {cluster!r}" if cluster else "this design"
        raise UserError(f"vsphere-steps: {where} has no GPU VMs to configure")
    lines = [f"# vSphere host and VM steps{': ' + _comment(title) if title else ''}"]
    if cluster:
        lines.append(
            f"# For the design's GPU cluster {_comment(cluster)}; each cluster has its own script."
        )
    target = _comment(cluster) if cluster else "<cluster>"
    gpu, server = result.gpu, result.server
    if catalog is not None:
        if (g := catalog.gpus.get(result.gpu)) is not None:
            gpu = g.name
        if (box := catalog.servers.get(result.server)) is not None:
            server = box.product_name
    lines += [
        f"# GPU: {_comment(gpu)}, server: {_comment(server)}. Generated by gpuwizard.",
        "# Run in a PowerCLI session connected to vCenter, with the cluster's name in vCenter:",
        f"#   ./vsphere-steps.ps1 -Cluster {_ps(target) if cluster else target}"
        "            (says what it would change)",
        f"#   ./vsphere-steps.ps1 -Cluster {_ps(target) if cluster else target} -Apply     (changes it)",
    ]
    if steps.host_driver:
        lines.append(f"# Host driver: {_comment(steps.host_driver)}")
    lines += ["", _PRELUDE.rstrip(), "", "# ---- Hosts: one at a time, in maintenance mode"]
    graphics = any(h.action == "graphics" for h in steps.hosts)
    lines += [
        "foreach ($h in Get-Cluster -Name $Cluster | Get-VMHost) {",
        "    if ($Apply) { Set-VMHost -VMHost $h -State Maintenance -Evacuate | Out-Null }",
    ]
    for h in steps.hosts:
        if h.action in ("graphics", "vgpu-mode"):  # set through the graphics manager below
            continue
        what = f"{_comment(h.step)}: {_comment(h.value)}"
        lines.append(f"    Confirm-Step ({_ps('Host ')} + $h.Name + {_ps(': ' + what)})")
        if h.reboot:
            lines.append("    if ($Apply) { Restart-VMHost -VMHost $h -Confirm:$false | Out-Null }")
    if graphics:
        lines.append(f"    Set-HostGraphics $h {_ps(steps.vgpu_mode)}")
    lines += [
        "    if ($Apply) { Set-VMHost -VMHost $h -State Connected | Out-Null }",
        "}",
        "",
        "# ---- VMs: list each group's VM names (powered off); the script sets each one",
        "$VmsByGroup = @{",
    ]
    shapes: dict[str, int] = {}
    for v in steps.vms:
        shapes[v.workload] = shapes.get(v.workload, 0) + 1

    def key(v) -> str:  # a group with VMs of two sizes lists each size apart
        return (
            v.workload if shapes[v.workload] == 1 else f"{v.workload} ({len(v.gpu_devices)} GPUs)"
        )

    for v in steps.vms:
        lines.append(f"    {_ps(key(v))} = @()  # {count(v.vms, 'VM')} of this shape")
    lines += ["}", ""]
    for v in steps.vms:
        vgpus = [d for d in v.gpu_devices if d != "passthrough"]
        passthrough = len(v.gpu_devices) - len(vgpus)
        types = "@(" + ", ".join(_ps(t) for t in vgpus) + ")"
        lines += [
            f"# {_comment(v.workload)}: " + "; ".join(f"{k} = {val}" for k, val in v.settings),
            f"foreach ($name in $VmsByGroup[{_ps(key(v))}]) {{",
            f"    Set-GpuVm $name {types} {passthrough} {v.mmio_size_gb or 0}",
            "}",
        ]
    return "\n".join(lines) + "\n"
