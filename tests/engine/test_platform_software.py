"""The software stack lists a component only where the design uses it: GPUDirect Storage (the
nvidia-fs module and cuFile) where the storage the design reads from is GPUDirect Storage."""

from __future__ import annotations

from tests.engine.conftest import design_dict
from wizard.app.io import design_from_dict
from wizard.engine.size import size


def _gds_components(name: str, catalog) -> tuple[bool, list[str]]:
    r = size(design_from_dict(design_dict(name)), catalog)
    assert r.storage is not None and r.software is not None
    names = [c.name for c in r.software.components if "GPUDirect Storage" in c.name]
    return r.storage.gpudirect_storage, names


def test_gpudirect_storage_is_listed_where_the_storage_reads_into_gpu_memory(catalog):
    """The imagenet-resnet50 example reads from a Dell PowerScale F900 with GPUDirect Storage:
    the guests get the nvidia-fs kernel module and cuFile (NVIDIA GPU Operator, 'GPUDirect RDMA
    and GPUDirect Storage')."""
    gds, names = _gds_components("imagenet-resnet50", catalog)
    assert gds and names == ["GPUDirect Storage (nvidia-fs kernel module, cuFile)"]


def test_no_gpudirect_storage_without_it_on_the_storage(catalog):
    """Negative case: the enterprise example has storage (a Dell Isilon F800) but plans no
    GPUDirect Storage, so the stack names no nvidia-fs module."""
    gds, names = _gds_components("enterprise", catalog)
    assert not gds and names == []
