"""A conformance kit for other engines: a language-neutral corpus of legal
plays and perft counts for every rule combination (``corpus/``, format in
``corpus/README.md``), and a checker that runs an engine over it.

>>> from bansugoroku_fast.formats.conformance import check_engine, load_corpus, reference
>>> from bansugoroku_fast.formats.conformance.engines import PythonEngine
>>> items, perfts = load_corpus()
>>> len({item.rules for item in items})
7
"""
from .checker import Disagreement, Report, check_engine, describe
from .corpus import CorpusItem, PerftItem, export_corpus, load_corpus
from .engines import CommandEngine, EngineFailure, PythonEngine, load_python_engine

__all__ = [
    "CommandEngine",
    "CorpusItem",
    "Disagreement",
    "EngineFailure",
    "PerftItem",
    "PythonEngine",
    "Report",
    "check_engine",
    "describe",
    "export_corpus",
    "load_corpus",
    "load_python_engine",
]
