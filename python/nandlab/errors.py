"""Errors raised by the Python front end for mistakes a person can fix.

Errors found by the Rust core arrive as ``nandlab._core.NandlabError`` (re-exported as
``nandlab.NandlabError``); both carry a one-line message naming the file, line or key.
"""


class ConfigError(ValueError):
    """A config file, config string or override that cannot be used as given."""
