"""The jobspec language server: adapts the pure core to LSP types (pygls 2).

Every feature lives in a pure module (analysis, completion, hover, fixes,
navigation, format); the handlers here only translate offsets and data
to and from LSP.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import importlib.util
import logging
import re
import sys
import threading
from dataclasses import dataclass
from urllib.parse import unquote

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument, Workspace

from jobspec_lsp import __version__, config, convert, kinds
from jobspec_lsp.diagnostics import RULES, Diagnostic
from jobspec_lsp.features import fixes, navigation
from jobspec_lsp.features.fixes import apply_fixes
from jobspec_lsp.fluxcli import model
from jobspec_lsp.jobspec.docs_text import rule_url
from jobspec_lsp.jobspec.document import Document
from jobspec_lsp.lsp.scheduling import Debouncer, OneAtATime
from jobspec_lsp.lsp.settings import Settings
from jobspec_lsp.rules import analysis, targets
from jobspec_lsp.script import batch
from jobspec_lsp.script.directives import has_sentinel
from jobspec_lsp.text.edits import minimal as minimal_edits
from jobspec_lsp.text.positions import LineIndex
from jobspec_lsp.text.sources import language_of

log = logging.getLogger("jobspec_lsp")

BIG = 200_000  # characters: analysed off the event loop


@dataclass
class Analysis:
    version: int | None
    doc: Document
    diagnostics: list[Diagnostic]
    kind: kinds.Kind = kinds.JOBSPEC_YAML
    conversion: convert.Conversion | None = None  # on the first code-action request


_LSP_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


class LspTextDocument(TextDocument):
    """pygls's document with LSP's lines: only ``\n``, ``\r\n`` and ``\r`` end a line.
    (``str.splitlines`` also breaks at U+2028, U+2029, U+0085, form feeds, ..., so an
    incremental edit after such a character landed on the wrong line and the server's
    copy of the text drifted from the editor's.)"""

    @property
    def lines(self):
        return tuple(_LSP_LINE.findall(self.source))


class _LspWorkspace(Workspace):
    def _create_text_document(self, doc_uri, source=None, version=None, language_id=None):
        return LspTextDocument(
            doc_uri,
            source=source,
            version=version,
            language_id=language_id,
            sync_kind=self._sync_kind,
            position_codec=self._position_codec,
        )


class _Resync:
    """A JSON-RPC reader that finds its way back after a malformed frame. A frame
    whose header does not parse (``Content-Length: abc``) leaves its body in front of
    the next header on one line; pygls's loop never matches that header again and the
    server stops answering. This drops what stands before a ``Content-Length:`` and
    logs it, so the next well-formed message is read as usual."""

    def __init__(self, inner):
        self.inner = inner

    async def readline(self) -> bytes:
        line = await self.inner.readline()
        at = line.find(b"Content-Length:")
        if at > 0:
            log.error("malformed JSON-RPC frame: %d bytes dropped before the next header", at)
            return line[at:]
        return line

    async def readexactly(self, n: int) -> bytes:
        return await self.inner.readexactly(n)


class JobspecServer(LanguageServer):
    def __init__(self):
        super().__init__(
            "jobspec-lsp", __version__, text_document_sync_kind=T.TextDocumentSyncKind.Incremental
        )
        self.settings = Settings()
        self.cache: dict[str, Analysis] = {}
        self.project_targets: dict[str, str] = {}  # uri -> [tool.jobspec] target
        self.project_flux: dict[str, str | None] = {}  # uri -> [tool.jobspec] flux-version
        self.kinds: dict[str, tuple] = {}  # uri -> (version, text, kind)
        self.config_problems: set[str] = set()  # shown once each
        self.settings_problems = ""  # what the settings got wrong, as last shown
        self.debouncer = Debouncer(self._publish)
        self.pull = False
        self.published: dict[str, int | None] = {}
        self.big = OneAtATime(again=self.schedule)  # big documents: one thread each

    def _start_io_async(self, stdin=None, stdout=None):
        """pygls's stdio loop, with a reader that resynchronises (see _Resync)."""
        from pygls.io_ import (  # deferred: pygls, only in the server
            StdinAsyncReader,
            StdoutWriter,
            run_async,
        )

        self._stop_event = threading.Event()
        reader = _Resync(StdinAsyncReader(stdin or sys.stdin.buffer, self.thread_pool))
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            asyncio.run(
                run_async(
                    stop_event=self._stop_event,
                    reader=reader,
                    protocol=self.protocol,
                    logger=log,
                    error_handler=self.report_server_error,
                )
            )
        except BrokenPipeError:
            log.error("the client's connection is lost: shutting down")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    # ------------------------------------------------------------------ helpers
    @property
    def encoding(self) -> str:
        """The position encoding negotiated with the client ("utf-16" by default)."""
        try:
            enc = self.workspace.position_encoding
        except RuntimeError:  # before initialize
            enc = None
        return str(getattr(enc, "value", enc) or "utf-16")

    def opened(self, uri: str) -> bool:
        """Whether the client opened this document. The server works only on what the
        client gave it: a request about any other URI never reads the file."""
        return unquote(uri) in self.workspace.text_documents

    def kind(self, uri: str) -> kinds.Kind:
        """What the document is (:func:`kinds.detect`, with the editor's jobspec.files),
        decided once per version: every handler dispatches on it."""
        if not self.opened(uri):
            return kinds.UNKNOWN
        doc = self.workspace.get_text_document(uri)
        got = self.kinds.get(uri)
        if got is not None and got[0] == doc.version and got[1] is doc.source:
            return got[2]
        kind = kinds.detect(to_fs_path(uri) or uri, doc.source, doc.language_id,
                            globs=self.settings.files)  # fmt: skip
        self.kinds[uri] = (doc.version, doc.source, kind)
        return kind

    def options(self, uri: str) -> kinds.Options:
        """The check options of a document: the editor's settings over the project's."""
        select, ignore, rules = self.selection(uri)
        return kinds.Options(
            select=tuple(select) if select else None,
            ignore=tuple(ignore or ()),
            target=self.target(uri),
            version_rules=rules,
            flux_version=self.flux_version(uri),
            queues=tuple(self.queues(uri)),
        )

    def language(self, uri: str) -> str:
        doc = self.workspace.get_text_document(uri)
        return language_of(uri, doc.source[:4096], doc.language_id)

    def analyse(self, uri: str) -> Analysis | None:
        """The analysis of the current text, cached per document version (None for a
        document that is not ours)."""
        kind = self.kind(uri)
        if not kind.offers("diagnostics"):
            return None
        tdoc = self.workspace.get_text_document(uri)
        got = self.cache.get(uri)
        if got is not None and got.version == tdoc.version and got.doc.text == tdoc.source:
            return got
        text = tdoc.source
        doc = kind.read(text)
        result = Analysis(tdoc.version, doc, kind.check(doc, self.options(uri)), kind)
        self.cache[uri] = result
        return result

    async def snapshot(self, uri: str) -> Analysis | None:
        """The analysis of the current version: from the cache, or computed now, off the
        event loop when the document is big (so no request waits on another's work)."""
        if not self.kind(uri).offers("diagnostics"):
            return None
        tdoc = self.workspace.get_text_document(uri)
        got = self.cache.get(uri)
        if got is not None and got.version == tdoc.version and got.doc.text == tdoc.source:
            return got
        if len(tdoc.source) <= BIG:
            return self.analyse(uri)
        return await asyncio.to_thread(self.analyse, uri)

    async def run(self, doc_or_text, fn, *args):
        """``fn(*args)``, in a thread when it works on a big document."""
        text = doc_or_text if isinstance(doc_or_text, str) else doc_or_text.text
        if len(text) <= BIG:
            return fn(*args)
        return await asyncio.to_thread(fn, *args)

    def flux_version(self, uri: str) -> str | None:
        """The Flux whose options scripts are read with: the editor's fluxVersion, else
        the project's [tool.jobspec] flux-version (read once per document and settings
        change), else None (the newest in the option table)."""
        if self.settings.flux_version:
            return self.settings.flux_version
        if uri not in self.project_flux:
            path = to_fs_path(uri) if uri.startswith("file:") else None
            self.project_flux[uri] = config.load(path).flux_version if path else None
        return self.project_flux[uri]

    def target(self, uri: str) -> str:
        """The editor's setting, else the project's [tool.jobspec] target (read once per
        document and settings change), else rfc."""
        if self.settings.target:
            return self.settings.target
        got = self.project_targets.get(uri)
        if got is None:
            path = to_fs_path(uri) if uri.startswith("file:") else None
            got = (config.target_for(path)[0] if path else None) or targets.DEFAULT
            self.project_targets[uri] = got
        return got

    def project(self, uri: str) -> config.Config:
        """The project configuration for a document (jobspec.toml or [tool.jobspec]);
        its problems shown once each in the editor."""
        path = to_fs_path(uri) if uri.startswith("file:") else None
        cfg = config.load(path) if path else config.Config()
        for p in cfg.problems:
            if str(p) not in self.config_problems:
                self.config_problems.add(str(p))
                log.warning("project configuration: %s", p)
                self.window_show_message(
                    T.ShowMessageParams(T.MessageType.Warning, f"jobspec: {p}")
                )
        return cfg

    def selection(self, uri: str):
        """(select, ignore, version rules) for a document, one precedence order: the
        editor's settings where given, else the project's configuration (its
        per-file-ignores added to either ignore list), else everything and auto."""
        cfg = self.project(uri)
        path = to_fs_path(uri) if uri.startswith("file:") else None
        select = self.settings.select or (list(cfg.select) if cfg.select else None)
        ignore = list(self.settings.ignore or cfg.ignore) + [
            c for c in cfg.ignored_for(path) if c not in cfg.ignore
        ]
        rules = (
            self.settings.version_rules
            if self.settings.version_rules != "auto" or not cfg.version_rules
            else cfg.version_rules
        )
        return select, ignore or None, rules

    def queues(self, uri: str) -> list[str]:
        """The project's queue names ([tool.jobspec] queues) for a document."""
        path = to_fs_path(uri) if uri.startswith("file:") else None
        return config.queues_for(path) if path else []

    def document(self, uri: str, feature: str = "navigation") -> Document | None:
        """The document model, when its kind offers ``feature``."""
        a = self.analyse(uri)
        return a.doc if a is not None and a.kind.offers(feature) else None

    def offset(self, doc: Document, pos: T.Position) -> int:
        return doc.lines.offset(pos.line, pos.character, encoding=self.encoding)

    def lsp_range(self, doc: Document, start: int, end: int) -> T.Range:
        r = doc.lines.range(start, end, encoding=self.encoding)
        return T.Range(
            T.Position(r.start.line, r.start.character), T.Position(r.end.line, r.end.character)
        )

    def docs_href(self, code: str) -> str | None:

        return rule_url(code, self.settings.docs_url)

    def to_lsp(self, doc: Document, d: Diagnostic, uri: str | None = None) -> T.Diagnostic:

        href = self.docs_href(d.code)
        related = None
        if uri and d.data and d.data.get("related"):
            related = [
                T.DiagnosticRelatedInformation(T.Location(uri, self.lsp_range(doc, a, b)), message)
                for a, b, message in d.data["related"]
            ]
        rule = RULES.get(d.code)
        tags = [_TAG[t] for t in (rule.tags if rule else ())] or None
        return T.Diagnostic(
            range=self.lsp_range(doc, d.start, d.end),
            message=d.message,
            severity=T.DiagnosticSeverity(int(d.severity)),
            code=d.code,
            source="jobspec",
            code_description=T.CodeDescription(href=href) if href else None,
            related_information=related,
            tags=tags,
            data={"code": d.code, **(d.data or {})} if d.data else None,
        )

    # ------------------------------------------------------------------ diagnostics
    def schedule(self, uri: str) -> None:
        """Analyse and publish the newest version; a newer change cancels older work."""
        if not self.pull:
            self.debouncer.request(uri)

    async def _publish(self, uri: str) -> None:
        try:
            if not self.opened(uri):
                return  # closed meanwhile: nothing to read (and never from disk)
            tdoc = self.workspace.get_text_document(uri)
            version = tdoc.version
            if not self.kind(uri).offers("diagnostics"):
                if self.published.get(uri, False) is not False:
                    self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri, []))
                    self.published.pop(uri, None)
                return
            if len(tdoc.source) > BIG:
                # a thread cannot be cancelled: one at a time, the newest version after
                result = await self.big.run(uri, lambda: self.analyse(uri))
            else:
                result = self.analyse(uri)
            current = self.workspace.get_text_document(uri).version
            if result is None or current != version or result.version != version:
                return  # stale: a newer version is on its way
            self.text_document_publish_diagnostics(
                T.PublishDiagnosticsParams(
                    uri=uri,
                    version=version,
                    diagnostics=[self.to_lsp(result.doc, d, uri) for d in result.diagnostics],
                )
            )
            self.published[uri] = version
        except asyncio.CancelledError:
            pass
        except Exception:  # never let one document take the server down
            log.exception("analysis of %s failed", uri)

    def refresh_all(self) -> None:
        self.cache.clear()
        self.project_targets.clear()
        self.project_flux.clear()
        self.kinds.clear()
        if self.pull:
            try:
                self.workspace_diagnostic_refresh(None)
            except Exception:  # noqa: BLE001 - the client may not support refresh
                log.debug("diagnostic refresh not supported")
            return
        for uri in list(self.workspace.text_documents):
            self.schedule(uri)


