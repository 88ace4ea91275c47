"""The result cache and worker processes change speed, never results."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
from pathlib import Path

import pytest

from replaylint.cli.main import main

FIXTURES = Path(__file__).parent.parent / "fixtures"


def run(folder: Path, *args: str) -> list[dict]:
    out = io.StringIO()
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main(["check", "--output-format", "json", "--no-respect-gitignore", "--extend-exclude", "fixed", *args, "."])
    finally:
        os.chdir(cwd)
    return json.loads(out.getvalue())


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """Every golden case side by side, plus filler files the prefilter rejects."""
    root = tmp_path_factory.mktemp("corpus")
    for case in sorted(p.parent for p in FIXTURES.glob("*/*/expected.txt")):
        shutil.copytree(case, root / f"{case.parent.name}-{case.name}", ignore=shutil.ignore_patterns("fixed", "expected.txt", "args.txt"))
    for number in range(60):
        (root / "filler" / f"module_{number}.py").parent.mkdir(exist_ok=True)
        (root / "filler" / f"module_{number}.py").write_text(f"import os\nVALUE = {number}\n")
    return root


@pytest.fixture(scope="module")
def baseline(corpus: Path) -> list[dict]:
    """The corpus's findings checked by this process alone, without the cache: what every other
    way of running must give (one check of the whole corpus, made once for the module)."""
    return run(corpus, "--no-cache", "--workers", "1")


def test_workers_and_cache_give_identical_results(corpus: Path, baseline: list[dict], tmp_path: Path) -> None:
    assert baseline, "the corpus should have findings"
    assert run(corpus, "--no-cache", "--workers", "2") == baseline
    cache_dir = str(tmp_path / "cache")
    assert run(corpus, "--cache-dir", cache_dir) == baseline  # cold: fills the cache
    assert any(name.startswith("results-") for name in os.listdir(cache_dir))
    assert run(corpus, "--cache-dir", cache_dir) == baseline  # warm
    assert run(corpus, "--cache-dir", cache_dir, "--workers", "2") == baseline


def test_a_small_tree_is_read_without_forking_a_reader(tmp_path: Path, monkeypatch) -> None:
    # A reader starts once the walk has found READER_AFTER_FILES files: a smaller tree is read
    # by this process alone, and loads only what its files need.
    from replaylint.run import scheduler

    (tmp_path / "serve.sh").write_text("vllm serve m --return-sampling-mask\n")
    for number in range(5):
        (tmp_path / f"module_{number}.py").write_text(f"VALUE = {number}\n")
    baseline = run(tmp_path, "--no-cache", "--workers", "1")
    assert "RPL003" in [finding["code"] for finding in baseline]
    monkeypatch.setattr(os, "fork", lambda: pytest.fail("a reader was forked for a small tree"))
    assert run(tmp_path, "--no-cache", "--workers", "2") == baseline
    monkeypatch.setattr(scheduler, "READER_AFTER_FILES", 3)  # past three files the walk has found: a large tree
    with pytest.raises(pytest.fail.Exception, match="a reader was forked"):
        run(tmp_path, "--no-cache", "--workers", "2")


def test_a_large_tree_parsed_while_it_is_read_gives_identical_results(
    corpus: Path, baseline: list[dict], tmp_path: Path, monkeypatch
) -> None:
    from replaylint.run import forked_reader, scheduler

    monkeypatch.setattr(scheduler, "LARGE_TREE_FILES", 1)  # the corpus counts as a large tree
    assert run(corpus, "--no-cache", "--workers", "2") == baseline
    monkeypatch.setattr(forked_reader, "_CHUNK", 3)
    assert run(corpus, "--no-cache", "--workers", "2") == baseline
    cache_dir = str(tmp_path / "cache")
    assert run(corpus, "--cache-dir", cache_dir, "--workers", "2") == baseline  # fills the cache
    assert run(corpus, "--cache-dir", cache_dir, "--workers", "2") == baseline  # warm


def test_files_past_what_the_shared_memory_holds_are_read_here(corpus: Path, baseline: list[dict], monkeypatch) -> None:
    from replaylint.run import forked_reader, scheduler

    monkeypatch.setattr(scheduler, "LARGE_TREE_FILES", 1)
    monkeypatch.setattr(forked_reader, "_CHUNK", 3)
    monkeypatch.setattr(forked_reader, "_MAX_CHUNKS", 2)  # the reader gets six files, this process reads the rest
    assert run(corpus, "--no-cache", "--workers", "2") == baseline


def checked_in_each_process(corpus: Path, baseline: list[dict], tmp_path: Path, monkeypatch, reader_takes_all: bool) -> list[list[str]]:
    """The large-tree run of the corpus (the same findings as one process's), the reader taking
    every chunk or none: who checked each file that passed ("main" or "reader"), and its path."""
    from replaylint.engine import checker
    from replaylint.run import forked_reader, scheduler

    log = tmp_path / "checked"
    check_data = checker.Checker.check_data
    this_process = os.getpid()

    def logged(self, path, data):
        with open(log, "a") as out:
            out.write(f"{'main' if os.getpid() == this_process else 'reader'} {path}\n")
        return check_data(self, path, data)

    monkeypatch.setattr(scheduler, "LARGE_TREE_FILES", 1)
    monkeypatch.setattr(forked_reader, "_CHUNK", 3)
    if reader_takes_all:
        monkeypatch.setattr(forked_reader._Reader, "take_from_back", lambda self: None)
    else:
        monkeypatch.setattr(forked_reader._Reader, "_take_from_front", lambda self, ping: None)
    monkeypatch.setattr(checker.Checker, "check_data", logged)
    assert run(corpus, "--no-cache", "--workers", "2") == baseline
    return [line.split(" ", 1) for line in log.read_text().splitlines()]


def test_the_reader_hands_back_the_files_of_other_kinds_than_python(
    corpus: Path, baseline: list[dict], tmp_path: Path, monkeypatch
) -> None:
    # The reader takes every chunk: each Python file that passes its prefilter is checked by the
    # reader (the Python frontend is loaded before the fork), the other kinds by this process.
    checked = checked_in_each_process(corpus, baseline, tmp_path, monkeypatch, reader_takes_all=True)
    here = [path for who, path in checked if who == "main"]
    there = [path for who, path in checked if who == "reader"]
    assert here and not any(path.endswith(".py") for path in here)  # what the reader's prefilter passed, nothing more
    assert there and all(path.endswith(".py") for path in there)


def test_this_process_checks_the_python_files_of_its_own_chunks(corpus: Path, baseline: list[dict], tmp_path: Path, monkeypatch) -> None:
    # The reader takes no chunk: this process checks every file that passes, Python files too
    # (they are not handed to the reader, which would leave this process waiting for it).
    checked = checked_in_each_process(corpus, baseline, tmp_path, monkeypatch, reader_takes_all=False)
    assert any(path.endswith(".py") for _, path in checked)
    assert all(who == "main" for who, _ in checked)


def test_a_reader_that_dies_leaves_its_chunks_to_this_process(corpus: Path, baseline: list[dict], tmp_path: Path, monkeypatch) -> None:
    from replaylint.run import forked_reader, scheduler

    marker = tmp_path / "reader-died"

    def dies(*chunk):
        marker.write_text("")
        os._exit(3)  # as a reader killed by the system would

    monkeypatch.setattr(scheduler, "LARGE_TREE_FILES", 1)
    monkeypatch.setattr(forked_reader, "_CHUNK", 3)
    monkeypatch.setattr(forked_reader, "_read_chunk", dies)  # the reader is forked: it runs this
    monkeypatch.setattr(forked_reader._Reader, "take_from_back", lambda self: None)  # every chunk is the reader's
    assert run(corpus, "--no-cache", "--workers", "2") == baseline
    assert marker.exists()


def test_cache_notices_changed_files_and_their_config_files(tmp_path: Path) -> None:
    (tmp_path / "serve.sh").write_text("vllm serve m --config replay.yaml --enable-scale-out\n")
    (tmp_path / "replay.yaml").write_text("return-sampling-mask: true\nlogprobs-mode: processed_logprobs\n")
    (tmp_path / "a.py").write_text("from vllm import LLM\nLLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n")
    cache_dir = str(tmp_path / ".cache")
    assert run(tmp_path, "--cache-dir", cache_dir) == []
    (tmp_path / "replay.yaml").write_text("return-sampling-mask: true\n")
    assert [f["code"] for f in run(tmp_path, "--cache-dir", cache_dir)] == ["RPL003"]
    (tmp_path / "a.py").write_text("from vllm import LLM\nLLM('m', return_sampling_mask=True)\n")
    assert sorted(f["filename"] for f in run(tmp_path, "--cache-dir", cache_dir)) == ["a.py", "replay.yaml"]


def test_cache_is_keyed_by_configuration(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("from vllm import LLM\nLLM('m', return_sampling_mask=True, logits_processors=['a:B'])\n")
    cache_dir = str(tmp_path / ".cache")
    assert len(run(tmp_path, "--cache-dir", cache_dir)) == 2
    assert [f["code"] for f in run(tmp_path, "--cache-dir", cache_dir, "--select", "RPL001")] == ["RPL001"]
    assert len(run(tmp_path, "--cache-dir", cache_dir)) == 2


def test_clean_removes_the_cache(tmp_path: Path, capsys) -> None:
    (tmp_path / "a.py").write_text("from vllm import LLM\nLLM('m', return_sampling_mask=True)\n")
    cache_dir = tmp_path / ".cache"
    run(tmp_path, "--cache-dir", str(cache_dir))
    assert (cache_dir / ".gitignore").read_text().strip().endswith("*")
    assert main(["clean", "--cache-dir", str(cache_dir)]) == 0
    assert not cache_dir.exists()


def test_a_file_the_prefilter_turned_away_is_read_again_once_it_changes(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_text("import os\n")
    cache_dir = str(tmp_path / ".cache")
    assert run(tmp_path, "--cache-dir", cache_dir) == []
    path.write_text("from vllm import LLM\nLLM('m', return_sampling_mask=True)\n")
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000))
    assert [f["code"] for f in run(tmp_path, "--cache-dir", cache_dir)] == ["RPL003"]


def test_a_file_dated_before_1970_is_remembered_and_read_again_once_it_changes(tmp_path: Path) -> None:
    """The stats of files turned away are stored packed: a negative time survives the trip."""
    path = tmp_path / "a.py"
    path.write_text("import os\n")
    os.utime(path, ns=(0, -86_400 * 10**9))
    cache_dir = str(tmp_path / ".cache")
    assert run(tmp_path, "--cache-dir", cache_dir) == []
    assert run(tmp_path, "--cache-dir", cache_dir) == []  # warm: decided by the stat
    path.write_text("from vllm import LLM\nLLM('m', return_sampling_mask=True)\n")
    os.utime(path, ns=(0, -86_400 * 10**9 + 1_000_000))
    assert [f["code"] for f in run(tmp_path, "--cache-dir", cache_dir)] == ["RPL003"]


def test_a_stat_that_does_not_pack_is_not_remembered_and_a_spoilt_column_is_absent(tmp_path: Path) -> None:
    """An inode beyond 64 bits (Windows' file ids can be) leaves its file to be read again; a
    column that is not the hex of whole numbers makes the store read as absent."""
    from replaylint.engine.cache import ResultCache

    cache = ResultCache(str(tmp_path), "fingerprint")
    remembered = {"a.py": (10, -5, 1 << 62, (1 << 64) - 1), "b.py": (1, 2, 3, 1 << 64)}
    stored = json.loads(json.dumps(cache._encode_stats(remembered)))
    assert cache._decode_stats(stored) == {"a.py": remembered["a.py"]}
    for column, spoilt in (("stats", "zz"), ("stats", stored["stats"][:-2]), ("inodes", 7), ("paths", [])):
        assert cache._decode_stats({**stored, column: spoilt}) is None


def _check(folder: Path, cache_dir: str) -> tuple[list[str], str]:
    out, err = io.StringIO(), io.StringIO()
    cwd = os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main(["check", "--output-format", "json", "--cache-dir", cache_dir, "."])
    finally:
        os.chdir(cwd)
    return [finding["code"] for finding in json.loads(out.getvalue())], err.getvalue()


def _rewrite(path: Path, text: str) -> None:
    """Write `text` and move the modification time on, as an editor a moment later would."""
    path.write_text(text)
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000))


def test_a_warm_run_recalls_the_project_pin_until_its_files_change(tmp_path: Path) -> None:
    """The pin of a launch's project is recalled from the cache while the folders listed and the
    files read for it keep their stamps: an edited pin, a pin file added or removed re-judges."""
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "deploy").mkdir()
    (project / "deploy" / "serve.sh").write_text(
        "VLLM_USE_V2_MODEL_RUNNER=0 vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n"
    )
    requirements = project / "requirements.txt"
    requirements.write_text("vllm==0.33.0\n")
    cache_dir = str(tmp_path / "cache")
    assert _check(project, cache_dir)[0] == ["RPL004"]
    assert _check(project, cache_dir)[0] == ["RPL004"]  # recalled
    _rewrite(requirements, "vllm==0.34.0\n")  # same size: the time tells
    assert _check(project, cache_dir)[0] == ["RPL206"]
    requirements.unlink()
    (project / "deploy" / "requirements.txt").write_text("vllm==0.33.0\n")  # a pin nearer the launch
    assert _check(project, cache_dir)[0] == ["RPL004"]


def test_results_parsed_by_worker_processes_are_found_again_by_a_warm_run(tmp_path: Path, monkeypatch) -> None:
    # Worker processes once keyed their results without the project's pin, so a warm run missed
    # every one of them and parsed the files again.
    from replaylint.engine import checker

    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "requirements.txt").write_text("vllm==0.33.0\n")
    for number in range(30):
        (project / f"serve_{number}.sh").write_text(f"vllm serve m{number} --return-sampling-mask --enable-scale-out\n")
    cache_dir = str(tmp_path / "cache")
    cold = run(project, "--cache-dir", cache_dir, "--workers", "2")
    assert len(cold) == 30

    def parses_again(self, path, data):
        raise AssertionError(f"parsed {path} again")

    monkeypatch.setattr(checker.Checker, "check_bytes", parses_again)
    assert run(project, "--cache-dir", cache_dir, "--workers", "2") == cold


def test_a_warm_run_repeats_the_notes_of_a_recalled_pin(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "serve.sh").write_text("vllm serve m --return-sampling-mask --enable-scale-out\n")
    (project / "pyproject.toml").write_text('[project]\ndependencies = ["vllm==0.33.0"\n')
    cache_dir = str(tmp_path / "cache")
    cold, warm = _check(project, cache_dir), _check(project, cache_dir)
    assert cold == warm and "pyproject.toml: not valid TOML" in warm[1]


def test_a_script_without_suffix_is_remembered_until_it_gains_a_shebang(tmp_path: Path) -> None:
    """A file without a suffix is read by its first line: one without a shebang is remembered by
    its stat like the files the prefilter turned away, and read again once it changes."""
    script = tmp_path / "serve"
    script.write_text("vllm serve m --return-sampling-mask --enable-scale-out\n")  # no shebang: not a script replaylint reads
    cache_dir = str(tmp_path / ".cache")
    assert run(tmp_path, "--cache-dir", cache_dir) == []
    assert run(tmp_path, "--cache-dir", cache_dir) == []
    _rewrite(script, "#!/bin/bash\nvllm serve m --return-sampling-mask --enable-scale-out\n")
    assert [f["code"] for f in run(tmp_path, "--cache-dir", cache_dir)] == ["RPL003"]


def test_a_file_named_in_another_spelling_is_judged_from_its_current_bytes(tmp_path: Path) -> None:
    # The warm loop looks files up by the walk's spelling; `./sub/../a.py` misses there and is
    # asked again by its normalised key: still clean while unchanged, read again once changed.
    (tmp_path / "sub").mkdir()
    path = tmp_path / "a.py"
    path.write_text("import os\n")
    cache_dir = str(tmp_path.parent / f"{tmp_path.name}-cache")

    def codes(*paths: str) -> list[str]:
        out = io.StringIO()
        cwd = os.getcwd()
        os.chdir(tmp_path)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                main(["check", "--output-format", "json", "--cache-dir", cache_dir, *paths])
        finally:
            os.chdir(cwd)
        return [finding["code"] for finding in json.loads(out.getvalue())]

    assert codes(".") == [] and codes("./sub/../a.py") == []
    path.write_text("from vllm import LLM\nLLM('m', return_sampling_mask=True)\n")
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000))
    assert codes("./sub/../a.py") == ["RPL003"]
    assert codes(".") == ["RPL003"]


@pytest.mark.parametrize("output_format", ["full", "sarif", "junit", "github"])
def test_every_report_is_the_same_from_the_cache(corpus: Path, tmp_path: Path, output_format: str) -> None:
    # The cache keeps findings as JSON: whatever a report prints of them (related spans, the
    # launch's label, fixes as diffs) must come back from it unchanged.
    def report(*args: str) -> str:
        out = io.StringIO()
        cwd = os.getcwd()
        os.chdir(corpus)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                main(["check", "--output-format", output_format, "--no-respect-gitignore", "--extend-exclude", "fixed", *args, "."])
        finally:
            os.chdir(cwd)
        return out.getvalue()

    cache_dir = str(tmp_path / "cache")
    baseline = report("--no-cache")
    assert report("--cache-dir", cache_dir) == baseline  # cold: fills the cache
    assert report("--cache-dir", cache_dir) == baseline  # warm: every finding read back


def test_files_turned_away_are_remembered_whatever_the_working_folder(tmp_path: Path, monkeypatch) -> None:
    # The files the prefilter turned away are kept relative to the working folder of the run
    # that stored them: a run from another folder, naming the tree otherwise, still knows them.
    from replaylint import frontends
    from replaylint.engine import cache

    monkeypatch.setattr(cache, "_SETTLED_NS", 0)  # files written a moment ago count as settled
    project = tmp_path / "project"
    (project / "deploy").mkdir(parents=True)
    for number in range(5):
        (project / "deploy" / f"module_{number}.py").write_text(f"VALUE = {number}\n")
    (project / "serve.sh").write_text("vllm serve m --return-sampling-mask --enable-scale-out\n")
    cache_dir = str(tmp_path / "cache")

    def codes(folder: Path, path: str) -> list[str]:
        out = io.StringIO()
        cwd = os.getcwd()
        os.chdir(folder)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                main(["check", "--output-format", "json", "--cache-dir", cache_dir, path])
        finally:
            os.chdir(cwd)
        return [finding["code"] for finding in json.loads(out.getvalue())]

    assert codes(project, ".") == ["RPL003"]
    relevant = frontends.relevant

    def read_again(kind: str, data: bytes) -> bool:
        assert kind != "python", "a module the prefilter turned away was read again"
        return relevant(kind, data)

    monkeypatch.setattr(frontends, "relevant", read_again)
    assert codes(tmp_path, "project") == ["RPL003"]
    assert codes(project / "deploy", str(project)) == ["RPL003"]
