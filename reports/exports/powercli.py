"""The vSphere host and VM steps of a design as a VMware PowerCLI script.

The script is run by the administrator in a PowerCLI session connected to vCenter
(``Connect-VIServer``). It reads the design's steps (``Result.software.vsphere_steps``) and, on
every host and VM, reads the current state first and changes only what differs, so a second run
changes nothing and restarts nothing. Without ``-Apply`` it only says what it would change.

Per host of the named cluster, one at a time, in the order NVIDIA's and VMware's documents give:

1. the NVIDIA host driver (with the Fabric Manager component on HGX Blackwell boards) must be
   loaded: it comes from the cluster's vSphere Lifecycle Manager image, so a host without it is
   reported as a blocker and left alone (NVIDIA: install the vGPU Manager, reboot, then configure);
2. the graphics type (Shared Direct) and each GPU's vGPU mode through the host's graphics
   manager (``UpdateGraphicsConfig``); VMware: 'After clicking OK, you must restart Xorg on the
   host', which the host's restart below does;
3. MIG mode (``nvidia-smi`` in the ESXi shell, which PowerCLI cannot reach: the script asks the
   administrator and waits), read as the host offering the MIG-backed vGPU types the design uses;
4. passthrough and the hardware label on the GPUs given whole to VMs (Dynamic DirectPath I/O),
   then on the compute-fabric adapters (the ConnectX or BlueField functions of the design's
   family that no virtual switch uses), with a label of their own; where VMs outnumber the
   adapters, SR-IOV virtual functions on them instead (NVIDIA AI Enterprise, 'Device Groups':
   GPU-NIC pairs under one PCIe switch carry GPUDirect RDMA);
5. at most one restart, only when a step above needs it or vSphere says the host needs one, and
   the script waits until vCenter sees the host connected again (its boot time newer than before,
   within ``-ReconnectMinutes``) before it goes on. Maintenance mode is entered only to change
   something, and left only when the script entered it.

In a design on the vSphere Kubernetes Service the worker nodes come from VM classes, so the
script makes one class per VM shape (its vGPUs, and its GPUs and fabric adapters by Dynamic
DirectPath I/O) with the PowerCLI vSphere SDK, reads the classes first and leaves a class with
the design's devices alone; the workers' vCPUs and memory are the administrator's to give.

Otherwise, per VM the administrator lists under its workload group in ``$VmsByGroup``: all guest memory
reserved, the 64-bit MMIO window, the vGPU devices missing (a vGPU type is found on the host by
NVIDIA's name: ``H100-3-40C`` is offered as ``grid_h100-3-40c`` or ``nvidia_h100-3-40c`` depending
on the release) and the Dynamic DirectPath I/O GPUs and fabric adapters missing, each device with its own key (a VM
that shares an adapter is told to take one SR-IOV function of it). An
existing VM's firmware is never changed: a VM that boots with BIOS is reported as a blocker with
its remedy (a guest installed under BIOS does not boot after a switch to EFI), and a VM is refused
by name when the cluster has too few passthrough GPUs left for it.

Sources: NVIDIA Virtual GPU Software User Guide (install the Virtual GPU Manager, reboot, then
"Changing the Default Graphics Type in VMware vSphere"); VMware vSphere Resource Management,
"Configuring Host Graphics": "After clicking OK, you must restart Xorg on the host", and ESXCLI
``graphics device set``: "If setting 'type', restart Xorg ... for change to take effect" (one host
restart covers it; Broadcom KB 318047: from vSphere 7.0 Update 1 "Xorg is no longer required for
graphics devices in vGPU mode"); NVIDIA AI Enterprise, "Configuring a GPU for MIG-Backed vGPUs",
step 4: reboot the host with Ampere GPUs only; vSphere API ``HostListSummary.rebootRequired``,
``HostPciPassthruConfig.hardwareLabel`` (since 7.0.2) and ``VirtualPCIPassthroughDynamicBackingInfo
.customLabel``: "If set, the device must also have the same customLabel attribute set"; on
firmware, W. Lam (VMware), "ACPI motherboard layout requires EFI" (2023): "If you ever need to
change the VM firmware, you typically will need to re-install the GOS", and Dell KB 000199172: the
guest "must boot with EFI. That is, you must enable EFI in the VM and then do an EFI installation
of the Guest OS" (Broadcom KB 384912, which issue 47 cites, was not found to quote).

Quoting by construction: every text from a design or a catalog enters the script only as Base64
of its UTF-8, decoded in the script, and reaches a comment only with line breaks and comment
markers removed. PowerShell ends a single-quoted string at U+2018, U+2019, U+201A and U+201B as
well as at ``'`` (its tokenizer's ``SpecialChars``), so no escaping by hand is used.
"""

from __future__ import annotations

import base64
import re

from wizard.base.errors import UserError
from wizard.base.numbers import count
from wizard.model.catalog import Catalog
from wizard.model.result import Result

