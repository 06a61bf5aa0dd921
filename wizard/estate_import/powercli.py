"""The inventory script the wizard gives the customer, and the reader of the CSV it writes.

The script is read-only: in a PowerCLI session connected to vCenter it lists, per cluster, each
host (vendor, model, ESXi build, CPUs, memory, the NVIDIA driver VIBs installed), each NVIDIA GPU
(``Get-VMHostPciDevice``, with the graphics type and vGPU mode from the host's graphics manager,
which ``esxcli graphics device list`` also shows) and each GPU device of each VM (its vGPU type,
or the passthrough device, and the VM's 64-bit MMIO settings), one row each, and writes them with
``Export-Csv``. It carries no text from a design or a user, so nothing in it needs quoting; every
cell of the CSV it returns is read as untrusted text.

Sources: VMware PowerCLI cmdlet reference (Get-Cluster, Get-VMHost, Get-VMHostPciDevice
-DeviceClass DisplayController, Get-VM, Get-EsxCli -V2, Export-Csv); vSphere API
``HostGraphicsManager.graphicsInfo`` (pciId, graphicsType, vgpuMode, memorySizeInKB),
``VirtualPCIPassthroughVmiopBackingInfo.vgpu`` (the vGPU profile, e.g. grid_a100-4c),
``VirtualPCIPassthroughDeviceBackingInfo`` and ``VirtualPCIPassthroughDynamicBackingInfo``;
NVIDIA's VM settings ``pciPassthru.use64bitMMIO`` and ``pciPassthru.64bitMMIOSizeGB`` (NVIDIA AI
Enterprise, 'Configuring a VM with a GPU that has a large BAR')."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

from wizard.base.safe_read import decode_utf8
from wizard.estate_import.files import EstateFileError
from wizard.estate_import.inventory import Cluster, Gpu, Host, Inventory, Passthrough, Vgpu
from wizard.estate_import.mapping import match_gpu, match_server, vgpu_type
from wizard.model.catalog import Catalog

# The CSV's columns, in the order the script writes them. The script's $Columns is built from
# this tuple, so the two cannot drift apart.
COLUMNS = (
    "Record",
    "Cluster",
    "Host",
    "Vendor",
    "Model",
    "EsxiVersion",
    "CpuModel",
    "Sockets",
    "Cores",
    "MemoryMiB",
    "NvidiaDriver",
    "GpuPciId",
    "GpuName",
    "GpuMemoryMiB",
    "GraphicsType",
    "VgpuMode",
    "VM",
    "PoweredOn",
    "VgpuType",
    "PassthroughDevice",
    "Use64bitMMIO",
    "MMIOSizeGB",
)
MAX_ROWS = 500_000

_SCRIPT = r"""<#
gpuwizard estate inventory: reads, never changes. Run it in a PowerCLI session connected to
vCenter (Connect-VIServer), then give the CSV it writes to gpuwizard import-estate.
  .\gpuwizard-inventory.ps1 -OutFile estate.csv [-Cluster 'GPU*']
MIG mode is not visible to PowerCLI: also run 'nvidia-smi -q -x > HOST.xml' and
'nvidia-smi vgpu -q > HOST.vgpu.txt' in each GPU host's ESXi shell, each file named after its host.
#>
param(
    [Parameter(Mandatory = $true)] [string] $OutFile,
    [string] $Cluster = '*'
)
$ErrorActionPreference = 'Stop'
$Columns = @(__COLUMNS__)
$rows = New-Object System.Collections.Generic.List[object]

function Add-Row([hashtable] $Values) {
    $row = [ordered]@{}
    foreach ($c in $Columns) {
        if ($Values.ContainsKey($c) -and $null -ne $Values[$c]) { $row[$c] = "$($Values[$c])" } else { $row[$c] = '' }
    }
    $rows.Add([pscustomobject]$row)
}

