"""`replaylint server` on hostile documents: one that takes minutes to check, FIFOs where files
should be, a document gigabytes of analysis deep. The server (the real process, driven by
pytest-lsp) must keep answering, end what runs over its time budget, publish only the newest
text's diagnostics, and give back the memory of a document once it is closed.

A slow document is a Python module with thousands of engine launches (seconds each thousand,
minutes for the 190,000 of the report); the servers here are started with a smaller time
budget, so a test never waits minutes.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path
from typing import AsyncIterator

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from test_server import Publications, actions, at, change, has, none, published, write

from replaylint.server.analysis import Check, Workspace
from replaylint.server.workers import Workers

pytestmark = [
    pytest.mark.skipif(not hasattr(os, "mkfifo") or not os.path.isdir("/proc"), reason="needs FIFOs and /proc (Linux)"),
    pytest.mark.asyncio,
]

SHELL_LAUNCH = "vllm serve m --return-sampling-mask --enable-scale-out\n"
# A minute or more of analysis (2,000 launches take seconds): over the budget of `hurried`,
# still running when a test with `patient` ends.
UNBOUNDED = {"work": 10**12, "seconds": 10**6, "memory": 1 << 40}
SLOW_PYTHON = "from vllm import LLM\n\n" + "".join(f'llm_{i} = LLM(model="m", return_sampling_mask=True)\n' for i in range(20_000))


def _server(time_budget: float) -> ClientServerConfig:
    # Each file's own budget is lifted: these tests need a check that really runs long.
    start = f"from replaylint.server.protocol import build; build(time_budget={time_budget}, file_budget={UNBOUNDED!r}).start_io()"
    return ClientServerConfig(server_command=[sys.executable, "-c", start])


async def _initialize(client: LanguageClient, folder: Path) -> None:
    client.diagnostics = Publications()
    client.feature(types.CLIENT_REGISTER_CAPABILITY)(lambda params: None)
    await client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=folder.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name="project")],
        )
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    return tmp_path


@pytest_lsp.fixture(config=_server(time_budget=600))
async def patient(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    """A server whose budget outlasts every test: a slow check is still running when the test ends."""
    await _initialize(lsp_client, project)
    yield
    if lsp_client._server is not None and lsp_client._server.returncode is None:
        await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=_server(time_budget=2))
async def hurried(lsp_client: LanguageClient, project: Path) -> AsyncIterator[None]:
    """A server that ends a check after 2 seconds."""
    await _initialize(lsp_client, project)
    yield
    await lsp_client.shutdown_session()


def open_document(client: LanguageClient, path: Path, language: str, text: str | None = None) -> None:
    text = path.read_text(encoding="utf-8") if text is None else text
    item = types.TextDocumentItem(uri=path.as_uri(), language_id=language, version=1, text=text)
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))


def close_document(client: LanguageClient, path: Path) -> None:
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri())))


async def checks_another_document(client: LanguageClient, project: Path) -> None:
    """Open a shell launch next to the others and wait for its diagnostic."""
    script = write(project, "serve.sh", SHELL_LAUNCH)
    open_document(client, script, "shellscript")
    await published(client, script, has("RPL003"))


def server_pid(client: LanguageClient) -> int:
    assert client._server is not None  # pytest-lsp's handle on the server process
    return client._server.pid


def children(pid: int) -> set[int]:
    """The processes `pid` started (its workers), from /proc."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry))
    return found


def resident_mib(pid: int) -> float:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0  # ended since it was listed
    # a process that has exited but not been reaped (a killed worker) has no VmRSS line
    return next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0) / 1024


def cpu_ticks(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])  # utime and stime


