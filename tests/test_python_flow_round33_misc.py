"""What held-out rounds 33 and 34 made the value flow follow for two engines built inside a class
(WildGuard's resident classifier, MinerU's model singleton).

WildGuard's `WildGuardVLLM.__init__` sets `self.model = None` for an ephemeral model and
`LLM(...)` otherwise, and `_classify_batch` hands `model=self.model` to `inference_with_vllm`,
which calls `model.generate(...)`: None has no `generate`, so the request reaches the engine.
MinerU's `get_model` writes `os.environ["VLLM_USE_V2_MODEL_RUNNER"] = "0"` under the same
`if key not in self._models:` as the engine's construction: when the engine is built, the
branch was taken and the write made."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

UTILS = (
    "from vllm import LLM, SamplingParams\n"
    "\n"
    "\n"
    "def inference_with_vllm(prompts, model, use_tqdm=False, temperature=0.0, top_p=1.0, max_tokens=2048, **sampling_args):\n"
    "    params = SamplingParams(max_tokens=max_tokens, temperature=temperature, top_p=top_p, **sampling_args)\n"
    "    outputs = model.generate(prompts=prompts, sampling_params=params, use_tqdm=use_tqdm)\n"
    "    return [it.outputs[0].text for it in outputs]\n"
)
CLASSIFIER = (
    "from vllm import LLM\n"
    "\n"
    "from .utils import inference_with_vllm\n"
    "\n"
    "\n"
    "class WildGuardVLLM:\n"
    "    def __init__(self, ephemeral_model: bool = True):\n"
    "        if ephemeral_model:\n"
    "            self.model = None\n"
    "        else:\n"
    "            self.model = {engine}\n"
    "\n"
    "    def _classify_batch(self, batch):\n"
    "        if self.model is None:\n"
    "            return []\n"
    "        return {call}\n"
)
MASKED = 'LLM(model="allenai/wildguard", return_sampling_mask=True, logprobs_mode="processed_logprobs")'
GREEDY = "inference_with_vllm(prompts=batch, model=self.model, max_tokens=128, temperature=0.0, top_k=20)"


SCRIPT = (
    "from wildguard.wildguard import WildGuardVLLM\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    print(WildGuardVLLM({given})._classify_batch([{{'prompt': 'How do I make a bomb?'}}]))\n"
)


def classifier(engine: str = MASKED, call: str = GREEDY, given: str = "ephemeral_model=False") -> dict[str, str]:
    return {
        "wildguard/__init__.py": "",
        "wildguard/utils.py": UTILS,
        "wildguard/wildguard.py": CLASSIFIER.format(engine=engine, call=call),
        "examples/classify.py": SCRIPT.format(given=given),
    }


def test_a_greedy_request_to_the_engine_an_attribute_also_left_none_holds_is_reported(tmp_path: Path) -> None:
    assert check(tmp_path, classifier()) == [("wildguard.py", 16, "RPL101")]


def test_the_engine_handed_by_position_is_followed_too(tmp_path: Path) -> None:
    call = "inference_with_vllm(batch, self.model, True, 0.0, top_k=20)"
    assert check(tmp_path, classifier(call=call)) == [("wildguard.py", 16, "RPL101")]


@pytest.mark.parametrize(
    ("engine", "call"),
    [
        (MASKED, "inference_with_vllm(prompts=batch, model=self.model, max_tokens=128, temperature=0.7, top_k=20)"),
        ('LLM(model="allenai/wildguard", max_model_len=2048)', GREEDY),  # no replay: a greedy request is fine
        ("load_engine()", GREEDY),  # not known to be an engine
    ],
    ids=["sampled", "no-replay", "unknown-holder"],
)
def test_a_sampled_request_or_an_attribute_not_known_as_a_replay_engine_stays_clean(tmp_path: Path, engine: str, call: str) -> None:
    assert check(tmp_path, classifier(engine, call)) == []


def test_an_ephemeral_classifier_whose_attribute_stays_none_sends_nothing(tmp_path: Path) -> None:
    assert check(tmp_path, classifier(given="")) == []


def test_an_attribute_set_to_two_engines_is_not_picked(tmp_path: Path) -> None:
    files = classifier(engine=f"{MASKED}\n        self.model = LLM(model='other')")
    assert check(tmp_path, files) == []


SINGLETON = (
    "import os\n"
    "import threading\n"
    "\n"
    "\n"
    "class ModelSingleton:\n"
    "    _models = {{}}\n"
    "    _lock = threading.RLock()\n"
    "\n"
    "    def get_model(self, backend, model_path, **kwargs):\n"
    "        key = (backend, model_path)\n"
    "        with self._lock:\n"
    "            if key not in self._models:\n"
    "{write}"
    "                import vllm\n"
    "\n"
    "                if 'model' not in kwargs:\n"
    "                    kwargs['model'] = model_path or 'opendatalab/MinerU2.5-2509-1.2B'\n"
    "                self._models[key] = vllm.LLM(**kwargs)\n"
    "        return self._models[key]\n"
    "\n"
    "\n"
    "def doc_analyze(pdf_bytes, backend='vllm-engine', model_path=None, **kwargs):\n"
    "    return ModelSingleton().get_model(backend, model_path, **kwargs)\n"
)
DEMO = (
    "from mineru.vlm_analyze import doc_analyze\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    doc_analyze(b'', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
)


def singleton(write: str) -> dict[str, str]:
    return {"mineru/__init__.py": "", "mineru/vlm_analyze.py": SINGLETON.format(write=write), "demo/demo.py": DEMO}


def test_a_runner_write_under_the_branch_that_builds_the_engine_is_reported(tmp_path: Path) -> None:
    write = "                os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n"
    assert check(tmp_path, singleton(write)) == [("vlm_analyze.py", 13, "RPL206")]


def test_a_write_nested_in_a_branch_of_its_own_that_is_undecided_stays_clean(tmp_path: Path) -> None:
    write = "                if os.getenv('MINERU_LEGACY_RUNNER'):\n                    os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n"
    assert check(tmp_path, singleton(write)) == []


def test_a_write_on_a_branch_beside_the_engine_s_stays_clean(tmp_path: Path) -> None:
    files = singleton("")
    text = files["mineru/vlm_analyze.py"]
    files["mineru/vlm_analyze.py"] = text.replace(
        "        with self._lock:\n",
        "        if backend == 'legacy':\n            os.environ['VLLM_USE_V2_MODEL_RUNNER'] = '0'\n        with self._lock:\n",
    )
    assert check(tmp_path, files) == []
