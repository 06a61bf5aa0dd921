"""The proposal of a plan, one cluster or several: one document, one section list. The one place
the command line and the wizard call, so both write the same file."""

from __future__ import annotations

from reports.data import data_of
from reports.document import ReportOptions, build_pdf
from wizard.engine import Plan


def proposal_pdf(p: Plan, options: ReportOptions | None = None) -> bytes:
    """The proposal (PDF, or the Word copy when ``options.word``) of ``p``'s proposed option."""
    return build_pdf(data_of(p), options)
