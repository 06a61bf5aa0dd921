"""Plant bugs by rule in every module of each room, a seeded sample at a time, and judge each
by the whole suite.

``scripts/mutants.py`` plants hand-written slips where tests already were and runs a few chosen
tests for each; that flatters the score. Here ``scripts/mutation_sites.py`` lists every site a
rule reaches in a room's modules (operators, comparisons, constants, and/or, ``not``, terms of a
sum, returned booleans, also inside ``Formula("...")`` text); ``random.Random(seed)`` draws
``--per-room`` of them; each is planted alone in a copy of the last commit (``git archive HEAD``;
the working tree is never touched) and judged by the room's tests first, then, if it survives
them, by the whole suite. A failing, erroring or timed-out run catches the mutant.

    python scripts/mutation_rules.py --seed 4848 --list          # the draw, nothing run
    python scripts/mutation_rules.py --seed 4848                 # the full run (hours)
    python scripts/mutation_rules.py --seed 4848 --rooms placement --per-room 2 --baseline rooms

The whole suite runs without ``tests/test_lint.py::test_ruff``: a planted ``<=`` can push a line
past the length limit or let ruff join two lines, which ruff reports, and that is not a test
catching the bug. mypy and the layering contracts stay in.

A drawn site listed in ``EQUIVALENT`` is not run: it is reported with its reason and the draw
takes the next site, so each room is judged on ``--per-room`` mutants. The run exits non-zero
when a room scores under ``--min-score``.
"""

from __future__ import annotations

import argparse
import ast
import datetime
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

if str(Path(__file__).resolve().parent) not in sys.path:  # run as a script or loaded by a test
    sys.path.insert(0, str(Path(__file__).resolve().parent))

import mutation_linemap
from mutants import ROOT, environment, export
from mutation_sites import Site, sites

ENGINE = "wizard/engine"
ENGINE_TESTS = ("tests/engine",)
PYTEST = ("-m", "pytest", "-x", "-q", "-p", "no:cacheprovider")
LINT = "tests/test_lint.py::test_ruff"
SUITE = ("-n", "1", "--deselect", LINT, "tests")


def suite(workers: int) -> tuple[str, ...]:
    """The whole suite on ``workers`` xdist workers (1 on a shared two-core machine)."""
    return ("-n", str(workers), *SUITE[2:])


