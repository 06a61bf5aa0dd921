"""The shipped catalog files, one per kind: ``<kind>.toml``."""

# The kinds in the order the catalog lists them; wizard.model.catalog maps each to its model.
# They are named here too, where the command line and the loader read them without importing
# the models.
KINDS: tuple[str, ...] = (
    "gpus",
    "servers",
    "storage",
    "nics",
    "switches",
    "licences",
    "models",
    "software",
    "cooling",
)
