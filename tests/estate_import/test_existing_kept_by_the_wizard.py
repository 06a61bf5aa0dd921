"""A design with existing clusters, opened in the wizard and taken back out, keeps them whole:
the wizard's document holds every section of the design, this one too."""

from wizard.gui.document import DesignDocument
from wizard.model.design import Design

DESIGN = {
    "hardware": {"gpu": "a100-pcie-80gb", "server": "dell-r750xa", "gpus_per_host": 4},
    "existing": {
        "clusters": [
            {
                "name": "Notebooks",
                "source": "estate.csv",
                "hosts": [
                    {"name": f"esx0{i}", "server": "dell-r750xa", "gpu": "a100-pcie-80gb",
                     "gpus": 4, "sharing_mode": "mig",
                     "in_use": [{"vm": f"nb-{i}", "vgpu_type": "A100D-3-40C"}]}
                    for i in (1, 2, 3)
                ],
            }
        ]
    },
}  # fmt: skip


def test_the_wizard_keeps_the_existing_estate(qtbot, tmp_path):
    design = Design.model_validate(DESIGN)
    doc = DesignDocument()
    doc.load(design, tmp_path / "d.json")
    assert doc.design() == design
    assert [h.gpus for h in doc.design().existing.clusters[0].hosts] == [4, 4, 4]
