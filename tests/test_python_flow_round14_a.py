"""What held-out round 14 (tests/data/python_flow/h14_*, part A) made the value flow follow:
the methods of a record class without an `__init__` of its own (a pydantic model, a dataclass)
read with the fields each construction gives (distilabel's `vLLM(extra_kwargs={...})`, then
`load()` spreading `**self.extra_kwargs` into `LLM`, and `generate()`'s own parameter defaults);
a pydantic model's private attributes are no fields; and a request built from every key of a
config record that `SamplingParams` has (EasyR1's `for key in config.to_dict().keys(): if
hasattr(default_sampling_params, key): ...`), with the caller beside the top of a deep package;
a subclass without an `__init__` of its own made in another module (lmms-eval's `VLLM(VLLMSimple)`)
and the engine its base's `__init__` stores, and the items of a list a comprehension makes, through
slices and loops, with the fallbacks a loop writes into each (`gen_kwargs["temperature"] = 0`).
Where the reader cannot tell (a construction's `**` of a file read at run time, a test it does
not decide), it stays silent."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

# a record's method builds the engine from its fields

PYDANTIC = (
    "from typing import Any, Dict, Optional\n"
    "from pydantic import BaseModel, Field, PrivateAttr\n\n\n"
    "class Generator(BaseModel):\n"
    "    model: str\n"
    "    extra_kwargs: Optional[Dict[str, Any]] = DEFAULT\n"
    "    _model: Any = PrivateAttr(None)\n\n"
    "    def load(self) -> None:\n"
    "        from vllm import LLM\n\n"
    "        self._model = LLM(self.model, **self.extra_kwargs)\n\n"
    "    def generate(self, prompts, temperature: float = 1.0, top_k: int = -1):\n"
    "        from vllm import SamplingParams\n\n"
    "        return self._model.generate(prompts, SamplingParams(temperature=temperature, top_k=top_k))\n"
)
DATACLASS = (
    "from dataclasses import dataclass, field\n"
    "from vllm import LLM\n\n\n"
    "@dataclass\n"
    "class Generator:\n"
    "    model: str\n"
    "    extra_kwargs: dict = DEFAULT\n\n"
    "    def load(self):\n"
    "        self.engine = LLM(model=self.model, **self.extra_kwargs)\n"
    "        return self.engine\n"
)
RAW = '{"return_sampling_mask": True, "logprobs_mode": "raw_logits"}'
PROCESSED = '{"return_sampling_mask": True, "logprobs_mode": "processed_logprobs"}'


@pytest.mark.parametrize(
    ("library", "default"),
    [
        (PYDANTIC, "Field(default_factory=dict)"),  # distilabel's spelling
        (PYDANTIC, "{}"),
        (DATACLASS, "field(default_factory=dict)"),
        (DATACLASS, "None"),
    ],
)
def test_a_record_s_method_reads_the_fields_its_construction_gives(tmp_path: Path, library: str, default: str) -> None:
    pipeline = f"from gen import Generator\n\nllm = Generator(model='m', extra_kwargs={RAW})\nllm.load()\n"
    assert check(tmp_path, {"gen.py": library.replace("DEFAULT", default), "pipeline.py": pipeline}) == [("pipeline.py", 3, "RPL003")]


def test_the_construction_may_be_in_the_record_s_own_module(tmp_path: Path) -> None:
    library = DATACLASS.replace("DEFAULT", "field(default_factory=dict)") + f"\n\nGenerator('m', {RAW}).load()\n"
    assert check(tmp_path, {"gen.py": library}) == [("gen.py", 15, "RPL003")]


@pytest.mark.parametrize(
    "made",
    [
        "Generator(**json.load(open(sys.argv[1])))",  # any field may come from the file
        "Generator(model='m', **json.load(open(sys.argv[1])))",
        f"Generator(model='m', extra_kwargs={PROCESSED})",  # the construction replaces the default
        "Generator(model='m', extra_kwargs=json.load(open(sys.argv[1])))",
    ],
)
def test_a_construction_that_sets_the_field_or_cannot_be_read_is_clean(tmp_path: Path, made: str) -> None:
    library = PYDANTIC.replace("DEFAULT", RAW)  # the class's own default would be refused
    pipeline = f"import json\nimport sys\nfrom gen import Generator\n\nllm = {made}\nllm.load()\n"
    assert check(tmp_path, {"gen.py": library, "pipeline.py": pipeline}) == []


def test_a_record_that_builds_another_library_s_model_is_not_an_engine(tmp_path: Path) -> None:
    library = PYDANTIC.replace("DEFAULT", "{}").replace("from vllm import LLM", "from transformers import AutoModel as LLM")
    pipeline = f"from gen import Generator\n\nllm = Generator(model='m', extra_kwargs={RAW})\nllm.load()\n"
    assert check(tmp_path, {"gen.py": library, "pipeline.py": pipeline}) == []


@pytest.mark.parametrize("made", ["Cfg()", "Cfg(**json.load(open(sys.argv[1])))"])
def test_a_class_variable_is_no_field_a_construction_could_set(tmp_path: Path, made: str) -> None:
    main = (
        "import json\nimport sys\nfrom dataclasses import dataclass\nfrom typing import ClassVar\nfrom vllm import LLM\n\n\n"
        "@dataclass\nclass Cfg:\n    MODE: ClassVar[str] = 'raw_logprobs'\n    model: str = 'm'\n\n\n"
        f"cfg = {made}\nLLM(cfg.model, return_sampling_mask=True, logprobs_mode=cfg.MODE)\n"
    )
    assert check(tmp_path, {"main.py": main}) == [("main.py", 10, "RPL003")]


# a method's parameter default reaches the request of the engine a private attribute holds


@pytest.mark.parametrize(
    ("generate", "expected"),
    [
        ("llm.generate(['x'], temperature=0.8)", [("gen.py", 15, "RPL102")]),  # distilabel's: top_k=-1 by default
        ("llm.generate(['x'])", [("gen.py", 15, "RPL102")]),
        ("llm.generate(['x'], top_k=50)", []),
        ("llm.generate(['x'], **json.load(open(sys.argv[1])))", []),  # the caller's keywords are not known
    ],
)
def test_a_method_s_parameter_default_is_the_request_s_when_no_caller_passes_it(tmp_path: Path, generate: str, expected: list) -> None:
    library = PYDANTIC.replace("DEFAULT", "Field(default_factory=dict)")
    pipeline = f"import json\nimport sys\nfrom gen import Generator\n\nllm = Generator(model='m', extra_kwargs={PROCESSED})\nllm.load()\n{generate}\n"
    assert check(tmp_path, {"gen.py": library, "pipeline.py": pipeline}) == expected


@pytest.mark.parametrize("private", ["_model: Any = PrivateAttr(None)", "_model: Any = None"])
def test_a_pydantic_private_attribute_holds_what_a_method_sets(tmp_path: Path, private: str) -> None:
    library = PYDANTIC.replace("DEFAULT", "Field(default_factory=dict)").replace("_model: Any = PrivateAttr(None)", private)
    pipeline = f"from gen import Generator\n\nllm = Generator(model='m', extra_kwargs={PROCESSED})\nllm.load()\nllm.generate(['x'])\n"
    assert check(tmp_path, {"gen.py": library, "pipeline.py": pipeline}) == [("gen.py", 15, "RPL102")]


# the request built from every key of a config record that SamplingParams has

CONFIG = (
    "from dataclasses import asdict, dataclass, field\n\n\n"
    "@dataclass\n"
    "class RolloutConfig:\n"
    "    n: int = 1\n"
    "    temperature: float = 1.0\n"
    "    top_k: int = TOPK\n"
    "    dtype: str = 'bfloat16'\n"
    "    gpu_memory_utilization: float = 0.6\n"
    "    response_length: int = field(default=-1, init=False)\n\n"
    "    def to_dict(self):\n"
    "        return asdict(self)\n"
)
ROLLOUT = (
    "from vllm import LLM, SamplingParams\n\n\n"
    "class Rollout:\n"
    "    def __init__(self, model, config):\n"
    "        self.engine = LLM(model=model, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
    "        sampling_kwargs = {'max_tokens': config.response_length}\n"
    "        default_sampling_params = SamplingParams()\n"
    "        for key in KEYS:\n"
    "            if hasattr(HELD, key):\n"
    "                sampling_kwargs[key] = getattr(config, key)\n"
    "        self.sampling_params = SamplingParams(**sampling_kwargs)\n\n"
    "    def generate(self, prompts):\n"
    "        return self.engine.generate(prompts, sampling_params=self.sampling_params)\n"
)
SMOKE = "from pkg.sub.leaf.config import RolloutConfig\nfrom pkg.sub.leaf.rollout import Rollout\n\nMADE\nRollout('m', config).generate([[1, 2]])\n"
PACKAGE = {"pkg/__init__.py": "", "pkg/sub/__init__.py": "", "pkg/sub/leaf/__init__.py": ""}


def _rollout(tmp_path: Path, keys: str, held: str = "default_sampling_params", top_k: str = "-1", made: str = "") -> list:
    files = {
        **PACKAGE,
        "pkg/sub/leaf/config.py": CONFIG.replace("TOPK", top_k),
        "pkg/sub/leaf/rollout.py": ROLLOUT.replace("KEYS", keys).replace("HELD", held),
        "smoke.py": SMOKE.replace("MADE", made or "config = RolloutConfig(n=5)"),
    }
    return check(tmp_path, files)


@pytest.mark.parametrize(
    "keys",
    ["config.to_dict().keys()", "config.to_dict()", "asdict(config)", "vars(config).keys()"],
)
def test_each_config_key_sampling_params_has_is_the_request_s(tmp_path: Path, keys: str) -> None:
    rollout = ROLLOUT.replace("from vllm import", "from dataclasses import asdict\nfrom vllm import")
    files = {
        **PACKAGE,
        "pkg/sub/leaf/config.py": CONFIG.replace("TOPK", "-1"),
        "pkg/sub/leaf/rollout.py": rollout.replace("KEYS", keys).replace("HELD", "default_sampling_params"),
        "smoke.py": SMOKE.replace("MADE", "config = RolloutConfig(n=5)"),
    }
    assert check(tmp_path, files) == [("config.py", 8, "RPL102")]  # the field's default, EasyR1's


def test_hasattr_of_the_class_itself_is_decided_the_same(tmp_path: Path) -> None:
    assert _rollout(tmp_path, "config.to_dict()", held="SamplingParams") == [("config.py", 8, "RPL102")]


@pytest.mark.parametrize(
    ("held", "top_k", "made"),
    [
        ("default_sampling_params", "20", ""),  # a field default SamplingParams accepts
        ("default_sampling_params", "-1", "config = RolloutConfig(n=5, top_k=40)"),
        ("default_sampling_params", "-1", "config = RolloutConfig(**yaml.safe_load(open(sys.argv[1])))"),
        ("default_sampling_params", "-1", "config = RolloutConfig(n=5)\nconfig.top_k = int(sys.argv[1])"),
        ("self.engine", "-1", ""),  # a test of another object: not decided, the key may not be written
    ],
)
def test_a_key_set_elsewhere_or_not_known_to_be_written_is_clean(tmp_path: Path, held: str, top_k: str, made: str) -> None:
    made = f"import sys\nimport yaml\n{made}" if made else ""
    assert _rollout(tmp_path, "config.to_dict().keys()", held=held, top_k=top_k, made=made) == []


# a subclass without an `__init__` of its own, made in another module, runs its base's

BASE = (
    "from vllm import LLM\n\n\n"
    "class Simple:\n"
    "    def __init__(self, model='m', batch_size=1, **kwargs):\n"
    "        self.batch_size = int(batch_size)\n"
    "        self.client = LLM(model=model, **kwargs)\n"
)
CHAT = (
    "from vllm import SamplingParams\n\n"
    "from models.simple import Simple\n\n\n"
    "class Chat(Simple):\n"
    "    def generate_until(self, requests):\n"
    "        out = []\n"
    "        batches = [requests[i : i + self.batch_size] for i in range(0, len(requests), self.batch_size)]\n"
    "        for batch in batches:\n"
    "            prompts = []\n"
    "            for prompt, gen_kwargs in batch:\n"
    "                if 'temperature' not in gen_kwargs:\n"
    "                    gen_kwargs['temperature'] = 0\n"
    "                params = {'temperature': gen_kwargs['temperature'], 'top_k': gen_kwargs.get('top_k', 20)}\n"
    "                prompts.append(prompt)\n"
    "            out.extend(self.client.generate(prompts, SamplingParams(**params)))\n"
    "        return out\n"
)
MODELS = {"models/__init__.py": "", "models/simple.py": BASE, "models/chat.py": CHAT}


def _evaluate(tmp_path: Path, made: str, requests: str) -> list:
    run = f"import json\nimport sys\nfrom models.chat import Chat\n\nmodel = Chat({made})\nTASK = {{'max_new_tokens': 512}}\nrequests = {requests}\nmodel.generate_until(requests)\n"
    return check(tmp_path, {**MODELS, "run.py": run})


def test_a_subclass_s_construction_gives_its_base_s_init_the_engine_s_keywords(tmp_path: Path) -> None:
    made = "model='m', return_sampling_mask=True, logprobs_mode='raw_logprobs'"
    assert _evaluate(tmp_path, made, "[]") == [("run.py", 5, "RPL003")]


REPLAY = "model='m', batch_size=8, return_sampling_mask=True, logprobs_mode='processed_logprobs'"


@pytest.mark.parametrize(
    "requests",
    [
        "[(f'q{i}', dict(TASK, top_k=40)) for i in range(16)]",  # lmms-eval's: the task's kwargs have no temperature
        "[(q, {'max_new_tokens': 64}) for q in ['a', 'b']]",
        "[(q, dict(TASK)) for q in sys.argv[1:]]",  # its items the same whatever the arguments
    ],
)
def test_a_fallback_written_into_each_item_of_the_caller_s_list_is_the_request_s(tmp_path: Path, requests: str) -> None:
    assert _evaluate(tmp_path, REPLAY, requests) == [("chat.py", 14, "RPL101")]


@pytest.mark.parametrize(
    "requests",
    [
        "[(f'q{i}', dict(TASK, temperature=0.7)) for i in range(16)]",  # the fallback never runs
        "[(q, kw) for q, kw in json.load(open(sys.argv[1]))]",  # items read at run time
        "json.load(open(sys.argv[1]))",
        "[('a', {'max_new_tokens': 8}), ('b', {'temperature': 0.7})]",  # items that differ: not one shape
    ],
)
def test_items_whose_temperature_is_set_or_not_known_are_clean(tmp_path: Path, requests: str) -> None:
    assert _evaluate(tmp_path, REPLAY, requests) == []


def test_an_item_read_at_run_time_in_a_loop_over_a_comprehension_is_not_known(tmp_path: Path) -> None:
    main = (
        "import sys\nfrom vllm import LLM, SamplingParams\n\n"
        "llm = LLM('m', return_sampling_mask=True, logprobs_mode='processed_logprobs')\n"
        "for kw in [dict(top_k=20, temperature=float(t)) for t in sys.argv[1:]]:\n"
        "    llm.generate(['x'], SamplingParams(**kw))\n"
    )
    assert check(tmp_path, {"main.py": main}) == []


def test_a_comprehension_may_be_empty(tmp_path: Path) -> None:
    main = (
        "import sys\nfrom vllm import LLM\n\n"
        "kw = {'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'}\n"
        "if not [dict(mode=t) for t in sys.argv[1:] if t == 'processed']:\n"
        "    kw['logprobs_mode'] = 'raw_logprobs'\n"
        "LLM('m', **kw)\n"
    )
    assert check(tmp_path, {"main.py": main}) == [("main.py", 6, "RPL003")]  # on the branch where it is empty
