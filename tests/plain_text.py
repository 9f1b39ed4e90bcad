"""Rich table output as plain words, for tests that look for a row's label and value."""

import re


def plain(text: str) -> str:
    """``text`` with box-drawing characters dropped and blanks collapsed to one space."""
    return " ".join(re.sub("[\u2500-\u257f]", " ", text).split())
