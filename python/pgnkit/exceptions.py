"""The exceptions pgnkit raises, all under :class:`PgnkitError`.

* :class:`UsageError`: an option value the command would refuse (an unknown language, a ``where`` expression that
  does not parse, a tag name that cannot be a column). Also a ``ValueError``, as it always was.
* :class:`InputError`: a source that cannot be read (a missing or unreadable file, truncated compressed data, a
  game over the size limit), or the system refusing what a run needs (threads, temporary space). Also an
  ``OSError`` of the system's kind: a missing file is caught by ``except FileNotFoundError``, an unreadable one by
  ``except PermissionError``; ``errno``, ``strerror`` and ``filename`` (the path) are set as ``open`` sets them.
* :class:`EncodeError`: rows or text that cannot be encoded for Python (an Arrow or Parquet limit). Also a
  ``ValueError``, as ``UnicodeEncodeError`` is.

Errors in the types of arguments stay ``TypeError``.
"""

from __future__ import annotations

import builtins
import errno as _errno
import os
from typing import Dict, Optional, Type

__all__ = ["PgnkitError", "UsageError", "InputError", "EncodeError"]


class PgnkitError(Exception):
    """Base class of every error pgnkit raises on purpose."""


class UsageError(PgnkitError, ValueError):
    """An option value the command would refuse, with the command's message."""


class InputError(PgnkitError, OSError):
    """A source that cannot be read, as an ``OSError`` of the system's kind, ``filename`` the path.

    Errors that come from the data rather than the system (damaged gzip or zstd data, a game over the size
    limit) have ``errno`` None and ``strerror`` the message.
    """

    def __str__(self) -> str:
        if self.errno is None and self.strerror is not None:
            # OSError would write "[Errno None] ...".
            return f"{self.filename}: {self.strerror}" if self.filename is not None else str(self.strerror)
        return super().__str__()


class EncodeError(PgnkitError, ValueError):
    """Rows or text that cannot be encoded for Python (an Arrow or Parquet limit, text that is not UTF-8)."""


# InputError of each OSError kind a read can meet, so that `except FileNotFoundError` still catches it.
class InputFileNotFoundError(InputError, FileNotFoundError):
    pass


class InputPermissionError(InputError, PermissionError):
    pass


class InputIsADirectoryError(InputError, IsADirectoryError):
    pass


class InputNotADirectoryError(InputError, NotADirectoryError):
    pass


class InputInterruptedError(InputError, InterruptedError):
    pass


class InputTimeoutError(InputError, TimeoutError):
    pass


_KINDS: Dict[Type[OSError], Type[InputError]] = {
    FileNotFoundError: InputFileNotFoundError,
    PermissionError: InputPermissionError,
    IsADirectoryError: InputIsADirectoryError,
    NotADirectoryError: InputNotADirectoryError,
    InterruptedError: InputInterruptedError,
    TimeoutError: InputTimeoutError,
}

# The errno of a kind Rust knew without the system's number (a path found missing before it was opened).
_ERRNOS: Dict[Type[OSError], int] = {
    FileNotFoundError: _errno.ENOENT,
    PermissionError: _errno.EACCES,
    IsADirectoryError: _errno.EISDIR,
    NotADirectoryError: _errno.ENOTDIR,
    InterruptedError: _errno.EINTR,
    TimeoutError: _errno.ETIMEDOUT,
}


def _input_error(kind: str, errno: Optional[int], message: str, filename: Optional[str]) -> InputError:
    """The exception for a read error of the native module: `kind` names the builtin OSError subclass Rust
    mapped the error to, `errno` is the system's number when there is one, `message` the error without the
    path. With a number the message is the system's, as ``open`` gives it."""
    builtin = getattr(builtins, kind, OSError)
    if not (isinstance(builtin, type) and issubclass(builtin, OSError)):
        builtin = OSError
    if errno is None:
        errno = _ERRNOS.get(builtin)
    else:
        # The number decides the kind, as OSError(errno, ...) decides it.
        builtin = type(OSError(errno, ""))
    cls = _KINDS.get(builtin, InputError)
    if errno is not None:
        return cls(errno, os.strerror(errno), filename)
    return cls(None, message, filename)
