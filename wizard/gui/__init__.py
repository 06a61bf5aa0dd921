"""The wizard window (PySide6). The only package that imports Qt: it observes and edits the
Design and shows the engine's Result; it computes nothing itself."""
