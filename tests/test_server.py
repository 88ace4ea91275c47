"""`replaylint server` end to end: the real server in a subprocess, driven by a real LSP client
(pytest-lsp). Each test opens files in its own folder (a git root, so no configuration or pin
above it counts), waits for the diagnostics the server publishes, applies the edits of its code
actions as an editor would, and compares them with what `replaylint check --fix` writes."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Callable, Sequence

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from replaylint.cli.main import main
from replaylint.server.positions import EditorText

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "replaylint", "server"])
PUBLISH = types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
SHELL_LAUNCH = "vllm serve m --return-sampling-mask --enable-scale-out\n"
SHELL_FIXED = "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out\n"
BATCH_SHARDED = (
    "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-batch-sharded-sampling --enable-scale-out\n"
)

# One server for the module (starting one costs about a second); each test works in its own
# folder and closes what it opened.
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(autouse=True)
def project(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    return tmp_path


async def _initialize(client: LanguageClient, folder: Path, encodings: list[str] | None = None) -> None:
    registered: list[types.Registration] = []
    client.feature(types.CLIENT_REGISTER_CAPABILITY)(lambda params: registered.extend(params.registrations))
    capabilities = client_capabilities("visual-studio-code")
    if encodings:
        capabilities.general = types.GeneralClientCapabilities(position_encodings=encodings)
    await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities,
            root_uri=folder.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name="project")],
        )
    )


class Publications(dict):
    """The client's latest diagnostics by URI (what pytest-lsp keeps), and every publication."""

    def __init__(self) -> None:
        super().__init__()
        self.history: list[tuple[str, list[types.Diagnostic]]] = []

    def __setitem__(self, uri: str, diagnostics: Sequence[types.Diagnostic]) -> None:
        self.history.append((uri, list(diagnostics)))
        super().__setitem__(uri, diagnostics)

    def of(self, path: Path) -> list[list[str]]:
        return [codes(diagnostics) for uri, diagnostics in self.history if uri == path.as_uri()]


@pytest_lsp.fixture(config=SERVER, scope="module")
async def server(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    lsp_client.diagnostics = Publications()
    await _initialize(lsp_client, tmp_path_factory.mktemp("workspace"))
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def client(server: LanguageClient):
    yield server
    for uri in OPENED.pop(server, []):
        server.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))


@pytest_lsp.fixture(config=SERVER, loop_scope="module")
async def utf8_client(lsp_client: LanguageClient, tmp_path: Path):
    await _initialize(lsp_client, tmp_path, encodings=["utf-8", "utf-16"])
    yield
    await lsp_client.shutdown_session()


OPENED: dict[LanguageClient, list[str]] = {}


# -- helpers ------------------------------------------------------------------------------------


async def published(
    client: LanguageClient, path: Path | str, condition: Callable[[Sequence[types.Diagnostic]], bool], timeout: float = 15.0
) -> list[types.Diagnostic]:
    """The diagnostics of `path` (or a URI) once a publication satisfies `condition`.

    The client's record is polled, never waited on with `wait_for_notification`: pytest-lsp keeps
    the future of that wait, and a wait given up (a timeout cancels it) left a cancelled future
    that the next publication was handed to; `set_result` then raised and pygls dropped that
    publication ("Unable to handle message"), so a test waited for diagnostics it had been sent
    (anywhere from seconds to its deadline, or failed)."""
    uri = path.as_uri() if isinstance(path, Path) else path
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (uri in client.diagnostics and condition(client.diagnostics[uri])):
        if loop.time() >= deadline:
            raise AssertionError(f"no publication for {uri} satisfied the test; last: {client.diagnostics.get(uri)}")
        await asyncio.sleep(0.02)
    return list(client.diagnostics[uri])


def codes(diagnostics: Sequence[types.Diagnostic]) -> list[str]:
    return [str(d.code) for d in diagnostics]


def has(*expected: str) -> Callable[[Sequence[types.Diagnostic]], bool]:
    return lambda diagnostics: codes(diagnostics) == list(expected)