# Drawn sites that no test can tell from the original, keyed by site id (``--list`` prints
# them), each with why. A key no longer found among the sites is reported as stale.
EQUIVALENT: dict[str, str] = {
    "wizard/engine/basis/expr.py::_compiled::1.0 -> 2.0#0": "the stand-in inputs of a formula's "
    "check are only type-checked, never combined, so any number checks the same",
    "wizard/engine/basis/expr.py::_eval::1.0 -> 2.0#0": "the value an operator returns in a "
    "check is thrown away; only which nodes are allowed is checked",
    "wizard/engine/basis/expr.py::_eval::1.0 -> 2.0#1": "the value a function call returns in "
    "a check is thrown away; only which nodes are allowed is checked",
    "wizard/engine/basis/switch_choice.py::pick_switch::* -> /#0": "switches compared on this "
    "key already share rank and port speed, hence the breakout, so ports x breakout and ports / "
    "breakout order them alike",
    "wizard/engine/basis/topology.py::_hop::or -> and#0": "layout() puts either every GPU "
    "board of a host behind a PCIe switch or none, so one GPU behind a switch and the other not "
    "never occurs",
    "wizard/engine/basis/topology.py::rings::1 -> 2#0": "a group with a gradient ring is sized "
    "from its model, which always gives it a layout, so the fallback is never read",
    "wizard/engine/demand/inference.py::ServingPlanner.record::* -> /#4": "a service is one "
    "service: its one caller passes one member, and x 1 equals / 1",
    "wizard/engine/demand/training_plan.py::ladder.st::0 -> 1#0": "every call of the inner "
    "strategy builder passes its ZeRO stage, so the default is never used",
    "wizard/engine/fitout/linkx.py::switch_names.<lambda>::!= -> ==#0": "the sort orders only "
    "the keys of a dict every caller reads by role, and names are numbered per plane and role",
    "wizard/engine/fitout/linkx.py::eth_optics::<= -> <#0": "a 25 Gb/s port speed arises only "
    "as 25 Gb/s without breakout, which an earlier branch takes",
    "wizard/engine/fitout/linkx.py::ETH_COPPER::0.5 -> 1.0#0": "every copper run needs at "
    "least 1.0 m (the routing inside the rack), so a 0.5 m cable is never the one chosen",
    "wizard/engine/fitout/linkx.py::ETH_COPPER::0.5 -> 1.0#1": "every copper run needs at "
    "least 1.0 m (the routing inside the rack), so a 0.5 m cable is never the one chosen",
    "wizard/engine/fitout/linkx.py::ETH_COPPER::0.5 -> 1.0#2": "every copper run needs at "
    "least 1.0 m (the routing inside the rack), so a 0.5 m cable is never the one chosen",
    "wizard/engine/fitout/linkx.py::ETH_COPPER::0.5 -> 1.0#3": "every copper run needs at "
    "least 1.0 m (the routing inside the rack), so a 0.5 m cable is never the one chosen",
    "wizard/engine/fitout/linkx.py::ETH_COPPER::0.5 -> 1.0#4": "every copper run needs at "
    "least 1.0 m (the routing inside the rack), so a 0.5 m cable is never the one chosen",
    "wizard/engine/placement/sharing.py::needs::1.0 -> 2.0#3": "the memory share is already "
    "capped at the GPU's and every compute share is at most 1, so a cap of 1 or 2 gives the same",
    "wizard/engine/placement/sharing.py::_slots::0 -> 1#1": "every MIG slot comes with an "
    "instance of its profile in the GPU's state, so the list of free starts is never empty",
    "wizard/engine/fitout/power.py::power::1 -> 2#0": "the out-of-band units are None or a "
    "count of at least one switch at its catalog power, which is above 0, so the count and the "
    "watts are both true",
    "wizard/engine/fitout/racks.py::top_of_rack::> -> >=#2": "a run of whole rack units (44.45 "
    "mm each) plus the 1 m of routing never equals a copper reach NVIDIA lists (2, 3 or 5 m), "
    "so a cable never ends exactly at its reach",
    "wizard/engine/fitout/portmap.py::plane_links::1 -> 2#3": "a redundant leaf pair always has "
    "its two peer links (the one pair the fabric gives them to), so the links a pair takes are 2 "
    "whether their floor is 1 or 2",
    "wizard/engine/fitout/portmap.py::plane_links::0 -> 1#5": "every leaf of an Ethernet plane "
    "has its count of host ports set (0 for none), and only Ethernet planes are redundant (the "
    "GPU fabric never is), so a pair's peer links never read the default",
    "wizard/engine/fitout/portmap.py::plane_links::0 -> 1#6": "as #5, for the pair's second leaf",
    "wizard/engine/fitout/racks.py::leaf_homes::or -> and#0": "a plane without leaves fills "
    "no leaf, and one without hosts gives each leaf no host port, which top_of_rack treats as "
    "a leaf with no home: skipping the plane or not places the same switches",
    "wizard/engine/fitout/buildout.py::build_out::and -> or#1": "in-rack coolant units are "
    "placed only where one is chosen, and a chosen unit placed in no rack adds 0 W and no "
    "power line either way",
    "wizard/engine/fitout/portmap.py::oob_links::>= -> >#0": "a device stands at least a "
    "unit from its rack's out-of-band switch, and whole units (44.45 mm each) plus the 1 m of "
    "routing never equal a patch cord's 1, 2, 3 or 5 m",
    "wizard/engine/fitout/portmap.py::PATCH_M::1.0 -> 2.0#0": "the shortest management run is "
    "one unit plus the 1 m of routing, over 1 m, so the 1 m cord is never the one taken",
    "wizard/engine/decide/estate.py::_beside::< -> <=#0": "the items of one rack stand at "
    "different units, so an item moved away never stands where one left behind does",
    "wizard/engine/decide/estate.py::_beside::1 -> 2#0": "the racks laid out before an added "
    "host is placed each hold at least one item (a rack left empty is skipped), so the top of "
    "the items is never the default",
    "wizard/engine/fitout/racks.py::racks::0.0 -> 1.0#2": "every host is placed in a rack, so "
    "with hosts there is always a rack holding them and the densest is never the default",
    "wizard/engine/fitout/linkx.py::_fill_in_order::- -> +#0": "the leaves' capacities are "
    "read only at "
    "the indices of the leaves, and the first of them are the same whatever follows them",
    "wizard/engine/fitout/fabric.py::_spines::1 -> 2#1": "one spine more than a leaf's uplinks "
    "is never tried in vain: at as many spines as uplinks each leaf gives one link a spine, the "
    "fewest it can, so a count that fails there fails with one more spine too",
    "wizard/engine/platform/software.py::SoftwarePlanner._hgx_gpus::0 -> 1#0": "the count is "
    "only compared with 8 (a board of eight GPUs), and a server listing no GPU support is below "
    "it whether it counts 0 or 1",
    "wizard/engine/decide/cpu_clusters.py::cpu_cluster::0 -> 1#1": "a management domain with no "
    "stated host count is below the minimum of 4 whether nothing counts as 0 or 1",
    "wizard/engine/decide/placing.py::gpu_specs::and -> or#0": "the design model requires "
    "hardware of a GPU cluster and refuses it on any other (ClusterSpec's validator), so the "
    "role and the hardware test agree; the second only narrows the type",
    "wizard/engine/decide/cpu_clusters.py::cpu_cluster::and -> or#0": "the hosts are the "
    "larger of the stated count and the minimum, so they equal the minimum exactly when the "
    "stated count is at most the minimum: the two tests agree",
    "wizard/engine/decide/estate.py::joins::1 -> 2#0": "the text before a name's first dot is "
    "the same whatever the number of splits",
    "wizard/cli/design_commands.py::cmd_bom::and -> or#0": "a bill's currency, one-off and "
    "yearly sums are all set (priced) or all unset (not priced), so 'and' and 'or' agree",
    "reports/document.py::ProposalTemplate.__init__::1 -> 2#0": "reportlab reads 'invariant' "
    "as a flag (its truth), and 2 is as true as 1",
    "wizard/app/recommend.py::_spans_hosts::> -> >=#1": "with one replica a member the test "
    "left is gpus_per_replica > gpus_per_host, which the line before has already answered",
    "wizard/gui/pages/review_tables.py::rows_tall::* -> /#0": "the stand-in height is used "
    "only when the rows shown measure nothing, that is an empty table, and then it counts one "
    "row, and 30 x 1 = 30 / 1",
    "wizard/gui/pages/review.py::ReviewPage.__init__::0 -> 1#2": "the cluster bar ends in a "
    "stretch, so a right margin moves nothing it draws; only its smallest width grows by one "
    "pixel, far below the page's own",
    "wizard/gui/widgets/workload_sections.py::ServingSection.__init__::6 -> 7#0": "the "
    "workload editor is hidden until a group is selected, and selecting one loads it, which "
    "sets every input (a rate left out loads as 6), so the value it is built with is never shown",
    "reports/diagrams/fabric.py::_Plane.draw::7.5 -> 15.0#1": "a label shrinks only while "
    "its size is above its smallest, and the title starts at 7.5, so a smallest of 7.5 or of 15 "
    "keeps it at 7.5 alike (cut with an ellipsis where it does not fit)",
    "reports/pdf_writer.py::_Table._listCellGeom::72000 -> 72001#0": "the height a cell's "
    "flowables may take when reportlab gives none, the same 72,000-point default reportlab's "
    "own method has: 1,000 inches either way, which no cell comes near",
    "reports/diagrams/architecture.py::draw::/ -> *#2": "it moves only the pool's crossing, "
    "which bounds the 'Management network' label when it is the nearer one, and the label fits "
    "before it with room to spare (150 points for 65 at the A4 width): no example draws a "
    "different shape at any width from 200 to 480 points",
    "wizard/app/io.py::_json_name::> -> >=#0": "only a non-finite number reaches it and NaN "
    "returns first, so the value is an infinity and never 0",
}


