"""Removing an element next to a line break keeps the layout: one element per line stays one per line.

Through the real CLI (`--fix --unsafe-fixes`), compared with the exact text written back.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from replaylint.cli.main import main


def fix(path: Path, text: str, *extra: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    # Removals are the point: the RPL3xx warnings' insertion of `--enable-scale-out` is left out.
    main(["check", "--no-cache", "--isolated", "--fix", "--unsafe-fixes", "--extend-ignore", "RPL3", *extra, str(path)])
    return path.read_text(encoding="utf-8")


# -- a removed word that ends a continued line -----------------------------------------------


def test_shell_stray_value_before_a_continuation(tmp_path: Path) -> None:
    before = (
        "vllm serve Qwen/Qwen3-8B \\\n  --return-sampling-mask true \\\n  --logprobs-mode processed_logprobs \\\n  --max-model-len 8192\n"
    )
    after = "vllm serve Qwen/Qwen3-8B \\\n  --return-sampling-mask \\\n  --logprobs-mode processed_logprobs \\\n  --max-model-len 8192\n"
    assert fix(tmp_path / "serve.sh", before) == after


def test_shell_flag_removed_by_unsafe_fix_before_a_continuation(tmp_path: Path) -> None:
    before = (
        "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs \\\n"
        "  -tp 2 --enable-batch-sharded-sampling \\\n"
        "  --max-model-len 8192\n"
    )
    after = "vllm serve m --return-sampling-mask --logprobs-mode processed_logprobs \\\n  -tp 2 \\\n  --max-model-len 8192\n"
    assert fix(tmp_path / "serve.sh", before, "--target-vllm", "0.33.0") == after


def test_dockerfile_exec_form_stray_value_before_a_continuation(tmp_path: Path) -> None:
    before = (
        "FROM vllm/vllm-openai:v0.33.0\n"
        'CMD ["Qwen/Qwen3-8B", \\\n'
        '     "--return-sampling-mask", "true", \\\n'
        '     "--logprobs-mode", "processed_logprobs", \\\n'
        '     "--max-model-len", "8192"]\n'
    )
    after = (
        "FROM vllm/vllm-openai:v0.33.0\n"
        'CMD ["Qwen/Qwen3-8B", \\\n'
        '     "--return-sampling-mask", \\\n'
        '     "--logprobs-mode", "processed_logprobs", \\\n'
        '     "--max-model-len", "8192"]\n'
    )
    assert fix(tmp_path / "Dockerfile", before) == after


# -- the last element alone on its line, the bracket on the next one ---------------------------


def test_dockerfile_last_element_takes_the_comma_before_it(tmp_path: Path) -> None:
    before = (
        "FROM vllm/vllm-openai:v0.31.0\n"
        "CMD [ \\\n"
        '    "Qwen/Qwen3-8B", "-tp", "2", \\\n'
        '    "--return-sampling-mask", "--logprobs-mode", "processed_logprobs", \\\n'
        '    "--enable-batch-sharded-sampling" \\\n'
        "]\n"
    )
    after = (
        "FROM vllm/vllm-openai:v0.31.0\n"
        "CMD [ \\\n"
        '    "Qwen/Qwen3-8B", "-tp", "2", \\\n'
        '    "--return-sampling-mask", "--logprobs-mode", "processed_logprobs" \\\n'
        "]\n"
    )
    result = fix(tmp_path / "Dockerfile", before)
    assert result == after
    exec_form = result.split("CMD", 1)[1].replace("\\\n", "")
    assert json.loads(exec_form)[-1] == "processed_logprobs"


# -- Python: a comment on an earlier line stays where it is ---------------------------------------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (
            'from vllm import LLM\nllm = LLM("m",\n'
            "    return_sampling_mask=True,  # replay\n"
            '    logprobs_mode="processed_logprobs",\n'
            "    enable_batch_sharded_sampling=True\n)\n",
            'from vllm import LLM\nllm = LLM("m",\n    return_sampling_mask=True,  # replay\n    logprobs_mode="processed_logprobs"\n)\n',
        ),
        (  # the comment right before the removed line: its comma stays rather than moving the comment
            'from vllm import LLM\nllm = LLM("m",\n'
            "    return_sampling_mask=True,\n"
            '    logprobs_mode="processed_logprobs",  # replay\n'
            "    enable_batch_sharded_sampling=True\n)\n",
            'from vllm import LLM\nllm = LLM("m",\n    return_sampling_mask=True,\n    logprobs_mode="processed_logprobs",  # replay\n)\n',
        ),
        (  # the removed argument ends a line that carries a comment-less line break
            'from vllm import LLM\nllm = LLM("m", return_sampling_mask=True,  # replay\n'
            '    logprobs_mode="processed_logprobs", enable_batch_sharded_sampling=True,\n'
            "    max_model_len=8)\n",
            'from vllm import LLM\nllm = LLM("m", return_sampling_mask=True,  # replay\n'
            '    logprobs_mode="processed_logprobs",\n'
            "    max_model_len=8)\n",
        ),
    ],
    ids=["comment-two-lines-up", "comment-on-previous-line", "shared-line"],
)
def test_python_last_keyword_argument(tmp_path: Path, before: str, after: str) -> None:
    result = fix(tmp_path / "serve.py", before, "--target-vllm", "0.33.0")
    assert result == after
    ast.parse(result)


def test_yaml_flow_list_stray_value_before_a_line_break(tmp_path: Path) -> None:
    head = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: v\nspec:\n  containers:\n"
    head += "    - name: v\n      image: vllm/vllm-openai:v0.33.0\n"
    before = (
        head + '      args: ["Qwen/Qwen3-8B", "--return-sampling-mask", "true",\n             "--logprobs-mode", "processed_logprobs"]\n'
    )
    after = head + '      args: ["Qwen/Qwen3-8B", "--return-sampling-mask",\n             "--logprobs-mode", "processed_logprobs"]\n'
    assert fix(tmp_path / "deploy.yaml", before) == after


def test_bash_array_stray_value_before_a_line_break(tmp_path: Path) -> None:
    before = 'ARGS=(--return-sampling-mask true\n  --logprobs-mode processed_logprobs)\nvllm serve m "${ARGS[@]}"\n'
    after = 'ARGS=(--return-sampling-mask\n  --logprobs-mode processed_logprobs)\nvllm serve m "${ARGS[@]}"\n'
    assert fix(tmp_path / "serve.sh", before) == after
