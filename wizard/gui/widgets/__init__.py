"""Widgets shared by the pages."""