async def busy_worker(server: int, timeout: float = 20) -> int:
    """The worker that is checking: the one that gains CPU time in two half seconds running (a
    worker started ahead for the next job gains some while it imports, then none)."""
    deadline, last = time.monotonic() + timeout, None
    while time.monotonic() < deadline:
        before = {pid: cpu_ticks(pid) for pid in children(server)}
        await asyncio.sleep(0.5)
        gained = {pid: cpu_ticks(pid) - ticks for pid, ticks in before.items()}
        busiest = max(gained, key=gained.__getitem__) if gained and max(gained.values()) >= 10 else None
        if busiest is not None and busiest == last:
            return busiest
        last = busiest
    raise AssertionError("no worker is checking")


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


async def settled_mib(pid: int) -> tuple[float, float]:
    """The server's resident memory and its workers' together, once they stop changing (a
    worker starting up grows for a moment)."""
    last = (resident_mib(pid), resident_mib(pid) + sum(resident_mib(child) for child in children(pid)))
    for _ in range(20):
        await asyncio.sleep(0.5)
        now = (resident_mib(pid), resident_mib(pid) + sum(resident_mib(child) for child in children(pid)))
        if abs(now[1] - last[1]) < 2:
            return now
        last = now
    return last


async def test_a_slow_document_delays_no_answer_about_another(patient: LanguageClient, project: Path):
    slow = write(project, "rollout.py", SLOW_PYTHON)
    script = write(project, "serve.sh", SHELL_LAUNCH)
    open_document(patient, slow, "python")
    await asyncio.sleep(0.5)  # its check has started
    open_document(patient, script, "shellscript")

    [shown] = await published(patient, script, has("RPL003"))
    found = await asyncio.wait_for(actions(patient, script, shown.range), 10)
    assert "Set logprobs_mode to 'processed_logprobs'" in [action.title for action in found]
    assert slow.as_uri() not in patient.diagnostics  # still being checked, all along

    workers = children(server_pid(patient))
    await asyncio.wait_for(patient.shutdown_async(None), 5)
    patient.exit(None)
    await asyncio.wait_for(patient._server.wait(), 10)  # type: ignore[union-attr]
    assert workers and not any(alive(worker) for worker in workers)  # the slow check's worker went with it


async def test_a_check_over_the_time_budget_is_ended_and_said(hurried: LanguageClient, project: Path):
    slow = write(project, "rollout.py", SLOW_PYTHON)
    open_document(hurried, slow, "python")
    [shown] = await published(hurried, slow, has("RPL902"), timeout=30)
    assert shown.message == "file not fully analysed: checking it took longer than the language server's time budget (2 s)"
    assert (shown.range.start.line, shown.range.start.character) == (0, 0)

    await checks_another_document(hurried, project)  # not held up by the check it ended


async def test_a_worker_killed_mid_check_is_said_and_replaced(patient: LanguageClient, project: Path):
    slow = write(project, "rollout.py", SLOW_PYTHON)
    open_document(patient, slow, "python")
    os.kill(await busy_worker(server_pid(patient)), signal.SIGKILL)  # as the kernel's OOM killer would
    [shown] = await published(patient, slow, has("RPL902"))
    # (asyncio's child watcher may lose the race to reap it and report status 255 instead of the signal)
    assert shown.message.startswith("file not fully analysed: checking it failed (the worker process ")
    assert any("please report this" in message.message for message in patient.log_messages)
    await checks_another_document(patient, project)  # on a new worker


async def test_a_superseded_check_is_never_published(patient: LanguageClient, project: Path):
    module = write(project, "rollout.py", SLOW_PYTHON)
    open_document(patient, module, "python")
    await asyncio.sleep(1.0)  # its check is running
    running = children(server_pid(patient))

    quick = 'from vllm import LLM\n\nllm = LLM(model="m", return_sampling_mask=True)\n'
    change(patient, module, quick, 2)
    [shown] = await published(patient, module, has("RPL003"))
    assert shown.range.start.line == 2
    await asyncio.sleep(2)  # were the slow check still running, nothing more is published
    assert patient.diagnostics.of(module) == [["RPL003"]]
    assert any(not alive(worker) for worker in running)  # the slow check was stopped, not left to run