foreach ($cl in @(Get-Cluster -Name $Cluster | Sort-Object Name)) {
    foreach ($vmhost in @($cl | Get-VMHost | Sort-Object Name)) {
        $cpu = $vmhost.ExtensionData.Hardware.CpuInfo
        $drivers = ''
        try {
            # Splatted: the PowerShell grammar the tests parse with misreads '-V2'.
            $cliArgs = @{ VMHost = $vmhost; V2 = $true }
            $esxcli = Get-EsxCli @cliArgs
            $vibs = @($esxcli.software.vib.list.Invoke() | Where-Object { $_.Vendor -match 'NVIDIA|NVD' -or $_.Name -match '^NVD' })
            $drivers = ($vibs | ForEach-Object { "$($_.Name) $($_.Version)" }) -join '; '
        } catch {
            $drivers = 'not readable: ' + $_.Exception.Message
        }
        Add-Row @{
            Record = 'host'; Cluster = $cl.Name; Host = $vmhost.Name
            Vendor = $vmhost.Manufacturer; Model = $vmhost.Model
            EsxiVersion = "$($vmhost.Version) build $($vmhost.Build)"; CpuModel = $vmhost.ProcessorType
            Sockets = $cpu.NumCpuPackages; Cores = $cpu.NumCpuCores
            MemoryMiB = [math]::Round($vmhost.ExtensionData.Hardware.MemorySize / 1048576)
            NvidiaDriver = $drivers
        }
        $graphics = @()
        $gm = Get-View $vmhost.ExtensionData.ConfigManager.GraphicsManager -ErrorAction SilentlyContinue
        if ($null -ne $gm) { $graphics = @($gm.GraphicsInfo) }
        $gpus = @(Get-VMHostPciDevice -VMHost $vmhost -DeviceClass DisplayController | Where-Object { $_.ExtensionData.VendorId -eq 0x10de })
        foreach ($dev in $gpus) {
            $g = @($graphics | Where-Object { $_.PciId -eq $dev.Id })
            $memory = ''
            $type = ''
            $mode = ''
            if ($g.Count -gt 0) {
                $memory = [math]::Round($g[0].MemorySizeInKB / 1024)
                $type = $g[0].GraphicsType
                $mode = $g[0].VgpuMode
            }
            Add-Row @{
                Record = 'gpu'; Cluster = $cl.Name; Host = $vmhost.Name
                GpuPciId = $dev.Id; GpuName = $dev.DeviceName; GpuMemoryMiB = $memory
                GraphicsType = $type; VgpuMode = $mode
            }
        }
        foreach ($vm in @($vmhost | Get-VM | Sort-Object Name)) {
            $extra = @{}
            foreach ($o in @($vm.ExtensionData.Config.ExtraConfig)) { $extra[$o.Key] = $o.Value }
            $devices = @($vm.ExtensionData.Config.Hardware.Device | Where-Object { $_ -is [VMware.Vim.VirtualPCIPassthrough] })
            foreach ($d in $devices) {
                $vgpu = ''
                $whole = ''
                if ($d.Backing -is [VMware.Vim.VirtualPCIPassthroughVmiopBackingInfo]) {
                    $vgpu = $d.Backing.Vgpu
                } elseif ($d.Backing -is [VMware.Vim.VirtualPCIPassthroughDynamicBackingInfo]) {
                    $whole = $d.Backing.AssignedId
                } elseif ($d.Backing -is [VMware.Vim.VirtualPCIPassthroughDeviceBackingInfo]) {
                    $whole = $d.Backing.Id
                }
                Add-Row @{
                    Record = 'vm'; Cluster = $cl.Name; Host = $vmhost.Name; VM = $vm.Name
                    PoweredOn = ($vm.PowerState -eq 'PoweredOn'); VgpuType = $vgpu; PassthroughDevice = $whole
                    Use64bitMMIO = $extra['pciPassthru.use64bitMMIO']; MMIOSizeGB = $extra['pciPassthru.64bitMMIOSizeGB']
                }
            }
        }
    }
}
$rows | Export-Csv -Path $OutFile -NoTypeInformation -Encoding UTF8
Write-Host "Wrote $($rows.Count) rows to $OutFile"
"""


def inventory_script() -> str:
    """The script's text, its column list built from COLUMNS."""
    return _SCRIPT.replace("__COLUMNS__", ", ".join(f"'{c}'" for c in COLUMNS))


def looks_like_inventory_csv(data: bytes) -> bool:
    first = data[:4096].decode("utf-8", "replace").lstrip("\ufeff").split("\n", 1)[0]
    return first.replace('"', "").strip().startswith("Record,Cluster,Host")


NUMBER_COLUMNS = ("Sockets", "Cores", "MemoryMiB", "GpuMemoryMiB", "MMIOSizeGB")


