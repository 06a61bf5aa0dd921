"""Speed and memory of gpuwizard at every scale, against the budgets in the README.

Run from the repository root with ``python benchmarks/run.py`` (``--quick`` skips the GUI and
the largest growth step); it prints the machine and one table, and takes a minute or two.

- ``size()`` for every bundled example (budget: 50 ms each);
- ``size()`` of the mig-shared example with 10,000 data scientists on MIG 1g.10gb instances
  (budget: 1 s), the case the packing tests size for its count;
- ``size()`` for generated designs of 8, 64, 512 and 4,096 GPUs with development users in
  proportion (10,000 at 4,096 GPUs; budget: 1 s), mixing passthrough training jobs, MIG and
  time-sliced vGPU users and a vGPU inference service;
- peak Python memory of one ``size()`` (tracemalloc) and the process's peak RSS;
- growth: the time at 2n over the time at n, against n log n's ratio 2 (1 + ln 2 / ln n);
- the PDF report of every example and of the largest design: time and pages (``enterprise``
  budget: 3 s);
- the proposal against a plain platypus document of the same page count in the same fonts
  (``benchmarks/floor.py``, median of alternating pairs; at most 2 times) for ``enterprise``,
  the 33-cluster estate and the 1,000-group design, and the Word copy against the PDF
  (``enterprise``) or the floor (the large designs), with their absolute times; ``--documents``
  runs only these;
- the wizard window's cold start to its first page shown, in a fresh process (budget: 1.5 s,
  and at most 3 times a bare seven-page QWizard measured in the same run); the project's
  bytecode is compiled once before the measured runs, as pip does when it installs the wheel;
- the Review page updated after an edit: sizing and redraw, the median of 20 edits on every
  bundled example, the debounce not counted (budget: 150 ms);
- ``calibrate`` on a vLLM ``--append-result`` file of 500 runs, read and fitted (budget: 10 s):
  the fit takes an evenly spread sample of the loads, so the time does not grow with the file;
- with ``--corpus``: every command on every file of the hostile-input corpus
  (``tests/hardening/corpus.py``), the slowest run against 20 s.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
import textwrap
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wizard.app.catalog_loader import load_catalog  # noqa: E402
from wizard.app.io import design_from_dict, design_from_text  # noqa: E402
from wizard.base.bundled import example_names, example_text  # noqa: E402
from wizard.engine.size import size  # noqa: E402

EXAMPLE_BUDGET_S = 0.050
LARGE_BUDGET_S = 1.0
PDF_BUDGET_S = 3.0
GUI_BUDGET_S = 1.5
NOISE = 1.25  # timing noise allowed on the growth ratio


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} logical cores, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}"
    )


def median_time(fn, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def peak_memory_mb(fn) -> float:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def generated(gpus: int):
    """A design of about ``gpus`` GPUs: four-GPU passthrough training jobs, a vGPU inference
    service, and development users in proportion (10,000 at 4,096 GPUs), half on MIG 1g.10gb
    instances and half on 20 GB time-sliced vGPUs, half of them active at once."""
    users = round(10_000 * gpus / 4096)
    mig_users, vgpu_users = users // 2, users - users // 2
    # Active users take about 1/7 (MIG) and 1/4 (vGPU) of a GPU each; training fills the rest.
    dev_gpus = mig_users * 0.5 / 7 + vgpu_users * 0.5 / 4
    jobs = max(1, round((gpus - dev_gpus) * 0.9 / 4))
    doc = {
        "workloads": [
            {"name": "Training jobs", "kind": "training", "count": jobs, "gpus_per_member": 4},
            {"name": "Assistant", "kind": "inference", "count": max(1, gpus // 64),
             "model": {"preset": "llama-3-8b"}, "precision": "fp8",
             "inference": {"context_length": 4096, "concurrent_sequences": 4},
             "sharing_mode": "vgpu"},
            {"name": "Data scientists (MIG)", "kind": "development", "count": mig_users,
             "shared": {"gpu_memory_gb": 10, "concurrency": 0.5},
             "constraints": {"isolation_required": True}, "sharing_mode": "mig"},
            {"name": "Data scientists (vGPU)", "kind": "development", "count": vgpu_users,
             "shared": {"gpu_memory_gb": 20, "concurrency": 0.5}, "sharing_mode": "vgpu"},
        ],
        "hardware": {"gpu": "h100-sxm5-80gb", "server": "dell-xe9680", "gpus_per_host": 8,
                     "nic": "cx7-ndr-1p", "nics_per_host": 8, "fabric": "ib-ndr",
                     "rdma": "infiniband", "nvlink": True},
        "ha": {"level": "n+1"},
    }  # fmt: skip
    doc["workloads"] = [w for w in doc["workloads"] if w["count"]]
    return design_from_dict(doc), users


def ten_thousand_mig_users():
    """mig-shared with 10,000 data scientists and every group free to take any mode, all on MIG:
    1,430 H100s, most of them seven 1g.10gb instances."""
    doc = json.loads(example_text("mig-shared"))
    for group in doc["workloads"]:
        group["constraints"] = {"remote_ok": True}
        group["sharing_mode"] = "mig"
    doc["workloads"][2]["count"] = 10_000
    return design_from_dict(doc)


def row(case: str, value: str, budget: str = "", verdict: str = "") -> None:
    print(f"{case:<52} {value:>14} {budget:>10} {verdict:>7}")


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def bench_size(catalog, quick: bool) -> None:
    for name in example_names():
        design = design_from_text(example_text(name))
        t = median_time(lambda d=design: size(d, catalog), 20)
        row(f"size() {name}", f"{t * 1000:.1f} ms", "50 ms", verdict(t < EXAMPLE_BUDGET_S))
    design = ten_thousand_mig_users()
    result = size(design, catalog)
    t = median_time(lambda: size(design, catalog), 5)
    label = f"size() mig-shared, 10,000 MIG users ({result.cluster.gpus_demand:,} GPUs)"
    row(label, f"{t * 1000:.1f} ms", "1 s", verdict(t < LARGE_BUDGET_S))
    times: dict[int, float] = {}
    for gpus in (8, 64, 512, 1024, 2048, 4096, *(() if quick else (8192,))):
        design, users = generated(gpus)
        result = size(design, catalog)
        t = median_time(lambda d=design: size(d, catalog), 5 if gpus <= 4096 else 3)
        times[gpus] = t
        label = f"size() {result.cluster.gpus_demand:,} GPUs, {users:,} users"
        budget = "1 s" if gpus == 4096 else ""
        ok = verdict(t < LARGE_BUDGET_S) if gpus == 4096 else ""
        row(label, f"{t * 1000:.1f} ms", budget, ok)
        if gpus in (512, 4096):
            mb = peak_memory_mb(lambda d=design: size(d, catalog))
            row(f"  peak Python memory, {gpus:,}-GPU design", f"{mb:.1f} MB")
    for n in sorted(times):
        if 2 * n in times and n >= 512:
            ratio = times[2 * n] / times[n]
            bound = 2 * (1 + math.log(2) / math.log(n))
            row(
                f"growth size() {n:,} -> {2 * n:,} GPUs (t(2n)/t(n))",
                f"{ratio:.2f}",
                f"{bound:.2f}",
                verdict(ratio <= bound * NOISE),
            )


def bench_pdf(catalog) -> None:
    try:
        from pypdf import PdfReader

        from reports.data import build_data
        from reports.document import ReportOptions, build_pdf
    except ImportError as exc:
        row(f"PDF report: not available ({exc.name})", "-")
        return
    import io

    cases = [(n, design_from_text(example_text(n))) for n in example_names()]
    cases.append(("largest (4,096 GPUs, 10,000 users)", generated(4096)[0]))
    for name, design in cases:
        start = time.perf_counter()
        pdf = build_pdf(build_data(design, catalog), ReportOptions())
        t = time.perf_counter() - start
        pages = len(PdfReader(io.BytesIO(pdf)).pages)
        enterprise = name == "enterprise"
        row(
            f"PDF {name} ({pages} pages)",
            f"{t * 1000:.0f} ms",
            "3 s" if enterprise else "",
            verdict(t < PDF_BUDGET_S) if enterprise else "",
        )


DOCUMENT_FACTOR = 2.0  # a proposal's PDF against the platypus floor; its Word copy against it


def estate_33_clusters():
    """The largest estate the schema allows: the documented two-cluster design (its notebook
    cluster, HGX cluster and management domain) with GPU clusters 3 to 32 added, each running a
    copy of its chat service, 33 clusters in all (tests/reports/test_layout_limits.py builds the
    same with 22)."""
    import copy

    doc = json.loads((ROOT / "docs" / "acme-two-clusters.json").read_text(encoding="utf-8"))
    base = next(c for c in doc["clusters"] if c["role"] == "gpu-cluster")
    chat = next(w for w in doc["workloads"] if "chat" in w["name"].lower())
    for i in range(3, 33):
        doc["clusters"].append(dict(copy.deepcopy(base), name=f"GPU cluster {i}"))
        doc["workloads"].append(dict(copy.deepcopy(chat), name=f"Chat {i}",
                                     cluster=f"GPU cluster {i}"))  # fmt: skip
    return design_from_dict(doc)


def thousand_groups():
    """The starter example with the schema's 1,000 groups of one member each, as
    tests/engine/test_unsatisfiable.py builds it."""
    doc = json.loads(example_text("starter"))
    group = doc["workloads"][0]
    doc["workloads"] = [{**group, "name": f"Group {i:04d}", "count": 1} for i in range(1000)]
    return design_from_dict(doc)


def _timed(fn) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def _pairs(first, second, n: int) -> tuple[list[float], list[float]]:
    """``n`` runs of ``first`` and ``second`` taken in turn (after one unmeasured run of each),
    so a change in the machine's load weighs on both alike."""
    first(), second()
    xs, ys = [], []
    for _ in range(n):
        xs.append(_timed(first)[0])
        ys.append(_timed(second)[0])
    return xs, ys


