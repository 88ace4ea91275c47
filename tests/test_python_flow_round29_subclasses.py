"""What held-out round 29 made the value flow follow in THUDM/LongCite's `vllm_inference.py`: a
class that subclasses vLLM's `LLM` and keeps its `__init__` (`class LongCiteModel(LLM)` with no
`__init__` of its own) builds the engine when it is made, with vLLM's own parameters; `self` in
its methods is the engine that object's construction built, so `self.generate(...)` in `chat()`,
reached through `query_longcite()` from `__main__`, is a request to it. The class may be made in
another module of the tree that imports it (LongCite's streamlit demo, inside a function).

A module-level switch bound once to True or False (the demo's `use_vllm = False`) decides the
branches it guards, as a comparison of a constant does; one that anything else may write stays open.

Precision: a base that is not vLLM's (TensorRT-LLM's `LLM`), a subclass with an `__init__` of its
own, a request on another object of the class that is built without the mask, and a temperature
from the command line stay silent."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

LONGCITE = (
    "import re\n"
    "\n"
    "{imports}"
    "\n"
    "\n"
    "class LongCiteModel({base}):\n"
    "    def chat(self, tokenizer, query, history=None, max_new_tokens=None, top_p=0.7, temperature=0.95):\n"
    "        inputs = tokenizer.build_chat_input(query, history=history or [])\n"
    "        generation_params = SamplingParams(\n"  # line 9
    "            temperature=temperature,\n"
    "            top_p=top_p,\n"
    "            {top_k}\n"
    "            max_tokens=max_new_tokens,\n"
    "        )\n"
    "        outputs = self.generate({'prompt_token_ids': inputs.input_ids[0].tolist()}, sampling_params=generation_params)\n"
    "        return tokenizer.decode(outputs[0].outputs[0].token_ids), history\n"
    "\n"
    "    def query_longcite(self, context, query, tokenizer, max_new_tokens=1024, temperature=0.95):\n"
    "        prompt = ''.join(re.split(r'(?<=[.!?])\\s+', context)) + query\n"
    "        output, _ = self.chat(tokenizer, prompt, history=[], max_new_tokens=max_new_tokens, temperature=temperature)\n"
    "        return {'answer': output}\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    model = LongCiteModel(\n"
    "        model='THUDM/LongCite-glm4-9b',\n"
    "        trust_remote_code=True,\n"
    "        return_sampling_mask=True,\n"
    "        logprobs_mode='processed_logprobs',\n"
    "    )\n"
    "    tokenizer = model.get_tokenizer()\n"
    "    result = model.query_longcite(\n"
    "        'A long document.',\n"
    "        'A question?',\n"
    "        tokenizer=tokenizer,\n"
    "        {temperature}\n"  # line 36
    "    )\n"
)
PARAMS_LINE = 9
TEMPERATURE_LINE = 36
FROM_VLLM = "from vllm import LLM, SamplingParams\n"


def longcite(top_k: str = "", temperature: str = "max_new_tokens=1024,", imports: str = FROM_VLLM, base: str = "LLM") -> dict[str, str]:
    text = LONGCITE.replace("{imports}", imports).replace("{base}", base)
    return {"vllm_inference.py": text.replace("{top_k}", top_k).replace("{temperature}", temperature)}


# -- a subclass that keeps `LLM.__init__`: its construction is the engine, `self` its requests' receiver --


def test_the_request_a_method_builds_is_judged_without_top_k(tmp_path: Path) -> None:
    assert check(tmp_path, longcite()) == [("vllm_inference.py", PARAMS_LINE, "RPL102")]


def test_a_greedy_temperature_given_to_the_outer_method_is_reported_where_written(tmp_path: Path) -> None:
    files = longcite(top_k="top_k=20,", temperature="temperature=0.0,")
    assert check(tmp_path, files) == [("vllm_inference.py", TEMPERATURE_LINE, "RPL101")]


def test_a_request_that_bounds_top_k_and_samples_is_clean(tmp_path: Path) -> None:
    assert check(tmp_path, longcite(top_k="top_k=20,", temperature="temperature=0.8,")) == []


def test_the_engine_spelt_through_the_vllm_module(tmp_path: Path) -> None:
    files = longcite(imports="import vllm\nfrom vllm import SamplingParams\n", base="vllm.LLM")
    assert check(tmp_path, files) == [("vllm_inference.py", PARAMS_LINE + 1, "RPL102")]


def test_the_construction_itself_is_judged_as_the_engine_s(tmp_path: Path) -> None:
    text = longcite()["vllm_inference.py"].replace("        logprobs_mode='processed_logprobs',\n", "")
    assert ("vllm_inference.py", 28, "RPL003") in check(tmp_path, {"vllm_inference.py": text})


@pytest.mark.parametrize(
    "request_line",
    [
        "out = llm.generate(['hi'], SamplingParams(temperature=0.0, top_k=20))",
        "out = llm.chat([{'role': 'user', 'content': 'hi'}], sampling_params=SamplingParams(temperature=0.0, top_k=20))",
    ],
    ids=["generate", "chat"],
)
def test_a_request_sent_to_an_object_of_the_subclass(tmp_path: Path, request_line: str) -> None:
    text = (
        "from vllm import LLM, SamplingParams\n"
        "\n"
        "\n"
        "class Model(LLM):\n"
        "    pass\n"
        "\n"
        "\n"
        "llm = Model(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
        f"{request_line}\n"
    )
    assert check(tmp_path, {"run.py": text}) == [("run.py", 9, "RPL101")]


TWO_MODELS = (
    "import vllm\n"
    "\n"
    "\n"
    "class Model(vllm.LLM):\n"
    "    def ask(self, prompt, temperature=0.7):\n"
    "        params = vllm.SamplingParams(temperature=temperature, top_k=20)\n"
    "        return self.generate([prompt], params)\n"
    "\n"
    "\n"
    "def main():\n"
    "    policy = Model(model='m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "    judge = Model(model='j')\n"
    "    {asks}\n"
    "\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    main()\n"
)


def test_the_greedy_request_of_the_replay_object_is_reported(tmp_path: Path) -> None:
    text = TWO_MODELS.replace("{asks}", "judge.ask('x')\n    policy.ask('y', temperature=0.0)")
    assert check(tmp_path, {"run.py": text}) == [("run.py", 14, "RPL101")]


# -- precision twins --------------------------------------------------------------------------------------


def test_a_greedy_request_of_the_object_built_without_the_mask_is_silent(tmp_path: Path) -> None:
    text = TWO_MODELS.replace("{asks}", "judge.ask('x', temperature=0.0)\n    policy.ask('y')")
    assert check(tmp_path, {"run.py": text}) == []


def test_a_temperature_from_the_command_line_stays_open(tmp_path: Path) -> None:
    files = longcite(top_k="top_k=20,", imports=FROM_VLLM + "import sys\n", temperature="temperature=float(sys.argv[1]),")
    assert check(tmp_path, files) == []


def test_another_library_s_llm_is_not_vllm_s_engine(tmp_path: Path) -> None:
    files = longcite(imports="from tensorrt_llm import LLM\nfrom vllm import SamplingParams\n", temperature="temperature=0.0,")
    assert check(tmp_path, files) == []


def test_a_subclass_with_an_init_of_its_own_is_not_read_as_vllm_s(tmp_path: Path) -> None:
    text = longcite(temperature="temperature=0.0,")["vllm_inference.py"].replace(
        "class LongCiteModel(LLM):\n", "class LongCiteModel(LLM):\n    def __init__(self, **kwargs):\n        self.kwargs = kwargs\n\n"
    )
    assert check(tmp_path, {"vllm_inference.py": text}) == []


# -- the class made in another module, under a module-level switch (LongCite's demo) --------------------

DEMO = (
    "import streamlit as st\n"
    "\n"
    "use_vllm = {switch}\n"
    "\n"
    "\n"
    "@st.cache_resource\n"
    "def load_model():\n"
    "    if use_vllm:\n"
    "        from vllm_inference import LongCiteModel\n"
    "\n"
    "        model = LongCiteModel(\n"
    "            model='THUDM/LongCite-glm4-9b',\n"
    "            return_sampling_mask=True,\n"  # line 13
    "        )\n"
    "        return model\n"
    "    return None\n"
    "\n"
    "\n"
    "model = load_model()\n"
)


def demo(switch: str, writes: str = "") -> dict[str, str]:
    return {**longcite(), "demo.py": DEMO.replace("{switch}", switch) + writes}


def test_the_class_made_in_an_importing_module_is_the_engine(tmp_path: Path) -> None:
    assert ("demo.py", 13, "RPL003") in check(tmp_path, demo("True"))


def test_a_switch_set_false_at_the_top_leaves_the_branch_untaken(tmp_path: Path) -> None:
    assert [f for f in check(tmp_path, demo("False")) if f[0] == "demo.py"] == []


@pytest.mark.parametrize(
    ("switch", "writes"),
    [
        ("False", "\n\ndef enable():\n    global use_vllm\n    use_vllm = True\n"),
        ("os.environ.get('USE_VLLM') == '1'", ""),
    ],
    ids=["set-by-a-function", "from-the-environment"],
)
def test_a_switch_something_else_may_set_stays_open(tmp_path: Path, switch: str, writes: str) -> None:
    files = demo(switch, writes)
    files["demo.py"] = "import os\n" + files["demo.py"]
    assert ("demo.py", 14, "RPL003") in check(tmp_path, files)
