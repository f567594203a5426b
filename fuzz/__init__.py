"""Fuzz targets for every public entry point; see fuzz/README.md."""