# NVIDIA's MIG-backed vGPU types carry the instance's slices: H100-1-10C, DC-1-24CGFX, A100D-3-40C.
_MIG_TYPE = re.compile(r"-\d+-\d+[A-Z]*$")
# A cluster name shown in a comment as a ready -Cluster argument only when nothing in it can quote.
_PLAIN_NAME = re.compile(r"[A-Za-z0-9 ._()-]+")


def _text(text: str) -> str:
    """A PowerShell expression whose value is ``text``: Base64 of its UTF-8, decoded in the
    script, so no character of it can end a string or start code."""
    b64 = base64.b64encode(text.encode("utf-8", "replace")).decode("ascii")
    return f"([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('{b64}')))"


def _texts(texts: list[str]) -> str:
    return "@(" + ", ".join(_text(t) for t in texts) + ")"


def _comment(text: str) -> str:
    """Text for a line comment: one line, printable, with no block-comment marker left in it."""
    flat = "".join(ch if ch.isprintable() else " " for ch in " ".join(text.split()))
    while "<#" in flat or "#>" in flat:
        flat = flat.replace("<#", "<").replace("#>", ">")
    return flat


def _flag(value: bool) -> str:
    return "$true" if value else "$false"


_PRELUDE = r"""param(
    [Parameter(Mandatory = $true)] [string] $Cluster,
    [switch] $Apply,
    [int] $ReconnectMinutes = 30,
    [string] $HardwareLabel = 'gpuwizard-gpu',
    [string] $FabricLabel = 'gpuwizard-fabric',
    [int] $VmClassCpus = 0,
    [int] $VmClassMemoryGB = 0
)
$ErrorActionPreference = 'Stop'
$script:Blockers = New-Object System.Collections.Generic.List[string]
$script:Entered = @{}
$script:FreeGpus = 0
$script:MostPerHost = 0
$script:Claimed = 0
$script:AllowedGpus = @()
$script:FreeNics = 0
$script:MostNicsPerHost = 0
$script:ClaimedNics = 0
$script:AllowedNics = @()
$script:NextKey = -100
$script:Refused = @{}

function Write-Change([string] $What) {
    if ($Apply) { Write-Host "[change] $What" } else { Write-Host "[would change] $What" }
}

function Write-Check([string] $What) {
    Write-Host "[check] $What"
}

function Add-Blocker([string] $What) {
    $script:Blockers.Add($What)
    Write-Warning $What
}

function New-DeviceKey {
    $script:NextKey = $script:NextKey - 1
    return $script:NextKey
}

function Enter-HostMaintenance($VMHost) {
    $now = Get-VMHost -Id $VMHost.Id
    if ($Apply -and $now.ConnectionState -ne 'Maintenance') {
        Set-VMHost -VMHost $now -State Maintenance -Evacuate -Confirm:$false | Out-Null
        $script:Entered[$VMHost.Id] = $true
    }
}

function Wait-HostBack($VMHost, $BootBefore) {
    $deadline = (Get-Date).AddMinutes($ReconnectMinutes)
    while ((Get-Date) -lt $deadline) {
        Start-Sleep -Seconds 30
        $now = Get-VMHost -Id $VMHost.Id
        if (($now.ConnectionState -eq 'Maintenance' -or $now.ConnectionState -eq 'Connected') -and $now.ExtensionData.Runtime.BootTime -gt $BootBefore) {
            return
        }
    }
    throw "Host $($VMHost.Name) is not connected again $ReconnectMinutes minutes after its restart; it stays in maintenance mode. Check its console, then run this script again."
}

function Find-VgpuType($VMHost, [string] $NvidiaName) {
    $wanted = $NvidiaName.ToLower()
    $types = $VMHost.ExtensionData.Config.SharedPassthruGpuTypes
    $found = @($types | Where-Object { $_.ToLower() -match ('(^|_)' + [regex]::Escape($wanted) + '$') })
    if ($found.Count -eq 0) { return $null }
    return $found[0]
}

function Get-FabricNics($VMHost, [string] $Family) {
    # The compute-fabric adapters: NVIDIA (Mellanox) functions whose PCI name shows the family,
    # leaving out any port a virtual switch uses as an uplink (the service network's adapters)
    $net = $VMHost.ExtensionData.Config.Network
    $keys = @($net.Vswitch | ForEach-Object { $_.Pnic }) + @($net.ProxySwitch | ForEach-Object { $_.Pnic })
    $uplinks = @($net.Pnic | Where-Object { $keys -contains $_.Key } | ForEach-Object { $_.Pci })
    $pattern = '\[' + [regex]::Escape($Family) + '\]'
    return @($VMHost.ExtensionData.Hardware.PciDevice | Where-Object { $_.VendorId -eq 0x15b3 -and $_.DeviceName -match $pattern -and $uplinks -notcontains $_.Id -and $_.Id -match '\.0$' } | Sort-Object Id)
}

function Set-GpuHost($VMHost, [string] $Driver, [bool] $Graphics, [string] $VgpuMode, [string[]] $MigTypes, [string] $MigStep, [bool] $MigReboots, [int] $Passthrough, [string] $FabricFamily, [int] $FabricNics, [int] $FabricVfs) {
    $name = $VMHost.Name
    $reboot = $false
    # 1. The NVIDIA host driver: loaded when the host offers vGPU types.
    if ($Driver -and @($VMHost.ExtensionData.Config.SharedPassthruGpuTypes).Count -eq 0) {
        Add-Blocker "Host ${name}: the NVIDIA host driver is not loaded (the host offers no vGPU types). Add it to the cluster's vSphere Lifecycle Manager image and remediate the cluster: $Driver. Then run this script again."
        return
    }
    $gpus = @($VMHost.ExtensionData.Hardware.PciDevice | Where-Object { $_.VendorId -eq 0x10de -and ($_.ClassId -band 0xff00) -eq 0x0300 } | Sort-Object Id)
    $whole = @($gpus | Select-Object -First $Passthrough)
    $wholeIds = @($whole | ForEach-Object { $_.Id })
    # 2. Graphics type and vGPU mode of the GPUs that run vGPUs.
    if ($Graphics) {
        $gm = Get-View $VMHost.ExtensionData.ConfigManager.GraphicsManager
        $shared = @($gm.GraphicsInfo | Where-Object { $_.VendorName -match 'NVIDIA' -and $wholeIds -notcontains $_.PciId })
        if ($gm.GraphicsConfig.HostDefaultGraphicsType -ne 'sharedDirect' -or @($shared | Where-Object { $_.GraphicsType -ne 'sharedDirect' -or ($VgpuMode -and $_.VgpuMode -ne $VgpuMode) }).Count -gt 0) {
            Write-Change "Host ${name}: graphics type Shared Direct, vGPU mode '$VgpuMode' on $($shared.Count) NVIDIA GPUs"
            $reboot = $true
            if ($Apply) {
                Enter-HostMaintenance $VMHost
                $cfg = New-Object VMware.Vim.HostGraphicsConfig
                $cfg.HostDefaultGraphicsType = 'sharedDirect'
                $cfg.SharedPassthruAssignmentPolicy = 'performance'
                $devices = @()
                foreach ($d in $shared) {
                    $t = New-Object VMware.Vim.HostGraphicsConfigDeviceType
                    $t.DeviceId = $d.PciId
                    $t.GraphicsType = 'sharedDirect'
                    if ($VgpuMode) { $t.VgpuMode = $VgpuMode }
                    $devices += $t
                }
                $cfg.DeviceType = $devices
                $gm.UpdateGraphicsConfig($cfg)
            }
        }
    }
    # 3. MIG mode: on when the host offers the MIG-backed vGPU types the design uses.
    if ($MigTypes.Count -gt 0 -and @($MigTypes | Where-Object { $null -eq (Find-VgpuType $VMHost $_) }).Count -gt 0) {
        Write-Change "Host ${name}: $MigStep"
        if ($MigReboots) { $reboot = $true }
        if ($Apply) {
            Enter-HostMaintenance $VMHost
            Read-Host "Host ${name}: $MigStep`nPress Enter when done" | Out-Null
        }
    }
    # 4. Passthrough and the hardware label on the GPUs given whole to VMs (Dynamic DirectPath I/O).
    if ($Passthrough -gt 0) {
        if ($gpus.Count -lt $Passthrough) {
            Add-Blocker "Host ${name}: $Passthrough GPUs are to be given whole to VMs, but the host has $($gpus.Count) NVIDIA GPUs."
        }
        $pts = Get-View $VMHost.ExtensionData.ConfigManager.PciPassthruSystem
        foreach ($g in $whole) {
            $info = @($pts.PciPassthruInfo | Where-Object { $_.Id -eq $g.Id })[0]
            if (-not $info.PassthruEnabled -or $info.HardwareLabel -ne $HardwareLabel) {
                Write-Change "Host ${name}: passthrough on GPU $($g.Id), hardware label '$HardwareLabel'"
                if ($Apply) {
                    Enter-HostMaintenance $VMHost
                    $pc = New-Object VMware.Vim.HostPciPassthruConfig
                    $pc.Id = $g.Id
                    $pc.PassthruEnabled = $true
                    $pc.HardwareLabel = $HardwareLabel
                    $pts.UpdatePassthruConfig(@($pc))
                }
            }
            $allowed = New-Object VMware.Vim.VirtualPCIPassthroughAllowedDevice
            $allowed.VendorId = 0x10de
            $allowed.DeviceId = [int]($g.DeviceId -band 0xffff)
            if (-not @($script:AllowedGpus | Where-Object { $_.DeviceId -eq $allowed.DeviceId })) { $script:AllowedGpus += $allowed }
        }
        $script:FreeGpus += $whole.Count
        if ($whole.Count -gt $script:MostPerHost) { $script:MostPerHost = $whole.Count }
    }
    # 4b. The compute-fabric NICs: passthrough with the fabric label on whole adapters, or
    # SR-IOV virtual functions where the VMs outnumber the adapters.
    if ($FabricNics -gt 0) {
        $nics = @(Get-FabricNics $VMHost $FabricFamily)
        if ($nics.Count -lt $FabricNics) {
            Add-Blocker "Host ${name}: $FabricNics $FabricFamily adapters are to carry the GPU fabric, but the host shows $($nics.Count) that no virtual switch uses."
        }
        $pts = Get-View $VMHost.ExtensionData.ConfigManager.PciPassthruSystem
        foreach ($n in @($nics | Select-Object -First $FabricNics)) {
            $info = @($pts.PciPassthruInfo | Where-Object { $_.Id -eq $n.Id })[0]
            if ($FabricVfs -gt 0) {
                if (-not $info.SriovEnabled -or $info.NumVirtualFunction -lt $FabricVfs) {
                    Write-Change "Host ${name}: SR-IOV on adapter $($n.Id), $FabricVfs virtual functions"
                    $reboot = $true
                    if ($Apply) {
                        Enter-HostMaintenance $VMHost
                        $sc = New-Object VMware.Vim.HostSriovConfig
                        $sc.Id = $n.Id
                        $sc.SriovEnabled = $true
                        $sc.NumVirtualFunction = $FabricVfs
                        $sc.PassthruEnabled = $true
                        $pts.UpdatePassthruConfig(@($sc))
                    }
                }
                continue
            }
            if (-not $info.PassthruEnabled -or $info.HardwareLabel -ne $FabricLabel) {
                Write-Change "Host ${name}: passthrough on adapter $($n.Id), hardware label '$FabricLabel'"
                if ($Apply) {
                    Enter-HostMaintenance $VMHost
                    $pc = New-Object VMware.Vim.HostPciPassthruConfig
                    $pc.Id = $n.Id
                    $pc.PassthruEnabled = $true
                    $pc.HardwareLabel = $FabricLabel
                    $pts.UpdatePassthruConfig(@($pc))
                }
            }
            $allowed = New-Object VMware.Vim.VirtualPCIPassthroughAllowedDevice
            $allowed.VendorId = 0x15b3
            $allowed.DeviceId = [int]($n.DeviceId -band 0xffff)
            if (-not @($script:AllowedNics | Where-Object { $_.DeviceId -eq $allowed.DeviceId })) { $script:AllowedNics += $allowed }
        }
        if ($FabricVfs -eq 0) {
            $count = [Math]::Min($nics.Count, $FabricNics)
            $script:FreeNics += $count
            if ($count -gt $script:MostNicsPerHost) { $script:MostNicsPerHost = $count }
        }
    }
    # 5. One restart, when a step above needs it or vSphere says the host needs one.
    $fresh = Get-VMHost -Id $VMHost.Id
    if ($reboot -or $fresh.ExtensionData.Summary.RebootRequired) {
        Write-Change "Host ${name}: restart once, then wait until vCenter sees it connected again"
        if ($Apply) {
            Enter-HostMaintenance $fresh
            $boot = $fresh.ExtensionData.Runtime.BootTime
            Restart-VMHost -VMHost $fresh -Confirm:$false | Out-Null
            Wait-HostBack $fresh $boot
        }
    }
    $after = Get-VMHost -Id $VMHost.Id
    if ($script:Entered[$VMHost.Id] -and $after.ConnectionState -eq 'Maintenance') {
        if ($Apply) { Set-VMHost -VMHost $after -State Connected -Confirm:$false | Out-Null }
    }
}

function Test-CanChange($VM) {
    if ($VM.PowerState -eq 'PoweredOff') { return $true }
    if (-not $script:Refused[$VM.Id]) {
        $script:Refused[$VM.Id] = $true
        Add-Blocker "VM $($VM.Name) is powered on: power it off, then run this script again."
    }
    return $false
}

function Add-DynamicDevices($vm, [string] $Name, [int] $Count, [string] $Label, $Allowed, [string] $What) {
    # The VM's Dynamic DirectPath I/O devices of one label, added up to $Count, each device with
    # its own key; DRS then places the VM on a host with that many free devices of the label.
    $have = @($vm.ExtensionData.Config.Hardware.Device | Where-Object { $_.Backing -is [VMware.Vim.VirtualPCIPassthroughDynamicBackingInfo] -and $_.Backing.CustomLabel -eq $Label }).Count
    if (@($vm.ExtensionData.Config.Hardware.Device | Where-Object { $_.Backing -is [VMware.Vim.VirtualPCIPassthroughDynamicBackingInfo] -and $_.Backing.CustomLabel -eq $Label }).Count -lt $Count) {
        Write-Change "VM ${Name}: add $($Count - $have) $What labelled '$Label'"
        if ($Apply -and (Test-CanChange $vm)) {
            $spec = New-Object VMware.Vim.VirtualMachineConfigSpec
            $changes = @()
            foreach ($i in 1..($Count - $have)) {
                $dev = New-Object VMware.Vim.VirtualDeviceConfigSpec
                $dev.Operation = 'add'
                $dev.Device = New-Object VMware.Vim.VirtualPCIPassthrough
                $dev.Device.Key = New-DeviceKey
                $dev.Device.Backing = New-Object VMware.Vim.VirtualPCIPassthroughDynamicBackingInfo
                $dev.Device.Backing.DeviceName = ''
                $dev.Device.Backing.CustomLabel = $Label
                $dev.Device.Backing.AllowedDevice = $Allowed
                $changes += $dev
            }
            $spec.DeviceChange = $changes
            $vm.ExtensionData.ReconfigVM($spec)
        }
    }
}

function Set-GpuVm([string] $Name, [string[]] $VgpuTypes, [int] $Passthrough, [int] $MmioGB, [int] $FabricNics, [bool] $FabricSriov) {
    $found = @(Get-Cluster -Name $Cluster | Get-VM | Where-Object { $_.Name -eq $Name })
    if ($found.Count -ne 1) {
        Add-Blocker "VM ${Name}: the cluster $Cluster has $($found.Count) VMs of exactly that name; list one."
        return
    }
    $vm = $found[0]
    if ($vm.ExtensionData.Config.Firmware -ne 'efi') {
        Add-Blocker "VM ${Name} boots with $($vm.ExtensionData.Config.Firmware) firmware, and its GPUs need EFI. This script does not change an existing VM's firmware: a guest installed under BIOS no longer boots after the switch. Remedy: build a new VM with EFI firmware, install its guest in EFI mode, and list that VM here instead."
        return
    }
    if (-not $vm.ExtensionData.Config.MemoryReservationLockedToMax) {
        Write-Change "VM ${Name}: reserve all guest memory"
        if ($Apply -and (Test-CanChange $vm)) {
            $spec = New-Object VMware.Vim.VirtualMachineConfigSpec
            $spec.MemoryReservationLockedToMax = $true
            $vm.ExtensionData.ReconfigVM($spec)
        }
    }
    if ($MmioGB -gt 0 -and "$(@($vm.ExtensionData.Config.ExtraConfig | Where-Object { $_.Key -eq 'pciPassthru.use64bitMMIO' })[0].Value)" -ne 'TRUE') {
        Write-Change "VM ${Name}: pciPassthru.use64bitMMIO = TRUE"
        if ($Apply -and (Test-CanChange $vm)) {
            $spec = New-Object VMware.Vim.VirtualMachineConfigSpec
            $spec.ExtraConfig = @(New-Object VMware.Vim.OptionValue -Property @{ Key = 'pciPassthru.use64bitMMIO'; Value = 'TRUE' })
            $vm.ExtensionData.ReconfigVM($spec)
        }
    }
    if ($MmioGB -gt 0 -and [int]("0" + @($vm.ExtensionData.Config.ExtraConfig | Where-Object { $_.Key -eq 'pciPassthru.64bitMMIOSizeGB' })[0].Value) -lt $MmioGB) {
        Write-Change "VM ${Name}: pciPassthru.64bitMMIOSizeGB = $MmioGB"
        if ($Apply -and (Test-CanChange $vm)) {
            $spec = New-Object VMware.Vim.VirtualMachineConfigSpec
            $spec.ExtraConfig = @(New-Object VMware.Vim.OptionValue -Property @{ Key = 'pciPassthru.64bitMMIOSizeGB'; Value = "$MmioGB" })
            $vm.ExtensionData.ReconfigVM($spec)
        }
    }
    foreach ($type in @($VgpuTypes | Select-Object -Unique)) {
        $want = @($VgpuTypes | Where-Object { $_ -eq $type }).Count
        $vgpu = Find-VgpuType $vm.VMHost $type
        if ($null -eq $vgpu) {
            Add-Blocker "VM ${Name}: the host $($vm.VMHost.Name) does not offer the vGPU type $type. Is the host driver loaded and the GPU in the right mode?"
            continue
        }
        $have = @($vm.ExtensionData.Config.Hardware.Device | Where-Object { $_.Backing.Vgpu -eq $vgpu }).Count
        if (@($vm.ExtensionData.Config.Hardware.Device | Where-Object { $_.Backing.Vgpu -eq $vgpu }).Count -lt $want) {
            Write-Change "VM ${Name}: add $($want - $have) vGPU $type"
            if ($Apply -and (Test-CanChange $vm)) {
                $spec = New-Object VMware.Vim.VirtualMachineConfigSpec
                $changes = @()
                foreach ($i in 1..($want - $have)) {
                    $dev = New-Object VMware.Vim.VirtualDeviceConfigSpec
                    $dev.Operation = 'add'
                    $dev.Device = New-Object VMware.Vim.VirtualPCIPassthrough
                    $dev.Device.Key = New-DeviceKey
                    $dev.Device.Backing = New-Object VMware.Vim.VirtualPCIPassthroughVmiopBackingInfo
                    $dev.Device.Backing.Vgpu = $vgpu
                    $changes += $dev
                }
                $spec.DeviceChange = $changes
                $vm.ExtensionData.ReconfigVM($spec)
            }
        }
    }
    if ($Passthrough -gt 0) {
        $script:Claimed += $Passthrough
        if ($Passthrough -gt $script:MostPerHost -or $script:Claimed -gt $script:FreeGpus) {
            Add-Blocker "VM ${Name} needs $Passthrough GPUs given whole on one host, but too few are free: the cluster has $($script:FreeGpus) with passthrough and the label '$HardwareLabel' (at most $($script:MostPerHost) on one host), and the VMs listed before it take $($script:Claimed - $Passthrough)."
            return
        }
        Add-DynamicDevices $vm $Name $Passthrough $HardwareLabel $script:AllowedGpus 'Dynamic DirectPath I/O GPUs'
    }
    if ($FabricNics -gt 0 -and $FabricSriov) {
        Write-Check "VM ${Name}: add $FabricNics SR-IOV virtual function of the GPU fabric's adapter beside its GPU (vSphere Client: Edit Settings > Add New Device > PCI Device); the script does not choose the function."
    }
    elseif ($FabricNics -gt 0) {
        $script:ClaimedNics += $FabricNics
        if ($FabricNics -gt $script:MostNicsPerHost -or $script:ClaimedNics -gt $script:FreeNics) {
            Add-Blocker "VM ${Name} needs $FabricNics fabric adapters on one host, but too few are free: the cluster has $($script:FreeNics) with passthrough and the label '$FabricLabel' (at most $($script:MostNicsPerHost) on one host), and the VMs listed before it take $($script:ClaimedNics - $FabricNics)."
            return
        }
        Add-DynamicDevices $vm $Name $FabricNics $FabricLabel $script:AllowedNics 'fabric adapters by Dynamic DirectPath I/O'
    }
}
"""

