"""How many GPUs a server holds within the design's limit per host: a fact of the catalog and
the design schema, used by the wizard's form and by Recommend for me alike."""

from __future__ import annotations

from wizard.model.catalog import Gpu, Server, max_boards
from wizard.model.design import Hardware


def gpus_per_host_max(server: Server, gpu: Gpu) -> int:
    """GPUs the server holds, within the design's limit per host, in whole boards."""
    limit = Hardware.model_fields["gpus_per_host"].metadata
    most = min(m.le for m in limit if hasattr(m, "le"))
    per_board = gpu.gpus_per_board
    return min(max_boards(server, gpu) * per_board, most // per_board * per_board)