def none(diagnostics: Sequence[types.Diagnostic]) -> bool:
    return len(diagnostics) == 0


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


def open_uri(client: LanguageClient, uri: str, language: str, text: str) -> None:
    OPENED.setdefault(client, []).append(uri)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text))
    )


def open_file(client: LanguageClient, path: Path, language: str) -> None:
    open_uri(client, path.as_uri(), language, path.read_text(encoding="utf-8"))


def close(client: LanguageClient, path: Path) -> None:
    OPENED[client].remove(path.as_uri())
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=path.as_uri())))


def change(client: LanguageClient, path: Path, text: str, version: int) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def actions(client: LanguageClient, path: Path, where: types.Range, only: list[str] | None = None) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            range=where,
            context=types.CodeActionContext(diagnostics=[], only=only),
        )
    )
    return [action for action in result or [] if isinstance(action, types.CodeAction)]


def titled(found: list[types.CodeAction], title: str) -> types.CodeAction:
    matching = [action for action in found if action.title == title]
    assert matching, f"no action {title!r} among {[action.title for action in found]}"
    return matching[0]


def applied(text: str, edits: Sequence[types.TextEdit], encoding: str = "utf-16") -> str:
    """`text` with LSP edits applied, as an editor applies them (from the last one back)."""
    lines = EditorText(text, encoding)
    offsets = sorted(((lines.offset(e.range.start), lines.offset(e.range.end), e.new_text) for e in edits), reverse=True)
    for start, end, new_text in offsets:
        text = text[:start] + new_text + text[end:]
    return text


def apply_action(action: types.CodeAction, path: Path, text: str, encoding: str = "utf-16") -> str:
    assert action.edit is not None and action.edit.changes is not None
    assert list(action.edit.changes) == [path.as_uri()]
    return applied(text, action.edit.changes[path.as_uri()], encoding)


def cli_fix(path: Path, text: str, *options: str) -> str:
    """What `replaylint check --fix` writes for `text` in a file named as `path` (a copy in
    another folder of the same project)."""
    copy = path.parent / "cli-fix" / path.name
    copy.parent.mkdir(exist_ok=True)
    copy.write_bytes(text.encode("utf-8"))
    main(["check", "--fix", "--no-cache", "--output-format", "concise", *options, str(copy)])
    return copy.read_bytes().decode("utf-8")


def at(line: int, start: int, end: int | None = None) -> types.Range:
    return types.Range(
        start=types.Position(line=line, character=start), end=types.Position(line=line, character=start if end is None else end)
    )


# -- diagnostics and quick fixes ----------------------------------------------------------------


async def test_shell_launch_diagnostic_fixed_by_its_quick_fix(client: LanguageClient, tmp_path: Path):
    script = write(tmp_path, "serve.sh", SHELL_LAUNCH)
    open_file(client, script, "shellscript")
    [shown] = await published(client, script, has("RPL003"))
    assert shown.range == types.Range(start=types.Position(line=0, character=13), end=types.Position(line=0, character=35))
    assert shown.severity == types.DiagnosticSeverity.Error
    assert shown.source == "replaylint"
    assert shown.code_description is not None and shown.code_description.href.endswith("/docs/rules/RPL003.md")
    assert "processed_logprobs" in shown.message

    fix = titled(await actions(client, script, at(0, 20)), "Set logprobs_mode to 'processed_logprobs'")
    assert fix.kind == types.CodeActionKind.QuickFix and fix.is_preferred
    fixed = apply_action(fix, script, SHELL_LAUNCH)
    assert fixed == SHELL_FIXED == cli_fix(script, SHELL_LAUNCH)

    change(client, script, fixed, 2)
    assert await published(client, script, none) == []


async def test_closing_a_document_clears_its_diagnostics(client: LanguageClient, tmp_path: Path):
    script = write(tmp_path, "serve.sh", SHELL_LAUNCH)
    open_file(client, script, "shellscript")
    await published(client, script, has("RPL003"))
    close(client, script)
    assert await published(client, script, none) == []


