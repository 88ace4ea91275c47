"""Backquoted inline comments (flow round 61, wagerc97/gpt-oss-alignment's `vllm_start_gptoss.sh`):
`--port 8010 `#API server port` \\` notes each flag of a command continued over lines. Bash ends the
comment at the closing backquote, so the substitution expands to nothing and the command goes on;
the words after it are the launch's. A backquoted command that is not a comment stays unknown."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check, run

MASK = "--return-sampling-mask --logprobs-mode processed_logprobs"


def commented(last: str, port_note: str = "`#API server port`") -> str:
    return (
        "#!/bin/bash\n"
        "nohup python -u                       `#run in background, ignore hangup` \\\n"
        "\t-m vllm.entrypoints.openai.api_server \\\n"
        "\t--host 0.0.0.0                    `#so other machines on the cluster can access` \\\n"
        f"\t--port 8010                       {port_note} \\\n"
        "\t--model openai/gpt-oss-20b        `#model name`\\\n"
        "\t--tensor-parallel-size 2          `#define number of GPUs to use` \\\n"
        f"\t{last} > ~/vllm_gptoss.log 2>&1 &\n"
    )


def test_a_mask_server_noted_flag_by_flag_lacks_scale_out(tmp_path: Path) -> None:
    assert check(tmp_path, {"vllm_start.sh": commented(MASK)}) == [("vllm_start.sh", 8, "RPL301")]


def test_the_same_server_with_scale_out_stays_clean(tmp_path: Path) -> None:
    assert check(tmp_path, {"vllm_start.sh": commented(f"--enable-scale-out {MASK}")}) == []


def test_a_flag_named_only_inside_a_comment_is_not_passed(tmp_path: Path) -> None:
    text = commented(f"{MASK}  `#add --enable-scale-out later`")
    assert check(tmp_path, {"vllm_start.sh": text}) == [("vllm_start.sh", 8, "RPL301")]


def test_comments_with_quotes_dollars_and_wide_characters_keep_the_columns(tmp_path: Path) -> None:
    text = commented(MASK, port_note='`#don\'t change: "$PORT" 端口 (API)`')
    assert check(tmp_path, {"vllm_start.sh": text}) == [("vllm_start.sh", 8, "RPL301")]
    assert run(tmp_path)[0]["location"]["column"] == 2  # after the tab: the flag itself


@pytest.mark.parametrize("substitution", ["`cat extra_flags.txt`", "`#x`$(cat extra_flags.txt)", '"$(cat extra_flags.txt)"'])
def test_a_backquoted_command_keeps_the_launch_open(tmp_path: Path, substitution: str) -> None:
    # what the command prints may be `--enable-scale-out`: no finding that depends on its absence
    assert check(tmp_path, {"vllm_start.sh": commented(f"{MASK} {substitution}")}) == []


@pytest.mark.parametrize(("mode", "expected"), [("processed_logprobs", []), ("raw_logprobs", [("serve.sh", 2, "RPL003")])])
def test_a_comment_between_a_flag_and_its_value_is_skipped(tmp_path: Path, mode: str, expected: list) -> None:
    text = f"#!/bin/bash\nvllm serve m --enable-scale-out --return-sampling-mask --logprobs-mode `#the mask needs it` {mode}\n"
    assert check(tmp_path, {"serve.sh": text}) == expected


def test_a_backquote_inside_single_quotes_is_no_comment(tmp_path: Path) -> None:
    # `'...`#x`...'` is literal text: the value written stays one word and the flags after it count
    text = "#!/bin/bash\nvllm serve m --served-model-name 'a `#x` b' --enable-scale-out " + MASK + "\n"
    assert check(tmp_path, {"serve.sh": text}) == []
