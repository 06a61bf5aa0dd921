"""The paper sizes a proposal is laid out on, named once for the CLI, the wizard and the
report (which maps each name to its dimensions), without loading the PDF library to list them."""

from __future__ import annotations

PAPER = ("a4", "letter")
