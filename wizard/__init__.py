"""gpuwizard: design GPU infrastructure for machine learning on a virtualized platform."""

__version__ = "0.1.0"
