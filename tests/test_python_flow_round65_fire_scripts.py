"""What held-out round 65 (tests/data/python_flow/h65_evolvecoder_*) made the value flow follow: a
shell script runs a `fire` program (`python gen.py data.jsonl --return_sampling_mask=True`) whose
`main(..., **vllm_kwargs)` hands the flags no parameter names to `LLM(...)`; fire parses `True`
and a Python-literal dict from the words. Where the runs are not known the keywords stay open."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from replaylint.cli.main import main


def findings(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, int, str]]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--no-respect-gitignore", "--no-cache", "--target-vllm", "0.34.0", "--output-format", "json", str(tmp_path)])
    return sorted((Path(f["filename"]).name, f["location"]["row"], f["code"]) for f in json.loads(out.getvalue()))


PROGRAM = (
    "import fire\n"
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "def load(model, tensor_parallel_size=1, **kwargs):\n"
    "    return LLM(model, tensor_parallel_size=tensor_parallel_size, **kwargs)\n"
    "\n"
    "def main(data_path, start=0, model='m', top_k: int = 20, temperature: float = 0.6, **vllm_kwargs):\n"
    "    llm = load(model, **vllm_kwargs)\n"
    "    llm.generate(['x'], SamplingParams(temperature=temperature, top_k=top_k))\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    fire.Fire(main)\n"
)


def script(*flags: str) -> str:
    words = " \\\n    ".join(flags)
    return f'#!/bin/bash\nDATA=data/in.jsonl\nfor i in 0 1; do\n    start=$(( i * 10 ))\n    python gen.py "${{DATA}}" --start="${{start}}" \\\n    {words} &\ndone\nwait\n'


def test_mask_flag_without_mode_is_reported_on_the_scripts_word(tmp_path: Path) -> None:
    found = findings(tmp_path, {"gen.py": PROGRAM, "run.sh": script("--model=m", "--return_sampling_mask=True")})
    assert found == [("run.sh", 7, "RPL003")]


def test_mask_and_mode_flags_stay_clean(tmp_path: Path) -> None:
    flags = ("--return_sampling_mask=True", "--logprobs_mode=processed_logprobs")
    assert findings(tmp_path, {"gen.py": PROGRAM, "run.sh": script(*flags)}) == []


def test_bare_mask_flag_and_spaced_mode_read_as_fire_does(tmp_path: Path) -> None:
    """`--return-sampling-mask` last on its line is fire's `True`; `--logprobs-mode VALUE` its value."""
    flags = ("--return-sampling-mask", "--logprobs-mode processed_logprobs", "--top_k 20")
    assert findings(tmp_path, {"gen.py": PROGRAM, "run.sh": script(*flags)}) == []
    missing = findings(tmp_path / "b", {"gen.py": PROGRAM, "run.sh": script("--top_k 20", "--return-sampling-mask")})
    assert missing == [("run.sh", 7, "RPL003")]


def test_python_literal_speculative_config_with_adaptive_verification(tmp_path: Path) -> None:
    spec = "--speculative_config=\"{'method': 'ngram', 'num_speculative_tokens': 4, 'enable_adaptive_verification': True}\""
    flags = ("--return_sampling_mask=True", "--logprobs_mode=processed_logprobs", spec)
    assert findings(tmp_path, {"gen.py": PROGRAM, "run.sh": script(*flags)}) == [("run.sh", 8, "RPL002")]
    fixed = spec.replace("True}", "False}")
    assert findings(tmp_path / "b", {"gen.py": PROGRAM, "run.sh": script(*flags[:2], fixed)}) == []


def test_a_word_not_known_keeps_the_keywords_open(tmp_path: Path) -> None:
    """`$EXTRA` may hold `--logprobs_mode=processed_logprobs`: no finding rests on its absence."""
    flags = ("--return_sampling_mask=True", "$EXTRA")
    assert findings(tmp_path, {"gen.py": PROGRAM, "run.sh": script(*flags)}) == []


def test_a_flag_a_parameter_names_does_not_reach_the_engine(tmp_path: Path) -> None:
    """`--logprobs_mode` is `main`'s own parameter here: the engine never gets it."""
    program = PROGRAM.replace("temperature: float = 0.6,", "temperature: float = 0.6, logprobs_mode='raw_logprobs',")
    flags = ("--return_sampling_mask=True", "--logprobs_mode=processed_logprobs")
    assert findings(tmp_path, {"gen.py": program, "run.sh": script(*flags)}) == [("run.sh", 6, "RPL003")]
