"""Diagrams and charts as reportlab Drawings built from the report data. The PDF embeds them as
vector art; the wizard shows the same drawings through ``reports.render``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reportlab.graphics.shapes import Drawing

from reports.data import ReportData
from reports.diagrams import architecture, bandwidth, charts, fabric, host, racks


@dataclass(frozen=True)
class DiagramSpec:
    title: str
    draw: Callable[[ReportData, float], Drawing | None]


DIAGRAMS: dict[str, DiagramSpec] = {
    "architecture": DiagramSpec("Logical architecture", architecture.draw),
    "memory": DiagramSpec("Memory per GPU by workload", charts.memory),
    "sharing": DiagramSpec("GPUs and utilization per sharing mode", charts.sharing),
    "host": DiagramSpec("Host internal topology", host.draw),
    "bandwidth": DiagramSpec("Bandwidth landscape", bandwidth.draw),
    "fabric": DiagramSpec("Network fabric", fabric.draw),
    "racks": DiagramSpec("Rack elevation", racks.draw),
    "power": DiagramSpec("Power per rack", charts.power_per_rack),
}


def available(data: ReportData) -> list[str]:
    """Names of the diagrams this Result has data for."""
    return [name for name, spec in DIAGRAMS.items() if spec.draw(data, 480) is not None]
