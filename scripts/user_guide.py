"""Write docs/user-guide.md from the guide the wizard shows under Help (one source)."""

from __future__ import annotations

from pathlib import Path

from wizard.present.guide_text import user_guide_markdown

ROOT = Path(__file__).resolve().parents[1]

if __name__ == "__main__":
    out = ROOT / "docs" / "user-guide.md"
    out.write_text(user_guide_markdown(), encoding="utf-8")
    print(f"wrote {out.relative_to(ROOT)}")
