"""What ``make run`` starts: the wizard on a desktop; on a server, the main job headless.

On a machine with no display it says so in one line, then sizes the bundled ``enterprise``
example and writes its PDF report, so a newcomer on a server still sees the product work.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from wizard.base.preflight import apt_line, has_display, missing_packages


def run_headless(out_dir: Path) -> int:
    from wizard.cli import main as cli

    out_dir.mkdir(parents=True, exist_ok=True)
    design = out_dir / "enterprise.json"
    pdf = out_dir / "enterprise.pdf"
    for argv in (
        ["example", "enterprise", "-o", str(design)],
        ["size", str(design)],
        ["report", str(design), "-o", str(pdf)],
    ):
        code = cli(argv)
        if code:
            return code
    print(f"PDF report: {pdf}")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not has_display():
        print("No display found: running the bundled 'enterprise' example headless instead.")
        return run_headless(Path(tempfile.gettempdir()) / "gpuwizard-demo")
    missing = missing_packages()
    if missing:
        print("The wizard window needs system libraries that are missing. Install them with:")
        print(f"  {apt_line(missing)}")
        return 1
    from wizard.cli import main as cli

    return cli(["gui", *args])


if __name__ == "__main__":
    from wizard.base.import_path import drop_working_folder

    drop_working_folder()
    sys.exit(main())