def _ratio(xs: list[float], ys: list[float]) -> float:
    return statistics.median(y / x for x, y in zip(xs, ys, strict=True))


def bench_documents(catalog, quick: bool) -> None:
    """The proposal against a plain platypus document of the same pages (benchmarks/floor.py),
    and its Word copy against its PDF: ``enterprise`` on 5 alternating pairs, the 33-cluster
    estate and the 1,000-group design on 3 (1 with --quick), with their absolute times."""
    try:
        from pypdf import PdfReader

        from benchmarks.floor import floor_pdf
        from reports.document import ReportOptions
        from reports.proposal import proposal_pdf
        from wizard.engine.decide.planning import plan
    except ImportError as exc:
        row(f"documents: not available ({exc.name})", "-")
        return
    import io

    cases = [("enterprise", design_from_text(example_text("enterprise")), 5, True),
             ("33 clusters", estate_33_clusters(), 1 if quick else 3, True),
             ("1,000 groups", thousand_groups(), 1 if quick else 3, False)]  # fmt: skip
    for name, design, n, word in cases:
        p = plan(design, catalog)
        pages = len(PdfReader(io.BytesIO(proposal_pdf(p, ReportOptions()))).pages)

        def pdf(p=p) -> bytes:
            return proposal_pdf(p, ReportOptions())

        def docx(p=p) -> bytes:
            return proposal_pdf(p, ReportOptions(word=True))

        def floor(pages=pages) -> bytes:
            return floor_pdf(pages)

        floors, pdfs = _pairs(floor, pdf, n)
        pairs = f"median of {n} pair{'s' if n > 1 else ''}"
        row(f"platypus floor, {pages} pages", f"{statistics.median(floors) * 1000:.0f} ms")
        row(f"PDF {name} ({pages} pages)", f"{statistics.median(pdfs) * 1000:.0f} ms")
        r = _ratio(floors, pdfs)
        row(f"  PDF / floor ({pairs})", f"{r:.2f} x", f"{DOCUMENT_FACTOR:g} x",
            verdict(r <= DOCUMENT_FACTOR))  # fmt: skip
        if not word:
            continue
        if name == "enterprise":
            pdfs, docxs = _pairs(pdf, docx, n)
            row(f"Word copy {name}", f"{statistics.median(docxs) * 1000:.0f} ms")
            r = _ratio(pdfs, docxs)
            row(f"  Word / PDF ({pairs})", f"{r:.2f} x", f"{DOCUMENT_FACTOR:g} x",
                verdict(r <= DOCUMENT_FACTOR))  # fmt: skip
        else:
            floors, docxs = _pairs(floor, docx, n)
            row(f"Word copy {name}", f"{statistics.median(docxs) * 1000:.0f} ms")
            r = _ratio(floors, docxs)
            row(f"  Word / floor of {pages} pages ({pairs})", f"{r:.2f} x",
                f"{DOCUMENT_FACTOR:g} x", verdict(r <= DOCUMENT_FACTOR))  # fmt: skip


