"""jobspec-lsp: language server, linter and formatter for Flux jobspec.

The package's floor: every room may import it (its version, and the reading of the data
files it ships); it imports only os and sys, which every Python process has loaded."""

import os
import sys

__version__ = "0.1.0"


def data_text(package: str, name: str) -> str:
    """The text of a data file shipped inside ``package`` (an imported package), read
    through the package's own loader: a directory's file or a zip member alike, without
    importlib.resources (whose imports cost a few milliseconds of every start-up)."""
    module = sys.modules[package]
    where = os.path.join(os.path.dirname(module.__file__ or ""), name)
    data: bytes = module.__spec__.loader.get_data(where)  # type: ignore[union-attr]
    return data.decode("utf-8")
