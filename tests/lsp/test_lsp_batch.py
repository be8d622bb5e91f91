"""Batch scripts over LSP: a shell script with `#flux:` directives gets
diagnostics, option completion with docs, hover in words and a quick-fix.
Data: tests/data/batch/."""

from lsp_support import apply_edits, data, open_doc, pos, rng
from lsprotocol import types as T

SCRIPT = data("batch", "sim.sh")


async def test_a_shell_script_gets_diagnostics_hover_completion_and_a_fix(client):
    uri = await open_doc(client, "sim.sh", SCRIPT, language="shellscript")
    (d,) = client.diagnostics[uri]
    assert d.code == "JS570" and d.range == rng(SCRIPT, "--jobname")
    assert "did you mean --job-name?" in d.message

    hover = await client.text_document_hover_async(
        T.HoverParams(T.TextDocumentIdentifier(uri), pos(SCRIPT, "-N2", 1))
    )
    assert "2 nodes" in hover.contents.value and "--nodes" in hover.contents.value
    hover = await client.text_document_hover_async(
        T.HoverParams(T.TextDocumentIdentifier(uri), pos(SCRIPT, "1h"))
    )
    assert "1 hour" in hover.contents.value or "1h" in hover.contents.value

    got = await client.text_document_completion_async(
        T.CompletionParams(T.TextDocumentIdentifier(uri), pos(SCRIPT, "-t 1h", 2))
    )
    items = got.items if isinstance(got, T.CompletionList) else got
    labels = {i.label for i in items}
    assert "--time-limit" in labels and "--job-name" not in labels  # "-t" is typed
    item = next(i for i in items if i.label == "--time-limit")
    assert "Flux Standard Duration" in str(item.documentation)

    actions = await client.text_document_code_action_async(
        T.CodeActionParams(
            T.TextDocumentIdentifier(uri), d.range, T.CodeActionContext(diagnostics=[d])
        )
    )
    (fix,) = [a for a in actions if a.kind == T.CodeActionKind.QuickFix]
    fixed = apply_edits(SCRIPT, fix.edit.document_changes[0].edits)
    assert "#flux: --job-name=sim" in fixed


async def test_a_script_without_directives_is_left_alone(client):
    text = "#!/bin/sh\necho hello\n"
    uri = await open_doc(client, "plain.sh", text, language="shellscript", wait=False)
    hover = await client.text_document_hover_async(
        T.HoverParams(T.TextDocumentIdentifier(uri), pos(text, "echo"))
    )
    assert hover is None and not client.diagnostics.get(uri)


SLURM = data("batch", "slurm.sh")


async def test_a_slurm_script_converts_with_one_quick_fix(client):
    from jobspec_lsp.script import sbatch

    uri = await open_doc(client, "slurm.sh", SLURM, language="shellscript")
    got = [
        (d.code, SLURM[_offset(SLURM, d.range.start) : _offset(SLURM, d.range.end)])
        for d in client.diagnostics[uri]
    ]
    assert got == [
        ("JS590", "#SBATCH"),
        ("JS593", "#SBATCH"),  # sbatch's default output file, written
        ("JS590", "#SBATCH"),
        ("JS590", "#SBATCH"),
        ("JS591", "--mem=8G"),
        ("JS595", "$SLURM_JOB_ID"),
        ("JS593", "srun"),
    ]
    hint = client.diagnostics[uri][2]
    assert hint.severity == T.DiagnosticSeverity.Hint
    actions = await client.text_document_code_action_async(
        T.CodeActionParams(
            T.TextDocumentIdentifier(uri), hint.range, T.CodeActionContext(diagnostics=[hint])
        )
    )
    (fix,) = [a for a in actions if a.kind == T.CodeActionKind.QuickFix]
    assert fix.title == "Convert this Slurm script to Flux"
    converted = apply_edits(SLURM, fix.edit.document_changes[0].edits)
    assert converted == sbatch.convert_script(SLURM).text
    assert "#flux: -N 2 -n 8" in converted and "flux run -N2 -n8 ./sim" in converted

    var = client.diagnostics[uri][5]
    actions = await client.text_document_code_action_async(
        T.CodeActionParams(
            T.TextDocumentIdentifier(uri), var.range, T.CodeActionContext(diagnostics=[var])
        )
    )
    # under #SBATCH a variable's Flux form is right only in the whole conversion: no
    # fix of its own (applied alone it once broke the script: $SUBMIT_DIR never set)
    assert not [a for a in actions if a.kind == T.CodeActionKind.QuickFix]
    assert not fix.is_preferred  # an action, never applied by an editor's auto-fix


def _offset(text: str, p: T.Position) -> int:
    lines = text.split("\n")
    return sum(len(x) + 1 for x in lines[: p.line]) + p.character


async def _labels(client, uri, text, needle, delta):
    got = await client.text_document_completion_async(
        T.CompletionParams(T.TextDocumentIdentifier(uri), pos(text, needle, delta))
    )
    items = got.items if isinstance(got, T.CompletionList) else got
    return [i.label for i in items or []]


async def test_values_complete_where_there_is_a_set(client, tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.jobspec]\nqueues = ["batch", "debug"]\n')
    text = "#!/bin/sh\n#flux: -N1 --queue=d\n#flux: --dependency=afte\n#flux: -t 90\n"
    path = tmp_path / "job.sh"
    path.write_text(text)
    uri = path.as_uri()
    client.text_document_did_open(
        T.DidOpenTextDocumentParams(T.TextDocumentItem(uri, "shellscript", 1, text))
    )
    assert await _labels(client, uri, text, "--queue=d", 9) == ["debug"]
    assert await _labels(client, uri, text, "--queue=d", 8) == ["batch", "debug"]
    schemes = await _labels(client, uri, text, "afte", 4)
    assert {"afterok:", "afterany:", "after:"} <= set(schemes) and "singleton" not in schemes
    assert await _labels(client, uri, text, "-t 90", 5) == ["90s", "90m", "90h", "90d"]