_TAG = {"deprecated": T.DiagnosticTag.Deprecated, "unnecessary": T.DiagnosticTag.Unnecessary}

server = JobspecServer()

_KINDS = {
    "key": T.CompletionItemKind.Property,
    "value": T.CompletionItemKind.Value,
    "snippet": T.CompletionItemKind.Snippet,
}
_SYMBOLS = {
    "array": T.SymbolKind.Array,
    "struct": T.SymbolKind.Struct,
    "field": T.SymbolKind.Field,
    "function": T.SymbolKind.Function,
    "key": T.SymbolKind.Key,
}


def _guard(default):
    """Log a handler's exception and answer ``default``: input never kills the server."""

    def wrap(fn):
        if asyncio.iscoroutinefunction(fn):

            async def ainner(ls, params):
                try:
                    return await fn(ls, params)
                except Exception:
                    log.exception("%s failed", fn.__name__)
                    return default

            ainner.__name__ = fn.__name__
            return ainner

        def inner(ls, params):
            try:
                return fn(ls, params)
            except Exception:
                log.exception("%s failed", fn.__name__)
                return default

        inner.__name__ = fn.__name__
        return inner

    return wrap


# ---------------------------------------------------------------------- lifecycle
@server.feature(T.INITIALIZE)
def initialize(ls: JobspecServer, params: T.InitializeParams):
    # pygls made the workspace before this handler runs: give it LSP's line breaks
    ls.workspace.__class__ = _LspWorkspace
    _use_settings(ls, params.initialization_options)
    td = params.capabilities.text_document if params.capabilities else None
    ls.pull = bool(td and td.diagnostic)


