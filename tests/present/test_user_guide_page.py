"""docs/user-guide.md is the guide the wizard shows under Help, not a second text."""

from tests.conftest import ROOT
from wizard.present.guide import GUIDE
from wizard.present.guide_text import user_guide_markdown


def test_the_page_is_the_help_text():
    page = (ROOT / "docs" / "user-guide.md").read_text(encoding="utf-8")
    assert page == user_guide_markdown(), "run: python scripts/user_guide.py"
    for s in GUIDE:
        assert f"## {s.title}" in page
        assert all(p in page for p in s.paragraphs)


def test_the_readme_is_short_and_links_the_guide():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    assert "docs/user-guide.md" in readme and "make test" in readme and "make run" in readme