async def test_unsaved_text_is_checked_not_the_disk(client: LanguageClient, tmp_path: Path):
    script = write(tmp_path, "serve.sh", "vllm serve m\n")
    open_file(client, script, "shellscript")
    await published(client, script, none)
    change(client, script, SHELL_LAUNCH, 2)
    await published(client, script, has("RPL003"))


async def test_the_latest_of_quick_changes_is_checked(client: LanguageClient, tmp_path: Path):
    script = write(tmp_path, "serve.sh", SHELL_LAUNCH)
    open_file(client, script, "shellscript")
    await published(client, script, has("RPL003"))
    change(client, script, BATCH_SHARDED, 2)
    change(client, script, SHELL_FIXED, 3)
    assert await published(client, script, none) == []
    await asyncio.sleep(0.5)  # a check of the text in between, superseded, is never published after it
    history = client.diagnostics.of(script)
    assert history[-1] == [] and history in ([["RPL003"], []], [["RPL003"], ["RPL006"], []])


async def test_python_launch_fix_and_disable_comment(client: LanguageClient, tmp_path: Path):
    source = 'from vllm import LLM\n\nllm = LLM(model="m", return_sampling_mask=True)\n'
    module = write(tmp_path, "rollout.py", source)
    open_file(client, module, "python")
    [shown] = await published(client, module, has("RPL003"))
    assert shown.range == types.Range(start=types.Position(line=2, character=21), end=types.Position(line=2, character=46))

    found = await actions(client, module, at(2, 30))
    assert apply_action(titled(found, "Set logprobs_mode to 'processed_logprobs'"), module, source) == cli_fix(module, source)
    disabled = apply_action(titled(found, "Disable RPL003 for this line"), module, source)
    assert disabled == 'from vllm import LLM\n\nllm = LLM(model="m", return_sampling_mask=True)  # noqa: RPL003\n'
    change(client, module, disabled, 2)
    assert await published(client, module, none) == []


async def test_dockerfile_disable_comment_is_a_comment_line(client: LanguageClient, tmp_path: Path):
    source = 'FROM vllm/vllm-openai:latest\nCMD ["m", "--return-sampling-mask", "--enable-scale-out"]\n'
    dockerfile = write(tmp_path, "Dockerfile", source)
    open_file(client, dockerfile, "dockerfile")
    [shown] = await published(client, dockerfile, has("RPL003"))
    assert (shown.range.start.line, shown.range.start.character) == (1, 10)

    found = await actions(client, dockerfile, shown.range)
    assert apply_action(titled(found, "Set logprobs_mode to 'processed_logprobs'"), dockerfile, source) == cli_fix(dockerfile, source)
    disabled = apply_action(titled(found, "Disable RPL003 for this line"), dockerfile, source)
    assert (
        disabled
        == 'FROM vllm/vllm-openai:latest\n# replaylint: ignore[RPL003]\nCMD ["m", "--return-sampling-mask", "--enable-scale-out"]\n'
    )
    change(client, dockerfile, disabled, 2)
    assert await published(client, dockerfile, none) == []


async def test_disable_comment_never_splits_a_continued_command(client: LanguageClient, tmp_path: Path):
    source = "#!/bin/bash\nvllm serve m \\\n  --return-sampling-mask --enable-scale-out \\\n  --max-model-len 10\n"
    script = write(tmp_path, "serve.sh", source)
    open_file(client, script, "shellscript")
    [shown] = await published(client, script, has("RPL003"))
    assert shown.range.start.line == 2

    disabled = apply_action(titled(await actions(client, script, shown.range), "Disable RPL003 for this line"), script, source)
    assert (
        disabled
        == "#!/bin/bash\n# replaylint: ignore[RPL003]\nvllm serve m \\\n  --return-sampling-mask --enable-scale-out \\\n  --max-model-len 10\n"
    )
    change(client, script, disabled, 2)
    assert await published(client, script, none) == []


