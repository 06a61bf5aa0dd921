"""Import measurements… on the Workloads page: the selected group's factors fitted to the
customer's benchmark files, as `gpuwizard calibrate` does, and written into the group (one
undoable step) only when the calibrated model explains every fitted point."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from wizard.base.errors import UserError
from wizard.gui.document import DesignDocument
from wizard.gui.prompts import Prompt, PromptKind
from wizard.model.catalog import Catalog

FILES = "Benchmark results (*.json *.csv *.txt *.log);;All files (*)"
LIMIT = 50 * 2**20


def import_measurements(doc: DesignDocument, catalog: Catalog, group: str,
                        prompt: Callable[[Prompt], object], origin: object) -> bool:  # fmt: skip
    """Ask for the files, fit, say how it went; True when the group was calibrated."""
    design = doc.design()
    if design is None:
        prompt(Prompt(PromptKind.ERROR, "Import measurements",
                      "The design is not complete yet: the measurements are fitted to the "
                      "sized group, so finish the hardware first."))  # fmt: skip
        return False
    start = doc.path.parent if doc.path else Path.home()
    answer = prompt(Prompt(PromptKind.OPEN_FILES, f"Measurements of {group}", path=str(start),
                           file_filter=FILES))  # fmt: skip
    paths = [Path(str(p)) for p in answer] if isinstance(answer, list | tuple) else []
    if not paths:
        return False
    from wizard.base.safe_read import decode_utf8, read_limited
    from wizard.measure.fit import MeasurementFile, calibrate, calibrated
    from wizard.measure.parsers import measurement_name, parse
    from wizard.measure.report import fit_lines

    try:
        files = []
        for path in paths:
            measurement_name(path.name)
            data = read_limited(path, LIMIT, "benchmark file")
            files.append(MeasurementFile(path.name, data, parse(decode_utf8(data, str(path)),
                                                                 path.name)))  # fmt: skip
        report = calibrate(design, catalog, group, files)
    except UserError as exc:
        prompt(Prompt(PromptKind.ERROR, "Import measurements", exc.problems[0],
                      details=exc.problems))  # fmt: skip
        return False
    lines = fit_lines(report)
    if report.disagreeing:
        prompt(Prompt(
            PromptKind.ERROR, "Import measurements",
            f"Not applied: {len(report.disagreeing)} of the points are further than "
            f"{report.tolerance:.0%} from the calibrated model, so factors fitted on them would "
            "hold only on average. Check the runs' setup (GPU, layout, precision, load) or leave "
            "those files out.",
            details=lines,
        ))  # fmt: skip
        return False
    new = calibrated(design, report)
    doc.set("workloads", new.workloads, origin)
    prompt(Prompt(PromptKind.INFO, "Import measurements",
                  f"{group} is calibrated on {len(files)} file(s): "
                  + "; ".join(lines[2:2 + len(report.factors)]).strip(),
                  details=lines))  # fmt: skip
    return True
