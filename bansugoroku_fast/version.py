"""The library's version: the one copy (``pyproject.toml`` reads it from
here; ``bansugoroku_fast.__version__``, ``bansugoroku --version`` and the
command line's JSON output show it)."""

__version__ = "0.4.0"
