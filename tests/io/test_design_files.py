"""Design files: schema validation with field-naming messages, migration, safe and atomic I/O."""

import json
import os
import time

import pytest

from tests.conftest import run_cli
from wizard.app import io as design_io
from wizard.app.io import design_from_text, load_design, save_design
from wizard.base.errors import DesignError
from wizard.model.design import SCHEMA_VERSION


def minimal() -> dict:
    return {
        "schema_version": SCHEMA_VERSION,
        "project": {"customer": "Example Corp", "project_name": "GPU cluster"},
        "workloads": [
            {"name": "Data scientists", "kind": "development", "count": 8, "gpus_per_member": 1}
        ],
        "hardware": {"gpu": "h100-pcie-80gb", "server": "dell-r750xa", "gpus_per_host": 2},
    }


def problems(doc) -> list[str]:
    text = doc if isinstance(doc, str) else json.dumps(doc)
    with pytest.raises(DesignError) as info:
        design_from_text(text, "d.json")
    return info.value.problems


def test_minimal_design_is_valid_and_round_trips(tmp_path):
    design = design_from_text(json.dumps(minimal()))
    path = tmp_path / "d.json"
    save_design(design, path)
    assert load_design(path) == design
    assert json.loads(path.read_text())["schema_version"] == SCHEMA_VERSION


def test_bad_json_names_the_line():
    (line,) = problems('{"schema_version": 1,\n "project": }')
    assert "not valid JSON" in line and "line 2" in line


@pytest.mark.parametrize("text", ["", "   \n\t\n"])
def test_an_empty_file_is_said_to_be_empty(text):
    (line,) = problems(text)
    assert line.endswith("the file is empty, so it holds no design")
    assert "JSON" not in line


def test_wrong_type_names_field_and_value():
    doc = minimal()
    doc["hardware"]["gpus_per_host"] = "four"
    (line,) = problems(doc)
    assert line.startswith("d.json: hardware.gpus_per_host:") and "'four'" in line


def test_unknown_field_is_refused():
    doc = minimal()
    doc["workloads"][0]["colour"] = "blue"
    (line,) = problems(doc)
    assert "workloads[0].colour: unknown field" in line and "'blue'" in line


def test_negative_count_names_field_and_value():
    doc = minimal()
    doc["workloads"][0]["count"] = -3
    (line,) = problems(doc)
    assert "workloads[0].count" in line and "-3" in line


def test_every_problem_is_reported_not_just_the_first():
    doc = minimal()
    doc["workloads"][0]["count"] = -3
    doc["hardware"]["gpus_per_host"] = 0
    doc["project"]["currency"] = "euros"
    lines = problems(doc)
    assert len(lines) == 3
    assert {"workloads[0].count", "hardware.gpus_per_host", "project.currency"} == {
        line.split(": ")[1] for line in lines
    }


def test_nan_and_infinity_are_refused():
    text = json.dumps(minimal()).replace('"gpus_per_host": 2', '"gpus_per_host": NaN')
    (line,) = problems(text)
    assert "NaN" in line
    text = json.dumps(minimal()).replace('"count": 8', '"count": Infinity')
    (line,) = problems(text)
    assert "Infinity" in line


def test_top_level_must_be_an_object():
    (line,) = problems("[1, 2, 3]")
    assert "JSON object" in line


def test_deep_nesting_is_refused_without_recursion_error():
    (line,) = problems("[" * 100_000 + "]" * 100_000)
    assert "nested" in line or "not valid JSON" in line
    doc = minimal()
    nested: dict = {}
    node = nested
    for _ in range(200):
        node["x"] = {}
        node = node["x"]
    doc["project"]["notes"] = nested
    (line,) = problems(doc)
    assert "nested more than" in line


@pytest.mark.parametrize("container", ["object", "array"])
@pytest.mark.parametrize(("levels", "refused"), [(64, False), (65, True)])
def test_nesting_is_counted_one_level_per_object_or_array(container, levels, refused):
    """The design object is level 1 and a value inside an object or array is one level below
    it: a value at level 64 is the deepest a design file may hold, at 65 it is refused
    (``MAX_DEPTH``), whether the levels between are objects or arrays. Here the text "x" sits
    under ``levels - 2`` containers inside the design object."""
    inner: object = "x"
    for _ in range(levels - 2):
        inner = {"x": inner} if container == "object" else [inner]
    text = json.dumps({"notes": inner})
    if refused:
        with pytest.raises(DesignError, match="nested more than 64 levels deep"):
            design_io.parse_design_text(text)
    else:
        assert design_io.parse_design_text(text)["notes"] == inner