def _use_settings(ls: JobspecServer, raw) -> None:
    """Take a complete set of settings; what it gets wrong is logged, and shown in one
    message when it differs from what the previous settings got wrong (so once per
    change, not per document: initializationOptions and workspace/configuration
    usually send the same)."""
    ls.settings = Settings.from_dict(raw)
    shown = "\n".join(ls.settings.problems)
    tell = bool(shown) and shown != ls.settings_problems
    ls.settings_problems = shown
    for problem in ls.settings.problems:
        log.warning("settings: %s", problem)
        try:
            ls.window_log_message(
                T.LogMessageParams(type=T.MessageType.Warning, message=f"jobspec-lsp: {problem}")
            )
        except Exception:  # noqa: BLE001 - no client to tell (tests): the log has it
            pass
    if tell:
        n = len(ls.settings.problems)
        try:
            ls.window_show_message(
                T.ShowMessageParams(
                    T.MessageType.Warning,
                    f"jobspec: {n} problem{'s' if n != 1 else ''} in the settings: "
                    + "; ".join(ls.settings.problems),
                )
            )
        except Exception:  # noqa: BLE001 - no client to tell (tests): the log has it
            pass


@server.feature(T.INITIALIZED)
async def initialized(ls: JobspecServer, params):
    await _pull_configuration(ls)


