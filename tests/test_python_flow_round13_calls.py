"""What held-out round 13 (tests/data/python_flow/h13_*) made the value flow follow through calls:
a `functools.partial` of a helper of the tree called for the engine's keywords, a class made
through a registry dict (`MODELS[name](**kw)`), a Ray actor class a function binds
(`actor_cls = ray.remote(Engine)`, then `actor_cls.options(...).remote(**kw)`), and `self.x` an
object gets from the `__init__` of a base class of another module through `super().__init__(...)`.
Where the reader cannot tell (an unread key, a conditional or repeated write), it stays silent."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

# a partial of a keyword helper, called for the engine's keywords

HELPER = (
    "def engine_kwargs(model, mode='raw_logprobs', **extra):\n"
    "    return {'model': model, 'return_sampling_mask': True, 'logprobs_mode': mode, **extra}\n"
)


@pytest.mark.parametrize(
    ("made", "called"),
    [
        ("functools.partial(engine_kwargs, max_model_len=4096)", "build('m')"),
        ("functools.partial(engine_kwargs, 'm')", "build()"),  # the model bound positionally
        ("partial(engine_kwargs, max_model_len=4096)", "build(model='m')"),
    ],
)
def test_a_partial_of_a_helper_reads_the_helper_s_default(tmp_path: Path, made: str, called: str) -> None:
    main = (
        "import functools\nfrom functools import partial\n\nfrom vllm import LLM\n\nfrom helpers import engine_kwargs\n\n"
        f"build = {made}\n\n\ndef main():\n    return LLM(**{called})\n"
    )
    assert check(tmp_path, {"helpers.py": HELPER, "main.py": main}) == [("helpers.py", 1, "RPL003")]


def test_the_call_s_keyword_wins_over_the_partial_s(tmp_path: Path) -> None:
    main = (
        "import functools\nfrom vllm import LLM\nfrom helpers import engine_kwargs\n\n"
        "build = functools.partial(engine_kwargs, mode='processed_logprobs')\n"
        "LLM(**build('m', mode='raw_logprobs'))\n"
    )
    assert check(tmp_path, {"helpers.py": HELPER, "main.py": main}) == [("main.py", 6, "RPL003")]


@pytest.mark.parametrize(
    "made",
    [
        "functools.partial(engine_kwargs, mode='processed_logprobs')",  # the partial sets it
        "functools.partial(engine_kwargs, *ARGS)",  # positional arguments nobody can read: open
    ],
)
def test_a_partial_that_sets_the_mode_or_cannot_be_read_is_clean(tmp_path: Path, made: str) -> None:
    main = f"import functools\nimport sys\nfrom vllm import LLM\nfrom helpers import engine_kwargs\n\nARGS = sys.argv[1:]\nbuild = {made}\nLLM(**build('m'))\n"
    assert check(tmp_path, {"helpers.py": HELPER, "main.py": main}) == []


def test_a_partial_used_in_a_ray_task_reaches_a_nested_helper_s_default(tmp_path: Path) -> None:
    helpers = (
        "def spec(method='ngram', adaptive=True):\n"
        "    return {'method': method, 'num_speculative_tokens': 4, 'enable_adaptive_verification': adaptive}\n\n\n"
        "def engine_kwargs(model, spec_method=None, **extra):\n"
        "    kw = {'model': model, 'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs', **extra}\n"
        "    if spec_method is not None:\n"
        "        kw['speculative_config'] = spec(method=spec_method)\n"
        "    return kw\n"
    )
    main = (
        "import functools\nimport ray\nfrom vllm import LLM\nfrom helpers import engine_kwargs\n\n"
        "build = functools.partial(engine_kwargs, spec_method='ngram')\n\n\n"
        "@ray.remote(num_gpus=1)\ndef shard(model):\n    return LLM(**build(model))\n\n\n"
        "ray.get([shard.remote('m') for _ in range(2)])\n"
    )
    assert check(tmp_path, {"helpers.py": helpers, "main.py": main}) == [("helpers.py", 1, "RPL002")]


# a class made through a registry of classes

ENGINE_CLASS = (
    "from vllm import LLM\n\n\n"
    "class Engine:\n"
    "    def __init__(self, pretrained, **kwargs):\n"
    "        self.args = {'model': pretrained, 'return_sampling_mask': True, 'logprobs_mode': 'processed_logprobs'}\n"
    "        self.args.update(kwargs)\n"
    "        self.llm = LLM(**self.args)\n"
)
OTHER_CLASS = "class HF:\n    def __init__(self, pretrained, **kwargs):\n        self.kwargs = kwargs\n"


@pytest.mark.parametrize(
    ("registry", "call"),
    [
        ("{'vllm': Engine}", "get_model('vllm', pretrained='m', logits_processors=['p:P'])"),
        ("{'vllm': Engine, 'hf': HF}", "get_model('vllm', pretrained='m', logits_processors=['p:P'])"),
        ("dict(vllm=Engine)", "get_model(name='vllm', pretrained='m', logits_processors=['p:P'])"),
        ("{'vllm': Engine}", "get_model(sys.argv[1], pretrained='m', logits_processors=['p:P'])"),  # one class only
    ],
)
def test_a_registry_of_classes_makes_the_class_its_key_picks(tmp_path: Path, registry: str, call: str) -> None:
    models = f"from engine import Engine\nfrom hf import HF\n\nMODELS = {registry}\n\n\ndef get_model(name, **kw):\n    return MODELS[name](**kw)\n"
    main = f"import sys\nfrom models import get_model\n\nlm = {call}\n"
    found = check(tmp_path, {"engine.py": ENGINE_CLASS, "hf.py": OTHER_CLASS, "models.py": models, "main.py": main})
    assert found == [("main.py", 4, "RPL001")]


@pytest.mark.parametrize(
    "call",
    [
        "get_model('hf', pretrained='m', logits_processors=['p:P'])",  # the key picks the other class
        "get_model(sys.argv[1], pretrained='m', logits_processors=['p:P'])",  # not known which one
        "get_model('vllm', pretrained='m')",
    ],
)
def test_a_registry_key_that_picks_another_class_is_clean(tmp_path: Path, call: str) -> None:
    models = "from engine import Engine\nfrom hf import HF\n\nMODELS = {'vllm': Engine, 'hf': HF}\n\n\ndef get_model(name, **kw):\n    return MODELS[name](**kw)\n"
    main = f"import sys\nfrom models import get_model\n\nlm = {call}\n"
    assert check(tmp_path, {"engine.py": ENGINE_CLASS, "hf.py": OTHER_CLASS, "models.py": models, "main.py": main}) == []


# a Ray actor class bound in a function

ACTOR = "class Rollout:\n    def __init__(self, **engine_kwargs):\n        self.llm = LLM(**engine_kwargs)\n"


@pytest.mark.parametrize(
    ("bound", "made"),
    [
        ("ray.remote(Rollout)", "actor_cls.options(num_gpus=1, name=f'r-{i}').remote(**kw)"),
        ("ray.remote(num_gpus=1)(Rollout)", "actor_cls.remote(**kw)"),
        ("ray.remote(Rollout)", "actor_cls.remote(model='m', **{k: v for k, v in kw.items() if k != 'model'})"),
    ],
)
def test_a_ray_actor_class_bound_in_a_function_makes_the_engine(tmp_path: Path, bound: str, made: str) -> None:
    main = (
        f"import ray\nfrom vllm import LLM\n\n\n{ACTOR}\n\n"
        "def create(n):\n"
        f"    actor_cls = {bound}\n"
        "    kw = {'model': 'm', 'return_sampling_mask': True, 'logprobs_mode': 'raw_logprobs'}\n"
        f"    return [{made} for i in range(n)]\n\n\ncreate(2)\n"
    )
    assert check(tmp_path, {"main.py": main}) == [("main.py", 12, "RPL003")]


def test_an_omegaconf_pass_through_reaches_the_actor_s_engine(tmp_path: Path) -> None:
    config = "engine:\n  model: m\n  init_kwargs:\n    logprobs_mode: raw_logprobs\n"
    args = (
        "from omegaconf import OmegaConf\n\n\n"
        "def engine_kwargs(cfg):\n"
        "    kw = {'model': cfg.model, 'return_sampling_mask': True}\n"
        "    kw.update(OmegaConf.to_container(cfg.init_kwargs, resolve=True))\n"
        "    return kw\n"
    )
    main = (
        f"from pathlib import Path\n\nimport ray\nfrom omegaconf import OmegaConf\nfrom vllm import LLM\n\nfrom args import engine_kwargs\n\n\n{ACTOR}\n\n"
        "def main():\n"
        "    cfg = OmegaConf.load(Path(__file__).parent / 'run.yaml')\n"
        "    actor_cls = ray.remote(Rollout)\n"
        "    return actor_cls.options(num_gpus=1).remote(**engine_kwargs(cfg.engine))\n\n\nmain()\n"
    )
    assert check(tmp_path, {"run.yaml": config, "args.py": args, "main.py": main}) == [("run.yaml", 4, "RPL003")]


def test_the_same_name_bound_to_another_actor_class_makes_no_engine_of_this_one(tmp_path: Path) -> None:
    rollout = ACTOR.replace("LLM(**engine_kwargs)", "LLM(return_sampling_mask=True, logprobs_mode='processed_logprobs', **engine_kwargs)")
    main = (
        f"import ray\nfrom vllm import LLM\n\n\n{rollout}\n\nclass Judge:\n    def __init__(self, **kw):\n        self.kw = kw\n\n\n"
        "def rollouts():\n    actor_cls = ray.remote(Rollout)\n    return actor_cls.remote(model='m')\n\n\n"
        "def judges():\n    actor_cls = ray.remote(Judge)\n    return actor_cls.remote(model='m', logits_processors=['p:P'])\n\n\n"
        "rollouts()\njudges()\n"
    )
    assert check(tmp_path, {"main.py": main}) == []
    # the same file with the processors given to the rollout actor
    assert check(
        tmp_path, {"main.py": main.replace("actor_cls.remote(model='m')", "actor_cls.remote(model='m', logits_processors=['p:P'])")}
    ) == [("main.py", 17, "RPL001")]


# `self.x` set by a base class's `__init__` in another module

BASE = (
    "class DecoderBase:\n"
    "    def __init__(self, name, temperature=0.8, max_new_tokens=512):\n"
    "        self.name = name\n"
    "        self.temperature = temperature\n"
    "        self.max_new_tokens = max_new_tokens\n"
)
DECODER = (
    "from vllm import LLM, SamplingParams\n\nfrom base import DecoderBase\n\n\n"
    "class VllmDecoder(DecoderBase):\n"
    "    def __init__(self, name, tp=1, **kwargs):\n"
    "        super().__init__(name, **kwargs)\n"
    "        self.llm = LLM(model=name, tensor_parallel_size=tp, return_sampling_mask=True, logprobs_mode='processed_logprobs')\n\n"
    "    def codegen(self, prompt):\n"
    "        params = SamplingParams(temperature=self.temperature, top_k=50, max_tokens=self.max_new_tokens)\n"
    "        return self.llm.generate([prompt], params)\n"
)


@pytest.mark.parametrize(
    ("factory", "call", "where"),
    [
        ("def make(model, temperature=0.0):\n    return VllmDecoder(model, temperature=temperature)\n", "make('m')", ("factory.py", 4)),
        ("def make(model, **kw):\n    return VllmDecoder(name=model, **kw)\n", "make('m', temperature=0)", ("main.py", 2)),
        ("def make(model):\n    return VllmDecoder(model, 2, temperature=0.0)\n", "make('m')", ("factory.py", 5)),
    ],
)
def test_a_base_s_init_in_another_module_holds_what_the_construction_passes(
    tmp_path: Path, factory: str, call: str, where: tuple[str, int]
) -> None:
    files = {
        "base.py": BASE,
        "decoder.py": DECODER,
        "factory.py": f"from decoder import VllmDecoder\n\n\n{factory}",
        "main.py": f"from factory import make\nrunner = {call}\nrunner.codegen('x')\n",
    }
    assert check(tmp_path, files) == [(*where, "RPL101")]


@pytest.mark.parametrize(
    "base",
    [
        BASE,  # the construction passes 0.7
        BASE.replace("        self.temperature = temperature\n", "        if temperature:\n            self.temperature = temperature\n"),
        BASE + "\n    def greedy(self):\n        self.temperature = 0.0\n",  # written elsewhere too: not known here
        BASE + "\n    def load(self, cfg):\n        for k, v in cfg.items():\n            setattr(self, k, v)\n",
    ],
)
def test_a_base_attribute_the_reader_cannot_pin_down_or_a_sampled_one_is_clean(tmp_path: Path, base: str) -> None:
    temperature = "0.7" if base is BASE else "0.0"
    files = {
        "base.py": base,
        "decoder.py": DECODER,
        "main.py": f"from decoder import VllmDecoder\nrunner = VllmDecoder('m', temperature={temperature})\nrunner.codegen('x')\n",
    }
    assert check(tmp_path, files) == []
