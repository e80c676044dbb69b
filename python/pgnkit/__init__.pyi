import os
from typing import Any, Iterator, List, Optional, Sequence, Union

import pyarrow as pa

from .exceptions import EncodeError as EncodeError
from .exceptions import InputError as InputError
from .exceptions import PgnkitError as PgnkitError
from .exceptions import UsageError as UsageError

__version__: str

Source = Union[
    str,
    os.PathLike,
    bytes,
    Sequence[Union[str, bytes]],
    Sequence[os.PathLike],
    pa.Array,
    pa.ChunkedArray,
]

# One string is one item (tags: names separated by commas, as --tags takes them).
Strings = Union[str, Sequence[str]]

def stats_schema(*, tags: Optional[Strings] = ..., per_move: bool = ...) -> pa.Schema: ...
def stats(
    source: Source,
    *,
    tags: Optional[Strings] = ...,
    per_move: bool = ...,
    jobs: Optional[int] = ...,
) -> pa.Table: ...
def validate(
    source: Source, *, lang: str = ..., strict: bool = ..., jobs: Optional[int] = ...
) -> List[dict[str, Any]]: ...
def convert(
    source: Source,
    *,
    to: str = ...,
    source_lang: str = ...,
    notation: str = ...,
    output_format: str = ...,
    skip_invalid: bool = ...,
) -> str: ...
def select(
    source: Source,
    where: Optional[str] = ...,
    *,
    reaches: Strings = ...,
    material: Strings = ...,
    dedupe: bool = ...,
    lang: str = ...,
) -> List[str]: ...
def read_games(
    source: Source, *, lang: str = ..., jobs: Optional[int] = ...
) -> Iterator[dict[str, Any]]: ...