async def _pull_configuration(ls: JobspecServer) -> None:
    caps = ls.client_capabilities.workspace
    if not (caps and caps.configuration):
        return
    try:
        got = await ls.workspace_configuration_async(
            T.ConfigurationParams(items=[T.ConfigurationItem(section="jobspec")])
        )
    except Exception:
        log.debug("workspace/configuration failed", exc_info=True)
        return
    if got and isinstance(got[0], dict):
        _use_settings(ls, got[0])
        ls.refresh_all()


@server.feature(T.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(ls: JobspecServer, params: T.DidChangeConfigurationParams):
    settings = params.settings
    if isinstance(settings, dict) and isinstance(settings.get("jobspec"), dict):
        _use_settings(ls, settings["jobspec"])
        ls.refresh_all()
    else:
        await _pull_configuration(ls)


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: JobspecServer, params: T.DidOpenTextDocumentParams):
    ls.schedule(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: JobspecServer, params: T.DidChangeTextDocumentParams):
    ls.schedule(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: JobspecServer, params: T.DidSaveTextDocumentParams):
    ls.schedule(params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: JobspecServer, params: T.DidCloseTextDocumentParams):
    uri = params.text_document.uri
    ls.cache.pop(uri, None)
    ls.kinds.pop(uri, None)  # it holds the text: a closed document keeps nothing
    ls.project_flux.pop(uri, None)
    ls.project_targets.pop(uri, None)
    ls.debouncer.cancel(uri)
    if not ls.pull and ls.published.pop(uri, None) is not None:
        ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(
    T.TEXT_DOCUMENT_DIAGNOSTIC,
    T.DiagnosticOptions(
        identifier="jobspec", inter_file_dependencies=False, workspace_diagnostics=False
    ),
)
def pull_diagnostics(ls: JobspecServer, params: T.DocumentDiagnosticParams):
    try:
        a = ls.analyse(params.text_document.uri)
    except Exception:
        log.exception("analysis failed")
        a = None
    items = [ls.to_lsp(a.doc, d, params.text_document.uri) for d in a.diagnostics] if a else []
    return T.RelatedFullDocumentDiagnosticReport(
        items=items, result_id=str(a.version) if a else None
    )