async def test_fifos_next_to_a_document_block_nothing(patient: LanguageClient, project: Path):
    # Every file the script names, and the pin and configuration files next to it, are FIFOs
    # that nobody writes to: a plain open() of any of them would wait forever.
    for name in ("x.sh", "pyproject.toml", "requirements.txt", "replaylint.toml", "cfg.yaml", "vllm.env", "Chart.yaml"):
        os.mkfifo(project / name)
    source = (
        "source x.sh\n"
        "vllm serve m --config cfg.yaml --return-sampling-mask --enable-scale-out\n"
        "docker run --env-file vllm.env vllm/vllm-openai:latest m --return-sampling-mask --enable-scale-out\n"
    )
    script = write(project, "serve.sh", source)
    open_document(patient, script, "shellscript")
    [shown] = await published(patient, script, has("RPL003"), timeout=10)
    assert shown.range.start.line == 2

    # the editor holds the text of the FIFO named `x.sh`: it is checked from there
    fifo = project / "x.sh"
    open_document(patient, fifo, "shellscript", SHELL_LAUNCH)
    await published(patient, fifo, has("RPL003"), timeout=10)
    patient.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=fifo.as_uri())))
    change(patient, fifo, "vllm serve m\n", 2)
    await published(patient, fifo, none, timeout=10)

    # configuration and pins read again, code actions that check edited texts
    patient.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=(project / "pyproject.toml").as_uri(), type=types.FileChangeType.Changed)]
        )
    )
    found = await asyncio.wait_for(actions(patient, script, shown.range), 15)
    assert "Disable RPL003 for this line" in [action.title for action in found]
    assert any(action.kind == "source.fixAll.replaylint" for action in found)
    fix_all = await asyncio.wait_for(actions(patient, script, at(0, 0), only=[types.CodeActionKind.SourceFixAll]), 15)
    assert len(fix_all) == 1


async def test_memory_of_a_huge_document_returns_when_it_closes(hurried: LanguageClient, project: Path):
    # A 4.7 MB module of data records and a hundred engines: the Python frontend takes minutes
    # and gigabytes over it (a libcst tree of every record).
    records = "".join(f'record_{i}_{j} = {{"step": {j}, "name": "rollout warm-up {i}"}}\n' for i in range(100) for j in range(800))
    launches = "".join(f'llm_{i} = LLM(model="m", return_sampling_mask=True)\n' for i in range(100))
    huge = write(project, "records.py", "from vllm import LLM\n\n" + launches + records)
    await checks_another_document(hurried, project)
    pid = server_pid(hurried)
    server_before, total_before = await settled_mib(pid)

    open_document(hurried, huge, "python")
    await published(hurried, huge, has("RPL902"), timeout=30)  # its worker killed at the budget
    held, _ = await settled_mib(pid)
    close_document(hurried, huge)
    await published(hurried, huge, none)
    server_after, total_after = await settled_mib(pid)
    assert server_after - server_before < (held - server_before) / 4, (server_before, held, server_after)
    assert total_after - total_before < 30, (total_before, total_after)  # a fresh worker in place of the killed one


async def test_a_worker_imports_nothing_from_the_folder_it_runs_in(project: Path, monkeypatch: pytest.MonkeyPatch):
    # An editor may start the server in the checked repository: a `libcst` or a `replaylint`
    # there must not be what the worker imports (`python -c` puts the folder first on sys.path).
    marker = project / "imported"
    for package in ("replaylint", "libcst", "yaml"):
        (project / package).mkdir()
        (project / package / "__init__.py").write_text(f"open({str(marker)!r}, 'a').write({package!r})\n")
    module = write(project, "rollout.py", 'from vllm import LLM\n\nllm = LLM(model="m", return_sampling_mask=True)\n')
    monkeypatch.chdir(project)
    workers = Workers(size=1, budget=60)
    try:
        reply = await workers.run(Check(Workspace((str(project),), {str(module): module.read_text()}), str(module)))
    finally:
        await workers.close()
    assert [finding.code for finding in reply.value.findings] == ["RPL003"]
    assert not marker.exists()


