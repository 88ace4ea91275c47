"""The language server's worker judging a client with the servers of its tree (`server.tree_ties`),
without a client: the editor's texts before the disk, and no tie from a tree not read whole."""

from __future__ import annotations

import os
from pathlib import Path

from tests.test_server import write
from tests.test_server_ties import ROLLOUT, SERVE, cli


def worker_check(folder: Path, path: Path, texts: dict[Path, str] | None = None):
    from replaylint.server.analysis import Analysis, Workspace

    analysis = Analysis()
    opened = {str(name): text for name, text in {path: path.read_text(), **(texts or {})}.items()}
    return analysis, lambda: [(f.code, f.span.start_line) for f in analysis.check(Workspace((str(folder),), opened), str(path)).findings]


def test_a_tree_not_read_whole_ties_nothing_until_it_is(tmp_path: Path, monkeypatch):
    """Precision: a server not yet read could share the port, so a tie waits for the whole tree
    (the worker goes on reading at the next check); a tree over the listing bound ties nothing."""
    from replaylint.server import tree_ties

    write(tmp_path, "serve.sh", SERVE.format(flags=""))
    rollout = write(tmp_path, "rollout.py", ROLLOUT)
    monkeypatch.setattr(tree_ties, "FRESH_READ_SECONDS", -1.0)
    analysis, findings = worker_check(tmp_path, rollout)
    assert findings() == []
    assert analysis.ties.tree_unread  # the server checks the document again
    monkeypatch.setattr(tree_ties, "FRESH_READ_SECONDS", 2.0)
    assert findings() == [("RPL301", 7), ("RPL302", 7)]
    assert analysis.ties.takes_part and not analysis.ties.tree_unread
    monkeypatch.setattr(tree_ties, "MAX_TREE_FILES", 1)
    assert worker_check(tmp_path, rollout)[1]() == []


def test_a_second_server_on_the_port_in_an_unsaved_text_unties_the_client(tmp_path: Path):
    """The editor's text of a file wins over its disk: a second server on port 8001 (which one
    the client reaches is then not known) silences the client, as `check` does on disk."""
    write(tmp_path, "serve.sh", SERVE.format(flags=""))
    other = write(tmp_path, "other.sh", "#!/bin/bash\necho nothing\n")
    rollout = write(tmp_path, "rollout.py", ROLLOUT)
    _, findings = worker_check(tmp_path, rollout, {other: SERVE.format(flags="").replace(" --return-sampling-mask", "")})
    assert findings() == []
    write(tmp_path, "other.sh", SERVE.format(flags="").replace(" --return-sampling-mask", ""))
    assert [(code, line) for path, code, line in cli(tmp_path) if path == "rollout.py"] == []


def test_a_trainer_command_is_read_again_when_the_config_it_reads_changes(tmp_path: Path):
    """What a file says of clients is kept while it and the files its reading read keep their
    stat (or their editor text): a new penalty in grpo.yaml reaches the server's check though
    train.sh is unchanged, and the editor's text of grpo.yaml wins over its disk."""
    from replaylint.server.analysis import Analysis, Workspace
    from tests.test_cross_file_clients import GRPO_YAML, TRL_SERVE

    write(tmp_path, "requirements.txt", "trl==1.16.0\n")
    script = write(tmp_path, "serve.sh", TRL_SERVE.format(port="--port 8001"))
    write(tmp_path, "train.sh", "#!/bin/bash\ntrl grpo --config grpo.yaml\n")
    config = write(tmp_path, "grpo.yaml", GRPO_YAML.format(penalty="1.0"))
    analysis = Analysis()

    def found(texts: dict[Path, str]) -> list[tuple[str, str, int]]:
        opened = {str(script): script.read_text(), **{str(name): text for name, text in texts.items()}}
        checked = analysis.check(Workspace((str(tmp_path),), opened), str(script))
        return sorted((os.path.relpath(f.span.path, tmp_path), f.code, f.span.start_line) for f in checked.findings)

    at_train = [("train.sh", "RPL102", 2), ("train.sh", "RPL301", 2)]
    assert found({}) == at_train == [f for f in cli(tmp_path) if f[0] != "serve.sh"]
    write(tmp_path, "grpo.yaml", GRPO_YAML.format(penalty="1.2"))
    assert found({}) == [("grpo.yaml", "RPL302", 3), *at_train] == [f for f in cli(tmp_path) if f[0] != "serve.sh"]
    assert found({config: GRPO_YAML.format(penalty="1.0")}) == at_train