async def test_disable_comment_never_cuts_a_command_in_a_string(client: LanguageClient, tmp_path: Path):
    # A comment line above the finding's line would end the shell command inside the string,
    # and take the finding with it: the comment goes above the launch.
    source = 'import os\n\nos.system("""vllm serve m \\\n  --return-sampling-mask --enable-scale-out \\\n  --max-model-len 10""")\n'
    module = write(tmp_path, "launch.py", source)
    open_file(client, module, "python")
    [shown] = await published(client, module, has("RPL003"))
    assert shown.range.start.line == 3

    disabled = apply_action(titled(await actions(client, module, shown.range), "Disable RPL003 for this line"), module, source)
    assert disabled == source.replace("os.system", "# noqa: RPL003\nos.system")
    change(client, module, disabled, 2)
    assert await published(client, module, none) == []


async def test_disable_adds_the_code_to_a_suppression_already_on_the_line(client: LanguageClient, tmp_path: Path):
    source = BATCH_SHARDED.replace(" --logprobs-mode processed_logprobs", "").rstrip("\n") + "  # replaylint: ignore[RPL006]\n"
    script = write(tmp_path, "serve.sh", source)
    module = write(tmp_path, "rollout.py", 'from vllm import LLM\n\nLLM(model="m", return_sampling_mask=True)  # noqa: E501, RPL001\n')
    open_file(client, script, "shellscript")
    open_file(client, module, "python")
    [shown] = await published(client, script, has("RPL003"))
    disabled = apply_action(titled(await actions(client, script, shown.range), "Disable RPL003 for this line"), script, source)
    assert disabled == source.replace("[RPL006]", "[RPL006, RPL003]")
    change(client, script, disabled, 2)
    await published(client, script, none)

    # `RPL001` suppresses nothing here (RPL901); the comment keeps it and gains RPL003
    python = module.read_text()
    shown = next(d for d in await published(client, module, has("RPL003", "RPL901")) if d.code == "RPL003")
    disabled = apply_action(titled(await actions(client, module, shown.range), "Disable RPL003 for this line"), module, python)
    assert disabled == python.replace("RPL001", "RPL001, RPL003")
    change(client, module, disabled, 2)
    await published(client, module, has("RPL901"))


async def test_unsafe_fix_is_labelled_and_left_out_of_fix_all(client: LanguageClient, tmp_path: Path):
    script = write(tmp_path, "serve.sh", BATCH_SHARDED)
    open_file(client, script, "shellscript")
    [shown] = await published(client, script, has("RPL006"))

    found = await actions(client, script, shown.range)
    unsafe = [action for action in found if action.title.endswith("(unsafe)")]
    assert len(unsafe) == 1 and not unsafe[0].is_preferred
    assert apply_action(unsafe[0], script, BATCH_SHARDED) == cli_fix(script, BATCH_SHARDED, "--unsafe-fixes") == SHELL_FIXED
    assert await actions(client, script, shown.range, only=[types.CodeActionKind.SourceFixAll]) == []


async def test_fix_all_applies_the_safe_fixes_as_the_command_line_does(client: LanguageClient, tmp_path: Path):
    source = (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: rollout}\nspec:\n  template:\n    spec:\n      containers:\n"
        "        - name: vllm\n          image: vllm/vllm-openai:v0.33.0\n"
        '          args: ["m", "--return-sampling-mask", "--enable-batch-sharded-sampling", "--enable-scale-out"]\n'
    )
    manifest = write(tmp_path, "deploy.yaml", source)
    open_file(client, manifest, "yaml")
    await published(client, manifest, has("RPL003", "RPL006"))

    [fix_all] = await actions(client, manifest, at(0, 0), only=[types.CodeActionKind.SourceFixAll])
    assert fix_all.kind == "source.fixAll.replaylint" and fix_all.title == "Fix all replaylint problems"
    fixed = apply_action(fix_all, manifest, source)
    assert fixed == cli_fix(manifest, source) != source
    change(client, manifest, fixed, 2)
    await published(client, manifest, has("RPL006"))


