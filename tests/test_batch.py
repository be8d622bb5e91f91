"""Batch scripts in process: RFC 36 directives read with their positions, the
options checked as `flux batch` takes them, the jobspec it builds; and through the
CLI (`jobspec check SCRIPT`, `jobspec new --from-batch`).  The real-Flux tier
(tests/flux/test_flux_batch.py) holds all of it against flux-core itself."""

import json

import pytest
from batch_cases import RFC36
from helpers import run_cli

from jobspec_lsp import kinds
from jobspec_lsp.features import fixes
from jobspec_lsp.job import directives
from jobspec_lsp.script import assist, batch
from jobspec_lsp.text.edits import apply


@pytest.mark.parametrize("text,words", RFC36)
def test_every_rfc36_example_reads_as_the_rfc_says(text, words):
    script = directives.read(text)
    assert [w.value for w in script.words] == words and not script.problems


def test_words_keep_their_source_ranges():
    text = "#!/bin/sh\n# flux: -N2 --job-name='a b'  # two nodes\nhostname\n"
    words = directives.read(text).words
    assert [text[w.start : w.end] for w in words] == ["-N2", "--job-name='a b'"]
    literal = '#!/bin/sh\n#flux: --setattr=user.x="""\n#flux:   one\n#flux: """\n'
    (w,) = directives.read(literal).words
    # flux-core strips the first line's indent (one space) from each line, no more
    assert w.value == "--setattr=user.x=  one\n"
    assert literal[w.start : w.end] == '--setattr=user.x="""\n#flux:   one\n#flux: """'


@pytest.mark.parametrize(
    "block,code,token",
    [
        ("#flux: -N2 --job-name='sim", "JS560", "'"),
        ('#flux: -N2 --setattr=x="""\n#flux: more', "JS561", '"""'),
        ("#flux: -N2\n##flux: -c2", "JS562", "##flux:"),
        ("#flux: -N2 \\", "JS564", "\\"),
        ("#flux: -N2 --jobname=x", "JS570", "--jobname"),
        ("#flux: -N2 -Z", "JS570", "-Z"),
        ("#flux: -N2 --job-name", "JS571", "--job-name"),
        ("#flux: -N zero", "JS572", "zero"),
        ("#flux: -N2 -t 5x", "JS572", "5x"),
        ("#flux: -N2 --requires='a &'", "JS572", "'a &'"),
        ("#flux: -N2 --urgency=32", "JS572", "32"),
        ("#flux: -N2 -N3", "JS573", "-N3"),
        ("#flux: -N2 script.sh", "JS574", "script.sh"),
        ("#flux: --job-name=x", "JS580", "#flux:"),
        ("#flux: -n2 --exclusive", "JS581", "--exclusive"),
        ("#flux: -N3 -n2", "JS582", "3"),
    ],
)
def test_each_problem_points_at_its_token(block, code, token):
    text = "#!/bin/sh\n" + block + "\nhostname\n"
    found = [d for d in batch.check_script(text) if d.code == code]
    assert found, batch.check_script(text)
    assert text[found[0].start : found[0].end] == token


def test_a_directive_after_the_block_points_at_its_sentinel():
    text = "#!/bin/sh\n#flux: -N1\nhostname\n#flux: -q batch\n"
    (d,) = [d for d in batch.check_script(text) if d.code == "JS563"]
    assert (d.start, text[d.start : d.end]) == (text.rindex("#flux:"), "#flux:")


def _script_fixes(text: str, code: str) -> list:
    doc = kinds.detect("job.sh", text, explicit=True).read(text)
    (d,) = [d for d in batch.check_script(text) if d.code == code]
    return fixes.fixes_for(doc, d)