# ---------------------------------------------------------------------- completion & hover
@server.feature(
    T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[":", " ", "-", "="])
)
@_guard(None)
async def on_completion(ls: JobspecServer, params: T.CompletionParams):
    uri = params.text_document.uri
    kind = ls.kind(uri)
    if not kind.offers("completion"):
        return None
    text = ls.workspace.get_text_document(uri).source  # this version, whatever comes next
    encoding, options = ls.encoding, ls.options(uri)

    def compute():
        lines = LineIndex(text)
        offset = lines.offset(params.position.line, params.position.character, encoding=encoding)
        return lines, offset, kind.complete(text, offset, options)

    lines, offset, (cands, start, end) = await ls.run(text, compute)
    item_caps = getattr(
        getattr(ls.client_capabilities.text_document, "completion", None), "completion_item", None
    )
    markdown = T.MarkupKind.Markdown in (getattr(item_caps, "documentation_format", None) or [])
    items = []
    rng = _range_of(lines, start, max(end, offset), ls.encoding)
    for c in cands:
        insert = c.insert_text if c.insert_text is not None else c.label
        items.append(
            T.CompletionItem(
                label=c.label,
                kind=_KINDS.get(c.kind),
                detail=c.detail or None,
                documentation=(
                    T.MarkupContent(T.MarkupKind.Markdown, c.documentation)
                    if markdown
                    else c.documentation
                )
                if c.documentation
                else None,
                insert_text_format=T.InsertTextFormat.Snippet
                if c.snippet
                else T.InsertTextFormat.PlainText,
                text_edit=T.TextEdit(rng, insert),
                filter_text=c.label,
            )
        )
    return T.CompletionList(is_incomplete=False, items=items)


def _range_of(lines, start, end, encoding) -> T.Range:
    r = lines.range(start, end, encoding=encoding)
    return T.Range(
        T.Position(r.start.line, r.start.character), T.Position(r.end.line, r.end.character)
    )


SHOW_JOBSPEC = "jobspec.showJobspec"


@server.command(SHOW_JOBSPEC)
def on_show_jobspec(ls: JobspecServer, *args):
    """ "Show the jobspec": for an open batch script (arguments: its URI, and "yaml" or
    "json"), the jobspec `flux batch --dry-run` builds for it, as
    ``{"text", "language"}``; ``{"error"}`` says why there is none.  Editors open the
    text in a new read-only buffer."""
    uri = args[0] if args and isinstance(args[0], str) else None
    fmt = args[1] if len(args) > 1 and args[1] in ("yaml", "json") else "yaml"
    if uri is None or not ls.kind(uri).offers("show-jobspec"):
        return {"error": "not an open batch script with #flux: directives"}
    text = ls.workspace.get_text_document(uri).source
    if not has_sentinel(text[:200_000]):
        return {"error": "no #flux: directives (convert the #SBATCH ones first)"}
    path = to_fs_path(uri) if uri.startswith("file:") else uri.rsplit("/", 1)[-1]
    try:
        with model.using(ls.flux_version(uri)):
            shown = batch.shown_jobspec(text, path or "script", fmt)
        return {"text": shown, "language": fmt}
    except batch.BatchError as err:
        if err.ours:  # not Flux's refusal: what this view does not do (read a named file)
            return {"error": f"the jobspec cannot be shown here: {err}"}
        return {"error": f"flux batch would refuse this script: {err}"}


@server.feature(T.TEXT_DOCUMENT_HOVER)
@_guard(None)
async def on_hover(ls: JobspecServer, params: T.HoverParams):
    uri = params.text_document.uri
    a = await ls.snapshot(uri)
    if a is None or not a.kind.offers("hover"):
        return None
    doc, options = a.doc, ls.options(uri)
    got = await ls.run(doc, a.kind.hover, doc, ls.offset(doc, params.position), options)
    if got is None:
        return None
    markdown, start, end = got
    return T.Hover(
        contents=T.MarkupContent(T.MarkupKind.Markdown, markdown),
        range=ls.lsp_range(doc, start, end),
    )


# ---------------------------------------------------------------------- formatting
def _format_edits(ls: JobspecServer, uri: str):
    from jobspec_lsp.fmt import (  # deferred: the formatter, only when a document is written
        format as formatter,  # deferred: the formatter, only when a document is written
    )

    a = ls.analyse(uri)
    if a is None or not a.kind.offers("format"):  # a batch script is not ours to lay out
        return []
    if a.doc.root is None:
        first = a.doc.problems[0].message if a.doc.problems else "the file holds no jobspec"
        ls.window_show_message(
            T.ShowMessageParams(
                T.MessageType.Warning, f"jobspec: not formatted: cannot format: {first}"
            )
        )
        return []
    text = a.doc.text
    path = to_fs_path(uri)
    options = formatter.load_options(path) if path else formatter.FormatOptions()
    if ls.settings.sort_keys is not None:  # the editor's setting wins over the project's
        options = dataclasses.replace(options, sort_keys=ls.settings.sort_keys)
    try:
        result = formatter.format_result(text, ls.language(uri), options)
    except formatter.FormatError as err:  # said, never silent: the file stays as it is
        ls.window_show_message(
            T.ShowMessageParams(T.MessageType.Warning, f"jobspec: not formatted: {err.message}")
        )
        return []
    if result.why:
        ls.window_log_message(
            T.LogMessageParams(
                T.MessageType.Warning,
                f"jobspec: formatted with the {result.layout!r} layout ({result.why})",
            )
        )
    new = result.text
    if new == text:
        return []
    return [T.TextEdit(ls.lsp_range(a.doc, s, e), t) for s, e, t in minimal_edits(text, new)]