COLD_START = textwrap.dedent(
    """
    import sys, time
    t0 = float(sys.argv[1])
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication
    app = QApplication(sys.argv[:1])

    def shown():
        from wizard.gui.main_window import MainWindow
        windows = [w for w in app.topLevelWidgets() if isinstance(w, MainWindow)]
        if windows and windows[0].isVisible() and windows[0].wizard.currentPage() is not None:
            app.processEvents()
            print(f"{time.time() - t0:.4f}", flush=True)
            app.exit(0)
        else:
            QTimer.singleShot(5, shown)

    QTimer.singleShot(0, shown)
    from wizard.cli import main
    sys.exit(main(["--no-user-catalog", "gui"]))
    """
)


# The floor: a bare seven-page QWizard in a fresh process, the least any wizard built on
# PySide6 costs on this machine; the real window's cold start is held to a multiple of it.
BARE_WIZARD = textwrap.dedent(
    """
    import sys, time
    t0 = float(sys.argv[1])
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWizard, QWizardPage
    app = QApplication(sys.argv[:1])
    wizard = QWizard()
    for n in range(7):
        page = QWizardPage()
        page.setTitle(f"Page {n + 1}")
        QVBoxLayout(page).addWidget(QLabel("a field"))
        wizard.addPage(page)

    def shown():
        app.processEvents()
        print(f"{time.time() - t0:.4f}", flush=True)
        app.exit(0)

    wizard.show()
    QTimer.singleShot(0, shown)
    sys.exit(app.exec())
    """
)
COLD_START_FACTOR = 3.0