def test_a_directive_after_the_block_is_moved_up_or_made_a_comment():
    """JS563's fixes, both unsafe: moved to the block's end with the script's sentinel
    (what its author meant; in the script's line endings), or a comment flux batch does
    not read (what sbatch does with a late #SBATCH)."""
    text = "#!/bin/sh\n#flux: -N1\n# a note\nhostname\n  # flux: -q batch\necho\n"
    up, off = _script_fixes(text, "JS563")
    assert up.preferred and up.unsafe and off.unsafe and not off.preferred
    moved = apply(text, [(e.start, e.end, e.text) for e in up.edits])
    assert moved == "#!/bin/sh\n#flux: -N1\n#flux: -q batch\n# a note\nhostname\necho\n"
    assert batch.check_script(moved) == []
    commented = apply(text, [(e.start, e.end, e.text) for e in off.edits])
    assert "  # not read: # flux: -q batch\n" in commented
    assert batch.check_script(commented) == []
    crlf = text.replace("\n", "\r\n")
    up, _ = _script_fixes(crlf, "JS563")
    assert apply(crlf, [(e.start, e.end, e.text) for e in up.edits]) == moved.replace("\n", "\r\n")
    # a triple-quoted value spans lines: not moved, each line made a comment
    quoted = '#!/bin/sh\n#flux: -N1\nhostname\n#flux: --setattr=x="""a\n#flux: b"""\n'
    doc = kinds.detect("job.sh", quoted, explicit=True).read(quoted)
    late = [d for d in batch.check_script(quoted) if d.code == "JS563"]
    assert len(late) == 2
    for d in late:
        (only,) = fixes.fixes_for(doc, d)
        assert only.title.startswith("Make it a comment") and only.preferred


def _applied(text: str) -> str:
    return fixes.apply_fixes(_analysed, text, unsafe=True)[0]


def _analysed(text: str):
    doc = kinds.detect("job.sh", text, explicit=True).read(text)
    return doc, batch.check_script(text)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # a late size is moved up, and no -n 1 is added beside it (it held the size)
        ("#!/bin/bash\n#flux: -t 1h\necho hi\n#flux: -N 4\n",
         "#!/bin/bash\n#flux: -t 1h\n#flux: -N 4\necho hi\n"),
        ("#!/bin/bash\n#flux: --mem=4G\nmodule load x\n#flux: -N 4\nsrun ./a\n", "#flux: -N 4\n"),
        # -x is repaired with its node count, not given -n 1 as well
        ("#!/bin/bash\n#flux: -x\n#flux: -t 1h\necho hi\n",
         "#!/bin/bash\n#flux: -N 1 -n 1 -x\n#flux: -t 1h\necho hi\n"),
        # a directive commented out (##flux:) stays out of the job: the comment is preferred
        ("#!/bin/bash\n#flux: -N1\necho hi\n##flux: -t 1h\n", "# not read: ##flux: -t 1h\n"),
        # a here-document's text is another file's: no fix moves or changes it
        ("#!/bin/bash\n#flux: -N1\ncat > s.sh <<EOF\n#flux: -N4\nEOF\n",
         "#!/bin/bash\n#flux: -N1\ncat > s.sh <<EOF\n#flux: -N4\nEOF\n"),
        # a block whose first sentinel is a changed one: -n 1 once, with the script's
        ("#!/bin/bash\n##flux: -q debug\n#flux: -t 1h\n#flux: -c 2\necho hi\n",
         "#!/bin/bash\n#flux: -n 1\n#flux: # -q debug\n#flux: -t 1h\n#flux: -c 2\necho hi\n"),
        # CRLF without a last newline: the new line ends as the others
        ("#!/bin/bash\r\n#flux: -t 1h", "#!/bin/bash\r\n#flux: -n 1\r\n#flux: -t 1h"),
    ],
)  # fmt: skip
def test_the_size_and_late_directive_fixes_do_not_change_what_the_job_asks(text, want):
    """Found by a review: each of these once asked another job (a late -N 4 became -N 1,
    a here-document's directive joined the outer job, a disabled one was enabled)."""
    got = _applied(text)
    assert got == want or (want.count("\n") <= 2 and want in got), got
    assert got.count("-n 1") <= 1


def test_the_unknown_option_fix_names_the_option():
    text = "#!/bin/sh\n#flux: -N2 --jobname=x\n"
    (d,) = [d for d in batch.check_script(text) if d.code == "JS570"]
    assert d.data == {"replacement": "--job-name"}