@server.feature(T.TEXT_DOCUMENT_FORMATTING)
@_guard([])
def on_formatting(ls: JobspecServer, params: T.DocumentFormattingParams):
    return _format_edits(ls, params.text_document.uri)


@server.feature(T.TEXT_DOCUMENT_RANGE_FORMATTING)
@_guard([])
def on_range_formatting(ls: JobspecServer, params: T.DocumentRangeFormattingParams):
    """The whole-document formatting edits that fall inside the range (the style,
    key order in particular, is a property of whole mappings)."""
    edits = _format_edits(ls, params.text_document.uri)
    lo, hi = params.range.start, params.range.end
    return [
        e
        for e in edits
        if (e.range.start.line, e.range.start.character) >= (lo.line, lo.character)
        and (e.range.end.line, e.range.end.character) <= (hi.line, hi.character)
    ]


# ---------------------------------------------------------------------- code actions
FIX_ALL = "source.fixAll.jobspec"


def _kinds(only) -> list[str]:
    return [getattr(k, "value", k) for k in only or ()]


def _wants(only, kind: str) -> bool:
    """Whether a code action of ``kind`` answers a request limited to ``only`` (LSP:
    a kind matches its own prefixes, `source.fixAll` takes `source.fixAll.jobspec`)."""
    kinds = _kinds(only)
    return not kinds or any(kind == k or kind.startswith(k + ".") for k in kinds)


def _fix_all_action(ls: JobspecServer, uri: str, a: Analysis):
    """`source.fixAll.jobspec`: every safe fix at once, as `jobspec check --fix` applies
    them (None when there is none)."""

    kind, options = a.kind, ls.options(uri)

    def analyse(text):
        doc = kind.read(text)
        return doc, kind.check(doc, options)

    new, applied = apply_fixes(analyse, a.doc.text)
    if not applied:
        return None
    edits = [
        T.TextEdit(ls.lsp_range(a.doc, s_, e_), t) for s_, e_, t in minimal_edits(a.doc.text, new)
    ]
    n = len(applied)
    return T.CodeAction(
        title=f"Fix all safe jobspec problems ({n} fix{'es' if n != 1 else ''})",
        kind=FIX_ALL,
        edit=T.WorkspaceEdit(
            document_changes=[
                T.TextDocumentEdit(
                    T.OptionalVersionedTextDocumentIdentifier(uri=uri, version=a.version), edits
                )
            ]
        ),
    )


@server.feature(
    T.TEXT_DOCUMENT_CODE_ACTION,
    T.CodeActionOptions(
        code_action_kinds=[
            T.CodeActionKind.QuickFix,
            T.CodeActionKind.RefactorRewrite,
            T.CodeActionKind.SourceFixAll,
            FIX_ALL,
        ]
    ),
)
@_guard([])
def on_code_action(ls: JobspecServer, params: T.CodeActionParams):
    uri = params.text_document.uri
    a = ls.analyse(uri)
    if a is None:
        return []
    doc = a.doc
    lo = ls.offset(doc, params.range.start)
    hi = ls.offset(doc, params.range.end)
    wanted = {
        (d.code, d.range.start.line, d.range.start.character)
        for d in params.context.diagnostics
        if isinstance(d.code, str)
    }
    only = params.context.only
    actions: list = []
    if _kinds(only) and not _wants(only, T.CodeActionKind.QuickFix.value):
        a_diags: list = []  # only source or refactor actions asked for
    else:
        a_diags = a.diagnostics
    for d in a_diags:
        if not (d.start <= hi and lo <= d.end):
            continue
        lsp_diag = ls.to_lsp(doc, d, uri)
        key = (d.code, lsp_diag.range.start.line, lsp_diag.range.start.character)
        if wanted and key not in wanted:
            continue
        for fix in fixes.fixes_for(doc, d):
            edits = [T.TextEdit(ls.lsp_range(doc, e.start, e.end), e.text) for e in fix.edits]
            actions.append(
                T.CodeAction(
                    title=fix.title,
                    kind=T.CodeActionKind.QuickFix,
                    diagnostics=[lsp_diag],
                    is_preferred=fix.preferred,
                    edit=T.WorkspaceEdit(
                        document_changes=[
                            T.TextDocumentEdit(
                                T.OptionalVersionedTextDocumentIdentifier(
                                    uri=uri, version=a.version
                                ),
                                edits,
                            )
                        ]
                    ),
                )
            )
    if _wants(only, FIX_ALL) and (_kinds(only) or any(d.code in fixes.SAFE for d in a.diagnostics)):
        fix_all = _fix_all_action(ls, uri, a)
        if fix_all is not None:
            actions.append(fix_all)
    # the conversions: when refactorings are asked for, or on a plain request that is
    # not about a diagnostic (not beside every quick-fix); a blocked one only when asked
    asked = any(k.startswith("refactor") for k in _kinds(only))
    convertible = a.kind.offers("convert") and a.doc.root is not None
    if convertible and (asked or (not only and not params.context.diagnostics)):
        actions.extend(c for c in _conversion_actions(ls, uri, a) if c.disabled is None or asked)
    return actions


