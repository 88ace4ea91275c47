"""Issue 27 (round 14): a class a config mapping names (`dict(type=VLLM, ...)`, opencompass's and
mmengine's configs) and a builder makes by taking the class out of the mapping and calling it
with the rest (`model_type = cfg.pop("type")`, `model_type(**cfg)`), in a module that imports the
configs but not the class's module; the builder's caller loops over the imported config list.
Which class a builder makes is decided by the config each turn gives it: another class, or a
config from outside the tree, makes no engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

WRAPPER = (
    "from vllm import LLM, SamplingParams\n\n\n"
    "class VLLM:\n"
    "    def __init__(self, path, model_kwargs=None, generation_kwargs=dict()):\n"
    "        self.model = LLM(path, **(model_kwargs or {}))\n"
    "        self.generation_kwargs = generation_kwargs\n\n"
    "    def generate(self, inputs, max_out_len, **kwargs):\n"
    "        generation_kwargs = kwargs.copy()\n"
    "        generation_kwargs.update(self.generation_kwargs)\n"
    "        generation_kwargs.update({'max_tokens': max_out_len})\n"
    "        return self.model.generate(inputs, SamplingParams(**generation_kwargs))\n\n\n"
    "class HuggingFace:\n"
    "    def __init__(self, path, generation_kwargs=dict()):\n"
    "        self.path = path\n"
)


def _config(name: str, temperature: str, kind: str = "VLLM") -> str:
    return (
        f"    dict(\n        type={kind},\n        abbr='{name}',\n        path='Qwen/Qwen2.5-7B-Instruct',\n"
        "        model_kwargs=dict(return_sampling_mask=True, logprobs_mode='processed_logprobs'),\n"
        f"        generation_kwargs=dict(temperature={temperature}, top_k=20),\n        max_out_len=1024,\n    ),\n"
    )


def _configs(*items: str) -> str:
    return "from models.vllm import HuggingFace, VLLM\n\nmodels = [\n" + "".join(items) + "]\n"


POP_BUILDER = (
    "import copy\n\nfrom configs.qwen import models\n\n\n"
    "def build_model_from_cfg(model_cfg):\n"
    "    model_cfg = copy.deepcopy(model_cfg)\n"
    "    model_cfg.pop('abbr', None)\n"
    "    max_out_len = model_cfg.pop('max_out_len', None)\n"
    "    model_type = model_cfg.pop('type')\n"
    "    return model_type(**model_cfg), max_out_len\n\n\n"
    "if __name__ == '__main__':\n"
    "    for cfg in models:\n"
    "        model, max_out_len = build_model_from_cfg(cfg)\n"
    "        print(model.generate(['1 + 1 = ?'], max_out_len))\n"
)


def _tree(tmp_path: Path, configs: str, run: str) -> list[tuple[str, int, str]]:
    files = {"models/__init__.py": "", "models/vllm.py": WRAPPER, "configs/__init__.py": "", "configs/qwen.py": configs, "run.py": run}
    return check(tmp_path, files)


@pytest.mark.parametrize(
    "run",
    [
        POP_BUILDER,  # opencompass's run.py and build_model_from_cfg
        # mmengine's build_from_cfg: a copy, the class popped, called with the rest
        POP_BUILDER.replace("model_cfg = copy.deepcopy(model_cfg)", "model_cfg = dict(model_cfg)"),
        # the builder returns the model alone; the caller takes it by index
        POP_BUILDER.replace("return model_type(**model_cfg), max_out_len", "return model_type(**model_cfg)").replace(
            "model, max_out_len = build_model_from_cfg(cfg)", "model = build_model_from_cfg(cfg)"
        ),
        # the key read with `get` (and dropped after)
        POP_BUILDER.replace("model_type = model_cfg.pop('type')", "model_type = model_cfg.get('type')\n    del model_cfg['type']"),
    ],
)
def test_a_builder_makes_the_class_its_config_names(tmp_path: Path, run: str) -> None:
    assert _tree(tmp_path, _configs(_config("replay", "0.0")), run) == [("qwen.py", 9, "RPL101")]


def test_the_builder_beside_the_configs(tmp_path: Path) -> None:
    configs = _configs(_config("replay", "0.0")) + (
        "\n\ndef build(cfg):\n    cfg = dict(cfg)\n    made = cfg.pop('type')\n    cfg.pop('abbr')\n    cfg.pop('max_out_len')\n"
        "    return made(**cfg)\n\n\nfor cfg in models:\n    build(cfg).generate(['q'], 16)\n"
    )
    assert _tree(tmp_path, configs, "print('other')\n") == [("qwen.py", 9, "RPL101")]


def test_each_config_of_the_list_is_its_own_model(tmp_path: Path) -> None:
    configs = _configs(_config("sampled", "0.7"), _config("greedy", "0.0"))
    assert _tree(tmp_path, configs, POP_BUILDER) == [("qwen.py", 17, "RPL101")]


@pytest.mark.parametrize(
    "kind",
    [
        "(VLLM)",  # in brackets
        "(\n            VLLM\n        )",  # on a line of its own
        "  # the engine\n        VLLM",  # after a comment
        "\\\n        VLLM",  # after a continuation
    ],
)
def test_the_class_named_in_any_spelling_the_text_allows(tmp_path: Path, kind: str) -> None:
    # `config_builders` looks for the class's name as a value in the text before it walks a
    # module: each spelling of `type=VLLM` that Python reads the same must still be found.
    assert _tree(tmp_path, _configs(_config("replay", "0.0", kind)), POP_BUILDER)[0][2] == "RPL101"


def test_the_class_as_a_dict_value_is_found_and_its_name_in_a_string_is_not(tmp_path: Path) -> None:
    as_dict = _configs(
        "    {\n        'type': VLLM,\n        'abbr': 'replay',\n        'path': 'Qwen/Qwen2.5-7B-Instruct',\n"
        "        'model_kwargs': dict(return_sampling_mask=True, logprobs_mode='processed_logprobs'),\n"
        "        'generation_kwargs': dict(temperature=0.0, top_k=20),\n        'max_out_len': 1024,\n    },\n"
    )
    assert [code for _, _, code in _tree(tmp_path / "dict", as_dict, POP_BUILDER)] == ["RPL101"]
    named = _configs(_config("replay", "0.0", "'VLLM'")).replace("from models.vllm import HuggingFace, VLLM", "VLLM = None")
    assert _tree(tmp_path / "string", named, POP_BUILDER) == []


@pytest.mark.parametrize(
    ("configs", "run"),
    [
        # the greedy config names another class: no vLLM engine gets its request
        (_configs(_config("sampled", "0.7"), _config("greedy", "0.0", "HuggingFace")), POP_BUILDER),
        # the configs come from a file given at run time
        (
            _configs(_config("replay", "0.0")),
            POP_BUILDER.replace("from configs.qwen import models", "import json\nimport sys\n\nmodels = json.load(open(sys.argv[1]))"),
        ),
        # the builder is handed a config the tree does not spell out
        (_configs(_config("replay", "0.0")), POP_BUILDER.replace("for cfg in models:", "for cfg in load_configs():")),
        # the list is grown by code the reader does not follow
        (_configs(_config("replay", "0.0")), POP_BUILDER.replace("if __name__", "models.append(extra())\n\nif __name__")),
    ],
)
def test_a_config_the_builder_may_not_get_reports_nothing(tmp_path: Path, configs: str, run: str) -> None:
    assert _tree(tmp_path, configs, run) == []
