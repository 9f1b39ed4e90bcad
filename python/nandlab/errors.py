"""The exceptions nandlab raises for mistakes a person can fix; each carries a one-line
message naming the file, line or key.

One hierarchy for the Python front end and the compiled core (which raises these same
classes; ``nandlab._core.NandlabError`` is :class:`NandlabError`)::

    NandlabError                 any input nandlab cannot use (an unreadable path, ...)
    ├── ConfigError (ValueError) a config key or value, a config file, an override, an
    │                            argument, a device too large for memory
    ├── TraceError (ValueError)  a malformed trace line (``FILE:LINE: field ...``)
    ├── MissingFileError         an input file that does not exist (also a
    │   (FileNotFoundError)      ``FileNotFoundError``)
    └── NotAFileError            an input path that is a directory (also an
        (IsADirectoryError)      ``IsADirectoryError``)

Anything else that escapes (``TypeError``, ``AssertionError``, ...) is a bug.
"""

import tomllib


class NandlabError(Exception):
    """Input nandlab cannot use; the message is one line naming the file, line or key."""


class ConfigError(NandlabError, ValueError):
    """A config file, config string, override or argument that cannot be used as given."""


class TraceError(NandlabError, ValueError):
    """A malformed line of a trace file (the message starts ``FILE:LINE:``)."""


class MissingFileError(NandlabError, FileNotFoundError):
    """An input file that does not exist (``no such file: PATH``)."""


class NotAFileError(NandlabError, IsADirectoryError):
    """An input path that is a directory (``PATH: is a directory, not a file``)."""


def user_message(e: BaseException) -> str | None:
    """The one-line message for an error a person can act on, or None for a bug."""
    if isinstance(e, NandlabError):
        msg = str(e)
    elif isinstance(e, tomllib.TOMLDecodeError):
        msg = f"invalid TOML: {e}"
    elif isinstance(e, FileNotFoundError):
        msg = f"no such file: {e.filename}" if e.filename else str(e)
    elif isinstance(e, OSError) and e.filename:
        msg = f"{e.filename}: {e.strerror or e}"
    else:
        return None
    return " ".join(line.strip() for line in msg.splitlines() if line.strip()) or type(e).__name__
