"""The proposal of a design whose MIG groups are partitioned in the guest names them so (the
engine side is in tests/engine/test_mig_in_guest.py; this file needs the reports' libraries)."""

from __future__ import annotations

from tests.engine.conftest import design_dict
from tests.engine.test_mig_in_guest import _guest
from wizard.app.io import design_from_dict
from wizard.engine.size import size


def test_the_proposal_names_the_gpus_partitioned_in_the_guest(catalog):
    """The GPU layout table and the layout decision say the GPUs are partitioned in the VM, not
    given as MIG-backed vGPUs; mig-shared as shipped (MIG-backed vGPU) still says vSphere does."""
    from reports.sections.sharing import layout_rows

    guest = size(design_from_dict(_guest()), catalog)
    modes = {row[2] for row in layout_rows(guest.packing)[1:]}
    assert modes <= {"MIG in the guest", "free"} and "MIG in the guest" in modes
    (layout,) = [d for d in guest.decisions if d.text.startswith("Shared GPUs are planned as")]
    assert layout.implication == (
        "The VMs that hold GPUs whole partition them with the design's MIG configuration when "
        "they start."
    )
    shipped = size(design_from_dict(design_dict("mig-shared")), catalog)
    (layout,) = [d for d in shipped.decisions if d.text.startswith("Shared GPUs are planned as")]
    assert layout.implication.startswith("Nothing is partitioned in advance: vSphere gives")
    assert "MIG-backed vGPU" in {row[2] for row in layout_rows(shipped.packing)[1:]}
