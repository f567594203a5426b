"""Shared pytest configuration (keep it small)."""
import os

import pytest

import bansugoroku_fast


def pytest_report_header(config):
    """Say how large the differential runs are (see tests/test_differential.py)."""
    long_run = os.environ.get("BANSUGOROKU_LONG") == "1"
    return (
        f"differential tests: {'LONG (BANSUGOROKU_LONG=1)' if long_run else 'default'} sizes; "
        "'-m slow' adds the million-item runs"
    )


ENGINES = {"oracle": bansugoroku_fast.oracle, "package": bansugoroku_fast}


@pytest.fixture(params=list(ENGINES))
def engine(request):
    """Each test runs once on the oracle and once on the package-level
    (kernel-backed) API: the two modules have the same function names."""
    return ENGINES[request.param]
