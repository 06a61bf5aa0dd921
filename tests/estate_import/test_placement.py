"""A GPU report names no host: its file's name does, when it names exactly one host read."""

import shutil

from wizard.estate_import import read_estate

from .conftest import DATA

WORKBOOK = DATA / "rvtools-4-kubev2v-example1.xlsx"  # vHost A2: 10.17.135.71 ... A8: 10.144.66.242
REPORT = DATA / "nvidia-smi-a100-sxm4-40gb-mig.xml"


def test_the_files_name_places_the_gpus(tmp_path, catalog):
    named = tmp_path / "10.17.135.71_nvidia-smi.xml"
    shutil.copy(REPORT, named)
    inv = read_estate([named, WORKBOOK], catalog)  # the workbook is read first, whatever the order
    assert [g.host for g in inv.gpus] == ["10.17.135.71"]
    assert any("taken as host 10.17.135.71's by the file's name" in n for n in inv.notes)


def test_a_name_that_is_no_host_leaves_the_gpus_unplaced(tmp_path, catalog):
    # '10.17.135.7' is not '10.17.135.71', and an address's first number names no host.
    named = tmp_path / "10.17.135.7.xml"
    shutil.copy(REPORT, named)
    inv = read_estate([WORKBOOK, named], catalog)
    assert [g.host for g in inv.gpus] == [""]
    assert any("no host read names this file" in n for n in inv.notes)


def test_a_short_name_finds_its_fqdn(tmp_path, catalog):
    from wizard.estate_import.inventory import _host_of

    class H:
        def __init__(self, name):
            self.name = name

    hosts = [H("esx01.example.com"), H("esx011.example.com")]
    assert _host_of(tmp_path / "esx01.xml", hosts) == ["esx01.example.com"]
    assert _host_of(tmp_path / "esx01.example.com.vgpu.txt", hosts) == ["esx01.example.com"]
    assert _host_of(tmp_path / "esx02.xml", hosts) == []
