"""``gpuwizard report`` and ``gpuwizard mig-config`` as a user runs them."""

import base64
import re

import pytest
from pypdf import PdfReader

from tests.conftest import run_cli
from tests.reports.conftest import page_texts, summary_page
from wizard.base.bundled import example_names


@pytest.mark.parametrize("name", example_names())
def test_report_for_every_bundled_example(tmp_path, name):
    design = tmp_path / f"{name}.json"
    assert run_cli("example", name, "-o", str(design)).returncode == 0
    out = tmp_path / "out.pdf"
    proc = run_cli("report", str(design), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert f"wrote {out}" in proc.stderr
    reader = PdfReader(out)
    assert len(reader.pages) >= 6
    assert "Executive summary" in summary_page(page_texts(reader))


def test_letter_paper_and_a_fixed_date(tmp_path):
    design = tmp_path / "d.json"
    run_cli("example", "starter", "-o", str(design))
    out = tmp_path / "letter.pdf"
    proc = run_cli(
        "report", str(design), "-o", str(out), "--page-size", "letter", "--date", "2030-05-06"
    )
    assert proc.returncode == 0, proc.stderr
    reader = PdfReader(out)
    assert float(reader.pages[0].mediabox.width) == 612
    assert "2030-05-06" in reader.pages[0].extract_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--date", "2030-02-30"], "--date: not a date in the form YYYY-MM-DD (got '2030-02-30')"),
        (["--page-size", "a3"], "invalid choice: 'a3'"),
    ],
)
def test_bad_report_options_exit_2(tmp_path, args, message):
    design = tmp_path / "d.json"
    run_cli("example", "starter", "-o", str(design))
    proc = run_cli("report", str(design), "-o", str(tmp_path / "x.pdf"), *args)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "x.pdf").exists()


def test_unwritable_output_is_a_one_line_error(tmp_path):
    design = tmp_path / "d.json"
    run_cli("example", "starter", "-o", str(design))
    target = tmp_path / "missing-dir" / "x.pdf"
    proc = run_cli("report", str(design), "-o", str(target))
    assert proc.returncode == 2
    assert proc.stderr == f"error: -o: {target}: the folder {target.parent} does not exist\n"
    taken = tmp_path / "taken.pdf"  # a folder where the file would go
    taken.mkdir()
    proc = run_cli("report", str(design), "-o", str(taken))
    assert proc.returncode == 2 and len(proc.stderr.splitlines()) == 1
    assert proc.stderr.startswith(f"error: {taken}: cannot be written")


def test_a_missing_logo_is_a_note_not_a_failure(tmp_path):
    import json

    design = tmp_path / "d.json"
    run_cli("example", "starter", "-o", str(design))
    doc = json.loads(design.read_text())
    doc["project"]["logo_path"] = "logo.png"
    design.write_text(json.dumps(doc))
    proc = run_cli("report", str(design), "-o", str(tmp_path / "x.pdf"))
    assert proc.returncode == 0
    assert "note: project.logo_path: 'logo.png' cannot be read" in proc.stderr


def test_report_logo_names_a_file_outside_the_design_folder(tmp_path):
    """A design naming an outside logo gets a note and no logo; --logo names it and it is on
    the cover (one image on page 1)."""
    import io
    import json

    from PIL import Image
    from pypdf import PdfReader

    (tmp_path / "designs").mkdir()
    design = tmp_path / "designs" / "d.json"
    logo = tmp_path / "logo.png"
    Image.new("RGB", (300, 100), (0, 0, 200)).save(logo)
    run_cli("example", "starter", "-o", str(design))
    doc = json.loads(design.read_text())
    doc["project"]["logo_path"] = str(logo)
    design.write_text(json.dumps(doc))
    out = tmp_path / "x.pdf"
    proc = run_cli("report", str(design), "-o", str(out))
    assert proc.returncode == 0 and "is outside the design file's folder" in proc.stderr
    assert len(PdfReader(io.BytesIO(out.read_bytes())).pages[0].images) == 0
    proc = run_cli("report", str(design), "-o", str(out), "--logo", str(logo))
    assert proc.returncode == 0 and "note:" not in proc.stderr, proc.stderr
    assert len(PdfReader(io.BytesIO(out.read_bytes())).pages[0].images) == 1


