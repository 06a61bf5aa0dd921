"""The engine runs with Qt and reportlab absent, and does no I/O."""

import subprocess
import sys

from tests.conftest import ROOT

BLOCK = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('PySide6', 'shiboken6', 'reportlab'):
            raise ImportError(f'{name} is blocked in this test')
sys.meta_path.insert(0, Block())
"""


def test_engine_sizes_every_example_without_qt_or_reportlab():
    code = BLOCK + (
        "from wizard.app.catalog_loader import load_catalog\n"
        "from wizard.base.bundled import example_names, example_text\n"
        "from wizard.engine.size import size\n"
        "from wizard.app.io import design_from_text\n"
        "cat = load_catalog(include_user=False)\n"
        "for n in example_names():\n"
        "    size(design_from_text(example_text(n)), cat)\n"
        "assert 'PySide6' not in sys.modules and 'reportlab' not in sys.modules\n"
        "print('ok')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


def test_size_leaves_the_garbage_collector_as_it_found_it(catalog):
    import gc
    import json

    from tests.conftest import ROOT
    from wizard.engine.size import size
    from wizard.model.design import Design

    design = Design.model_validate(
        json.loads((ROOT / "resources/examples/starter.json").read_text())
    )
    assert gc.isenabled()
    size(design, catalog)
    assert gc.isenabled()
    gc.disable()
    try:
        size(design, catalog)
        assert not gc.isenabled()
    finally:
        gc.enable()
