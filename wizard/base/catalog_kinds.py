"""The kinds of catalog the program ships, one file each (``catalogs/<kind>.toml``, installed as
``wizard.catalogs``), in the order the catalog lists them; wizard.model.catalog maps each to its
model. Named here, where the command line and the loader read them without importing the models,
so the data package itself holds data only."""

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
