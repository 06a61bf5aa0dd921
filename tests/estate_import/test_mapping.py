"""Product names to the catalog: each rule with a case it maps and a case it must not."""

import pytest

from wizard.estate_import.mapping import match_gpu, match_server, vgpu_type


@pytest.mark.parametrize(
    "name, expected",
    [
        ("NVIDIA A100-SXM4-40GB", "a100-sxm4-40gb"),  # nvidia-smi's hyphens
        ("NVIDIA A100 80GB PCIe", "a100-pcie-80gb"),  # words in another order
        ("Tesla T4", "t4"),  # the older brand word
        ("GA100 [A100 PCIe 80GB]", "a100-pcie-80gb"),  # ESXi's PCI device name form
        ("NVIDIA L40S", "l40s"),
    ],
)
def test_a_gpu_maps_by_its_words(catalog, name, expected):
    assert match_gpu(name, catalog).catalog_id == expected


@pytest.mark.parametrize(
    "name",
    ["NVIDIA L40", "NVIDIA A100"],  # 'L40' is not 'L40S'; 'A100' alone is four boards
)
def test_a_gpu_name_is_never_widened(catalog, name):
    m = match_gpu(name, catalog)
    if name == "NVIDIA L40":
        assert m.catalog_id == "l40"
    else:
        assert m.catalog_id is None


def test_a_name_without_its_memory_maps_only_when_the_memory_agrees(catalog):
    # The catalog's H100 NVL is 94GB; nvidia-smi prints 'NVIDIA H100 NVL' and its memory in
    # MiB. 94 GiB = 94 x 1024 = 96,256 MiB; 95,830 MiB (93.6 GiB) is a little under: it maps.
    assert match_gpu("NVIDIA H100 NVL", catalog, 95830).catalog_id == "h100-nvl-94gb"
    # 10% under 94 GiB is 86,630 MiB: a report below that is not this board.
    assert match_gpu("NVIDIA H100 NVL", catalog, 86000).catalog_id is None
    wrong = match_gpu("NVIDIA H100 NVL", catalog, 40960)
    assert wrong.catalog_id is None and wrong.candidates == ("h100-nvl-94gb",)
    unknown = match_gpu("NVIDIA H100 NVL", catalog, None)
    assert unknown.catalog_id is None and "memory" in unknown.how


def test_a_name_that_fits_several_boards_lists_them(catalog):
    # 'NVIDIA H200' leaves out the form factor: SXM and NVL are both 141GB.
    m = match_gpu("NVIDIA H200", catalog, 143771)
    assert m.catalog_id is None
    assert m.candidates == ()  # the form is missing, not only the memory: nothing is offered


def test_servers_by_vendor_and_model(catalog):
    assert match_server("Dell Inc.", "PowerEdge R750xa", catalog).catalog_id == "dell-r750xa"
    # Lenovo's machine type suffix and the catalog's note in brackets are set aside.
    m = match_server("Lenovo", "ThinkSystem SR670 V2 -[7Z22CTO1WW]-", catalog)
    assert m.catalog_id == "lenovo-sr670-v2"
    # The same model under another vendor is not that server.
    assert match_server("Supermicro", "PowerEdge R750xa", catalog).catalog_id is None
    # A node housed in two catalog enclosures (HGX and PCIe) is not guessed: both are named.
    m = match_server("HPE", "ProLiant XL675d Gen10 Plus", catalog)
    assert m.catalog_id is None
    assert m.candidates == ("hpe-apollo-6500-gen10-plus", "hpe-apollo-6500-gen10-plus-pcie")


@pytest.mark.parametrize(
    "read, name, mig_backed, series",
    [
        ("grid_a100-4c", "A100-4C", False, "C"),  # vSphere's profile string, time-sliced
        ("nvidia_a100d-3-40c", "A100D-3-40C", True, "C"),  # MIG-backed: slices, then GB
        ("GRID A100-4C", "A100-4C", False, "C"),  # nvidia-smi's older prefix
        ("something else", "ELSE", None, ""),  # neither form: said, not guessed
    ],
)
def test_vgpu_types_by_nvidias_naming(catalog, read, name, mig_backed, series):
    t = vgpu_type(read, catalog)
    assert (t.name, t.mig_backed, t.series) == (name, mig_backed, series)


def test_vgpu_type_boards(catalog):
    # 'A100D' is the A100 PCIe 80GB's type prefix (catalogs/gpus.toml, A100D-80C).
    assert vgpu_type("nvidia_a100d-3-40c", catalog).gpus == ("a100-pcie-80gb",)
    assert vgpu_type("grid_zz99-4c", catalog).gpus == ()
