"""A framework file of a fork named alone (issue 27, item 4, in pre-commit): the hook hands over
only the changed file, `verl/workers/rollout/vllm_rollout/vllm_async_server.py` or prime-rl's
`server.py`, whose findings sit in it but come from the launches of the tree that read it
(`run.fork_launches`). Those launches are checked again, and what they report in the named file
is reported; the trees are those of tests/data/forks_heldout/."""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
from pathlib import Path

import pytest
from forks_trees import materialize

from replaylint.cli.main import main

HELDOUT = Path(__file__).parent / "data" / "forks_heldout"
VERL_SERVER = "verl/workers/rollout/vllm_rollout/vllm_async_server.py"
PRIME_SERVER = "src/prime_rl/inference/server.py"


def hook(root: Path, *names: str, cache: bool = False) -> tuple[int, list[tuple[str, str, int]]]:
    """`replaylint check --hook NAMES` run in `root`, as pre-commit runs it: (exit code, findings)."""
    out = io.StringIO()
    here = os.getcwd()
    os.chdir(root)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            flags = [] if cache else ["--no-cache"]
            code = main(["check", "--hook", *flags, "--target-vllm", "0.34.0", "--output-format", "json", *names])
    finally:
        os.chdir(here)
    return code, sorted((item["code"], Path(item["filename"]).as_posix(), item["location"]["row"]) for item in json.loads(out.getvalue()))


@pytest.fixture
def tree(tmp_path: Path):
    def copy(case: str) -> Path:
        materialize(HELDOUT / case, tmp_path / case)
        (tmp_path / case / ".git").mkdir()  # a repository, as pre-commit's: the run reads the whole tree
        return tmp_path / case

    return copy


def test_a_forks_server_named_alone_is_judged_with_the_launch_that_reads_it(tree) -> None:
    root = tree("verl_server_mask_default_requests")
    code, found = hook(root, VERL_SERVER)
    assert code == 1
    assert found == [("RPL101", VERL_SERVER, 289), ("RPL102", VERL_SERVER, 289), ("RPL102", VERL_SERVER, 289)]


def test_the_same_with_the_result_cache_and_after_the_fix(tree) -> None:
    """A cached second run says the same; the edit that sends top_k and a temperature with the
    mask is then judged again from the launch (the fork file changed, the launch did not)."""
    root = tree("verl_server_mask_raw_logprobs")
    assert hook(root, VERL_SERVER, cache=True) == (1, [("RPL003", VERL_SERVER, 277)])
    assert hook(root, VERL_SERVER, cache=True) == (1, [("RPL003", VERL_SERVER, 277)])
    server = root / VERL_SERVER
    lines = server.read_text().splitlines(keepends=True)
    assert '"raw_logprobs"' in lines[276]
    lines[276] = lines[276].replace('"raw_logprobs"', '"processed_logprobs"')
    server.write_text("".join(lines))
    assert hook(root, VERL_SERVER, cache=True) == (0, [])


def test_a_prime_rl_server_named_alone_is_judged_with_the_rl_toml(tree) -> None:
    """prime-rl's server.py does not name the mask: the prefilter alone would pass it."""
    root = tree("prime_setdefault_runner_v1_kept")
    assert hook(root, PRIME_SERVER) == (1, [("RPL206", PRIME_SERVER, 17)])


def test_a_clean_forks_file_named_alone_stays_clean(tree) -> None:
    root = tree("verl_server_mask_clean")
    assert hook(root, VERL_SERVER) == (0, [])


def test_a_forks_file_no_launch_reads_is_clean(tree, tmp_path: Path) -> None:
    """The launch script taken out: nothing of the tree reads the server, nothing is reported of it."""
    root = tree("verl_server_mask_default_requests")
    shutil.rmtree(root / "examples")
    assert hook(root, VERL_SERVER) == (0, [])


def test_a_run_that_names_the_launch_too_reports_each_finding_once(tree) -> None:
    root = tree("verl_server_mask_raw_logprobs")
    launch = next(str(path.relative_to(root)) for path in root.rglob("*.sh"))
    assert hook(root, VERL_SERVER, launch) == (1, [("RPL003", VERL_SERVER, 277)])


def test_every_file_a_fork_reader_reads_is_known_by_its_package() -> None:
    from replaylint.frameworks.fork_files import PACKAGES, fork_files, fork_root

    for relative in fork_files():
        assert any(f"{package}/" in relative for package in PACKAGES), relative
        assert fork_root(f"my-fork/{relative}") == ("my-fork", relative)
    assert fork_root("verl/utils/other.py") is None
