"""The value flow when the tree is checked from inside it (`replaylint check .`): paths are
relative, and a package one level down has the working folder ("" to `os.path.dirname`) above
it, where a user of its settings may live."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from replaylint.cli.main import main

SETTINGS = 'VLLM_ARGS = {\n    "return_sampling_mask": True,\n    "logprobs_mode": "raw_logprobs",\n}\n'
USER = "from vllm import LLM\nfrom myproj.settings import VLLM_ARGS\n\nllm = LLM('Qwen/Qwen3-8B', **VLLM_ARGS)\n"


def check(folder: Path, monkeypatch: pytest.MonkeyPatch, *paths: str) -> str:
    monkeypatch.chdir(folder)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "concise", *paths])
    return out.getvalue()


@pytest.mark.parametrize("paths", [(".",), ("myproj/settings.py",), ()])
def test_a_user_of_the_settings_in_the_working_folder_is_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, paths: tuple[str, ...]
) -> None:
    """Also in pre-commit, which names only the settings module: the repository bounds what is read."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "myproj").mkdir()
    (tmp_path / "myproj" / "__init__.py").write_text("")
    (tmp_path / "myproj" / "settings.py").write_text(SETTINGS)
    (tmp_path / "run.py").write_text(USER)
    assert "myproj/settings.py:3:22: RPL003" in check(tmp_path, monkeypatch, *paths)


def test_settings_no_module_uses_stay_silent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "myproj").mkdir()
    (tmp_path / "myproj" / "__init__.py").write_text("")
    (tmp_path / "myproj" / "settings.py").write_text(SETTINGS)
    (tmp_path / "run.py").write_text(USER.replace("VLLM_ARGS)", "{})").replace("from myproj.settings import VLLM_ARGS\n", ""))
    assert "RPL003" not in check(tmp_path, monkeypatch, ".")
