"""Reading the estate a customer already runs, as the customer exports it: an RVTools workbook,
``nvidia-smi -q -x`` and ``nvidia-smi vgpu -q`` from the GPU hosts, and the CSV of the inventory
script the wizard writes. Each reader maps what it finds to the catalog by product name and says
what it could not map; nothing here sizes, draws or imports Qt."""

from wizard.estate_import.inventory import Inventory, read_estate
from wizard.estate_import.powercli import inventory_script

__all__ = ["Inventory", "inventory_script", "read_estate"]