# Review updated after an edit: the edit, the sizing the debounce timer runs, and the redraw
# of the Review page on screen (median of 20 edits of the first group's members).
REVIEW_UPDATE = textwrap.dedent(
    """
    import sys, time, tempfile
    from pathlib import Path
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication
    app = QApplication(sys.argv[:1])
    from wizard.base.bundled import example_text
    from wizard.app.catalog_loader import load_catalog
    from wizard.gui.main_window import MainWindow
    from wizard.gui.wizard import PageId
    from wizard.app.io import design_from_text
    scratch = Path(tempfile.mkdtemp())
    w = MainWindow(load_catalog(include_user=False), state_dir=scratch,
                   settings=QSettings(str(scratch / "s.ini"), QSettings.Format.IniFormat))
    w.resize(1280, 800)
    w.show()
    w.doc.load(design_from_text(example_text(sys.argv[1])), None)
    w.wizard.restart_at_start()
    assert w.wizard.go_to(PageId.REVIEW)
    w.live.refresh()
    app.processEvents()
    samples = []
    for i in range(20):
        groups = list(w.doc.get("workloads"))
        g = groups[0]
        groups[0] = g.model_copy(update={"count": g.count + (1 if i % 2 == 0 else -1)})
        t0 = time.perf_counter()
        w.doc.set("workloads", groups)
        w.live.refresh()
        app.processEvents()
        samples.append(time.perf_counter() - t0)
    samples.sort()
    print(f"{samples[len(samples) // 2]:.4f}")
    """
)
REVIEW_BUDGET_S = 0.150


_PYCACHE: list[str] = []  # the temporary bytecode folder of this run, made on first use


def _env() -> tuple[dict[str, str], dict[str, str]]:
    """The environment of a measured run and of the unmeasured one that writes the bytecode.

    The bytecode of every module the first run imports goes into a temporary pycache prefix,
    which the measured runs read: an installed wheel has its bytecode from pip, while a checkout
    run with PYTHONDONTWRITEBYTECODE would compile the project on every start. That run also
    leaves what any earlier start leaves (the parsed-catalog cache).
    """
    if not _PYCACHE:
        import atexit
        import shutil
        import tempfile

        _PYCACHE.append(tempfile.mkdtemp(prefix="gpuwizard-bench-pyc-"))
        atexit.register(shutil.rmtree, _PYCACHE[0], True)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT),
           "PYTHONPYCACHEPREFIX": _PYCACHE[0]}  # fmt: skip
    warm = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return env, warm


def _run(script: str, args: tuple[str, ...], env: dict[str, str]) -> float:
    """One run of ``script`` in a fresh offscreen process: the last number it printed."""
    start = time.time()
    proc = subprocess.run(
        [sys.executable, "-c", script, *(args or (repr(start),))],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    lines = proc.stdout.split()
    if proc.returncode != 0 or not lines:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1:][0] if proc.stderr else "?")
    return float(lines[-1])


def _fresh(script: str, *args: str) -> list[float]:
    """Three measured runs of ``script`` in fresh processes, after one that writes bytecode."""
    env, warm = _env()
    _run(script, args, warm)
    return [_run(script, args, env) for _ in range(3)]


def _paired(a: str, b: str, pairs: int = 5) -> tuple[list[float], list[float]]:
    """Runs of ``a`` and ``b`` taken in turn, so that a change in the machine's load between
    them (two cores shared with other work) weighs on both alike; each is warmed first."""
    env, warm = _env()
    _run(a, (), warm)
    _run(b, (), warm)
    xs, ys = [], []
    for _ in range(pairs):
        xs.append(_run(a, (), env))
        ys.append(_run(b, (), env))
    return xs, ys


