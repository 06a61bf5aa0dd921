"""The proposal of a plan: the one-cluster document, or the estate's for a design of several
clusters. The one place that chooses, so the command line and the wizard write the same file."""

from __future__ import annotations

from reports.data import data_of
from reports.document import ReportOptions, build_pdf
from wizard.engine import Plan


def proposal_pdf(p: Plan, options: ReportOptions | None = None) -> bytes:
    """The proposal (PDF, or the Word copy when ``options.word``) of ``p``'s proposed option."""
    if p.one is not None:
        return build_pdf(data_of(p), options)
    from reports.estate import build_estate_pdf

    return build_estate_pdf(p, options)