def _conversion_actions(ls: JobspecServer, uri: str, a: Analysis):
    """ "Convert to jobspec V1" / "Convert to canonical jobspec" over the whole document
    (minimal edits, comments kept); a blocked conversion is shown disabled, with why."""

    lang = a.kind.language
    v1 = analysis.uses_v1(a.doc)
    if a.conversion is None:  # code actions are asked for on every cursor move: once per version
        a.conversion = (
            convert.to_canonical(a.doc.text, lang) if v1 else convert.to_v1(a.doc.text, lang)
        )
    conv = a.conversion
    title = "Convert to canonical jobspec" if v1 else "Convert to jobspec V1"
    if not conv.ok:
        first = conv.blockers[0] if conv.blockers else None
        pos = a.doc.lines.position(first.start) if first else None
        reason = (
            (
                f"{first.message} (line {pos.line + 1 if pos else '?'}; "
                f"{len(conv.blockers)} blocker"
                f"{'s' if len(conv.blockers) != 1 else ''})"
            )
            if first
            else "not convertible"
        )
        return [
            T.CodeAction(
                title=title,
                kind=T.CodeActionKind.RefactorRewrite,
                disabled=T.CodeActionDisabled(reason=reason),
            )
        ]
    edits = [
        T.TextEdit(ls.lsp_range(a.doc, s_, e_), t)
        for s_, e_, t in minimal_edits(a.doc.text, conv.text or a.doc.text)
    ]
    return [
        T.CodeAction(
            title=title,
            kind=T.CodeActionKind.RefactorRewrite,
            edit=T.WorkspaceEdit(
                document_changes=[
                    T.TextDocumentEdit(
                        T.OptionalVersionedTextDocumentIdentifier(uri=uri, version=a.version), edits
                    )
                ]
            ),
        )
    ]


# ---------------------------------------------------------------------- navigation
@server.feature(T.TEXT_DOCUMENT_DEFINITION)
@_guard(None)
def on_definition(ls: JobspecServer, params: T.DefinitionParams):
    doc = ls.document(params.text_document.uri)
    if doc is None:
        return None
    node = navigation.definition(doc, ls.offset(doc, params.position))
    if node is None:
        return None
    return T.Location(params.text_document.uri, ls.lsp_range(doc, node.start, node.end))


@server.feature(T.TEXT_DOCUMENT_LINKED_EDITING_RANGE)
@_guard(None)
def on_linked_editing_range(ls: JobspecServer, params: T.LinkedEditingRangeParams):
    """A slot label and every `tasks[].slot` naming it, edited together."""
    a = ls.analyse(params.text_document.uri)
    if a is None or not a.kind.offers("navigation"):
        return None
    doc = a.doc
    nodes = navigation.references(doc, ls.offset(doc, params.position), True)
    if len(nodes) < 2 or any(getattr(n, "style", None) in ("|", ">") for n in nodes):
        return None
    ranges = []
    for n in nodes:
        quoted = getattr(n, "style", None) in ("'", '"')
        start, end = (n.start + 1, n.end - 1) if quoted else (n.start, n.end)
        ranges.append(ls.lsp_range(doc, start, end))
    return T.LinkedEditingRanges(ranges=ranges, word_pattern=r"[A-Za-z0-9_][A-Za-z0-9_.\-]*")


@server.feature(T.TEXT_DOCUMENT_REFERENCES)
@_guard([])
def on_references(ls: JobspecServer, params: T.ReferenceParams):
    doc = ls.document(params.text_document.uri)
    if doc is None:
        return []
    nodes = navigation.references(
        doc, ls.offset(doc, params.position), params.context.include_declaration
    )
    return [T.Location(params.text_document.uri, ls.lsp_range(doc, n.start, n.end)) for n in nodes]


@server.feature(T.TEXT_DOCUMENT_PREPARE_RENAME)
@_guard(None)
def on_prepare_rename(ls: JobspecServer, params: T.PrepareRenameParams):
    doc = ls.document(params.text_document.uri)
    if doc is None:
        return None
    node = navigation.prepare_rename(doc, ls.offset(doc, params.position))
    if node is None:
        return None
    src = doc.text[node.start : node.end]
    q = 1 if src[:1] in ("'", '"') else 0
    return T.PrepareRenamePlaceholder(
        range=ls.lsp_range(doc, node.start + q, node.end - q), placeholder=str(node.value)
    )