def bench_gui() -> None:
    try:
        floors, starts = _paired(BARE_WIZARD, COLD_START)
    except RuntimeError as exc:
        row("GUI cold start: failed", str(exc)[:14])
        return
    floor, t = statistics.median(floors), statistics.median(starts)
    ratio = statistics.median(s / f for f, s in zip(floors, starts, strict=True))
    row("bare 7-page QWizard to first page (floor)", f"{floor * 1000:.0f} ms")
    row(
        "GUI cold start to first page (offscreen)",
        f"{t * 1000:.0f} ms",
        "1.5 s",
        verdict(t < GUI_BUDGET_S),
    )
    row(
        "  cold start / floor (median of 5 pairs)",
        f"{ratio:.1f} x",
        f"{COLD_START_FACTOR:g} x",
        verdict(ratio <= COLD_START_FACTOR),
    )
    bench_review()


def bench_review() -> None:
    """Edit -> Review updated on every bundled example: the median of 20 edits, in a fresh
    process per example after one that writes the bytecode."""
    env, warm = _env()
    for i, name in enumerate(example_names()):
        try:
            if i == 0:
                _run(REVIEW_UPDATE, (name,), warm)
            u = _run(REVIEW_UPDATE, (name,), env)
        except RuntimeError as exc:
            row(f"Review update: failed ({name})", str(exc)[:14])
            continue
        row(f"Review updated after an edit ({name})", f"{u * 1000:.0f} ms", "150 ms",
            verdict(u <= REVIEW_BUDGET_S))  # fmt: skip


CALIBRATE_BUDGET_S = 10.0


def bench_calibrate(catalog) -> None:
    """The NIM sample's 25- and 50-in-flight runs (docs/measurements) appended 250 times each, as
    `vllm bench serve --append-result` writes a sweep, fitted into the 70B group of the tests."""
    from tests.measure.test_fit import GROUP, _design
    from wizard.measure.fit import MeasurementFile, calibrate
    from wizard.measure.parsers import parse

    runs = [(ROOT / "docs" / "measurements" / f"nim-70b-h100-tp2-c{c}.vllm.json").read_text()
            for c in (25, 50)]  # fmt: skip
    text = "".join(runs[k % 2].strip() + "\n" for k in range(500))
    design = design_from_dict(_design(25))

    def fit() -> None:
        run = parse(text, "sweep.jsonl")
        calibrate(design, catalog, GROUP, [MeasurementFile("sweep.jsonl", text.encode(), run)])

    t = median_time(fit, 3)
    row("calibrate: 500 appended vLLM runs", f"{t:.2f} s", "10 s", verdict(t <= CALIBRATE_BUDGET_S))


CORPUS_BUDGET_S = 20.0


def bench_corpus() -> None:
    """Every command on every file of the hostile-input corpus: the slowest run against the
    20 s budget (a hostile file must not make a command hang)."""
    import tempfile

    from tests.hardening.corpus import run_commands, write_corpus

    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        files = write_corpus(base / "files", base / "private" / "private.png")
        runs = []
        for path in files:
            out = base / "out" / path.stem
            out.mkdir(parents=True)
            runs += run_commands(path, out)
    slowest = max(runs, key=lambda r: r.seconds)
    total = sum(r.seconds for r in runs)
    row(
        f"hostile corpus: {len(files)} files x {len(runs) // len(files)} commands", f"{total:.0f} s"
    )
    row(f"  slowest: {slowest.command} {slowest.file.name}"[:52], f"{slowest.seconds:.2f} s",
        f"{CORPUS_BUDGET_S:.0f} s", verdict(slowest.seconds <= CORPUS_BUDGET_S))  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the GUI and 8,192 GPUs")
    parser.add_argument("--corpus", action="store_true", help="also time the hostile corpus")
    parser.add_argument(
        "--documents",
        action="store_true",
        help="only the proposals against the platypus floor, and their Word copies",
    )
    parser.add_argument(
        "--review", action="store_true", help="only edit -> Review updated on every example"
    )
    args = parser.parse_args()
    print(f"machine: {machine()}")
    row("case", "measured", "budget", "")
    row("-" * 52, "-" * 14, "-" * 10, "-" * 7)
    catalog = load_catalog(include_user=False)
    if args.review:
        bench_review()
    elif args.documents:
        bench_documents(catalog, args.quick)
    else:
        bench_size(catalog, args.quick)
        bench_pdf(catalog)
        if not args.quick:
            bench_documents(catalog, args.quick)
        bench_calibrate(catalog)
    if not args.quick and not args.documents and not args.review:
        bench_gui()
    if args.corpus:
        bench_corpus()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    row("peak RSS of this process", f"{rss:.0f} MB")


if __name__ == "__main__":
    main()