def test_a_clean_script_and_a_file_without_directives():
    assert batch.check_script("#!/bin/sh\n#flux: -N2 -t 1h\n#flux: -q batch\necho\n") == []
    assert batch.check_script("#!/bin/sh\necho hi\n") == []


def test_check_and_from_batch_through_the_cli(tmp_path):
    good = tmp_path / "run.sh"
    good.write_text("#!/bin/sh\n#flux: -N2 -n4 --job-name=sim\nflux run ./sim\n")
    bad = tmp_path / "bad.batch"
    bad.write_text("#!/bin/sh\n#flux: -N2 --jobname=x\n")
    (tmp_path / "plain.sh").write_text("#!/bin/sh\necho no directives\n")
    proc = run_cli("check", tmp_path)
    out = proc.stdout.decode()
    assert proc.returncode == 1 and "bad.batch:2:12: error[JS570]" in out
    assert "run.sh" not in out and "plain.sh" not in out
    proc = run_cli("new", "--from-batch", good.name, "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    js = json.loads(proc.stdout)
    assert js["resources"][0]["type"] == "node" and js["resources"][0]["with"][0]["count"] == 2
    assert js["attributes"]["system"]["job"]["name"] == "sim"
    assert js["attributes"]["system"]["files"]["script"]["data"] == good.read_text()
    proc = run_cli("new", "--from-batch", bad.name, cwd=tmp_path)
    assert proc.returncode == 1 and b"JS570" in proc.stderr


def _complete(marked: str, queues=()):
    off = marked.index("|")
    text = marked.replace("|", "")
    cands, start, end = assist.complete_at(text, off, queues)
    return [c.label for c in cands], text[start:end]


def test_values_complete_after_equals_a_space_or_attached():
    qs = ["batch", "debug"]
    assert _complete("#!/bin/sh\n#flux: -N2 --queue=|\n", qs) == (qs, "")
    assert _complete("#!/bin/sh\n#flux: -N2 -q d|\n", qs) == (["debug"], "d")
    assert _complete("#!/bin/sh\n#flux: -N2 -qb|\n", qs) == (["batch"], "b")
    assert _complete("#!/bin/sh\n#flux: -N2 --urgency |\n") == (
        ["hold", "default", "expedite"],
        "",
    )
    assert _complete("#!/bin/sh\n#flux: --begin-time=+2|\n") == (
        ["+2s", "+2m", "+2h", "+2d"],
        "+2",
    )
    assert _complete("#!/bin/sh\n#flux: --flags=w|\n") == (["waitable"], "w")
    labels, _ = _complete("#!/bin/sh\n#flux: --dependency=|\n")
    assert labels[:4] == ["after:", "afterany:", "afterok:", "afternotok:"]
    assert "singleton" in labels


def test_no_values_for_a_flag_or_an_open_value():
    # -x takes no value: the next word is an option again
    labels, _ = _complete("#!/bin/sh\n#flux: -N2 -x |\n")
    assert "--nodes" in labels
    assert _complete("#!/bin/sh\n#flux: --job-name=|\n") == ([], "")


def test_queues_come_from_the_project_config(tmp_path):
    from jobspec_lsp import config

    (tmp_path / "pyproject.toml").write_text('[tool.jobspec]\nqueues = ["a", "b"]\n')
    (tmp_path / "sub").mkdir()
    assert config.queues_for(tmp_path / "sub" / "job.sh") == ["a", "b"]
    (tmp_path / "pyproject.toml").write_text('[tool.jobspec]\nqueues = ["a", 3]\n')
    assert config.queues_for(tmp_path / "job.sh") == []  # not a list of names: a problem
    assert "queues must be a list of queue names" in str(config.load(tmp_path).problems[0])


def test_shown_jobspec_is_yaml_with_the_script_as_a_block():
    text = "#!/bin/sh\n#flux: -N2\nflux run ./a\n"
    shown = batch.shown_jobspec(text, "/work/job.sh")
    assert shown.startswith("# the jobspec `flux batch --dry-run job.sh` builds")
    assert "data: |\n" in shown and "cwd: /work\n" in shown
    import yaml

    assert yaml.safe_load(shown) == batch.jobspec(text, "job.sh", "/work")


# ----------------------------------------------------------------- read exactly as Flux
import shlex  # noqa: E402

from hypothesis import given as hgiven  # noqa: E402
from hypothesis import settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def _flux_shlex(text: str):
    """Python's shlex set up as flux-core's directive reader sets it up."""
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.escapedquotes = "\"'"
    try:
        return list(lexer)
    except ValueError:
        return None


@settings(max_examples=3000, deadline=None)
@hgiven(st.text(alphabet=" \t-a=b'\"\\#;()|&<>x\u00a0\n", max_size=14))
def test_directive_words_are_shlex_s(text):
    split = directives._split(text)
    mine = None if isinstance(split, str) else [w for w, _, _ in split]
    assert mine == _flux_shlex(text)


@pytest.mark.parametrize(
    ("body", "flagged"),
    [
        ("--nodes=2\nflux run x\n", ["--nodes=2"]),
        ("-N 2\n-t 5m\nflux run x\n", ["-N 2", "-t 5m"]),
        ("--ntasks=4\n", ["--ntasks=4"]),  # not Flux's option: said, never fixed
        ("cat <<EOF\n--nodes=3\nEOF\n", []),  # a here-document's text
        ("mpirun \\\n  --nodes=3 x\n", []),  # a continued command's argument
        ('echo "\n-N 4"\n', []),  # inside a string
        ("echo '\n-N 4'\n", []),
        ("# --nodes=2\n", []),  # a comment
        ("-Q\n", []),  # no option of flux batch, and short: a command named -Q
        ("args=(\n--nodes=2\n)\n", []),
    ],
)
def test_flux_options_on_bare_lines(body, flagged):
    text = "#!/bin/sh\n" + body
    got = [text[d.start : d.end] for d in batch.check_script(text) if d.code == "JS566"]
    assert got == flagged


def test_bare_options_are_fixed_only_in_the_leading_block():
    text = "#!/bin/sh\n--nodes=2\n--ntasks=4\n--job-name=x\nhostname\n--exclusive\n"
    found = [d for d in batch.check_script(text) if d.code == "JS566"]
    assert [bool(d.data) for d in found] == [True, False, False, False]
    assert found[0].data == {"replacement": "#flux: --nodes=2"}


def test_task_ranks_for_input_are_flux_runs_only():
    """flux submit refuses --input with task ranks ("per-task input not supported for
    submit"); flux run takes them; a file name is read by both."""
    text = (
        "#!/bin/sh\nflux submit --input 0 hostname\nflux run --input 0 hostname\n"
        "flux submit --input in.txt hostname\n"
    )
    found = [(d.code, text[d.start : d.end]) for d in batch.check_script(text)]
    assert found == [("JS585", "0")]


def _ends(fn, seconds=20.0):
    """fn() in a thread; a failure (not a hang of the suite) if it never returns."""
    import threading

    done = []
    t = threading.Thread(target=lambda: done.append(fn()), daemon=True)
    t.start()
    t.join(seconds)
    assert done, "did not end: a loop"


@pytest.mark.parametrize(
    "body",
    ["cat > f <<EOF\nEOF\n--nodes=2\n", "cat <<EOF\n\nEOF\n", "cat <<'EOF'\nEOF", "<<EOF\nEOF"],
)
def test_bare_option_reading_ends_on_empty_here_documents(body):
    """An empty here-document once made the quote reader of JS566 loop for ever (found on
    the jobspec-database corpus): every reading ends."""
    text = "#!/bin/sh\n" + body
    _ends(lambda: batch.check_script(text))


@hgiven(st.text(alphabet="<EOF\n'\"\\#-x= \t$()`", max_size=60))
@settings(max_examples=300, deadline=None)
def test_the_quote_reader_always_ends(tail):
    text = "#!/bin/sh\n" + tail
    _ends(lambda: batch.bare_options(text), 10.0)
