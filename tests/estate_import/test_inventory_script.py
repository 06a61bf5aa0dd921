"""The inventory script the wizard gives the customer: real PowerShell (parsed with
tree-sitter-powershell, no error node), read-only, writing exactly the columns the reader reads;
and a CSV in those columns, quoted as Export-Csv quotes, reads back to the same inventory."""

import csv
import io

import tree_sitter_powershell
from tree_sitter import Language, Node, Parser

from wizard.estate_import import inventory_script, read_estate
from wizard.estate_import.inventory import Cluster, Gpu, Host, Passthrough, Vgpu
from wizard.estate_import.mapping import match_gpu, match_server, vgpu_type
from wizard.estate_import.powercli import COLUMNS

_PARSER = Parser(Language(tree_sitter_powershell.language()))
# Cmdlets that only read (and the two that shape and write the CSV on the admin's machine).
READ_ONLY = {
    "get-cluster", "get-vmhost", "get-view", "get-vmhostpcidevice", "get-vm", "get-esxcli",
    "sort-object", "where-object", "foreach-object", "new-object", "export-csv", "write-host",
    "add-row",
}  # fmt: skip


def _nodes(node: Node, kind: str) -> list[Node]:
    out, todo = [], [node]
    while todo:
        n = todo.pop()
        if n.type == kind:
            out.append(n)
        todo.extend(reversed(n.children))
    return out


def _broken(node: Node) -> list[str]:
    out, todo = [], [node]
    while todo:
        n = todo.pop()
        if n.type == "ERROR" or n.is_missing:
            out.append(f"{n.type} at {n.start_point}")
        todo.extend(n.children)
    return out


def _parsed():
    src = inventory_script().encode("utf-8")
    return src, _PARSER.parse(src).root_node


def test_the_script_parses_with_no_error_node():
    _src, root = _parsed()
    assert root.type == "program"
    assert _broken(root) == []
    assert len(_nodes(root, "command_name")) > 10  # a real parse, not one opaque token


def test_the_script_only_reads():
    src, root = _parsed()
    used = {src[n.start_byte : n.end_byte].decode().lower() for n in _nodes(root, "command_name")}
    assert used <= READ_ONLY, used - READ_ONLY
    # Negative: a cmdlet that changes vCenter is caught by the same check.
    bad = _PARSER.parse(b"Set-VMHost -State Maintenance").root_node
    names = {n.text.decode().lower() for n in _nodes(bad, "command_name")}
    assert not names <= READ_ONLY


def test_the_script_writes_the_columns_the_reader_reads():
    src, root = _parsed()
    text = src.decode()
    start = text.index("$Columns = @(")
    listed = text[start : text.index(")", start)]
    assert [s.strip("' ") for s in listed.split("(", 1)[1].split(",")] == list(COLUMNS)
    # Every key an Add-Row call sets is a column (Add-Row would drop any other silently).
    keys = set()
    for call in _nodes(root, "command"):
        if src[call.start_byte : call.end_byte].decode().startswith("Add-Row"):
            for entry in _nodes(call, "key_expression"):
                keys.add(src[entry.start_byte : entry.end_byte].decode())
    assert keys and keys <= set(COLUMNS), keys - set(COLUMNS)
    assert {"Record", "Host", "GpuName", "VgpuType", "Use64bitMMIO", "MMIOSizeGB"} <= keys


def _export_csv(rows: list[dict[str, str]]) -> bytes:
    """What Windows PowerShell 5.1's Export-Csv -NoTypeInformation -Encoding UTF8 writes: a
    byte-order mark, every field in double quotes, CRLF line ends."""
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([row.get(c, "") for c in COLUMNS])
    return b"\xef\xbb\xbf" + out.getvalue().encode("utf-8")


