"""The RVTools exports in tests/data/estate (sources in its SOURCES.md), read as RVTools 3, 4.4
and 4.7 wrote them. Every expected value was read from the workbook's cells with a spreadsheet
viewer; the comment beside it names the sheet and cell."""

from wizard.estate_import import read_estate

from .conftest import DATA


def _read(name, catalog):
    return read_estate([DATA / name], catalog)


def test_rvtools_3_sizing_workshop(catalog):
    inv = _read("rvtools-3-sizing-workshop.xlsx", catalog)
    # vHost: 34 rows with a host name (rows 2-35); no vCluster sheet in this trimmed export, so the
    # clusters are those the hosts name: column C counts Cluster2 22, Cluster1 5, DMZ 4, Mgmt 3.
    assert len(inv.hosts) == 34
    assert {(c.name, c.hosts) for c in inv.clusters} == {
        ("Cluster1", 5), ("Cluster2", 22), ("DMZ", 4), ("Mgmt", 3)
    }  # fmt: skip
    first = inv.hosts[0]
    # vHost row 2: vmsp-01, Cluster1, '# CPU' 2, '# Cores' 16, '# Memory' 262109,
    # 'ESX Version' VMware ESXi 6.0.0 build-4192238, Vendor HP, Model ProLiant BL460c Gen8.
    assert (first.name, first.cluster, first.sockets, first.cores, first.memory_mib) == (
        "vmsp-01", "Cluster1", 2, 16, 262109
    )  # fmt: skip
    assert first.esxi == "VMware ESXi 6.0.0 build-4192238"
    assert (first.vendor, first.model) == ("HP", "ProLiant BL460c Gen8")
    # vInfo: 805 rows with a VM name, 10 of them templates (column C 'True'), and of the other
    # 795, 763 'poweredOn' in column B. RVTools 3 writes 'Provisioned MB', not 'MiB'.
    assert len(inv.vms) == 795
    assert sum(v.powered_on for v in inv.vms) == 763
    # No catalog server is an HP ProLiant BL460c Gen8, DL380 G7 or DL380 Gen9: each is listed.
    assert inv.unmapped() == [
        "server 'HP ProLiant BL460c Gen8' (27 hosts): no catalog server has this vendor and model",
        "server 'HP ProLiant DL380 G7' (4 hosts): no catalog server has this vendor and model",
        "server 'HP ProLiant DL380 Gen9' (3 hosts): no catalog server has this vendor and model",
    ]


def test_rvtools_4_4_3_with_its_totals_row(catalog):
    inv = _read("rvtools-4.4.3-ovh.xlsx", catalog)
    # vMetaData B2: 4.4.3.0.
    assert any(n.endswith("RVTools 4.4.3.0") for n in inv.notes)
    # vHost rows 2-6 are five hosts; row 8 holds only the totals RVTools writes ('# Cores' 144 in
    # N8, '# vCPUs' 452 in X8) and is no host.
    assert [h.name for h in inv.hosts] == [
        "172.18.60.50", "172.18.60.51", "172.18.60.52", "172.18.60.53", "172.18.60.55"
    ]  # fmt: skip
    # vHost row 2: '# CPU' 1, '# Cores' 16, '# Memory' 196265, ESX Version ...7.0.3 build-20842708.
    h = inv.hosts[0]
    assert (h.sockets, h.cores, h.memory_mib) == (1, 16, 196265)
    assert h.esxi == "VMware ESXi 7.0.3 build-20842708"
    # vCluster row 2: Cluster1, NumHosts 5, 'HA enabled' True.
    assert [(c.name, c.hosts, c.ha_enabled) for c in inv.clusters] == [("Cluster1", 5, True)]
    # vInfo: 124 VMs, 105 'poweredOn'.
    assert (len(inv.vms), sum(v.powered_on for v in inv.vms)) == (124, 105)
    assert inv.unmapped() == [
        "server 'Supermicro X11DPi-N(T)' (5 hosts): no catalog server has this vendor and model"
    ]


def test_rvtools_4_7_1(catalog):
    inv = _read("rvtools-4.7.1-bc.xlsx", catalog)
    assert any(n.endswith("RVTools 4.7.1.4") for n in inv.notes)  # vMetaData B2
    # vHost rows 2-3: 192.168.1.39 and .40, HP ProLiant DL380p Gen8, ESXi 5.5.0 build-3116895,
    # '# CPU' 2, '# Cores' 16, '# Memory' 131037.
    assert [(h.name, h.sockets, h.cores, h.memory_mib) for h in inv.hosts] == [
        ("192.168.1.39", 2, 16, 131037), ("192.168.1.40", 2, 16, 131037)
    ]  # fmt: skip
    assert {h.esxi for h in inv.hosts} == {"VMware ESXi 5.5.0 build-3116895"}
    assert [(c.name, c.hosts, c.ha_enabled) for c in inv.clusters] == [("BC-Cluster1", 2, True)]
    # vInfo: 19 VMs, 5 powered on.
    assert (len(inv.vms), sum(v.powered_on for v in inv.vms)) == (19, 5)


def test_an_export_saved_with_a_million_formatted_rows(catalog):
    """The kubev2v example was saved through LibreOffice: its sheets claim 1,048,576 rows
    (dimension A1:CL1048576) of which 8 (vHost) and 10 (vInfo) hold anything."""
    inv = _read("rvtools-4-kubev2v-example1.xlsx", catalog)
    # vHost rows 2-8: seven HPE ProLiant DL380 Gen10 hosts in 'Cluster'; this export has no
    # 'ESX Version' column, so the build is not known rather than guessed.
    assert len(inv.hosts) == 7
    assert {(h.vendor, h.model, h.cluster, h.esxi) for h in inv.hosts} == {
        ("HPE", "ProLiant DL380 Gen10", "Cluster", "")
    }
    # vHost row 2: 10.17.135.71, 2 sockets, 32 cores, 261797 MiB.
    assert (inv.hosts[0].name, inv.hosts[0].cores, inv.hosts[0].memory_mib) == (
        "10.17.135.71", 32, 261797
    )  # fmt: skip
    assert (len(inv.vms), sum(v.powered_on for v in inv.vms)) == (9, 3)  # vInfo rows 2-10
    assert any("RVTools version not given" in n for n in inv.notes)