@dataclass(frozen=True)
class Room:
    """A room of the program: its modules (globs under the repository) and its own tests."""

    name: str
    sources: tuple[str, ...]
    tests: tuple[str, ...]

    def files(self, root: Path) -> list[str]:
        found = {p for g in self.sources for p in root.glob(g) if p.is_file()}
        return sorted(str(p.relative_to(root)) for p in found)


def rooms(root: Path) -> list[Room]:
    """The engine's sub-packages (its top-level modules join ``decide`` as size+decide), then the
    readers. Found on disk, so a renamed sub-package is still a room."""
    engine = root / ENGINE
    subs = sorted(d.name for d in engine.iterdir() if d.is_dir() and (d / "__init__.py").is_file())
    out = []
    for name in subs:
        globs = (f"{ENGINE}/{name}/**/*.py",)
        if name == "decide":
            out.append(Room("size+decide", (f"{ENGINE}/*.py", *globs), ENGINE_TESTS))
        else:
            out.append(Room(name, globs, ENGINE_TESTS))
    if "decide" not in subs:
        out.append(Room("size", (f"{ENGINE}/*.py",), ENGINE_TESTS))
    out += [
        Room(
            "cli+app",
            ("wizard/cli.py", "wizard/cli/**/*.py", "wizard/app/**/*.py"),
            # the app's reading, recommending and refusing are tested beside the commands
            (
                "tests/cli",
                "tests/io",
                "tests/hardening",
                *sorted(str(p.relative_to(root)) for p in root.glob("tests/test_recommend*.py")),
            ),
        ),
        Room("gui", ("wizard/gui/**/*.py",), ("tests/gui",)),
        Room("reports", ("reports/**/*.py",), ("tests/reports",)),
    ]
    return out