def test_the_csv_round_trips(tmp_path, catalog):
    """Three hosts with four A100 PCIe 80GB each; VMs on MIG-backed vGPUs and one given a GPU
    whole. The expected inventory is written out by hand from the rows below."""
    rows, hosts, gpus, vgpus = [], [], [], []
    for i in range(1, 4):
        host = f"esx0{i}.example.com"
        rows.append({
            "Record": "host", "Cluster": "GPU", "Host": host, "Vendor": "Dell Inc.",
            "Model": "PowerEdge R750xa", "EsxiVersion": "8.0.3 build 24022510",
            "CpuModel": "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz", "Sockets": "2",
            "Cores": "64", "MemoryMiB": "1048576", "NvidiaDriver": "NVD-AIE_ESXi_8.0.0_Driver 550.90.05-1OEM.800.1.0.20613240",
        })  # fmt: skip
        hosts.append(Host(host, "GPU", "", "Dell Inc.", "PowerEdge R750xa",
                          "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz", 2, 64, 1048576,
                          "8.0.3 build 24022510",
                          match_server("Dell Inc.", "PowerEdge R750xa", catalog), "estate.csv"))  # fmt: skip
        for slot in range(4):
            pci = f"0000:{0x17 + slot * 0x20:02x}:00.0"
            rows.append({
                "Record": "gpu", "Cluster": "GPU", "Host": host, "GpuPciId": pci,
                "GpuName": "GA100 [A100 PCIe 80GB]", "GpuMemoryMiB": "81920",
                "GraphicsType": "sharedDirect", "VgpuMode": "sameSize",
            })  # fmt: skip
            gpus.append(Gpu(host, pci, "GA100 [A100 PCIe 80GB]", 81920, "", "", None, "",
                            "sharedDirect", "sameSize",
                            match_gpu("GA100 [A100 PCIe 80GB]", catalog, 81920), "estate.csv"))  # fmt: skip
        for n in range(2):
            vm = f"notebook-{i}{n}"
            rows.append({
                "Record": "vm", "Cluster": "GPU", "Host": host, "VM": vm, "PoweredOn": "True",
                "VgpuType": "grid_a100d-3-40c", "Use64bitMMIO": "TRUE", "MMIOSizeGB": "128",
            })  # fmt: skip
            vgpus.append(Vgpu(host, "", vm, vgpu_type("grid_a100d-3-40c", catalog), "", True,
                              128, "estate.csv"))  # fmt: skip
    rows.append({
        "Record": "vm", "Cluster": "GPU", "Host": "esx03.example.com", "VM": "trainer, \"big\"",
        "PoweredOn": "False", "PassthroughDevice": "0000:77:00.0", "Use64bitMMIO": "TRUE",
        "MMIOSizeGB": "256",
    })  # fmt: skip
    path = tmp_path / "estate.csv"
    path.write_bytes(_export_csv(rows))

    inv = read_estate([path], catalog)
    assert inv.hosts == hosts
    assert inv.gpus == gpus
    assert inv.vgpus == vgpus
    assert inv.passthrough == [
        Passthrough("esx03.example.com", 'trainer, "big"', "0000:77:00.0", True, 256, "estate.csv")
    ]
    assert inv.clusters == [Cluster("GPU", 3, None, "estate.csv")]
    # What the rows map to: the catalog's R750xa and A100 PCIe 80GB, and A100D-3-40C is a
    # MIG-backed type of the A100 PCIe 80GB board (type prefix A100D, catalogs/gpus.toml).
    assert {h.server.catalog_id for h in inv.hosts} == {"dell-r750xa"}
    assert {g.gpu.catalog_id for g in inv.gpus} == {"a100-pcie-80gb"}
    assert {(v.vgpu.name, v.vgpu.mig_backed, v.vgpu.gpus) for v in inv.vgpus} == {
        ("A100D-3-40C", True, ("a100-pcie-80gb",))
    }
    assert inv.unmapped() == []
    # Negative: one row of a kind the script never writes is refused by line.
    path.write_bytes(_export_csv([{"Record": "datastore"}]))
    import pytest

    from wizard.estate_import.files import EstateFileError

    with pytest.raises(
        EstateFileError, match="line 2: Record 'datastore' is none of host, gpu, vm"
    ):
        read_estate([path], catalog)
