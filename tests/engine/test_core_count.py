"""The per-core licence count as a stage of its own: it takes only what it reads (hosts, their
server, the processor ordered, a stated core count), so it is tested from those alone, and its
logged formula gives its value (VCF per core with a 16-core minimum per CPU, Broadcom KB 313548;
two-socket Dell C4140 hosts as in the enterprise example)."""

from __future__ import annotations

import pytest

from wizard.engine.basis.expr import evaluate
from wizard.engine.basis.record import Recorder
from wizard.engine.fitout.bom import CoreCount, core_licences
from wizard.model.catalog import CpuOption


@pytest.fixture
def c4140(catalog):
    server = catalog.servers["dell-c4140"]
    return server.model_copy(
        update={"cpu_options": [CpuOption(name="Xeon Platinum 8280", cores=28),
                                CpuOption(name="Xeon Silver 4210", cores=10)]}
    )  # fmt: skip


@pytest.mark.parametrize(
    ("cpu", "stated", "licences"),
    [
        (None, None, 3 * 2 * 28),  # the server's usual build: the first processor listed
        ("Xeon Silver 4210", None, 3 * 2 * 16),  # 10 cores count as the minimum 16
        ("Xeon Silver 4210", 24, 3 * 2 * 24),  # a stated count overrides the processor
    ],
)
def test_three_hosts_are_licensed_per_core_of_every_socket(catalog, c4140, cpu, stated, licences):
    vcf = catalog.licences["vmware-vcf"]
    assert (vcf.min_units, c4140.sockets) == (16, 2)
    rec = Recorder()
    got = core_licences("k", CoreCount(3, c4140, cpu, stated), vcf, rec)
    assert got == licences
    (calc,) = rec.calculations
    assert evaluate(calc.formula, calc.inputs) == licences
    assert not rec.warnings


def test_a_server_without_known_processors_is_counted_at_32_cores_and_says_so(catalog, c4140):
    bare = c4140.model_copy(update={"cpu_options": []})
    rec = Recorder()
    got = core_licences("k", CoreCount(5, bare), catalog.licences["vmware-vcf"], rec)
    assert got == 5 * 2 * 32
    assert [w.code for w in rec.warnings] == ["licence-cores-assumed"]
