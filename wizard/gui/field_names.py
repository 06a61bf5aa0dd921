"""Problems in the wizard's own words: an engine or checker message names its field by path
("workloads[2].inference.ttft_target_ms: …"); the wizard says the group and the field's label
as its page shows it ("Chat service: Time to first token, at most: …")."""

from __future__ import annotations

import re
from collections.abc import Mapping

from wizard.gui.forms import FormErrors
from wizard.model.design import Design
from wizard.present.fields import in_words

_PATH = re.compile(r"^(workloads\[(\d+)\]|[a-z_]+)((?:\.[\w\[\]]+)*): (.*)$", re.S)


def said(problem: str, design: Design | None, forms: Mapping[str, FormErrors]) -> str:
    """``problem`` with its path replaced by the group name and the field's label; unchanged
    when it names no field the wizard shows."""
    m = _PATH.match(problem)
    if m is None:
        return in_words(problem)
    head, index, rest, message = m.groups()
    message = in_words(message)
    rest = rest.lstrip(".")
    who = ""
    if index is not None:
        section = "workloads"
        i = int(index)
        if design is not None and i < len(design.workloads):
            who = design.workloads[i].name
    else:
        section = head
    form = forms.get(section)
    label = ""
    if form is not None:
        key = form._match(rest) if rest else ""
        label = form.rows[key][0] if key else ""
    if not label and not who:
        return in_words(problem) if section not in forms else message
    if who and message.startswith(f"{who}: "):  # the engine's message names the group already
        message = message[len(who) + 2 :]
    return ": ".join(x for x in (who, label, message) if x)