def room_sites(root: Path, room: Room) -> list[Site]:
    return [s for f in room.files(root) for s in sites(f, (root / f).read_text(encoding="utf-8"))]


def draw(
    candidates: Sequence[Site], seed: int, n: int, equivalent: Mapping[str, str]
) -> tuple[list[Site], list[Site]]:
    """``n`` sites to judge and the equivalent ones drawn on the way, the same for the same seed
    and sites whatever order they were listed in."""
    order = sorted(candidates, key=lambda s: s.id)
    random.Random(seed).shuffle(order)
    judged: list[Site] = []
    skipped: list[Site] = []
    for s in order:
        if len(judged) == n:
            break
        (skipped if s.id in equivalent else judged).append(s)
    return judged, skipped


Runner = Callable[[Path, Sequence[str], float], str]

# The editable install maps wizard.catalogs and wizard.resources (top-level directories) to the
# working tree, so with only PYTHONPATH a copy's tests would read the working tree's catalogs and
# fonts. This sitecustomize, on PYTHONPATH after the copy, points the install's map at the copy.
SITECUSTOMIZE = """\
import os
import sys

NEW = {new!r}


def _moved(path, old):
    return NEW + path[len(old):] if path == old or path.startswith(old + os.sep) else path


for _name, _mod in list(sys.modules.items()):
    if _name.startswith("__editable__") and "wizard" in getattr(_mod, "MAPPING", {{}}):
        _old = os.path.dirname(_mod.MAPPING["wizard"])  # the checkout it was installed from
        _mod.MAPPING = {{k: _moved(v, _old) for k, v in _mod.MAPPING.items()}}
        _mod.NAMESPACES = {{k: [_moved(p, _old) for p in v] for k, v in _mod.NAMESPACES.items()}}
"""