# The vSphere Kubernetes Service creates its GPU worker nodes from VM classes, not from VMs an
# administrator names: a class per VM shape, created once and left alone when it holds the same
# vGPU devices (Broadcom's sample for Private AI Foundation creates GPU VM classes with these
# cmdlets of the PowerCLI vSphere SDK).
_VM_CLASS = r"""
function New-DirectDevices([int] $Count, $Allowed, [string] $Label) {
    $out = @()
    if ($Count -le 0 -or @($Allowed).Count -eq 0) { return $out }
    foreach ($i in 1..$Count) {
        $out += Initialize-NamespaceManagementVirtualMachineClassesDynamicDirectPathIODevice -VendorId $Allowed[0].VendorId -DeviceId $Allowed[0].DeviceId -CustomLabel $Label
    }
    return $out
}

function Set-GpuVmClass([string] $Id, [string[]] $VgpuTypes, [int] $Passthrough, [int] $MmioGB, [int] $FabricNics, [bool] $FabricSriov) {
    if ($VmClassCpus -le 0 -or $VmClassMemoryGB -le 0) {
        Add-Blocker "VM class ${Id}: give the worker nodes' size with -VmClassCpus and -VmClassMemoryGB; the design sizes their GPUs, not their vCPUs or guest memory."
        return
    }
    $first = @(Get-Cluster -Name $Cluster | Get-VMHost | Sort-Object Name)[0]
    $profiles = @()
    foreach ($type in $VgpuTypes) {
        $found = Find-VgpuType $first $type
        if ($null -eq $found) {
            Add-Blocker "VM class ${Id}: the host $($first.Name) does not offer the vGPU type $type. Is the host driver loaded and the GPU in the right mode?"
            return
        }
        $profiles += $found
    }
    $nics = if ($FabricSriov) { 0 } else { $FabricNics }
    if (($Passthrough -gt 0 -and @($script:AllowedGpus).Count -eq 0) -or ($nics -gt 0 -and @($script:AllowedNics).Count -eq 0)) {
        Add-Blocker "VM class ${Id}: no host has the GPUs or fabric adapters it needs with passthrough and their labels; run the host steps first."
        return
    }
    $existing = @(Invoke-ListNamespaceManagementVirtualMachineClasses | Where-Object { $_.Id -eq $Id })
    if ($existing.Count -eq 0) {
        Write-Change "VM class ${Id}: $VmClassCpus vCPUs, $VmClassMemoryGB GB reserved, vGPUs $($profiles -join ', '), $Passthrough GPUs and $nics fabric adapters by Dynamic DirectPath I/O"
        if ($Apply) {
            $direct = @(New-DirectDevices $Passthrough $script:AllowedGpus $HardwareLabel) + @(New-DirectDevices $nics $script:AllowedNics $FabricLabel)
            $vgpus = @($profiles | ForEach-Object { Initialize-NamespaceManagementVirtualMachineClassesVGPUDevice -ProfileName $_ })
            $devices = Initialize-NamespaceManagementVirtualMachineClassesVirtualDevices -VgpuDevices $vgpus -DynamicDirectPathIoDevices $direct
            $spec = Initialize-NamespaceManagementVirtualMachineClassesCreateSpec -Id $Id -CpuCount $VmClassCpus -MemoryMB ($VmClassMemoryGB * 1024) -MemoryReservation 100 -Devices $devices
            Invoke-CreateNamespaceManagementVirtualMachineClasses -NamespaceManagementVirtualMachineClassesCreateSpec $spec | Out-Null
        }
    }
    elseif ((@($existing[0].Devices.VgpuDevices | ForEach-Object { $_.ProfileName }) -join ',') -ne ($profiles -join ',') -or @($existing[0].Devices.DynamicDirectPathIoDevices | Where-Object { $_.CustomLabel -eq $HardwareLabel }).Count -ne $Passthrough -or @($existing[0].Devices.DynamicDirectPathIoDevices | Where-Object { $_.CustomLabel -eq $FabricLabel }).Count -ne $nics) {
        Add-Blocker "VM class ${Id} exists with other devices than the design's (vGPUs $($profiles -join ', '), $Passthrough GPUs, $nics fabric adapters); change it in the vSphere Client or give the design's class another name."
    }
    else {
        Write-Check "VM class ${Id}: present with the design's devices"
    }
    if ($FabricSriov -and $FabricNics -gt 0) {
        Write-Check "VM class ${Id}: add $FabricNics SR-IOV virtual function of the GPU fabric's adapter to the class in the vSphere Client (its PCI devices)."
    }
    if ($MmioGB -gt 0) {
        Write-Check "VM class ${Id}: set pciPassthru.use64bitMMIO = TRUE and pciPassthru.64bitMMIOSizeGB = $MmioGB among the class's advanced parameters."
    }
    Write-Check "VM class ${Id}: assign it to the vSphere Namespace of the GPU workloads."
}
"""

