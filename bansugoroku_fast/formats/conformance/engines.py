"""Engines the checker can drive: a Python callable, or any program that
speaks the one-line protocol of corpus/README.md over stdin/stdout.

A Python engine is ``engine(position, dice, rules)`` with ``position`` an
``int8[2, 26]`` array (row 0 on roll), ``dice`` a pair of ints and ``rules``
a :class:`~bansugoroku_fast.Rules`; it returns an iterable of resulting
positions (arrays, nested lists or :class:`~bansugoroku_fast.Position`, row 0
still the side that played).

A command engine reads one request per line, ``RULES POSITION-ID A-B``, and
answers each with one line: the Position IDs of the results, separated by
spaces (an empty line for no play).
"""
from __future__ import annotations

import importlib
import os
import select
import shlex
import subprocess
import time
from collections.abc import Callable, Iterable
from typing import Protocol

import numpy as np

from ...errors import InvalidArgumentError, InvalidPositionError
from ...position import Position
from ...rules import Rules

#: Seconds a command engine may take to answer one request.
DEFAULT_TIMEOUT = 10.0


class EngineFailure(Exception):
    """The engine crashed (raised, exited, answered garbage) or hung."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind  # 'crash' or 'hang'


class Engine(Protocol):
    name: str
    last_ns: int  # how long the engine itself took on the last request

    def results(self, position: Position, dice: tuple[int, int], rules: Rules) -> list[str]:
        """The Position IDs the engine lists (duplicates kept)."""

    def close(self) -> None:
        """Release what the engine holds (a process)."""


def _result_id(result: object) -> str:
    if isinstance(result, Position):
        return result.id
    array = np.asarray(result)
    if array.shape != (2, 26) or not np.issubdtype(array.dtype, np.integer):
        raise InvalidPositionError(
            f"a result must be an int8[2, 26] position, got shape {array.shape}, dtype {array.dtype}")
    return Position(array).id


class PythonEngine:
    """A Python callable ``(position int8[2, 26], dice, rules) -> iterable of positions``."""

    def __init__(self, function: Callable[[np.ndarray, tuple[int, int], Rules], Iterable[object]], name: str = ""):
        self.function = function
        self.name = name or getattr(function, "__qualname__", repr(function))
        self.last_ns = 0

    def results(self, position: Position, dice: tuple[int, int], rules: Rules) -> list[str]:
        """The call is timed (:attr:`last_ns`); converting its results is not."""
        try:
            board = position.array.copy()
            started = time.perf_counter_ns()
            listed = list(self.function(board, dice, rules))
            self.last_ns = time.perf_counter_ns() - started
            return [_result_id(result) for result in listed]
        except Exception as error:  # the engine under test may raise anything
            raise EngineFailure("crash", f"{type(error).__name__}: {error}") from error

    def close(self) -> None:
        return None


def load_python_engine(spec: str) -> PythonEngine:
    """``module:function`` -> the engine (``ValueError`` when it cannot be found).

    >>> load_python_engine("bansugoroku_fast.formats.conformance.reference:kernel_engine").name
    'bansugoroku_fast.formats.conformance.reference:kernel_engine'
    """
    module_name, colon, attribute = spec.partition(":")
    if not colon or not module_name or not attribute:
        raise InvalidArgumentError(f"an engine is 'module:function', got {spec!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise InvalidArgumentError(f"cannot import {module_name!r}: {error}") from None
    function = module
    for part in attribute.split("."):
        function = getattr(function, part, None)  # type: ignore[assignment]
        if function is None:
            raise InvalidArgumentError(f"{module_name!r} has no {attribute!r}")
    if not callable(function):
        raise InvalidArgumentError(f"{spec} is not callable")
    return PythonEngine(function, spec)


class CommandEngine:
    """A program speaking the line protocol; a request unanswered within
    ``timeout`` seconds is a hang (the process is killed)."""

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT):
        self.name = command
        self.timeout = timeout
        self.last_ns = 0
        self.process = subprocess.Popen(
            shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            bufsize=0,
        )
        self._buffer = b""

    def _read_line(self, deadline: float) -> bytes:
        assert self.process.stdout is not None
        descriptor = self.process.stdout.fileno()
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineFailure("hang", f"no answer within {self.timeout:g} s")
            ready, _, _ = select.select([descriptor], [], [], left)
            if not ready:
                continue
            chunk = os.read(descriptor, 65536)
            if not chunk:
                raise EngineFailure("crash", f"the engine exited ({self._exit_text()})")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _exit_text(self) -> str:
        try:
            code = self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            return "its output closed"
        assert self.process.stderr is not None
        last = self.process.stderr.read().decode("utf-8", "replace").strip().splitlines()[-1:]
        return f"status {code}" + (f": {last[0]}" if last else "")

    def results(self, position: Position, dice: tuple[int, int], rules: Rules) -> list[str]:
        assert self.process.stdin is not None
        request = f"{rules.short_name} {position.id} {dice[0]}-{dice[1]}\n".encode()
        started = time.perf_counter_ns()
        try:
            self.process.stdin.write(request)
        except (BrokenPipeError, OSError):
            raise EngineFailure("crash", f"the engine exited ({self._exit_text()})") from None
        line = self._read_line(time.monotonic() + self.timeout).decode("ascii", "replace").strip()
        self.last_ns = time.perf_counter_ns() - started  # the round trip through the pipes
        ids = line.split()
        for text in ids:
            try:
                Position.from_id(text)
            except ValueError:
                raise EngineFailure("crash", f"answered {line[:80]!r}: {text!r} is not a Position ID") from None
        return ids

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()
