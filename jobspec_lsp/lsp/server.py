"""The jobspec language server: adapts the pure core to LSP types (pygls 2).

Every feature lives in a pure module (analysis, completion, hover, fixes,
navigation, format); the handlers here only translate offsets and data
to and from LSP.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import threading
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from lsprotocol import types as T
from pygls.io_ import StdinAsyncReader, StdoutWriter, run_async
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from jobspec_lsp import __version__, config, convert, kinds
from jobspec_lsp.diagnostics import RULES, Diagnostic, rule_url
from jobspec_lsp.jobspec import incremental
from jobspec_lsp.jobspec.tree import Document
from jobspec_lsp.lsp.bases import Bases, Stale
from jobspec_lsp.lsp.scheduling import Debouncer, OneAtATime
from jobspec_lsp.lsp.settings import Settings
from jobspec_lsp.lsp.textsync import LspWorkspace
from jobspec_lsp.rules import targets
from jobspec_lsp.site import cache as site_cache
from jobspec_lsp.text import pauses
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
        self.bases = Bases()  # the document each one's next edit is read against
        self.frozen: set[str] = set()  # big documents whose trees the collector leaves alone
        self.project_targets: dict[str, str] = {}  # uri -> [tool.jobspec] target
        self.project_flux: dict[str, str | None] = {}  # uri -> [tool.jobspec] flux-version
        self.project_docs: dict[str, str | None] = {}  # uri -> [tool.jobspec] docs-url
        self.kinds: dict[str, tuple] = {}  # uri -> (version, text, kind)
        self.sites = site_cache.Sites()  # site profiles, reloaded when their files change
        self.site_watch: asyncio.Future | None = None
        self.config_problems: set[str] = set()  # shown once each
        self.settings_problems = ""  # what the settings got wrong, as last shown
        self.debouncer = Debouncer(self._publish)
        self.pull = False
        self.published: dict[str, int | None] = {}
        self.big = OneAtATime(again=self.schedule)  # big documents: one thread each

    def _start_io_async(self, stdin=None, stdout=None):
        """pygls's stdio loop, with a reader that resynchronises (see _Resync)."""
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
            site=self.site(uri),
        )

    def site(self, uri: str):
        """The site profile a document is checked against: the editor's ``site`` setting
        (relative to the workspace's folder), else the project's ``site``; a profile
        that cannot be loaded is said once and left out."""
        where = self.settings.site
        if where and not os.path.isabs(where):
            root = self.workspace.root_path
            where = os.path.join(root, where) if root else where
        if not where:
            where = self.project(uri).site
        if not where:
            return None
        site, error = self.sites.get(where)
        if error is not None and error not in self.config_problems:
            self.config_problems.add(error)
            log.warning("site profile: %s", error)
            self.window_show_message(
                T.ShowMessageParams(T.MessageType.Warning, f"jobspec: site profile: {error}")
            )
        return site

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
        # the last document an edit can be read against (entry by entry: issue 26); it
        # is given back only after the check, so no newer reading gives it up meanwhile
        base, consume = self.bases.take(uri, text)
        doc = kind.reread(text, base, consume)
        result = Analysis(tdoc.version, doc, kind.check(doc, self.options(uri)), kind)
        if not self.opened(uri):
            return result  # closed meanwhile: nothing of it is kept
        if incremental.good_base(doc):
            self.bases.keep(uri, doc)
        self.cache[uri] = result
        if len(text) > BIG and uri not in self.frozen:
            # the first big tree of a document: out of the collector's full scans, which
            # every few edits otherwise took 1 s at 5 MB (given back when it is closed)
            pauses.keep_out_of_collections()
            self.frozen.add(uri)
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
        if isinstance(doc_or_text, str):
            if len(doc_or_text) <= BIG:
                return fn(*args)
            return await asyncio.to_thread(fn, *args)
        with self.bases.reading(doc_or_text):  # not given up for a newer version meanwhile
            if len(doc_or_text.text) <= BIG:
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

    def position(self, params: Any) -> tuple[Document, int] | None:
        """For a navigation request: the document model (when its kind offers
        navigation) and the offset of ``params.position`` in it."""
        doc = self.document(params.text_document.uri)
        return None if doc is None else (doc, self.offset(doc, params.position))

    def offset(self, doc: Document, pos: T.Position) -> int:
        return doc.lines.offset(pos.line, pos.character, encoding=self.encoding)

    def lsp_range(self, doc: Document, start: int, end: int) -> T.Range:
        r = doc.lines.range(start, end, encoding=self.encoding)
        return T.Range(
            T.Position(r.start.line, r.start.character), T.Position(r.end.line, r.end.character)
        )

    def docs_href(self, code: str, uri: str | None = None) -> str:
        """A rule's page: under the editor's docsUrl, else the project's docs-url (of the
        document ``uri``, read once per document and settings change), else the
        project's site."""
        if self.settings.docs_url or not uri:
            return rule_url(code, self.settings.docs_url)
        if uri not in self.project_docs:
            path = to_fs_path(uri) if uri.startswith("file:") else None
            self.project_docs[uri] = config.load(path).docs_url if path else None
        return rule_url(code, self.project_docs[uri])

    def to_lsp(self, doc: Document, d: Diagnostic, uri: str | None = None) -> T.Diagnostic:
        href = self.docs_href(d.code, uri)
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
            code_description=T.CodeDescription(href=href),
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
        self.project_docs.clear()
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


def guard(default):
    """Log a handler's exception and answer ``default``: input never kills the server."""

    def wrap(fn):
        if asyncio.iscoroutinefunction(fn):

            async def ainner(ls, params):
                try:
                    return await fn(ls, params)
                except Stale:  # asked about a version the editor has left
                    log.debug("%s: the document changed meanwhile", fn.__name__)
                    return default
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
    ls.workspace.__class__ = LspWorkspace
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


SITE_POLL = 2.0  # seconds between looks at the site profiles' files


@server.feature(T.INITIALIZED)
async def initialized(ls: JobspecServer, params):
    ls.site_watch = asyncio.ensure_future(_watch_sites(ls))
    await _pull_configuration(ls)


async def _watch_sites(ls: JobspecServer) -> None:
    """Every SITE_POLL seconds: when a loaded site profile's files changed (an edited
    queue limit, a new R), every open document is checked again against the new one."""
    while True:
        await asyncio.sleep(SITE_POLL)
        try:
            if ls.sites.loaded and ls.sites.changed():
                ls.refresh_all()
        except Exception:  # a watcher that dies would stop reloading
            log.exception("site profile watch")


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
    ls.bases.drop(uri)
    if uri in ls.frozen:
        ls.frozen.discard(uri)
        if not ls.frozen:  # no big document left (freezing is process-wide): give back
            pauses.rejoin_collections()
    ls.kinds.pop(uri, None)  # it holds the text: a closed document keeps nothing
    ls.project_flux.pop(uri, None)
    ls.project_docs.pop(uri, None)
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
