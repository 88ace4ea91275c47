"""What held-out round 34 (h34_gptoss_generate_temperature_default_greedy) made the value flow follow: a request sent in
a closure on its factory's parameter (gpt-oss's `get_infer_next_token(llm)` returning `infer_next_token`, whose
`llm.generate(...)` reaches the engine the factory was given), read at each call of the closure the tree makes (the
closure handed on by `setup_model(path)`, called in another module with `temperature=args.temperature`), else with
what each call of the factory gave it. A closure whose factory no call in the tree gives a replay engine stays silent,
even where the module holds one under the same name."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

BACKEND = (
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "def load_model(checkpoint):\n"
    "    return LLM(model=checkpoint, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "\n"
    "\n"
    "def get_infer_next_token(llm):\n"
    "    def infer_next_token(tokens, temperature=1.0):\n"
    "        sampling = SamplingParams(temperature=float(temperature), top_k=20, max_tokens=1)\n"
    "        return llm.generate(tokens, sampling_params=sampling)\n"
    "\n"
    "    return infer_next_token\n"
    "\n"
    "\n"
    "def setup_model(checkpoint):\n"
    "    llm = load_model(checkpoint)\n"
    "    infer_next_token = get_infer_next_token(llm)\n"
    "    return infer_next_token\n"
)


def _script(default: str, imported: str = "from backend import setup_model\n", setup: str = "setup_model") -> str:
    return (
        "import argparse\n"
        f"{imported}"
        "\n"
        "\n"
        "def main(args):\n"
        f"    infer = {setup}(args.checkpoint)\n"
        "    for _ in range(4):\n"
        "        infer([1, 2], temperature=args.temperature)\n"
        "\n"
        "\n"
        "if __name__ == '__main__':\n"
        "    parser = argparse.ArgumentParser()\n"
        "    parser.add_argument('checkpoint')\n"
        f"    parser.add_argument('-t', '--temperature', type=float, default={default})\n"
        "    main(parser.parse_args())\n"
    )


def test_the_closure_s_call_in_a_script_decides_its_temperature(tmp_path: Path) -> None:
    found = check(tmp_path, {"backend.py": BACKEND, "generate.py": _script("0.0")})
    assert found == [("generate.py", 14, "RPL101")]


def test_a_sampled_default_stays_clean(tmp_path: Path) -> None:
    assert check(tmp_path, {"backend.py": BACKEND, "generate.py": _script("0.7")}) == []


def test_a_factory_handed_on_by_return_and_called_on_its_module(tmp_path: Path) -> None:
    # `return get_infer_next_token(load_model(path))`, and `import backend`, then `backend.setup_model(path)`
    backend = BACKEND.replace(
        "    llm = load_model(checkpoint)\n    infer_next_token = get_infer_next_token(llm)\n    return infer_next_token\n",
        "    return get_infer_next_token(load_model(checkpoint))\n",
    )
    script = _script("0.0", "import backend\n", "backend.setup_model")
    assert check(tmp_path, {"backend.py": backend, "generate.py": script}) == [("generate.py", 14, "RPL101")]


def test_a_greedy_request_written_in_the_closure_no_call_of_it_in_sight(tmp_path: Path) -> None:
    # the factory's call hands it the replay engine; what calls the closure is outside the tree
    backend = BACKEND.replace("temperature=float(temperature)", "temperature=0.0")
    assert check(tmp_path, {"backend.py": backend}) == [("backend.py", 10, "RPL101")]


def test_the_closure_s_own_parameter_stays_unknown_without_a_call_of_it(tmp_path: Path) -> None:
    # `temperature=1.0` is the closure's default, but whoever calls it (outside the tree) may pass 0
    assert check(tmp_path, {"backend.py": BACKEND.replace("temperature=1.0", "temperature=0.0")}) == []


@pytest.mark.parametrize(
    "engine",
    [
        "LLM(model=checkpoint)",  # no replay: what it sends cannot matter
        "LLM(model=checkpoint, return_sampling_mask=False)",
    ],
)
def test_a_factory_given_an_engine_without_replay_stays_clean(tmp_path: Path, engine: str) -> None:
    backend = BACKEND.replace("LLM(model=checkpoint, return_sampling_mask=True, logprobs_mode='processed_logprobs')", engine)
    assert check(tmp_path, {"backend.py": backend, "generate.py": _script("0.0")}) == []


def test_a_module_level_engine_of_the_same_name_is_not_the_closure_s(tmp_path: Path) -> None:
    # the closure's `llm` is its factory's parameter, and no call gives the factory the module's replay engine
    source = (
        "from vllm import LLM, SamplingParams\n"
        "\n"
        "\n"
        "def get_infer(llm):\n"
        "    def infer(tokens):\n"
        "        return llm.generate(tokens, SamplingParams(temperature=0.0))\n"
        "\n"
        "    return infer\n"
        "\n"
        "\n"
        "if __name__ == '__main__':\n"
        "    llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
        "    print(llm)\n"
    )
    assert check(tmp_path, {"main.py": source}) == []
    called = source.replace("    print(llm)\n", "    get_infer(llm)([1, 2])\n")
    assert ("main.py", 6, "RPL101") in check(tmp_path, {"main.py": called})