# Every script carries both ways of giving VMs their devices (named VMs, VM classes): the
# prelude stays one constant text.
_PRELUDE = _PRELUDE.rstrip() + "\n" + _VM_CLASS

_POSTLUDE = r"""
if ($script:Blockers.Count -gt 0) {
    Write-Host ''
    Write-Host "Not done ($($script:Blockers.Count)); each says what to do, then run this script again:"
    foreach ($b in $script:Blockers) { Write-Host "  - $b" }
    exit 1
}
if ($Apply) { Write-Host 'Done: every host, VM and VM class listed holds the design.' }
else { Write-Host 'Nothing was changed. Run again with -Apply to make the changes above.' }
"""


def _passthrough_per_host(result: Result) -> int:
    """The most GPUs a host gives whole to VMs (the packing's 'passthrough' GPUs)."""
    whole = ("passthrough", "mig-guest")  # a VM that partitions its GPUs holds them whole
    per_host = [sum(g.mode in whole for g in h.gpus) for h in result.packing.hosts]
    return max(per_host, default=0)


def vm_class_id(workload: str, gpus: int, both: bool) -> str:
    """A VM class name Kubernetes accepts (lowercase letters, digits and hyphens, at most 63)
    for a group's VM shape: 'gpuwizard-' and the group's name, with its GPU count where the
    group has VMs of two sizes."""
    slug = re.sub(r"[^a-z0-9]+", "-", workload.lower()).strip("-") or "group"
    tail = f"-{gpus}gpu" if both else ""
    return f"gpuwizard-{slug[: 63 - len('gpuwizard-') - len(tail)].rstrip('-')}{tail}"