async def test_columns_count_utf16_code_units(client: LanguageClient, tmp_path: Path):
    source = '# café\nvllm serve "modèle-😀" --return-sampling-mask --enable-scale-out\n'
    script = write(tmp_path, "serve.sh", source)
    open_file(client, script, "shellscript")
    [shown] = await published(client, script, has("RPL003"))
    assert shown.range == types.Range(start=types.Position(line=1, character=23), end=types.Position(line=1, character=45))
    fix = titled(await actions(client, script, shown.range), "Set logprobs_mode to 'processed_logprobs'")
    assert apply_action(fix, script, source) == cli_fix(script, source)


async def test_columns_count_utf8_bytes_when_the_client_asks(utf8_client: LanguageClient, tmp_path: Path):
    source = 'vllm serve "modèle-😀" --return-sampling-mask --enable-scale-out\n'
    script = write(tmp_path, "serve.sh", source)
    open_file(utf8_client, script, "shellscript")
    [shown] = await published(utf8_client, script, has("RPL003"))
    assert (shown.range.start.character, shown.range.end.character) == (26, 48)
    fix = titled(await actions(utf8_client, script, shown.range), "Set logprobs_mode to 'processed_logprobs'")
    assert apply_action(fix, script, source, "utf-8") == cli_fix(script, source)


# -- the project around a file -----------------------------------------------------------------


async def test_a_pin_change_rejudges_open_files(client: LanguageClient, tmp_path: Path):
    requirements = write(tmp_path, "requirements.txt", "vllm==0.28.0\n")
    script = write(tmp_path, "serve.sh", BATCH_SHARDED)
    open_file(client, requirements, "pip-requirements")
    open_file(client, script, "shellscript")
    await published(client, script, none)  # batch-sharded sampling does not exist in 0.28

    change(client, requirements, "vllm==0.30.0\n", 2)  # unsaved: the editor's text is the pin
    [shown] = await published(client, script, has("RPL006"))
    assert "vLLM 0.30.0 says" in shown.message and shown.severity == types.DiagnosticSeverity.Error

    close(client, requirements)
    await published(client, script, none)  # the disk still pins 0.28.0

    requirements.write_text("vllm==0.31.0\n")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=requirements.as_uri(), type=types.FileChangeType.Changed)])
    )
    [shown] = await published(client, script, has("RPL006"))
    assert "vLLM 0.31.0 says" in shown.message


async def test_configuration_is_read_and_reread_when_saved(client: LanguageClient, tmp_path: Path):
    config = write(tmp_path, "pyproject.toml", '[tool.replaylint]\nignore = ["RPL003"]\n')
    script = write(tmp_path, "scripts/serve.sh", SHELL_LAUNCH)
    open_file(client, config, "toml")
    open_file(client, script, "shellscript")
    await published(client, script, none)

    config.write_text('[tool.replaylint]\nignore = ["RPL006"]\n')
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=config.as_uri())))
    await published(client, script, has("RPL003"))


async def test_excluded_files_are_not_checked(client: LanguageClient, tmp_path: Path):
    write(tmp_path, "replaylint.toml", 'extend-exclude = ["vendor"]\n')
    vendored = write(tmp_path, "vendor/serve.sh", SHELL_LAUNCH)
    ours = write(tmp_path, "serve.sh", SHELL_LAUNCH)
    open_file(client, vendored, "shellscript")
    open_file(client, ours, "shellscript")
    await published(client, ours, has("RPL003"))  # published after the vendored file's
    assert list(client.diagnostics[vendored.as_uri()]) == []


async def test_a_broken_configuration_is_reported_not_raised(client: LanguageClient, tmp_path: Path):
    write(tmp_path, "replaylint.toml", 'selectt = ["ALL"]\n')
    script = write(tmp_path, "serve.sh", SHELL_LAUNCH)
    open_file(client, script, "shellscript")
    await published(client, script, has("RPL003"))  # checked with the default settings
    assert any("unknown key `selectt`" in message.message for message in client.log_messages)