@server.feature(T.TEXT_DOCUMENT_RENAME, T.RenameOptions(prepare_provider=True))
def on_rename(ls: JobspecServer, params: T.RenameParams):
    from pygls.exceptions import JsonRpcInvalidParams  # deferred: pygls, only in the server

    uri = params.text_document.uri
    a = ls.analyse(uri)
    if a is None or not a.kind.offers("navigation"):
        return None
    try:
        edits = navigation.rename(a.doc, ls.offset(a.doc, params.position), params.new_name)
    except navigation.RenameError as err:
        raise JsonRpcInvalidParams(str(err)) from None
    return T.WorkspaceEdit(
        document_changes=[
            T.TextDocumentEdit(
                T.OptionalVersionedTextDocumentIdentifier(uri=uri, version=a.version),
                [T.TextEdit(ls.lsp_range(a.doc, s, e), t) for s, e, t in edits],
            )
        ]
    )


@server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@_guard([])
async def on_document_symbol(ls: JobspecServer, params: T.DocumentSymbolParams):
    a = await ls.snapshot(params.text_document.uri)
    if a is None or not a.kind.offers("symbols"):
        return []
    doc = a.doc

    def conv(s):
        return T.DocumentSymbol(
            name=s.name,
            detail=s.detail or None,
            kind=_SYMBOLS[s.kind],
            range=ls.lsp_range(doc, s.start, s.end),
            selection_range=ls.lsp_range(doc, s.sel_start, s.sel_end),
            children=[conv(c) for c in s.children] or None,
        )

    return [conv(s) for s in await ls.run(doc, navigation.document_symbols, doc)]


@server.feature(T.TEXT_DOCUMENT_FOLDING_RANGE)
@_guard([])
async def on_folding_range(ls: JobspecServer, params: T.FoldingRangeParams):
    a = await ls.snapshot(params.text_document.uri)
    if a is None or not a.kind.offers("folding"):
        return []
    ranges = await ls.run(a.doc, navigation.folding_ranges, a.doc)
    return [T.FoldingRange(start_line=lo, end_line=hi) for lo, hi in ranges]


@server.feature(T.TEXT_DOCUMENT_INLAY_HINT)
@_guard([])
async def on_inlay_hint(ls: JobspecServer, params: T.InlayHintParams):
    a = await ls.snapshot(params.text_document.uri)
    if a is None or not a.kind.offers("inlay-hints"):
        return []
    doc = a.doc
    lo, hi = ls.offset(doc, params.range.start), ls.offset(doc, params.range.end)
    hints = []
    for off, label in await ls.run(doc, navigation.inlay_hints, doc, lo, hi):
        p = ls.lsp_range(doc, off, off).start
        hints.append(T.InlayHint(position=p, label=label, padding_left=True))
    return hints


# ---------------------------------------------------------------------- entry point
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="jobspec-lsp", description="Flux jobspec language server.")
    ap.add_argument("--version", action="version", version=f"jobspec-lsp {__version__}")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (default)")
    group.add_argument(
        "--tcp",
        metavar="HOST:PORT",
        help="listen on a TCP socket (HOST empty: 127.0.0.1); each connection gets its own "
        "server with its own state. No authentication: anyone who can connect can use the "
        "server; keep it on loopback",
    )
    group.add_argument(
        "--ws",
        metavar="HOST:PORT",
        help="listen for WebSocket connections (no authentication either)",
    )
    ap.add_argument("--log-level", default="WARNING", choices=("DEBUG", "INFO", "WARNING", "ERROR"))
    args = ap.parse_args(argv)
    logging.basicConfig(
        stream=sys.stderr, level=args.log_level, format="jobspec-lsp %(levelname)s %(message)s"
    )
    spec = args.tcp or args.ws
    host, port = "", ""
    if spec:
        host, _, port = spec.rpartition(":")
        if not port.isdigit():
            ap.error(f"expected HOST:PORT, not {spec!r}")
        if args.ws:
            if importlib.util.find_spec("websockets") is None:  # pygls serves WebSocket with it
                print(
                    "jobspec-lsp: --ws needs the websockets package (pip install 'pygls[ws]')",
                    file=sys.stderr,
                )
                return 2
    # Work on big documents runs in threads (pure Python, holding the GIL in turns); a
    # shorter switch interval than the default 5 ms lets the event loop answer small
    # requests meanwhile without waiting several intervals (benchmarks/bench_concurrency.py)
    sys.setswitchinterval(0.001)
    if args.tcp:
        from jobspec_lsp.lsp import tcp  # deferred: the server, only for `jobspec lsp`

        argv_out = [sys.executable, "-m", "jobspec_lsp", "lsp", "--log-level", args.log_level]
        tcp.serve(host or "127.0.0.1", int(port), argv_out)
    elif args.ws:
        server.start_ws(host or "127.0.0.1", int(port))
    else:
        server.start_io()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
