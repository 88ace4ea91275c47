"""What held-out round 65 (thunlp/Optima's scrips/inference_all.py) made the value flow follow in a
command string run by a shell: a `~` that starts a word (`source ~/.bashrc && ...`) is one word
the shell expands, not an end of reading; a path `os.path.join` makes of values not known is one
word (a space in it would leave `vllm serve` a model it cannot find); and a comprehension whose
loop name is bound again later (`[(model, os.path.join(root, model)) for model in models]` before
`for model, model_path in model_paths:`) still stands for its items. A piece that may be any words
keeps the launch open."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from replaylint.cli.main import main


def check(tmp_path: Path, text: str) -> list[tuple[int, str]]:
    path = tmp_path / "scrips" / "inference_all.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(tmp_path)])
    return sorted((f["location"]["row"], f["code"]) for f in json.loads(out.getvalue()))


HEAD = (
    "import os\n"  # 1
    "import subprocess\n"  # 2
    "from argparse import ArgumentParser\n"  # 3
    "parser = ArgumentParser()\n"  # 4
    "parser.add_argument('--model_root_path', type=str, required=True)\n"  # 5
    "parser.add_argument('--port', type=int, default=8000)\n"  # 6
    "args = parser.parse_args()\n"  # 7
    "models = os.listdir(args.model_root_path)\n"  # 8
    "model_paths = [(model, os.path.join(args.model_root_path, model)) for model in models]\n"  # 9
    "for model, model_path in model_paths:\n"  # 10
    "    for i in range(4):\n"  # 11
    "        serve_cmd = (\n"  # 12
    "            f'CUDA_VISIBLE_DEVICES={i} PREFIX'\n"  # 13
    "            f'vllm serve MODEL --port {args.port+i} --max-model-len 2048 '\n"  # 14
    "            'FLAGS'\n"  # 15
    "        )\n"  # 16
    "        process = subprocess.Popen(\n"  # 17
    "            f'''\n"  # 18
    "            source ~/.bashrc && \\\n"  # 19
    "            conda activate vllm-0.34.0 && \\\n"  # 20
    "            {serve_cmd}\n"  # 21
    "            ''',\n"  # 22
    "            shell=True,\n"  # 23
    "        )\n"  # 24
)
MASK = "--return-sampling-mask --logprobs-mode processed_logprobs"


def optima(model: str = "{model_path}", flags: str = MASK, prefix: str = "") -> str:
    return HEAD.replace("MODEL", model).replace("FLAGS", flags).replace("PREFIX", prefix)


def test_mask_without_scale_out_after_sourcing_the_home_bashrc(tmp_path: Path) -> None:
    assert check(tmp_path, optima()) == [(15, "RPL301")]


def test_scale_out_in_the_same_command_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, optima(flags=f"--enable-scale-out {MASK}")) == []


def test_runner_v1_prefix_piece_is_reported_at_its_own_piece(tmp_path: Path) -> None:
    text = optima(flags=f"--enable-scale-out {MASK}", prefix="VLLM_USE_V2_MODEL_RUNNER=0 ")
    assert check(tmp_path, text) == [(13, "RPL206")]


def test_a_path_joined_in_the_command_itself_is_one_word(tmp_path: Path) -> None:
    assert check(tmp_path, optima(model="{os.path.join(args.model_root_path, model)}")) == [(15, "RPL301")]


def test_a_value_that_may_be_any_words_keeps_the_launch_open(tmp_path: Path) -> None:
    # the run's own text (`--model_root_path`), not a path the program joins: it may hold `--enable-scale-out`
    assert check(tmp_path, optima(model="{args.model_root_path}")) == []


def test_a_joined_url_is_no_path_word(tmp_path: Path) -> None:
    # `urljoin` of a value not known stays any words: only path joins are read as one word
    text = optima(model="{urljoin(args.model_root_path, model)}").replace("import os\n", "import os\nfrom urllib.parse import urljoin\n")
    assert check(tmp_path, text) == []


def test_a_tilde_inside_a_word_is_still_left_unread(tmp_path: Path) -> None:
    # `a=~/x` is a tilde the shell may expand after `=`: the string is not read (the libcst pass's)
    assert check(tmp_path, optima().replace("source ~/.bashrc", "HOME_RC=x~/.bashrc")) == []
