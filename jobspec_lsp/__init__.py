"""jobspec-lsp: language server, linter and formatter for Flux jobspec."""

__version__ = "0.1.0"


def data_text(package: str, name: str) -> str:
    """The text of a data file shipped inside ``package`` (an imported package), read
    through the package's own loader: a directory's file or a zip member alike, without
    importlib.resources (whose imports cost a few milliseconds of every start-up)."""
    import os  # deferred: the package's import stays free of everything
    import sys  # deferred: the package's import stays free of everything

    module = sys.modules[package]
    where = os.path.join(os.path.dirname(module.__file__ or ""), name)
    data: bytes = module.__spec__.loader.get_data(where)  # type: ignore[union-attr]
    return data.decode("utf-8")
