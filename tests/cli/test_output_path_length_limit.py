"""The longest output path the program takes: 4,096 bytes, Linux's PATH_MAX (<linux/limits.h>:
``#define PATH_MAX 4096``), each name at most 255 bytes (NAME_MAX). A path of 4,096 bytes passes
the length check (any refusal is about its folder); one byte more is refused as too long."""

from __future__ import annotations

import pytest

from wizard.app.output_paths import checked_output
from wizard.base.errors import UserError

NAME = "n" * 255  # the longest name a file system takes
# 16 names of 255 bytes joined by 15 slashes: 16 * 255 + 15 = 4080 + 15 = 4095 bytes
BODY = "/".join([NAME] * 16)
TOO_LONG = "longer than a file system takes"


def test_the_body_is_4095_bytes():
    assert len(BODY.encode()) == 4095


@pytest.mark.parametrize(
    "path",
    [BODY, "/" + BODY],  # 4095 bytes; "/" + 4095 = 4096 bytes, exactly PATH_MAX
    ids=["4095-bytes", "4096-bytes"],
)
def test_a_path_up_to_path_max_passes_the_length_check(path):
    """Its folder does not exist, so it is refused, but for that and not for its length."""
    with pytest.raises(UserError) as refused:
        checked_output(path)
    assert TOO_LONG not in str(refused.value)
    assert "does not exist" in str(refused.value)


def test_a_path_one_byte_past_path_max_is_refused_as_too_long():
    """ "./" + 4095 bytes = 4097 bytes; every name in it is still 255 bytes or less."""
    path = "./" + BODY
    assert len(path.encode()) == 4097
    with pytest.raises(UserError) as refused:
        checked_output(path)
    message = str(refused.value)
    assert message.startswith("-o: ") and TOO_LONG in message
    assert "(4,097 bytes, at most 255 a name and 4,096 a path)" in message


def test_a_name_one_byte_past_name_max_is_refused_in_a_short_path():
    """256 bytes in one name, 256 in the whole path: the name, not the path, is too long."""
    with pytest.raises(UserError) as refused:
        checked_output("m" * 256)
    assert TOO_LONG in str(refused.value)
