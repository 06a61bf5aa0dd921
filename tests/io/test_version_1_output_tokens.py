"""A version-1 design's serving load is migrated from ``context_length`` and ``output_tokens``;
the prompt length (context minus answer) is derived only from a whole-number answer length.
An answer length that is not a whole number (text, a decimal, true) derives nothing and is
refused by validation in one line naming output_tokens and the value, never a traceback."""

from __future__ import annotations

import json

import pytest

from wizard.app.io import design_from_text
from wizard.base.errors import DesignError
from wizard.model.design import SCHEMA_VERSION


def _v1(inference: dict) -> str:
    return json.dumps(
        {
            "schema_version": 1,
            "project": {"customer": "Example Corp", "project_name": "GPU cluster"},
            "workloads": [
                {
                    "name": "Chat",
                    "kind": "inference",
                    "model": {"preset": "llama-3-8b"},
                    "inference": inference,
                }
            ],
            "hardware": {"gpu": "h100-pcie-80gb", "server": "dell-r750xa", "gpus_per_host": 2},
        }
    )


@pytest.mark.parametrize("output", ["many", 512.0, True], ids=["text", "decimal", "true"])
def test_an_answer_length_not_a_whole_number_is_named_alone(output):
    with pytest.raises(DesignError) as refused:
        design_from_text(_v1({"context_length": 8192, "output_tokens": output}), "d.json")
    (line,) = refused.value.problems
    # the value as the file wrote it (JSON's true, whatever case the message prints it in)
    assert "output_tokens" in line and json.dumps(output).strip('"') in line.lower()
    assert "input_tokens" not in line


def test_a_whole_answer_length_still_derives_the_prompt():
    """Positive case: 8192 context - 1000 answer = 7192 prompt tokens."""
    d = design_from_text(_v1({"context_length": 8192, "output_tokens": 1000}))
    inf = d.workloads[0].inference
    assert (inf.input_tokens, inf.output_tokens, inf.max_context_tokens) == (7192, 1000, 8192)
    assert d.schema_version == SCHEMA_VERSION