async def test_a_finding_in_a_config_file_the_launch_reads(client: LanguageClient, tmp_path: Path):
    config = write(tmp_path, "cfg.yaml", "return_sampling_mask: true\nmodel: m\n")
    script = write(tmp_path, "serve.sh", "vllm serve m --config cfg.yaml --enable-scale-out\n")
    open_file(client, script, "shellscript")
    [shown] = await published(client, config, has("RPL003"))
    assert shown.range.start == types.Position(line=0, character=0)
    await published(client, script, none)


async def test_editing_a_config_file_a_launch_read_rejudges_the_launch(client: LanguageClient, tmp_path: Path):
    """A change re-checks the documents whose last check read the file (`Session.readers`):
    the script read `cfg.yaml` from disk before it was opened."""
    config = write(tmp_path, "cfg.yaml", "model: m\n")
    script = write(tmp_path, "serve.sh", "vllm serve m --config cfg.yaml --return-sampling-mask --enable-scale-out\n")
    open_file(client, script, "shellscript")
    await published(client, script, has("RPL003"))
    open_file(client, config, "yaml")
    change(client, config, "model: m\nlogprobs-mode: processed_logprobs\n", 2)
    await published(client, script, none)
    change(client, config, "model: m\n", 3)
    await published(client, script, has("RPL003"))


# -- bad input ----------------------------------------------------------------------------------


async def test_a_syntax_error_is_a_diagnostic(client: LanguageClient, tmp_path: Path):
    source = 'from vllm import LLM\nLLM(model="m", return_sampling_mask=True\n'
    module = write(tmp_path, "broken.py", source)
    open_file(client, module, "python")
    [shown] = await published(client, module, has("RPL900"))
    assert shown.severity == types.DiagnosticSeverity.Error
    change(client, module, source.rstrip("\n") + ")\n", 2)
    await published(client, module, has("RPL003"))


async def test_a_binary_file_is_a_diagnostic(client: LanguageClient, tmp_path: Path):
    script = write(tmp_path, "serve.sh", "vllm serve m --return-sampling-mask\0\n")
    open_file(client, script, "shellscript")
    [shown] = await published(client, script, has("RPL900"))
    assert "binary" in shown.message


async def test_an_untitled_buffer_is_checked_by_its_language(client: LanguageClient, tmp_path: Path):
    uri = f"untitled:Untitled-{tmp_path.name}"
    open_uri(client, uri, "shellscript", SHELL_LAUNCH)
    await published(client, uri, has("RPL003"))


# -- what a document holds ----------------------------------------------------------------------


def _resident_mib(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")) / 1024


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the server's memory from /proc (Linux)")
async def test_closing_a_large_document_gives_its_memory_back(client: LanguageClient, tmp_path: Path):
    # 4 MB: a warm-up script of comment lines around a hundred launches; its diagnostics, quick
    # fixes and "Fix all" worked out, then closed.
    steps = "".join(f"# step {j}: warm the rollout workers before the replay run starts\n" for j in range(550))
    source = "".join(f"vllm serve m{i} --return-sampling-mask --enable-scale-out\n{steps}" for i in range(110))
    script = write(tmp_path, "warmup.sh", source)
    small = write(tmp_path, "serve.sh", SHELL_LAUNCH)
    open_file(client, small, "shellscript")
    await actions(client, small, (await published(client, small, has("RPL003")))[0].range)  # what any document needs, loaded
    server = client._server.pid  # type: ignore[union-attr]  # pytest-lsp's handle on the server process
    before = _resident_mib(server)

    open_file(client, script, "shellscript")
    first = (await published(client, script, lambda shown: len(shown) == 110, timeout=30))[0]
    found = await actions(client, script, first.range)
    assert {"Set logprobs_mode to 'processed_logprobs'", "Disable RPL003 for this line", "Fix all replaylint problems"} <= {
        action.title for action in found
    }
    held = _resident_mib(server) - before
    close(client, script)
    await published(client, script, none)
    await asyncio.sleep(0.5)  # the close's publication is sent before the memory is handed back
    kept = _resident_mib(server) - before
    # what stays is the allocator's (a few MiB whatever the size), none of the document's
    assert kept < held / 4, f"the server kept {kept:.1f} of the {held:.1f} MiB the open document took"
