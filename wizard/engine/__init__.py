"""The pure sizing and topology engine: (Design, Catalog) -> Result. No Qt, no reportlab, no I/O."""
