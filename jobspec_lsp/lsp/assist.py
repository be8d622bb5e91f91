"""The server's help while typing: completion, hover and the "Show the jobspec"
command, registered on :data:`jobspec_lsp.lsp.server.server`."""

from __future__ import annotations

from lsprotocol import types as T
from pygls.uris import to_fs_path

from jobspec_lsp.fluxcli import model
from jobspec_lsp.lsp.server import JobspecServer, guard, server
from jobspec_lsp.script import batch
from jobspec_lsp.text.positions import LineIndex
from jobspec_lsp.text.sniff import has_sentinel

_KINDS = {
    "key": T.CompletionItemKind.Property,
    "value": T.CompletionItemKind.Value,
    "snippet": T.CompletionItemKind.Snippet,
}


# ---------------------------------------------------------------------- completion & hover
@server.feature(
    T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[":", " ", "-", "="])
)
@guard(None)
async def on_completion(ls: JobspecServer, params: T.CompletionParams):
    uri = params.text_document.uri
    kind = ls.kind(uri)
    if not kind.offers("completion"):
        return None
    text = ls.workspace.get_text_document(uri).source  # this version, whatever comes next
    encoding, options = ls.encoding, ls.options(uri)

    got = ls.cache.get(uri)  # this version's analysis, when there is one: its line index

    def compute():
        lines = got.doc.lines if got is not None and got.doc.text is text else LineIndex(text)
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
@guard(None)
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
