# Stub of the compiled module src/bansugoroku_fast/_play_records.pyx (the
# lazy sequence of plays that _single.plays returns), written by hand with
# the real types; stubtest holds it to the module (.ci/run).
from collections.abc import Iterator
from typing import Any, ClassVar, Final, SupportsIndex, overload

from typing_extensions import disjoint_base

#: Byte offsets in the record of a play that ``_single.plays`` returns.
RECORD_OFFSETS: Final[dict[str, int]]

@disjoint_base
class PlayRecords:
    """The plays of one ``plays`` call as records, each play made when read."""

    @property
    def records(self) -> bytes: ...
    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, index: SupportsIndex, /) -> Any: ...
    @overload
    def __getitem__(self, index: slice, /) -> list[Any]: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __eq__(self, other: object, /) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]
    def __reduce__(self) -> tuple[type[list[Any]], tuple[list[Any]]]: ...

def set_play_class(play_class: type, none_slots: tuple[str, ...] = ()) -> None:
    """Make PlayRecords' plays ``play_class`` objects (slots ``_records``, ``_index``;
    ``none_slots`` None)."""
