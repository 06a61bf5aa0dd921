"""Record, or check against a record, what `gpuwizard size --json` writes for every bundled
example and every design in docs/: a change that moves code without meaning to change a figure
(a refactoring, a new room for a module) must leave every byte as it was.

    python scripts/same_sizing.py --write DIR   # before the change
    python scripts/same_sizing.py --check DIR   # after it: exit 1 naming each design that differs
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def outputs() -> dict[str, str]:
    """Each design's `size --json` text, by a file name for it."""
    from wizard.base.bundled import example_names, example_text
    from wizard.cli import main

    texts = {f"example-{n}": example_text(n) for n in example_names()}
    texts |= {
        f"docs-{p.stem}": p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.json")
    }
    out: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in sorted(texts.items()):
            path = Path(tmp) / f"{name}.json"
            path.write_text(text, encoding="utf-8")
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
                main(["size", str(path), "--json"])
            out[f"{name}.size.json"] = buf.getvalue()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", metavar="DIR")
    mode.add_argument("--check", metavar="DIR")
    args = parser.parse_args(argv)
    now = outputs()
    if args.write:
        d = Path(args.write)
        d.mkdir(parents=True, exist_ok=True)
        for name, text in now.items():
            (d / name).write_text(text, encoding="utf-8")
        print(f"wrote {len(now)} outputs to {d}")
        return 0
    d = Path(args.check)
    differ = []
    for name, text in now.items():
        before = (d / name).read_text(encoding="utf-8") if (d / name).exists() else None
        if before != text:
            differ.append(name)
            if before is not None:
                diff = difflib.unified_diff(before.splitlines(), text.splitlines(), lineterm="")
                print("\n".join(list(diff)[:20]))
    missing = sorted({p.name for p in d.glob("*.size.json")} - set(now))
    for name in differ + missing:
        print(f"differs: {name}", file=sys.stderr)
    print(f"{len(now) - len(differ)} of {len(now)} outputs byte-identical")
    return 1 if differ or missing else 0


if __name__ == "__main__":
    sys.exit(main())
