"""Collection of the modules of optional extras: outside CI, the doctests of
a module whose extra is not installed are skipped (its tests skip through
``pytest.importorskip``); in CI (``CI`` set) every extra must be there."""
import importlib.util
import os

#: Module files (relative to this folder) and the packages their extra installs.
OPTIONAL = {
    "bansugoroku_fast/envs": ("gymnasium", "pettingzoo"),
    "bansugoroku_fast/distributed.py": ("dask", "distributed"),
    "bansugoroku_fast/web": ("starlette", "uvicorn", "httpx2"),
}

collect_ignore = []
for path, needed in OPTIONAL.items():
    missing = [name for name in needed if importlib.util.find_spec(name) is None]
    if missing and os.environ.get("CI"):
        raise RuntimeError(f"CI must install the extra of {path}: {', '.join(missing)} missing")
    if missing:
        collect_ignore.append(path)

#: The scripts that made the reference data run inside GNU Backgammon (its own
#: ``gnubg`` module), not under pytest.
collect_ignore_glob = ["tests/data/*"]
