"""`replaylint server` judges a client with the replay server another file of its tree starts,
as `replaylint check` does (`server.tree_ties`): the server's file read from the editor when
open there, else from the disk; an edit of either re-judges the other."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
from pathlib import Path

from lsprotocol import types
from pytest_lsp import LanguageClient

from replaylint.cli.main import main
from tests.test_server import change, client, close, codes, has, none, open_file, project, published, pytestmark, server, write

__all__ = ["client", "project", "pytestmark", "server"]  # the fixtures (each test's folder a git root) and the event loop of test_server

SERVE = "#!/bin/bash\nvllm serve Qwen/Qwen3-8B --return-sampling-mask --logprobs-mode processed_logprobs --port 8001{flags}\n"
ROLLOUT = (
    "from openai import OpenAI\n\n"
    'client = OpenAI(base_url="http://localhost:8001/v1", api_key="EMPTY")\n\n\n'
    "def rollout(prompt):\n"
    '    return client.completions.create(model="m", prompt=prompt, presence_penalty=0.5)\n'
)


def cli(folder: Path) -> list[tuple[str, str, int]]:
    """(file, code, line) of what `replaylint check` of the folder finds."""
    out, cwd = io.StringIO(), os.getcwd()
    os.chdir(folder)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            main(["check", "--no-cache", "--output-format", "json", "."])
    finally:
        os.chdir(cwd)
    return sorted((f["filename"], f["code"], f["location"]["row"]) for f in json.loads(out.getvalue()))


def lines(diagnostics) -> list[tuple[str, int]]:
    return sorted((str(d.code), d.range.start.line + 1) for d in diagnostics)


async def test_a_client_opened_alone_is_judged_with_the_server_on_disk(client: LanguageClient, tmp_path: Path):
    write(tmp_path, "serve.sh", SERVE.format(flags=""))
    rollout = write(tmp_path, "rl/rollout.py", ROLLOUT)
    open_file(client, rollout, "python")
    shown = await published(client, rollout, has("RPL301", "RPL302"))
    assert lines(shown) == [(code, line) for path, code, line in cli(tmp_path) if path == "rl/rollout.py"] == [("RPL301", 7), ("RPL302", 7)]
    assert all(f"started at {tmp_path / 'serve.sh'}:2" in diagnostic.message for diagnostic in shown)
    close(client, rollout)


async def test_an_edit_of_the_open_server_rejudges_the_open_client(client: LanguageClient, tmp_path: Path):
    script = write(tmp_path, "serve.sh", SERVE.format(flags=""))
    rollout = write(tmp_path, "rollout.py", ROLLOUT)
    open_file(client, script, "shellscript")
    open_file(client, rollout, "python")
    assert await latest(client, rollout) == ["RPL301", "RPL302"]

    # --enable-scale-out opens the masks' route; this client reads /v1/completions, so its
    # RPL301 stays, as `check` says (the server's own RPL301 goes).
    change(client, script, SERVE.format(flags=" --enable-scale-out"), 2)
    assert await latest(client, script) == [] and await latest(client, rollout) == ["RPL301", "RPL302"]
    write(tmp_path, "serve.sh", SERVE.format(flags=" --enable-scale-out"))
    assert [(code, line) for path, code, line in cli(tmp_path) if path == "rollout.py"] == [("RPL301", 7), ("RPL302", 7)]

    change(client, script, SERVE.format(flags=" --enable-scale-out").replace("8001", "8002"), 3)  # unsaved: the editor's text wins
    assert await latest(client, rollout) == []
    change(client, script, SERVE.format(flags=""), 4)
    assert await latest(client, rollout) == ["RPL301", "RPL302"]
    close(client, script)  # the disk's serve.sh (port 8001 with --enable-scale-out) starts the server now
    assert await latest(client, rollout) == ["RPL301", "RPL302"]
    close(client, rollout)


async def latest(client: LanguageClient, path: Path, quiet: float = 1.0) -> list[str]:
    """The codes of the last diagnostics of `path` once the server has published nothing for
    `quiet` seconds (the checks an edit started, and those they started, are done)."""
    seen = -1
    while seen != len(client.diagnostics.history):
        seen = len(client.diagnostics.history)
        await asyncio.sleep(quiet)
    return codes(client.diagnostics.get(path.as_uri(), []))


async def test_a_server_changed_on_disk_rejudges_the_open_client(client: LanguageClient, tmp_path: Path):
    script = write(tmp_path, "serve.sh", SERVE.format(flags=""))
    rollout = write(tmp_path, "rollout.py", ROLLOUT)
    open_file(client, rollout, "python")
    await published(client, rollout, has("RPL301", "RPL302"))
    write(tmp_path, "serve.sh", SERVE.format(flags="").replace(" --return-sampling-mask", ""))
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=script.as_uri(), type=types.FileChangeType.Changed)])
    )
    await published(client, rollout, none)
    close(client, rollout)


async def test_a_server_of_another_repository_is_not_reached(client: LanguageClient, tmp_path: Path):
    (tmp_path / "infra" / ".git").mkdir(parents=True)
    (tmp_path / "app" / ".git").mkdir(parents=True)
    write(tmp_path, "infra/serve.sh", SERVE.format(flags=""))
    rollout = write(tmp_path, "app/rollout.py", ROLLOUT)
    open_file(client, rollout, "python")
    await published(client, rollout, none)
    assert cli(tmp_path / "app") == []
    close(client, rollout)


async def test_no_finding_when_the_tree_starts_no_replay_server(client: LanguageClient, tmp_path: Path):
    write(tmp_path, "serve.sh", SERVE.format(flags="").replace(" --return-sampling-mask", ""))  # a server without replay
    rollout = write(tmp_path, "rollout.py", ROLLOUT)
    other = write(tmp_path, "notes.py", "print('hello')\n")
    open_file(client, other, "python")
    open_file(client, rollout, "python")
    await published(client, rollout, none)
    await published(client, other, none)
    assert cli(tmp_path) == []
    close(client, rollout)
    close(client, other)


async def test_a_server_opened_alone_shows_its_clients_findings_in_their_files(client: LanguageClient, tmp_path: Path):
    """As `replaylint check serve.sh` reports them: at the client's file, which the editor lists
    though it is not open; once it is open, its own check shows them, once."""
    script = write(tmp_path, "serve.sh", SERVE.format(flags=" --enable-scale-out"))
    rollout = write(tmp_path, "rollout.py", ROLLOUT)
    open_file(client, script, "shellscript")
    shown = await published(client, rollout, has("RPL301", "RPL302"))
    assert lines(shown) == [(code, line) for path, code, line in cli(tmp_path) if path == "rollout.py"]
    open_file(client, rollout, "python")
    close(client, script)
    assert await latest(client, rollout) == ["RPL301", "RPL302"]
    assert all(diagnostic.message.count("started at") == 1 for diagnostic in client.diagnostics[rollout.as_uri()])
    close(client, rollout)
    await published(client, rollout, none)


async def test_an_edit_of_a_trainer_s_config_rejudges_the_open_server(client: LanguageClient, tmp_path: Path):
    """train.sh (not open) runs TRL's trainer with grpo.yaml: the open server's check read that
    YAML for it, so editing the YAML in the editor judges the server's client again."""
    from tests.test_cross_file_clients import GRPO_YAML, TRL_SERVE

    write(tmp_path, "requirements.txt", "trl==1.16.0\n")
    script = write(tmp_path, "serve.sh", TRL_SERVE.format(port="--port 8001"))
    write(tmp_path, "train.sh", "#!/bin/bash\ntrl grpo --config configs/grpo.yaml\n")
    config = write(tmp_path, "configs/grpo.yaml", GRPO_YAML.format(penalty="1.0"))
    open_file(client, script, "shellscript")
    open_file(client, config, "yaml")
    assert await latest(client, config) == []
    assert await latest(client, tmp_path / "train.sh") == ["RPL102", "RPL301"]
    change(client, config, GRPO_YAML.format(penalty="1.2"), 2)
    assert await latest(client, config) == ["RPL302"]
    close(client, config)
    close(client, script)