def test_mig_config_without_mig_groups_says_why(tmp_path):
    design = tmp_path / "d.json"
    run_cli("example", "starter", "-o", str(design))
    proc = run_cli("mig-config", str(design))
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: mig-config: ")


def test_mig_config_refuses_a_vsphere_mig_design_and_writes_nothing(tmp_path):
    """On vSphere only MIG mode is set by hand (NVIDIA: 'If you are using VMware vSphere, omit
    this task'): mig-config says so, points at vsphere-steps and leaves no file."""
    design = tmp_path / "d.json"
    run_cli("example", "mig-shared", "-o", str(design))
    out = tmp_path / "mig.yaml"
    proc = run_cli("mig-config", str(design), "-o", str(out))
    assert proc.returncode == 2
    assert "omit this task" in proc.stderr and "gpuwizard vsphere-steps" in proc.stderr
    assert not out.exists()


def script_texts(script: str) -> set[str]:
    """The texts a vSphere-steps script carries as Base64, decoded."""
    found = re.findall(r"FromBase64String\('([A-Za-z0-9+/=]*)'\)", script)
    return {base64.b64decode(b).decode("utf-8") for b in found}


@pytest.mark.parametrize(
    ("example", "devices"),
    [
        # mig-shared, H100 PCIe 80GB: NVIDIA's MMIO table, 'NVIDIA H100 (all variants) 256GB'
        ("mig-shared", "H100-1-10C"),
        # rtx-pro-vsphere, RTX PRO 6000 Blackwell Server Edition (96 GB), not in the table: the
        # rule of its rows, 2 x 128 = 256 GB
        ("rtx-pro-vsphere", "DC-16C"),
    ],
)
def test_vsphere_steps_for_the_vgpu_examples(tmp_path, example, devices):
    design = tmp_path / "d.json"
    run_cli("example", example, "-o", str(design))
    out = tmp_path / "steps.ps1"
    proc = run_cli("vsphere-steps", str(design), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    assert text.splitlines()[0].startswith("# vSphere host and VM steps")
    assert "param(" in text and "[switch] $Apply" in text
    assert devices in script_texts(text) and "-MmioGB 256" in text
    assert "pciPassthru.64bitMMIOSizeGB = 256" in text
    assert "NVIDIA AI Enterprise host driver for ESXi" in text
    if example == "mig-shared":  # Hopper: MIG mode without a host reboot
        # the products by their names (mig-shared.json: h100-pcie-80gb in a dell-r760xa)
        assert "# GPU: NVIDIA H100 PCIe 80GB, server: Dell PowerEdge R760xa." in text
        assert "-mig 1" in text and "no host reboot on Hopper GPUs" in text
        assert "mig-configs" not in text
    else:  # time-sliced vGPU on vSphere 9: each GPU's vGPU mode
        assert "-Graphics $true" in text and "sameSize" in script_texts(text)


def test_vsphere_steps_configure_one_named_cluster_of_several(tmp_path):
    """acme-two-clusters: the notebooks run on L40S-16C vGPUs in the Notebook cluster, the 70B
    groups on H100XM-80C in the HGX cluster (the design's groups and hardware). Each cluster
    gets its own script; without --cluster the command names the clusters and writes nothing."""
    from tests.conftest import ROOT

    design = ROOT / "docs" / "acme-two-clusters.json"
    out = tmp_path / "steps.ps1"
    proc = run_cli("vsphere-steps", str(design), "-o", str(out))
    assert proc.returncode == 2 and not out.exists()
    assert "2 GPU clusters (Notebook cluster, HGX cluster)" in proc.stderr
    assert "--cluster" in proc.stderr

    proc = run_cli("vsphere-steps", str(design), "--cluster", "hgx  cluster", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    assert "# For the design's GPU cluster HGX cluster;" in text
    assert "./vsphere-steps.ps1 -Cluster 'HGX cluster' -Apply" in text
    assert "H100XM-80C" in script_texts(text) and "L40S-16C" not in script_texts(text)

    proc = run_cli("vsphere-steps", str(design), "--cluster", "Notebook cluster")
    assert proc.returncode == 0, proc.stderr
    texts = script_texts(proc.stdout)
    assert "L40S-16C" in texts and "H100XM-80C" not in texts

    proc = run_cli("vsphere-steps", str(design), "--cluster", "Storage")
    assert proc.returncode == 2
    assert "--cluster 'Storage': the design has no GPU cluster of that name" in proc.stderr