def _vm_classes(steps) -> list[str]:
    """The VM-class section of a vSphere Kubernetes Service design: one class per VM shape."""
    shapes: dict[str, int] = {}
    for v in steps.vms:
        shapes[v.workload] = shapes.get(v.workload, 0) + 1
    lines = [
        "# ---- VM classes: the vSphere Kubernetes Service creates the GPU worker nodes from",
        "# ---- these classes (one per VM shape); give the workers' size with -VmClassCpus and",
        "# ---- -VmClassMemoryGB, and assign each class to the vSphere Namespace",
    ]
    for v in steps.vms:
        vgpus = [d for d in v.gpu_devices if d != "passthrough"]
        whole = len(v.gpu_devices) - len(vgpus)
        name = vm_class_id(v.workload, len(v.gpu_devices), shapes[v.workload] > 1)
        shown = "; ".join(f"{k} = {val}" for k, val in v.settings if k != "Firmware")
        lines += [
            f"# {_comment(v.workload)}: {count(v.vms, 'worker node')} of "
            f"{_comment(', '.join(v.gpu_devices))}; {_comment(shown)}",
            f"Set-GpuVmClass -Id {_text(name)} -VgpuTypes {_texts(vgpus)} -Passthrough {whole}"
            f" -MmioGB {v.mmio_size_gb or 0} -FabricNics {v.fabric_nics}"
            f" -FabricSriov {_flag(v.fabric_backing == 'sr-iov')}",
        ]
    return lines


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
    plain = " ".join(cluster.split())
    target = f"'{plain}'" if cluster and _PLAIN_NAME.fullmatch(plain) else "<cluster>"
    gpu, server = result.gpu, result.server
    if catalog is not None:
        if (g := catalog.gpus.get(result.gpu)) is not None:
            gpu = g.name
        if (box := catalog.servers.get(result.server)) is not None:
            server = box.product_name
    lines += [
        f"# GPU: {_comment(gpu)}, server: {_comment(server)}. Generated by gpuwizard.",
        "# Run in a PowerCLI session connected to vCenter, with the cluster's name in vCenter:",
        f"#   ./vsphere-steps.ps1 -Cluster {target}            (says what it would change)",
        f"#   ./vsphere-steps.ps1 -Cluster {target} -Apply     (changes it)",
        "# Run it again at any time: it reads each host and VM first and changes only what differs.",
    ]
    if steps.host_driver:
        lines.append(f"# Host driver: {_comment(steps.host_driver)}")
    lines += ["", _PRELUDE.rstrip(), ""]

    by_action = {h.action: h for h in steps.hosts}
    checks = [f"{h.step}: {h.value}" for h in steps.hosts if h.action == "firmware"]
    if checks:
        lines.append("# ---- Check first on every host (the script cannot read these)")
        for c in checks:
            lines.append(f"# {_comment(c)}")
            lines.append(f"Write-Check {_text(c)}")
    driver = steps.host_driver
    if driver and (fm := by_action.get("fabric-manager")) is not None:
        driver = f"{driver}; and in the same image: {fm.value}"
    mig = by_action.get("mig-mode")
    mig_types = sorted(
        {d for v in steps.vms for d in v.gpu_devices if _MIG_TYPE.search(d)} if mig else set()
    )
    fabric_nics, fabric_vfs = steps.fabric_adapters, steps.fabric_vfs
    passthrough = _passthrough_per_host(result)
    if any("passthrough" in v.gpu_devices for v in steps.vms):
        passthrough = max(passthrough, max(v.gpu_devices.count("passthrough") for v in steps.vms))
    lines += [
        "",
        "# ---- Hosts, one at a time: driver, graphics and vGPU mode, MIG mode, passthrough, then",
        "# ---- at most one restart, waiting until the host is connected again",
    ]
    lines += [
        f"# {_comment(h.step)}: {_comment(h.value)}" for h in steps.hosts if h.action != "firmware"
    ]
    if passthrough:
        lines.append(
            f"# Passthrough (Dynamic DirectPath I/O, hardware label -HardwareLabel) on {passthrough}"
            " NVIDIA GPUs of each host, in PCI address order"
        )
    lines += [
        "foreach ($h in @(Get-Cluster -Name $Cluster | Get-VMHost | Sort-Object Name)) {",
        f"    Set-GpuHost -VMHost $h -Driver {_text(driver) if driver else chr(39) * 2}"
        f" -Graphics {_flag('graphics' in by_action)}"
        f" -VgpuMode {_text(steps.vgpu_mode) if steps.vgpu_mode else chr(39) * 2}"
        f" -MigTypes {_texts(mig_types)}"
        f" -MigStep {_text(f'{mig.step}: {mig.value}') if mig else chr(39) * 2}"
        f" -MigReboots {_flag(bool(mig and mig.reboot))}"
        f" -Passthrough {passthrough}"
        f" -FabricFamily {_text(steps.fabric_nic) if steps.fabric_nic else chr(39) * 2}"
        f" -FabricNics {fabric_nics} -FabricVfs {fabric_vfs}",
        "}",
        "",
    ]
    if result.software is not None and result.software.kubernetes == "vks":
        lines += _vm_classes(steps)
        lines.append(_POSTLUDE.rstrip())
        return "\n".join(lines) + "\n"
    lines += [
        "# ---- VMs: put each group's VM names in its @() below, e.g. @('vm-01', 'vm-02');",
        "# ---- the script reads each VM and sets only what differs",
        "$VmsByGroup = [ordered]@{}",
    ]
    shapes: dict[str, int] = {}
    for v in steps.vms:
        shapes[v.workload] = shapes.get(v.workload, 0) + 1

    def key(v) -> str:  # a group with VMs of two sizes lists each size apart
        return (
            v.workload if shapes[v.workload] == 1 else f"{v.workload} ({len(v.gpu_devices)} GPUs)"
        )

    for v in steps.vms:
        lines.append(f"# {_comment(key(v))}: {count(v.vms, 'VM')} of this shape")
        lines.append(f"$VmsByGroup[{_text(key(v))}] = @()")
    lines.append("")
    for v in steps.vms:
        vgpus = [d for d in v.gpu_devices if d != "passthrough"]
        whole = len(v.gpu_devices) - len(vgpus)
        shown = "; ".join(f"{k} = {val}" for k, val in v.settings if k != "Firmware")
        lines += [
            f"# {_comment(key(v))}: {_comment(', '.join(v.gpu_devices))}; {_comment(shown)};"
            " EFI firmware (checked, never changed)",
            f"foreach ($name in $VmsByGroup[{_text(key(v))}]) {{",
            f"    Set-GpuVm -Name $name -VgpuTypes {_texts(vgpus)} -Passthrough {whole}"
            f" -MmioGB {v.mmio_size_gb or 0} -FabricNics {v.fabric_nics}"
            f" -FabricSriov {_flag(v.fabric_backing == 'sr-iov')}",
            "}",
        ]
    lines.append(_POSTLUDE.rstrip())
    return "\n".join(lines) + "\n"
