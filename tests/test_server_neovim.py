"""`replaylint server` in a real editor: Neovim's built-in LSP client, headless. Skipped where
Neovim is not installed (CI's machine has none; `apt-get install neovim` gives one)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parent / "data" / "editors" / "neovim_smoke.lua"

pytest.importorskip("pygls")


@pytest.mark.skipif(shutil.which("nvim") is None, reason="Neovim is not installed")
def test_neovim_shows_the_finding_and_applies_its_fix(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "serve.sh").write_text("vllm serve m --return-sampling-mask --enable-scale-out\n")
    server = Path(sys.executable).parent / "replaylint"
    environment = {**os.environ, "REPLAYLINT": str(server), "PROJECT": str(tmp_path)}
    subprocess.run(["nvim", "--headless", "-u", "NONE", "-c", f"luafile {SCRIPT}"], env=environment, timeout=120, capture_output=True)
    report = dict(line.split(": ", 1) for line in (tmp_path / "result.txt").read_text().splitlines())
    assert report["diagnostics"].startswith("1:14 RPL003 `--return-sampling-mask` without logprobs_mode")
    assert report["actions"] == "Set logprobs_mode to 'processed_logprobs' | Disable RPL003 for this line | Fix all replaylint problems"
    assert report["buffer"] == "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"
    assert report["cleared after fix"] == "true"
    assert (
        tmp_path / "serve.sh"
    ).read_text() == "vllm serve m --return-sampling-mask --enable-scale-out\n"  # the editor saves, not the server