async def test_show_the_jobspec_of_a_script(client):
    uri = await open_doc(
        client, "show.sh", "#!/bin/sh\n#flux: -N2 -t 1h\nflux run ./a\n", language="shellscript"
    )
    got = await client.workspace_execute_command_async(
        T.ExecuteCommandParams("jobspec.showJobspec", [uri])
    )
    assert got["language"] == "yaml"
    text = got["text"]
    assert text.startswith("# the jobspec `flux batch --dry-run show.sh` builds")
    assert "duration: 3600" in text and "[flux, broker" in text and "name: show.sh" in text
    as_json = await client.workspace_execute_command_async(
        T.ExecuteCommandParams("jobspec.showJobspec", [uri, "json"])
    )
    assert as_json["text"].startswith("{")
    refused = await open_doc(
        client, "refused.sh", "#!/bin/sh\n#flux: -n2 -x\n", language="shellscript"
    )
    got = await client.workspace_execute_command_async(
        T.ExecuteCommandParams("jobspec.showJobspec", [refused])
    )
    assert got == {
        "error": "flux batch would refuse this script: "
        "-x/--exclusive needs -N/--nodes: it allocates whole nodes"
    }
    got = await client.workspace_execute_command_async(
        T.ExecuteCommandParams("jobspec.showJobspec", ["file:///nowhere/x.sh"])
    )
    assert "error" in got


async def test_flux_run_lines_in_the_body_get_diagnostics_hover_and_a_fix(client):
    """Issue 22 (in part): a `flux run` line in the script's body is read with flux run's
    own options; an abbreviation gets the full name as a quick-fix."""
    text = "#!/bin/bash\n#flux: -N2\nflux run -N4 --job-n=x ./app\n"
    uri = await open_doc(client, "run.sh", text, language="shellscript")
    found = sorted((d.code, str(d.range)) for d in client.diagnostics[uri])
    assert found == [("JS584", str(rng(text, "--job-n"))), ("JS587", str(rng(text, "4")))]
    d = next(d for d in client.diagnostics[uri] if d.code == "JS584")
    assert d.range == rng(text, "--job-n")
    hover = await client.text_document_hover_async(
        T.HoverParams(T.TextDocumentIdentifier(uri), pos(text, "run -N4"))
    )
    assert "waits for it to end" in hover.contents.value
    actions = await client.text_document_code_action_async(
        T.CodeActionParams(
            T.TextDocumentIdentifier(uri), d.range, T.CodeActionContext(diagnostics=[d])
        )
    )
    (fix,) = [a for a in actions if a.kind == T.CodeActionKind.QuickFix]
    fixed = apply_edits(text, fix.edit.document_changes[0].edits)
    assert fixed == text.replace("--job-n=", "--job-name=")


async def test_a_shell_script_with_flux_command_lines_is_checked(client):
    """No directive, but `flux submit` lines: the server checks them (issue 22)."""
    text = "#!/bin/bash\nfor i in 1 2; do\n  flux submit --nodes=two ./app $i\ndone\n"
    uri = await open_doc(client, "loop.sh", text, language="shellscript")
    (d,) = client.diagnostics[uri]
    assert d.code == "JS585" and d.range == rng(text, "two")


LSF = "#!/bin/bash\n#BSUB -nnodes 2\n#BSUB -W 30\njsrun -n4 -a1 -c10 -g1 -r2 ./a\n"


async def test_an_lsf_script_converts_with_convert_to_flux_and_hovers_its_flux_form(client):
    from jobspec_lsp.script import sbatch

    uri = await open_doc(client, "job.lsf.sh", LSF, language="shellscript")
    codes = [d.code for d in client.diagnostics[uri]]
    assert codes.count("JS597") == 2
    hover = await client.text_document_hover_async(
        T.HoverParams(T.TextDocumentIdentifier(uri), pos(LSF, "-nnodes", 2))
    )
    text = hover.contents.value
    assert "#flux: -N 2 -n 2 -x" in text and "whole nodes" in text and "bsub.nnodes.1.html" in text
    assert hover.range == rng(LSF, "-nnodes 2")
    actions = await client.text_document_code_action_async(
        T.CodeActionParams(
            T.TextDocumentIdentifier(uri), rng(LSF, "jsrun"), T.CodeActionContext(diagnostics=[])
        )
    )
    (convert,) = [a for a in actions if a.title == "Convert to Flux"]
    assert convert.kind == T.CodeActionKind.RefactorRewrite
    converted = apply_edits(LSF, convert.edit.document_changes[0].edits)
    assert converted == sbatch.convert_script(LSF).text
    assert "flux run -N2 -n4 -c10 -g1 ./a" in converted


async def test_a_heterogeneous_job_offers_convert_to_flux_disabled_with_why(client):
    text = "#!/bin/bash\n#SBATCH -n 2\n#SBATCH hetjob\n#SBATCH -n 4\nsrun ./a\n"
    uri = await open_doc(client, "het.sh", text, language="shellscript")
    assert "JS589" in [d.code for d in client.diagnostics[uri]]
    actions = await client.text_document_code_action_async(
        T.CodeActionParams(
            T.TextDocumentIdentifier(uri),
            rng(text, "srun"),
            T.CodeActionContext(diagnostics=[], only=[T.CodeActionKind.RefactorRewrite]),
        )
    )
    (convert,) = [a for a in actions if a.title == "Convert to Flux"]
    assert convert.disabled is not None and "heterogeneous" in convert.disabled.reason
