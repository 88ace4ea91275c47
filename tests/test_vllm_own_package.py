"""vLLM's own package in the checked tree (the tree is vLLM, or vendors a copy): its engine constructions are
vLLM's implementation (`LLM.__init__` builds `EngineArgs` from its parameters), so the value flow does not read
them as launches (on vLLM's tree that reading cost a cold scan 60 ms of `vllm/entrypoints/llm.py` alone); the
callers' launches are judged where they are. A folder that is merely named `vllm` is the tree's own code."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from replaylint.cli.main import main
from replaylint.frontends.python.flow.tree import in_vllm_package

_LLM = (
    "from vllm.engine.arg_utils import EngineArgs\n\n\n"
    "class LLM:\n"
    '    def __init__(self, model, return_sampling_mask=False, logprobs_mode="raw_logprobs", **kwargs):\n'
    "        self.engine_args = EngineArgs(model=model, return_sampling_mask=return_sampling_mask, logprobs_mode=logprobs_mode)\n"
)
_ARG_UTILS = "from dataclasses import dataclass\n\n\n@dataclass\nclass EngineArgs:\n    return_sampling_mask: bool = False\n"


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def _vllm_copy(root: Path) -> None:
    _write(root, {"vllm/__init__.py": "", "vllm/engine/arg_utils.py": _ARG_UTILS, "vllm/entrypoints/llm.py": _LLM})


def _found(root: Path) -> list[tuple[str, int, str]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(root)])
    return sorted((Path(f["filename"]).relative_to(root).as_posix(), f["location"]["row"], f["code"]) for f in json.loads(out.getvalue()))


def test_vllm_own_package_is_known_by_its_files(tmp_path: Path) -> None:
    _vllm_copy(tmp_path / "third_party")
    assert in_vllm_package(str(tmp_path / "third_party/vllm/entrypoints/llm.py"))
    assert in_vllm_package(str(tmp_path / "third_party/vllm/engine/arg_utils.py"))
    assert not in_vllm_package(str(tmp_path / "third_party/run.py"))
    _write(tmp_path, {"myproj/vllm/__init__.py": "", "myproj/vllm/serve.py": ""})
    assert not in_vllm_package(str(tmp_path / "myproj/vllm/serve.py"))  # no engine of its own: the tree's code


def test_a_launch_beside_a_vendored_vllm_is_judged_where_it_is_written(tmp_path: Path) -> None:
    _vllm_copy(tmp_path)
    _write(tmp_path, {"run.py": 'from vllm import LLM\n\nllm = LLM("m", return_sampling_mask=True)\n'})
    assert _found(tmp_path) == [("run.py", 3, "RPL003")]


def test_a_folder_merely_named_vllm_is_still_followed(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "myproj/__init__.py": "",
            "myproj/vllm/__init__.py": "",
            "myproj/vllm/settings.py": 'ARGS = {"return_sampling_mask": True}\n',
            "myproj/vllm/serve.py": 'from vllm import LLM\n\nfrom myproj.vllm.settings import ARGS\n\nllm = LLM("m", **ARGS)\n',
        },
    )
    assert _found(tmp_path) == [("myproj/vllm/settings.py", 1, "RPL003")]
