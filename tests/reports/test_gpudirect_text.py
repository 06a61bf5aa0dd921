"""The proposal never says GPUDirect RDMA "yes" for a design that cannot carry it: the host's
direct GPU-NIC path and the design's use of it are two statements."""

from __future__ import annotations

from tests.reports.conftest import page_texts


def _text(example_pdf, name: str) -> str:
    _, reader = example_pdf(name)
    return " ".join(" ".join(page_texts(reader)).split())


def test_pvrdma_has_the_path_but_not_the_transfer(example_pdf):
    """enterprise: 4 V100s under the C4140's PCIe switch with the NIC, over PVRDMA."""
    text = _text(example_pdf, "enterprise")
    assert "4 of 4 GPUs share a PCIe switch or root complex with a NIC" in text
    assert (
        "the design does not use GPUDirect RDMA: PVRDMA, vSphere's paravirtual adapter, "
        "does not carry it" in text
    )
    assert "Path for GPUDirect RDMA" in text


def test_infiniband_with_gpudirect_says_it_is_used(example_pdf):
    text = _text(example_pdf, "gpt3-175b")
    assert "8 of 8 GPUs share a PCIe switch or root complex with a NIC" in text
    assert "the design uses GPUDirect RDMA over InfiniBand" in text
    assert "does not use GPUDirect RDMA" not in text
