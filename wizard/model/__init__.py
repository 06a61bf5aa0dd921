"""Pydantic models: the design (inputs), the catalogs (hardware and models) and the result."""