def _site(copy: Path) -> Path:
    return copy.parent / f"{copy.name}-site"


def copy_environment(copy: Path) -> dict[str, str]:
    """The copy's packages first on the import path, the installed map pointed at the copy, and
    the interpreter's scripts (lint-imports) on PATH: the copy has no .venv of its own."""
    site = _site(copy)
    site.mkdir(exist_ok=True)
    custom = SITECUSTOMIZE.format(new=str(copy)) + mutation_linemap.subprocess_text(copy)
    (site / "sitecustomize.py").write_text(custom, encoding="utf-8")
    env = environment(copy)
    path = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return {**env, "PYTHONPATH": f"{copy}{os.pathsep}{site}", "PATH": path}


def imports_the_copy(copy: Path) -> bool:
    """Every package the tests import, the catalogs and shipped files included, from the copy."""
    code = (
        "import wizard, reports, wizard.catalogs, wizard.resources\n"
        "for m in (wizard, reports, wizard.catalogs, wizard.resources): print(*m.__path__)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=copy,
        env=copy_environment(copy),
        capture_output=True,
        text=True,
    )
    paths = proc.stdout.split()
    return (
        proc.returncode == 0
        and len(paths) == 4
        and all(Path(p).is_relative_to(copy) for p in paths)
    )


def run_pytest(copy: Path, args: Sequence[str], timeout: float) -> str:
    """'passed', 'timed out' or 'failed' with the first failing test (a failure, an error or a
    module that no longer imports). The run has its own process group, so a timeout also ends
    xdist's worker."""
    proc = subprocess.Popen(
        [sys.executable, *PYTEST, *args],
        cwd=copy,
        env=copy_environment(copy),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return "timed out"
    if proc.returncode == 0:
        return "passed"
    if proc.returncode in (1, 2):
        return "failed: " + first_failure(out)
    tail = "\n".join(out.strip().splitlines()[-15:])  # no tests, a usage or an internal error
    raise SystemExit(f"pytest exited {proc.returncode} running {' '.join(args)}:\n{tail}")


def first_failure(output: str) -> str:
    """The first failing or erroring test in pytest's short summary (``-ra``), without its
    message."""
    for line in output.splitlines():
        if line.startswith(("FAILED ", "ERROR ")):
            return line.split(" ", 1)[1].split(" - ", 1)[0]
    return "(no summary line)"


@dataclass
class Verdict:
    site: Site
    outcome: str  # "caught by room tests", "caught by whole suite", "survived", PENDING
    how: str  # "failed: <the first failing test>" or "timed out" for a caught mutant
    seconds: float


ROOM_CATCH = "caught by room tests"
SUITE_CATCH = "caught by whole suite"
# A mutant the tests that run its line pass, in a run that stops there (--defer-suite, to find
# the weak places fast, without the rest of the whole suite): not a survivor, not caught, and no
# score.
PENDING = "passed the tests that run it"


def stages(
    room_tests: Sequence[str], whole: Sequence[str], near: Sequence[str] | None
) -> list[tuple[tuple[str, ...], str]]:
    """The runs that judge a mutant, in order, each with what a failure in it is counted as.
    Without a line map: the room's tests, then the whole suite. With one (``near``, the tests
    that run the mutated line): those of them in the room's tests, then the rest of them, then
    the rest of the whole suite, which judges every mutant the earlier runs pass."""
    if near is None:
        return [(tuple(room_tests), ROOM_CATCH), (tuple(whole), SUITE_CATCH)]
    near = [t for t in near if t != LINT]  # ruff's check is never a catch (module docstring)

    def in_room(test: str) -> bool:
        path = test.split("::")[0]
        return any(path == r or path.startswith(r.rstrip("/") + "/") for r in room_tests)

    def run(tests: list[str]) -> tuple[str, ...]:  # xdist only where it pays its start
        return (*(("-n", "0") if len(tests) < 40 else whole[:2]), *tests)

    own = [t for t in near if in_room(t)]
    rest = [t for t in near if not in_room(t)]
    out = [(run(own), ROOM_CATCH)] if own else []
    out += [(run(rest), SUITE_CATCH)] if rest else []
    # the whole suite less the tests already passed: together, every test runs once
    passed = [a for t in near for a in ("--deselect", t)]
    return [*out, ((*whole[:2], *passed, *whole[2:]), SUITE_CATCH)]


def judge(
    copy: Path,
    site: Site,
    room_tests: Sequence[str],
    runner: Runner,
    timeouts: tuple[float, float],
    whole: Sequence[str] = SUITE,
    nearby: Callable[[Site, str], Sequence[str] | None] | None = None,
    defer_suite: bool = False,
) -> Verdict:
    """Plant one site in the copy and run the ``stages`` until one fails; a mutant that passes
    them all, the whole suite last, survived. The file is restored whatever happens."""
    target = copy / site.path
    original = target.read_text(encoding="utf-8")
    mutated = site.apply(original)
    try:
        ast.parse(mutated)
    except SyntaxError as exc:  # a bug in the rules, not a mutant: stop
        raise SystemExit(f"{site.id} does not parse: {exc}") from exc
    near = nearby(site, original) if nearby else None
    start = time.perf_counter()
    target.write_text(mutated, encoding="utf-8")
    outcome, stage = "passed", ""
    try:
        runs = stages(room_tests, whole, near)
        for args, stage in runs[:-1] if defer_suite else runs:  # the last: the whole suite
            outcome = runner(copy, args, timeouts[0] if stage == ROOM_CATCH else timeouts[1])
            if outcome != "passed":
                break
    finally:
        target.write_text(original, encoding="utf-8")
    seconds = time.perf_counter() - start
    if outcome == "passed":
        return Verdict(site, PENDING if defer_suite else "survived", "", seconds)
    return Verdict(site, stage, outcome, seconds)


@dataclass
class RoomResult:
    room: Room
    modules: int
    sites: int
    judged: list[Verdict] = field(default_factory=list)
    equivalent: list[Site] = field(default_factory=list)

    @property
    def caught(self) -> int:
        return sum(v.outcome in (ROOM_CATCH, SUITE_CATCH) for v in self.judged)

    @property
    def score(self) -> float:
        return 100 * self.caught / len(self.judged) if self.judged else 0.0


def run_room(
    copy: Path,
    room: Room,
    drawn: tuple[int, list[Site], list[Site]],
    runner: Runner,
    timeouts: tuple[float, float],
    whole: Sequence[str] = SUITE,
    nearby: Callable[[Site, str], Sequence[str] | None] | None = None,
    defer_suite: bool = False,
) -> RoomResult:
    """Judge a room's drawn mutants one after another; the equivalent ones are only listed."""
    n, judged, equivalent = drawn
    result = RoomResult(room, len(room.files(copy)), n, equivalent=list(equivalent))
    for site in judged:
        v = judge(copy, site, room.tests, runner, timeouts, whole, nearby, defer_suite)
        result.judged.append(v)
        print(
            f"{room.name:<12} {v.outcome:<22} {v.seconds:6.0f} s  {site.path}:{site.line}  "
            f"{site.what}  {v.how}",
            flush=True,
        )
    return result


def _count(r: RoomResult, outcome: str) -> int:
    return sum(v.outcome == outcome for v in r.judged)


def markdown(results: Sequence[RoomResult], head: Mapping[str, str]) -> str:
    """The table for docs/contributing.md, then every survivor and every equivalent mutant."""
    lines = [
        f"Seed {head['seed']}, {head['per_room']} judged per room, commit {head['commit']}, "
        f"run {head['date']} ({head['duration']}).",
        "",
        "| Room | Modules | Sites | Drawn | Equivalent | Caught by its tests | Caught by the suite "
        "| Survived | Score |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        n = len(r.judged)
        pending = _count(r, PENDING)
        lines.append(
            f"| {r.room.name} | {r.modules} | {r.sites} "
            f"| {n + len(r.equivalent)} | {len(r.equivalent)} "
            f"| {_count(r, ROOM_CATCH)} | {_count(r, SUITE_CATCH)} "
            + (
                f"| {pending} not yet judged by the whole suite | not scored |"
                if pending
                else f"| {_count(r, 'survived')} | {r.caught}/{n} ({r.score:.0f} %) |"
            )
        )
    for outcome, title in (("survived", "Survivors"), (PENDING, "Not yet judged by the suite")):
        found = [(r, v) for r in results for v in r.judged if v.outcome == outcome]
        if found:
            lines += ["", f"{title}:", ""]
            lines += [
                f"- {r.room.name}: `{v.site.path}:{v.site.line}` `{v.site.what}` "
                f"in `{v.site.scope}`"
                for r, v in found
            ]
    equivalent = [(r, s) for r in results for s in r.equivalent]
    if equivalent:
        lines += ["", "Equivalent (not judged):", ""]
        lines += [
            f"- {r.room.name}: `{s.path}:{s.line}` `{s.what}`: {EQUIVALENT.get(s.id, '')}"
            for r, s in equivalent
        ]
    return "\n".join(lines) + "\n"


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def _baseline(copy: Path, chosen: Sequence[Room], whole: Sequence[str]) -> dict[str, float] | None:
    """Seconds each room's tests (and the whole suite) take unmutated; None if any fails."""
    times: dict[str, float] = {}
    for tests in dict.fromkeys(r.tests for r in chosen):
        start = time.perf_counter()
        outcome = run_pytest(copy, tests, 3 * 3600)
        times[" ".join(tests)] = time.perf_counter() - start
        print(
            f"baseline {' '.join(tests)}: {outcome} in {times[' '.join(tests)]:.0f} s", flush=True
        )
        if outcome != "passed":
            return None
    if whole:
        start = time.perf_counter()
        outcome = run_pytest(copy, whole, 6 * 3600)
        times["suite"] = time.perf_counter() - start
        print(f"baseline whole suite: {outcome} in {times['suite']:.0f} s", flush=True)
        if outcome != "passed":
            return None
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True, help="the draw's seed (recorded)")
    parser.add_argument("--per-room", type=int, default=40, help="mutants judged per room")
    parser.add_argument("--rooms", nargs="+", help="only these rooms (default: all)")
    parser.add_argument("--list", action="store_true", help="print the draw and exit")
    parser.add_argument("--worktree", action="store_true", help="copy the files on disk, not HEAD")
    parser.add_argument(
        "--baseline",
        choices=("all", "rooms", "none"),
        default="all",
        help="unmutated runs first: rooms' tests and the whole suite, the rooms' tests, none",
    )
    parser.add_argument("--room-timeout", type=float, help="seconds for a room's tests")
    parser.add_argument("--suite-timeout", type=float, help="seconds for the whole suite")
    parser.add_argument("--workers", type=int, default=1, help="xdist workers for the suite")
    parser.add_argument("--min-score", type=float, default=90.0, help="percent caught per room")
    parser.add_argument(
        "--linemap",
        type=Path,
        help="the tests that run each line, recorded here at this commit if not there yet "
        "(the recording is the whole suite under coverage); judges a mutant by them first",
    )
    parser.add_argument(
        "--defer-suite",
        action="store_true",
        help="judge each mutant by the tests that run its line (with --linemap; else by its "
        "room's tests), not by the rest of the whole suite, to find the weak places fast; such "
        "a run gives no score",
    )
    parser.add_argument("--markdown", type=Path, help="write the table here too")
    parser.add_argument("--json", type=Path, help="write every verdict here")
    args = parser.parse_args(argv)
    began = time.perf_counter()

    with tempfile.TemporaryDirectory(prefix="gpuwizard-mutation-rules-") as tmp:
        copy = Path(tmp) / "repo"
        copy.mkdir()
        commit = _git("rev-parse", "--short", "HEAD")  # the commit judged, whatever lands later
        export(copy, args.worktree, commit)
        every = rooms(copy)
        unknown = set(args.rooms or ()) - {r.name for r in every}
        if unknown:
            print(
                f"no room {', '.join(sorted(unknown))}; rooms: {', '.join(r.name for r in every)}"
            )
            return 2
        chosen = [r for r in every if not args.rooms or r.name in args.rooms]
        drawn = {}
        for room in chosen:
            found = room_sites(copy, room)
            known = {s.id for s in found}
            for key in EQUIVALENT:
                if key.split("::")[0] in room.files(copy) and key not in known:
                    print(f"stale equivalent entry (no such site now): {key}")
            drawn[room.name] = (len(found), *draw(found, args.seed, args.per_room, EQUIVALENT))
        if args.list:
            for room in chosen:
                n, judged, equivalent = drawn[room.name]
                print(f"{room.name}: {len(room.files(copy))} modules, {n} sites")
                for s in judged:
                    print(f"  {s.path}:{s.line}  {s.what}  [{s.id}]")
                for s in equivalent:
                    print(f"  equivalent {s.path}:{s.line}  {s.what}: {EQUIVALENT[s.id]}")
            return 0
        if not imports_the_copy(copy):
            print("the copy's packages are not the ones imported; refusing to run", file=sys.stderr)
            return 2
        whole = suite(args.workers)
        nearby = None
        if args.linemap:
            linemap = None if args.worktree else mutation_linemap.load(args.linemap, copy)
            mutation_linemap.install(_site(copy))
            if linemap is None:
                start = time.perf_counter()
                linemap = mutation_linemap.record(copy, copy_environment(copy), whole, args.linemap)
                print(f"line map recorded in {time.perf_counter() - start:.0f} s", flush=True)
            lines_run = linemap
            fresh = mutation_linemap.changed_tests(args.linemap, copy)
            print(f"line map: {len(fresh)} test files added or changed since it was recorded")

            def nearby(site: Site, text: str) -> list[str] | None:
                """None for a file changed since the map was recorded or a line run at import:
                its room's tests first, then the whole suite, as without a map. Test files
                added or changed since run beside the tests the map names."""
                if site.path not in lines_run:
                    return None
                found = mutation_linemap.tests_for(lines_run, site.path, text, site.line)
                if found is None:  # a line run at import: the room's tests, then the suite
                    return None
                kept = [t for t in found if t.split("::")[0] not in fresh]
                return [t for t in kept if (copy / t.split("::")[0]).is_file()] + fresh

        times = (
            {}
            if args.baseline == "none"
            else _baseline(copy, chosen, whole if args.baseline == "all" else ())
        )
        if times is None:
            print("the tests fail without any mutant; fix them first", file=sys.stderr)
            return 2
        suite_timeout = args.suite_timeout or max(600.0, 2 * times.get("suite", 1800))
        results = []
        for room in chosen:
            timeout = args.room_timeout or max(120.0, 3 * times.get(" ".join(room.tests), 600))
            results.append(
                run_room(
                    copy,
                    room,
                    drawn[room.name],
                    run_pytest,
                    (timeout, suite_timeout),
                    whole,
                    nearby,
                    args.defer_suite,
                )
            )

    elapsed = time.perf_counter() - began
    head = {
        "seed": str(args.seed),
        "per_room": str(args.per_room),
        "commit": commit + (" + work tree" if args.worktree else ""),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d"),
        "duration": f"{elapsed / 3600:.1f} h" if elapsed > 5400 else f"{elapsed / 60:.0f} min",
    }
    table = markdown(results, head)
    print("\n" + table)
    if args.markdown:
        args.markdown.write_text(table, encoding="utf-8")
    if args.json:
        verdicts = [
            {"room": r.room.name, **asdict(v), "id": v.site.id} for r in results for v in r.judged
        ]
        args.json.write_text(json.dumps({**head, "verdicts": verdicts}, indent=1), encoding="utf-8")
    pending = any(v.outcome == PENDING for r in results for v in r.judged)
    return 0 if not pending and all(r.score >= args.min_score for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
