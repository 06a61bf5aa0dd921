"""The shipped catalog files, one per kind: ``<kind>.toml`` (the kinds: wizard.catalog_kinds)."""
