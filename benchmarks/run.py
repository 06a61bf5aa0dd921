"""Speed of the sizing engine on the bundled examples and on generated designs.

Run with ``python benchmarks/run.py``; prints a table. Budgets live in the README.
"""

from __future__ import annotations

import platform
import statistics
import time

from wizard.bundled import example_names, example_text
from wizard.catalog_loader import load_catalog
from wizard.engine.size import size
from wizard.io import design_from_dict, design_from_text


def _time(fn, repeat: int = 20) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def _generated(gpus: int, users: int):
    per_host = 8
    return design_from_dict(
        {
            "workloads": [
                {"name": "Training jobs", "kind": "training", "count": max(gpus // 4, 1),
                 "gpus_per_member": 4},
                {"name": "Data scientists", "kind": "development", "count": users,
                 "shared": {"gpu_memory_gb": 10, "concurrency": 0.5}},
            ],
            "hardware": {"gpu": "h100-sxm5-80gb", "server": "dell-xe9680", "gpus_per_host": per_host},
        }
    )  # fmt: skip


def main() -> None:
    catalog = load_catalog(include_user=False)
    print(
        f"machine: {platform.processor() or platform.machine()}, Python {platform.python_version()}"
    )
    print(f"{'case':<34} {'median ms':>10}")
    for name in example_names():
        design = design_from_text(example_text(name))
        print(f"{'size() ' + name:<34} {_time(lambda d=design: size(d, catalog)) * 1000:>10.2f}")
    for gpus, users in ((8, 0), (64, 0), (512, 0), (4096, 10_000)):
        design = _generated(gpus, users)
        label = f"size() {gpus} GPUs, {users} users"
        print(f"{label:<34} {_time(lambda d=design: size(d, catalog), 5) * 1000:>10.2f}")
    for name, design in (
        ("enterprise", design_from_text(example_text("enterprise"))),
        ("4096 GPUs, 10000 users", _generated(4096, 10_000)),
    ):
        label = f"PDF report {name}"
        print(f"{label:<34} {_time(lambda d=design: _report(d, catalog), 3) * 1000:>10.2f}")


def _report(design, catalog) -> bytes:
    """Sizing plus the whole PDF, as ``gpuwizard report`` does it (without the file write)."""
    from reports.data import build_data
    from reports.document import build_pdf

    return build_pdf(build_data(design, catalog))


if __name__ == "__main__":
    main()