def _refuse_non_numbers(path: Path, line: int, cell: dict[str, str]) -> None:
    """The script writes these columns as numbers or leaves them empty: anything else (a word,
    NaN, an infinity, a number past a double) is a file edited by hand, named rather than read
    as unknown or as an integer no host has."""
    for column in NUMBER_COLUMNS:
        text = cell[column]
        try:
            ok = not text or math.isfinite(float(text))
        except ValueError:
            ok = False
        if not ok:
            raise EstateFileError(f"{path}: line {line}: {column} {text[:30]!r} is not a number")


def _int(text: str) -> int | None:
    try:
        return round(float(text)) if text.strip() else None
    except ValueError:
        return None


def _bool(text: str) -> bool | None:
    return {"true": True, "false": False}.get(text.strip().lower())


def read_inventory_csv(path: Path, data: bytes, catalog: Catalog) -> Inventory:
    text = decode_utf8(data, str(path), EstateFileError)
    reader = csv.DictReader(io.StringIO(text, newline=""))
    missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise EstateFileError(
            f"{path}: the inventory CSV lacks the columns {', '.join(missing)}; write it with the wizard's inventory script"
        )
    inv = Inventory(files=[str(path)])
    clusters: dict[str, int] = {}
    try:
        for number, row in enumerate(reader, start=2):
            if number > MAX_ROWS:
                raise EstateFileError(f"{path}: more than {MAX_ROWS:,} rows; refused")
            cell = {c: " ".join((row.get(c) or "").split()) for c in COLUMNS}
            _refuse_non_numbers(path, number, cell)
            kind = cell["Record"]
            if kind == "host":
                clusters[cell["Cluster"]] = clusters.get(cell["Cluster"], 0) + 1
                inv.hosts.append(_host(cell, catalog, path.name))
                if cell["NvidiaDriver"]:
                    inv.notes.append(
                        f"{path}: host {cell['Host']}: NVIDIA driver {cell['NvidiaDriver']}"
                    )
            elif kind == "gpu":
                inv.gpus.append(_gpu(cell, catalog, path.name))
            elif kind == "vm":
                use = _vm(cell, catalog, path.name)
                if isinstance(use, Vgpu):
                    inv.vgpus.append(use)
                elif use is not None:
                    inv.passthrough.append(use)
            else:
                raise EstateFileError(
                    f"{path}: line {number}: Record {kind[:30]!r} is none of host, gpu, vm"
                )
    except csv.Error as exc:
        raise EstateFileError(f"{path}: not a readable CSV ({exc})") from None
    inv.clusters = [Cluster(name, n, None, path.name) for name, n in sorted(clusters.items())]
    return inv


def _host(cell: dict[str, str], catalog: Catalog, source: str) -> Host:
    return Host(
        name=cell["Host"],
        cluster=cell["Cluster"],
        datacenter="",
        vendor=cell["Vendor"],
        model=cell["Model"],
        cpu_model=cell["CpuModel"],
        sockets=_int(cell["Sockets"]),
        cores=_int(cell["Cores"]),
        memory_mib=_int(cell["MemoryMiB"]),
        esxi=cell["EsxiVersion"],
        server=match_server(cell["Vendor"], cell["Model"], catalog),
        source=source,
    )


def _gpu(cell: dict[str, str], catalog: Catalog, source: str) -> Gpu:
    memory = _int(cell["GpuMemoryMiB"])
    return Gpu(
        host=cell["Host"],
        bus_id=cell["GpuPciId"],
        product_name=cell["GpuName"],
        memory_mib=memory,
        mig_current="",
        mig_pending="",
        mig_instances=None,
        driver_version="",
        virtualization_mode=cell["GraphicsType"],
        host_vgpu_mode=cell["VgpuMode"],
        gpu=match_gpu(cell["GpuName"], catalog, memory),
        source=source,
    )


def _vm(cell: dict[str, str], catalog: Catalog, source: str) -> Vgpu | Passthrough | None:
    mmio = _bool(cell["Use64bitMMIO"]), _int(cell["MMIOSizeGB"])
    if cell["VgpuType"]:
        vgpu = vgpu_type(cell["VgpuType"], catalog)
        return Vgpu(cell["Host"], "", cell["VM"], vgpu, "", *mmio, source)
    if cell["PassthroughDevice"]:
        return Passthrough(cell["Host"], cell["VM"], cell["PassthroughDevice"], *mmio, source)
    return None
