"""Shared pytest configuration (keep it small)."""
import os


def pytest_report_header(config):
    """Say how large the differential runs are (see tests/test_differential.py)."""
    long_run = os.environ.get("BANSUGOROKU_LONG") == "1"
    return (
        f"differential tests: {'LONG (BANSUGOROKU_LONG=1)' if long_run else 'default'} sizes; "
        "'-m slow' adds the million-item runs"
    )