def test_newer_schema_is_refused_with_a_message():
    doc = minimal()
    doc["schema_version"] = SCHEMA_VERSION + 1
    (line,) = problems(doc)
    assert "newer than this gpuwizard understands" in line


def test_bad_schema_version_named():
    doc = minimal()
    doc["schema_version"] = "one"
    (line,) = problems(doc)
    assert "schema_version" in line and "'one'" in line


def test_older_schema_is_migrated(monkeypatch):
    """A document one version behind is passed through the registered migration step."""
    doc = minimal()
    doc["schema_version"] = SCHEMA_VERSION
    doc["hardware"]["gpu_count_per_host"] = doc["hardware"].pop("gpus_per_host")

    def rename(old: dict) -> dict:
        old["hardware"]["gpus_per_host"] = old["hardware"].pop("gpu_count_per_host")
        return old

    monkeypatch.setattr(design_io, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    monkeypatch.setitem(design_io.MIGRATIONS, SCHEMA_VERSION, rename)
    migrated = design_io.migrate(doc)
    assert migrated["schema_version"] == SCHEMA_VERSION + 1
    assert migrated["hardware"]["gpus_per_host"] == 2


def test_missing_migration_is_an_error(monkeypatch):
    monkeypatch.setattr(design_io, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(DesignError, match="no migration from schema_version"):
        design_io.migrate(minimal())


def test_kind_questions_are_required():
    doc = minimal()
    del doc["workloads"][0]["gpus_per_member"]
    (line,) = problems(doc)
    assert "workloads[0]" in line and "needs 'shared'" in line


@pytest.mark.parametrize(
    ("kind", "says"),
    [
        ("training", "a training group needs a model"),
        ("fine-tuning", "a fine-tuning group needs a model"),
        ("inference", "an inference group needs a model"),
        ("development", "a development group needs 'shared'"),
        ("hpc", "an HPC group needs 'shared'"),
    ],
)
def test_a_group_without_its_questions_is_named_with_its_article(kind, says):
    """Each kind in plain words with the article it takes: "an inference group", "an HPC
    group", not "a inference" or "a hpc"."""
    doc = minimal()
    doc["workloads"][0] = {"name": "G", "kind": kind}
    (line,) = problems(doc)
    assert says in line


def test_isolation_constraint_refuses_time_sliced_vgpu():
    """NVIDIA AI Enterprise 9, 'Choosing a vGPU Mode for Inference': for "hard isolation and
    predictable bandwidth between tenants" prefer MIG-backed vGPU; time-sliced vGPU is to be
    avoided for "strict per-VM latency SLAs on a busy GPU". Time-sliced vGPU still isolates
    memory and faults, so the refusal names performance, not memory."""
    doc = minimal()
    doc["workloads"][0]["constraints"] = {"isolation_required": True}
    doc["workloads"][0]["sharing_mode"] = "vgpu"
    (line,) = problems(doc)
    assert "performance isolation" in line
    assert "shares the GPU's compute" in line
    doc["workloads"][0]["sharing_mode"] = "mig"  # the same group on MIG is accepted
    design_from_text(json.dumps(doc), "d.json")


def test_duplicate_group_names_refused():
    doc = minimal()
    doc["workloads"].append(dict(doc["workloads"][0]))
    (line,) = problems(doc)
    assert "used twice" in line


def test_unreadable_and_non_utf8_files(tmp_path):
    with pytest.raises(DesignError, match="cannot be read"):
        load_design(tmp_path / "missing.json")
    bad = tmp_path / "latin1.json"
    bad.write_bytes(json.dumps(minimal()).replace("Example", "Éxample").encode("latin-1"))
    with pytest.raises(DesignError, match="not UTF-8"):
        load_design(bad)


def test_oversized_file_is_refused_without_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(design_io, "MAX_DESIGN_BYTES", 100)
    path = tmp_path / "big.json"
    path.write_text(json.dumps(minimal()))
    with pytest.raises(DesignError, match="more than the 100 bytes a design file may be"):
        load_design(path)


def test_save_to_unwritable_place_is_a_clear_error(tmp_path):
    design = design_from_text(json.dumps(minimal()))
    target = tmp_path / "no-such-dir" / "d.json"
    with pytest.raises(DesignError, match="cannot be written"):
        save_design(design, target)


def _in_child_as_nobody(fn) -> int:
    """Run ``fn`` in a forked child that has dropped root for the user nobody; its exit status.

    Root writes through directory permissions, and CI runs as root. ``runuser -u nobody`` would
    need an interpreter nobody may execute (a pyenv Python under /root is not), so the child
    drops its user id itself, after every module the save needs is loaded."""
    import pwd
    import traceback

    nobody = pwd.getpwnam("nobody")
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child reports through its exit status
        status = 1
        try:
            os.setgroups([])
            os.setgid(nobody.pw_gid)
            os.setuid(nobody.pw_uid)
            fn()
            status = 0
        except BaseException:
            traceback.print_exc()
        finally:
            os._exit(status)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def test_save_to_read_only_directory_keeps_old_file():
    """A directory its owner made read-only (0500) refuses the save, which names the file and
    leaves the old one whole. As root, the save runs as nobody, who owns the directory."""
    import pwd
    import shutil
    import tempfile
    from pathlib import Path

    design = design_from_text(json.dumps(minimal()))
    base = Path(tempfile.mkdtemp(prefix="gpuwizard-ro-"))  # reachable by nobody, unlike tmp_path
    path = base / "d.json"
    save_design(design, path)
    before = path.read_bytes()
    as_root = os.geteuid() == 0
    if as_root:
        nobody = pwd.getpwnam("nobody")
        for p in (base, path):
            os.chown(p, nobody.pw_uid, nobody.pw_gid)
    base.chmod(0o500)

    def save_again() -> None:
        with pytest.raises(DesignError, match=r"d\.json: cannot be written: Permission denied"):
            save_design(design.model_copy(update={"workloads": []}), path)

    try:
        if as_root:
            assert _in_child_as_nobody(save_again) == 0
        else:
            save_again()
    finally:
        base.chmod(0o700)
        after = path.read_bytes()
        shutil.rmtree(base)
    assert after == before


def test_failed_write_leaves_previous_file_and_no_temp(tmp_path, monkeypatch):
    design = design_from_text(json.dumps(minimal()))
    path = tmp_path / "d.json"
    save_design(design, path)
    before = path.read_bytes()

    def boom(*_args, **_kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(design_io.os, "replace", boom)
    with pytest.raises(DesignError, match="No space left on device"):
        save_design(design.model_copy(update={"workloads": []}), path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["d.json"]


def test_written_files_get_the_usual_permissions(tmp_path):
    import os
    import stat

    from wizard.app.io import atomic_write_bytes

    umask = os.umask(0o022)
    try:
        atomic_write_bytes(tmp_path / "new.pdf", b"%PDF-")
        assert stat.S_IMODE((tmp_path / "new.pdf").stat().st_mode) == 0o644
        (tmp_path / "new.pdf").chmod(0o600)
        atomic_write_bytes(tmp_path / "new.pdf", b"%PDF-2")
        assert stat.S_IMODE((tmp_path / "new.pdf").stat().st_mode) == 0o600
    finally:
        os.umask(umask)


def _v1_serving(inference: dict) -> dict:
    doc = minimal()
    doc["schema_version"] = 1
    doc["workloads"] = [
        {
            "name": "Chat",
            "kind": "inference",
            "model": {"preset": "llama-3-8b"},
            "inference": inference,
        }
    ]
    return doc


def test_version_1_serving_load_is_migrated():
    """Version 1's context_length was the longest prompt plus answer; its latency target was
    per generated token."""
    d = design_from_text(
        json.dumps(
            _v1_serving({"context_length": 8192, "output_tokens": 512, "latency_target_ms": 100})
        )
    )
    inf = d.workloads[0].inference
    assert (inf.input_tokens, inf.output_tokens, inf.max_context_tokens) == (7680, 512, 8192)
    assert inf.itl_target_ms == 100 and inf.ttft_target_ms is None
    assert d.schema_version == SCHEMA_VERSION


def test_version_1_context_shorter_than_its_answer_still_loads():
    d = design_from_text(json.dumps(_v1_serving({"context_length": 100, "output_tokens": 256})))
    inf = d.workloads[0].inference
    assert (inf.input_tokens, inf.max_context_tokens) == (1, 257)


def test_version_1_bad_context_is_named():
    (line,) = problems(_v1_serving({"context_length": -5}))
    assert "max_context_tokens" in line and "-5" in line


def test_longest_request_shorter_than_an_average_one_is_refused():
    doc = _v1_serving({})
    doc["schema_version"] = SCHEMA_VERSION
    doc["workloads"][0]["inference"] = {
        "input_tokens": 4000,
        "output_tokens": 500,
        "max_context_tokens": 4096,
    }
    (line,) = problems(doc)
    assert "max_context_tokens (4096)" in line and "4000 input + 500 output" in line


def test_kv_cache_precision_must_be_one_a_cache_can_hold():
    doc = _v1_serving({})
    doc["schema_version"] = SCHEMA_VERSION
    doc["workloads"][0]["inference"] = {"kv_cache_precision": "int4"}
    (line,) = problems(doc)
    assert "kv_cache_precision" in line and "int4" in line


def test_a_key_given_twice_is_refused_with_its_path():
    """JSON keeps the last of two equal keys silently: a design ending in "workloads": [] used
    to size as empty. Each repeated key is named by its path."""
    text = json.dumps(minimal())[:-1] + ', "workloads": []}'
    (line,) = problems(text)
    assert line == "d.json: workloads: given twice in one object; keep one"
    doc = json.dumps(minimal()).replace(
        '"gpus_per_host": 2}', '"gpus_per_host": 2, "gpus_per_host": 4}'
    )
    (line,) = problems(doc)
    assert "hardware.gpus_per_host: given twice" in line


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ("workloads.0.count", "3"),
        ("workloads.0.count", True),
        ("hardware.nvlink", "yes"),
        ("project.date", 0),
    ],
)
def test_no_value_is_coerced(path, value):
    """JSON's types are kept: a quoted number, a boolean for a count, "yes" for a flag or a
    number for a date is refused naming the field, not silently converted."""
    doc = minimal()
    node = doc
    *parents, leaf = path.split(".")
    for p in parents:
        node = node[int(p)] if p.isdigit() else node[p]
    node[leaf] = value
    (line,) = problems(doc)
    assert line.startswith(f"d.json: {path.replace('.0.', '[0].')}: "), line


def test_saving_through_a_symlink_writes_the_file_it_names(tmp_path):
    real = tmp_path / "real.json"
    save_design(design_from_text(json.dumps(minimal())), real)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    doc = minimal()
    doc["project"]["customer"] = "Changed"
    save_design(design_from_text(json.dumps(doc)), link)
    assert link.is_symlink()
    assert load_design(real).project.customer == "Changed"


def test_a_pipe_is_written_in_place_not_replaced(tmp_path):
    """A device or a pipe named as the target (report -o /dev/null) is written to, never
    replaced by a regular file."""
    import stat as st
    import threading

    fifo = tmp_path / "out"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    design_io.atomic_write_text(fifo, "hello")
    reader.join(timeout=10)
    assert got == [b"hello"] and st.S_ISFIFO(fifo.stat().st_mode)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_a_save_keeps_the_owner_of_the_file(tmp_path):
    import pwd

    path = tmp_path / "theirs.json"
    save_design(design_from_text(json.dumps(minimal())), path)
    nobody = pwd.getpwnam("nobody")
    os.chown(path, nobody.pw_uid, nobody.pw_gid)
    save_design(design_from_text(json.dumps(minimal())), path)
    assert (path.stat().st_uid, path.stat().st_gid) == (nobody.pw_uid, nobody.pw_gid)


def test_temporary_files_of_killed_saves_are_cleaned_up(tmp_path):
    path = tmp_path / "d.json"
    stale = tmp_path / ".d.json.abc123.tmp"
    fresh = tmp_path / ".d.json.def456.tmp"
    stale.write_text("half")
    fresh.write_text("a save under way")
    old = design_io.time.time() - design_io.STALE_TEMP_S - 60
    os.utime(stale, (old, old))
    save_design(design_from_text(json.dumps(minimal())), path)
    assert not stale.exists() and fresh.exists()


def test_a_named_pipe_with_no_reader_is_refused_not_waited_on(tmp_path):
    """`example starter -o fifo` with nobody reading the pipe used to block forever; it is
    refused at once, naming the pipe."""
    pipe = tmp_path / "out.json"
    os.mkfifo(pipe)
    proc = run_cli("example", "starter", "-o", str(pipe))
    assert proc.returncode == 2 and "a named pipe with no reader" in proc.stderr


def test_a_named_pipe_with_a_reader_receives_the_file(tmp_path):
    """The negative case: with a reader on the other end the design flows through the pipe."""
    import threading

    pipe = tmp_path / "out.json"
    os.mkfifo(pipe)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_bytes()))
    reader.start()
    try:
        for _ in range(5):  # the reader must have the pipe open before the writer looks
            time.sleep(0.2)
            proc = run_cli("example", "starter", "-o", str(pipe))
            if proc.returncode == 0:
                break
    finally:
        if reader.is_alive():
            with open(pipe, "wb"):
                pass
        reader.join(timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert b'"workloads"' in got[0]


def test_the_longest_legal_output_name_is_written(tmp_path):
    """A 250-byte name is legal on Linux (255 is the limit); the temporary file beside it used to
    add 14 bytes and fail."""
    name = "a" * 245 + ".json"
    assert len(name.encode()) == 250
    proc = run_cli("example", "starter", "-o", str(tmp_path / name))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / name).read_text(encoding="utf-8").startswith("{")
