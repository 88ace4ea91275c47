"""`replaylint server` in Emacs with eglot, headless (batch mode), configured by the README's own
`init.el` block. Skipped where Emacs is not installed (`apt-get install emacs-nox elpa-eglot`:
Debian 12's Emacs 28 has no eglot of its own). The README's Helix block is checked for its shape
only: no Helix is packaged where the suite runs."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

REPO = Path(__file__).resolve().parent.parent
SCRIPT = Path(__file__).parent / "data" / "editors" / "emacs_smoke.el"
PRIME_RL = """\
[orchestrator.train.sampling]
top_p = 0.95

[inference]
enable_return_sampling_mask = true

[inference.vllm]
logprobs_mode = "raw_logprobs"
"""


def readme_block(language: str, holding: str) -> str:
    blocks = re.findall(rf"```{language}\n(.*?)```", (REPO / "README.md").read_text(encoding="utf-8"), re.S)
    (block,) = [block for block in blocks if holding in block]
    return block


@pytest.mark.skipif(shutil.which("emacs") is None, reason="Emacs is not installed")
def test_emacs_shows_the_findings_and_applies_the_fixes(tmp_path: Path) -> None:
    pytest.importorskip("pygls")
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "serve.sh").write_text("vllm serve m --return-sampling-mask --enable-scale-out\n")
    (project / "rl.toml").write_text(PRIME_RL)
    init = tmp_path / "init.el"
    init.write_text(readme_block("elisp", "eglot-server-programs"))
    environment = {
        **os.environ,
        "HOME": str(tmp_path),  # no user configuration or packages of this machine's user
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),  # the README names `replaylint`
        "PROJECT": str(project),
    }
    ran = subprocess.run(
        ["emacs", "--batch", "-q", "-l", str(init), "-l", str(SCRIPT)], env=environment, capture_output=True, text=True, timeout=120
    )
    result = project / "result.txt"
    assert result.exists(), ran.stderr[-3000:]
    report = dict(line.split(": ", 1) for line in result.read_text().splitlines())
    if report["eglot"] == "missing":
        pytest.skip("eglot is not installed (built into Emacs 29; Debian's elpa-eglot for Emacs 28)")
    assert report["mode serve.sh"] == "sh-mode" and report["mode rl.toml"] == "conf-toml-mode"
    assert re.fullmatch(r"1:14 .*RPL003.* `--return-sampling-mask` without logprobs_mode.*", report["diagnostics serve.sh"])
    assert re.fullmatch(
        r"8:17 .*RPL003.* `logprobs_mode = \"raw_logprobs\"` with `enable_return_sampling_mask = true`.*", report["diagnostics rl.toml"]
    )
    assert report["actions"] == "Set logprobs_mode to 'processed_logprobs' | Disable RPL003 for this line | Fix all replaylint problems"
    assert report["buffer"] == "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out"
    assert report["cleared after fix"] == "true"
    assert (
        project / "serve.sh"
    ).read_text() == "vllm serve m --return-sampling-mask --enable-scale-out\n"  # the editor saves, not the server


def test_the_helix_configuration_adds_the_server_to_every_language_it_reads() -> None:
    config = tomllib.loads(readme_block("toml", "[language-server.replaylint]"))
    assert config["language-server"]["replaylint"] == {"command": "replaylint", "args": ["server"]}
    languages = {language["name"]: language["language-servers"] for language in config["language"]}
    assert set(languages) == {"python", "bash", "dockerfile", "yaml", "docker-compose", "toml", "json"}
    assert all(servers[-1] == "replaylint" and len(servers) > 1 for servers in languages.values())