@pytest.mark.parametrize("opened", [False, True], ids=["on disk", "open in the editor"])
async def test_a_config_file_outside_the_workspace_is_not_read_nor_published_into(patient: LanguageClient, project: Path, opened: bool):
    """`replaylint check` reads files only inside the checked repository; the server likewise,
    the editor's texts included: a launch's `--config ../x.yaml` outside gets no finding."""
    outside = project.parent / "outside.yaml"
    outside.write_text("return-sampling-mask: true\n")
    script = write(project, "serve.sh", "vllm serve m --config ../outside.yaml\nvllm serve m --return-sampling-mask --enable-scale-out\n")
    own: list[str] = []
    if opened:
        open_document(patient, outside, "yaml")
        own = [shown.message for shown in await published(patient, outside, lambda diagnostics: True)]  # its own check
    open_document(patient, script, "shellscript")
    [shown] = await published(patient, script, has("RPL003"))
    assert shown.range.start.line == 1
    await asyncio.sleep(1)
    assert len(patient.diagnostics.of(outside)) == opened  # published once, for its own check
    assert [shown.message for shown in patient.diagnostics.get(outside.as_uri(), [])] == own


async def test_many_open_config_files_cost_a_script_little(patient: LanguageClient, project: Path):
    """Sixty open 1 MB YAML files: each is checked once, and a shell script opened next waits
    neither for them to cross to a worker again nor for their checks again."""
    body = "".join(f"key_{i}: value number {i} of a large document\n" for i in range(24_000))
    for index in range(60):
        open_document(patient, write(project, f"values-{index}.yaml", body), "yaml", body)
    await published(patient, project / "values-59.yaml", none, timeout=60)
    started = time.monotonic()
    await checks_another_document(patient, project)
    assert time.monotonic() - started < 5


async def test_a_superseded_quick_check_keeps_its_worker_and_a_slow_one_is_killed(project: Path):
    """A check superseded by a newer text is let finish when it is quick (its worker is kept:
    starting another costs more than the check) and killed when it runs on past
    SUPERSEDED_SECONDS (the newer text's check must not wait for it)."""
    quick = write(project, "rollout.py", 'from vllm import LLM\n\nllm = LLM(model="m", return_sampling_mask=True)\n')
    slower = SLOW_PYTHON * 5  # seconds of work
    slow = write(project, "slow.py", slower)
    workers = Workers(size=1, budget=60)
    try:
        await workers.run(Check(Workspace((str(project),), {str(quick): quick.read_text()}), str(quick)))
        [worker] = workers.idle
        superseded = asyncio.ensure_future(workers.run(Check(Workspace((str(project),), {str(quick): quick.read_text()}), str(quick))))
        await asyncio.sleep(0.01)
        superseded.cancel()
        reply = await workers.run(Check(Workspace((str(project),), {str(quick): quick.read_text()}), str(quick)))
        assert [finding.code for finding in reply.value.findings] == ["RPL003"]
        assert workers.idle == [worker] and worker.process.returncode is None

        superseded = asyncio.ensure_future(workers.run(Check(Workspace((str(project),), {str(slow): slower}), str(slow))))
        await asyncio.sleep(0.01)
        superseded.cancel()
        started = time.monotonic()
        reply = await workers.run(Check(Workspace((str(project),), {str(quick): quick.read_text()}), str(quick)))
        assert [finding.code for finding in reply.value.findings] == ["RPL003"]
        assert worker not in workers.idle and await asyncio.wait_for(worker.process.wait(), 5) == -signal.SIGKILL  # a fresh one answered
        assert time.monotonic() - started < 10
    finally:
        await workers.close()
