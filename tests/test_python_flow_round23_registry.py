"""What held-out round 23's last miss (h23_p2l_route_openai_handler_chat_route) made the value flow
follow: a module-level dict of classes filled when the module is imported, by a registering
decorator (p2l's `CHAT_HANDLERS = {}` with `def register(name): def wrap(cls): CHAT_HANDLERS[name] =
cls; return cls; return wrap` and `@register("openai")`), a plain `@register` storing
`cls.__name__`, a base class's `__init_subclass__`, or entries spelt out, and a classmethod (or
staticmethod) called on the entry a key picks (or on its class by name) (`CHAT_HANDLERS[model_config["type"]].generate(messages,
model_config)`): the method is read with that call's arguments, so the client it makes from
`model_config["base_url"]` is tied to the replay server the tree starts. A function such a
registry holds (`HANDLERS[kind](messages, config)` of `@register("openai") def openai_chat(...)`)
is read with that call's arguments the same way.

A key the code knows picks its one entry; a key not known picks a class only when every entry
of the registry is that class. An unknown key of a registry whose entries differ, a key naming
another entry, a registry a module near registers into, or a decorator used other than on a
module-level definition decide nothing (no finding)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_python_flow_round10 import check

SERVER = (
    "import subprocess\n"
    "\n"
    "from chat import route\n"
    "\n"
    "SERVE = ['vllm', 'serve', 'm', '--port', '8000', '--return-sampling-mask',\n"
    "         '--logprobs-mode', 'processed_logprobs', '--enable-scale-out']\n"
    "server = subprocess.Popen(SERVE)\n"
    "print(route('local', [{'role': 'user', 'content': 'hi'}]))\n"
)
CONFIGS = (
    "MODEL_CONFIGS = {\n"
    "    'local': {'base_url': 'http://localhost:8000/v1', 'type': 'openai'},\n"
    "    'echo': {'base_url': 'http://localhost:8000/v1', 'type': 'echo'},\n"
    "}\n"
)
OPENAI = (
    "class OpenAIHandler{bases}:\n"
    "{attribute}"
    "    @classmethod\n"
    "    def generate(cls, messages, model_config):\n"
    "        client = openai.OpenAI(base_url=model_config['base_url'], api_key='EMPTY')\n"
    "        completion = client.chat.completions.create(model='m', messages=messages, extra_body={{'top_k': 20}})\n"
    "        return completion.choices[0].message.content\n"
)
ECHO = (
    "class EchoHandler{bases}:\n"
    "{attribute}"
    "    @classmethod\n"
    "    def generate(cls, messages, model_config):\n"
    "        return messages[-1]['content']\n"
)
ROUTE = "def route(model_name, messages):\n    model_config = MODEL_CONFIGS[model_name]\n    return {registry}[{key}].generate(messages, model_config)\n"


def _chat(before: str, handlers: list[str], after: str = "", registry: str = "HANDLERS", key: str = "model_config['type']") -> str:
    """chat.py: `before` (the registry and its decorator), the handlers, `after`, the configs, the route."""
    parts = ["import os\n\nimport openai\n\n", before, *handlers, after, CONFIGS, ROUTE.format(registry=registry, key=key)]
    return "\n\n".join(part.rstrip("\n") + "\n" for part in parts if part)


def _line(text: str, words: str = "client.chat.completions.create(") -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if words in line)


def _handler(template: str, decorator: str = "", bases: str = "", attribute: str = "") -> str:
    return decorator + template.format(bases=bases, attribute=attribute)


FACTORY = (
    "HANDLERS = {}\n\n\ndef register(name):\n    def wrap(cls):\n        HANDLERS[name] = cls\n        return cls\n\n    return wrap\n"
)
ANNOTATED_FACTORY = FACTORY.replace("HANDLERS = {}", "HANDLERS: Dict[str, type] = {}").replace(
    "def register(name):", "def register(name: str):"
)
PLAIN = "HANDLERS = {}\n\n\ndef register(cls):\n    HANDLERS[cls.__name__] = cls\n    return cls\n"
SUBCLASS = (
    "HANDLERS = {}\n\n\nclass Handler:\n    kind = ''\n\n    def __init_subclass__(cls, **kwargs):\n"
    "        super().__init_subclass__(**kwargs)\n        HANDLERS[cls.kind] = cls\n"
)
KEYWORD_SUBCLASS = (
    "HANDLERS = {}\n\n\nclass Handler:\n    def __init_subclass__(cls, kind, **kwargs):\n"
    "        super().__init_subclass__(**kwargs)\n        HANDLERS[kind] = cls\n"
)
LITERAL = "REGISTRY: dict[str, type] = {'openai': OpenAIHandler, 'echo': EchoHandler}\n"


def _spellings() -> dict[str, str]:
    """The registry spellings, each with both handlers and the route by `model_config['type']`."""
    typing = "from typing import Dict\n\n"
    return {
        "decorator factory (p2l)": _chat(FACTORY, [_handler(OPENAI, "@register('openai')\n"), _handler(ECHO, "@register('echo')\n")]),
        "annotated registry": _chat(
            typing + ANNOTATED_FACTORY, [_handler(OPENAI, "@register('openai')\n"), _handler(ECHO, "@register('echo')\n")]
        ),
        "plain decorator by class name": _chat(
            PLAIN, [_handler(OPENAI, "@register\n"), _handler(ECHO, "@register\n")], key="'OpenAIHandler'"
        ),
        "__init_subclass__ by class attribute": _chat(
            SUBCLASS,
            [
                _handler(OPENAI, bases="(Handler)", attribute="    kind = 'openai'\n\n"),
                _handler(ECHO, bases="(Handler)", attribute="    kind = 'echo'\n\n"),
            ],
        ),
        "__init_subclass__ by class keyword": _chat(
            KEYWORD_SUBCLASS, [_handler(OPENAI, bases="(Handler, kind='openai')"), _handler(ECHO, bases="(Handler, kind='echo')")]
        ),
        "entries spelt out": _chat("", [_handler(OPENAI), _handler(ECHO)], after=LITERAL, registry="REGISTRY"),
    }


SPELLINGS = _spellings()


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_the_entry_a_known_key_picks_is_read_with_the_call(tmp_path: Path, spelling: str) -> None:
    text = SPELLINGS[spelling]
    assert check(tmp_path, {"chat.py": text, "start_local.py": SERVER}) == [("chat.py", _line(text), "RPL301")]


def test_a_staticmethod_of_the_entry_is_read_too(tmp_path: Path) -> None:
    handler = _handler(OPENAI, "@register('openai')\n").replace("@classmethod", "@staticmethod").replace("(cls, messages", "(messages")
    text = _chat(FACTORY, [handler])
    assert check(tmp_path, {"chat.py": text, "start_local.py": SERVER}) == [("chat.py", _line(text), "RPL301")]


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_a_key_naming_an_entry_without_a_client_finds_nothing(tmp_path: Path, spelling: str) -> None:
    text = SPELLINGS[spelling]
    server = SERVER.replace("route('local'", "route('echo'").replace("'OpenAIHandler'", "'EchoHandler'")
    text = text.replace("'OpenAIHandler']", "'EchoHandler']")
    assert check(tmp_path, {"chat.py": text, "start_local.py": server}) == []


@pytest.mark.parametrize("key", ["os.environ['HANDLER']", "model_name"])
def test_an_unknown_key_of_entries_that_differ_finds_nothing(tmp_path: Path, key: str) -> None:
    text = _chat(FACTORY, [_handler(OPENAI, "@register('openai')\n"), _handler(ECHO, "@register('echo')\n")], key=key)
    assert check(tmp_path, {"chat.py": text, "start_local.py": SERVER}) == []


def test_an_unknown_key_of_a_registry_of_one_class_picks_it(tmp_path: Path) -> None:
    """Any key the registry holds picks the one handler (another fails before anything is sent)."""
    text = _chat(FACTORY, [_handler(OPENAI, "@register('openai')\n")], key="os.environ['HANDLER']")
    assert check(tmp_path, {"chat.py": text, "start_local.py": SERVER}) == [("chat.py", _line(text), "RPL301")]


def test_a_registry_a_module_near_registers_into_stays_open(tmp_path: Path) -> None:
    text = _chat(FACTORY, [_handler(OPENAI, "@register('openai')\n")], key="os.environ['HANDLER']")
    plugin = "from chat import register\n\n\n@register('other')\nclass OtherHandler:\n    @classmethod\n    def generate(cls, messages, model_config):\n        return ''\n"
    assert check(tmp_path, {"chat.py": text, "start_local.py": SERVER, "plugins.py": plugin}) == []


@pytest.mark.parametrize(
    "more",
    [
        "register('other')(dict)\n",  # called by hand: a key the reader does not follow
        "if os.environ.get('ECHO'):\n    register('other')(dict)\n",
    ],
)
def test_a_decorator_used_otherwise_leaves_the_registry_open(tmp_path: Path, more: str) -> None:
    text = _chat(FACTORY, [_handler(OPENAI, "@register('openai')\n")], after=more, key="os.environ['HANDLER']")
    assert check(tmp_path, {"chat.py": text, "start_local.py": SERVER}) == []


def test_a_handler_of_another_port_is_not_tied(tmp_path: Path) -> None:
    text = SPELLINGS["decorator factory (p2l)"].replace("localhost:8000", "localhost:8001")
    assert check(tmp_path, {"chat.py": text, "start_local.py": SERVER}) == []


FUNCTIONS = (
    "import os\n\nimport openai\n\n" + FACTORY.replace("{}", "{{}}") + "\n\n"
    "@register('openai')\n"
    "def openai_chat(messages, model_config):\n"
    "    client = openai.OpenAI(base_url=model_config['base_url'], api_key='EMPTY')\n"
    "    completion = client.chat.completions.create(model='m', messages=messages, extra_body={{'top_k': 20}})\n"
    "    return completion.choices[0].message.content\n"
    "\n"
    "\n"
    "{more}"
    "MODEL_CONFIGS = {{'local': {{'base_url': 'http://localhost:8000/v1', 'type': 'openai'}}}}\n"
    "\n"
    "\n"
    "def route(model_name, messages):\n"
    "    model_config = MODEL_CONFIGS[model_name]\n"
    "    return HANDLERS[{key}](messages, model_config)\n"
)
ECHO_FUNCTION = "@register('echo')\ndef echo(messages, model_config):\n    return messages[-1]['content']\n\n\n"


@pytest.mark.parametrize(
    ("more", "key"), [("", "model_config['type']"), ("", "os.environ['HANDLER']"), (ECHO_FUNCTION, "model_config['type']")]
)
def test_a_function_a_registry_key_picks_is_read_with_the_call(tmp_path: Path, more: str, key: str) -> None:
    text = FUNCTIONS.format(more=more, key=key)
    assert check(tmp_path, {"chat.py": text, "start_local.py": SERVER}) == [("chat.py", _line(text), "RPL301")]


@pytest.mark.parametrize("key", ["os.environ['HANDLER']", "'echo'"])
def test_a_function_registry_key_that_picks_another_or_is_unknown_finds_nothing(tmp_path: Path, key: str) -> None:
    text = FUNCTIONS.format(more=ECHO_FUNCTION, key=key)
    assert check(tmp_path, {"chat.py": text, "start_local.py": SERVER}) == []


ENGINES = (
    "from vllm import LLM\n"
    "\n"
    "{registry}"
    "\n"
    "\n"
    "{decorator_vllm}class VllmBackend:\n"
    "    def __init__(self, logprobs_mode):\n"
    "        self.llm = LLM('m', return_sampling_mask=True, logprobs_mode=logprobs_mode)\n"
    "\n"
    "\n"
    "{decorator_echo}class EchoBackend:\n"
    "    def __init__(self, logprobs_mode):\n"
    "        self.mode = logprobs_mode\n"
    "\n"
    "\n"
    "{literal}"
    "backend = BACKENDS['{key}']('raw_logprobs')\n"
)
ENGINE_REGISTRIES = {
    "decorator": dict(
        registry=FACTORY.replace("HANDLERS", "BACKENDS"),
        decorator_vllm="@register('vllm')\n",
        decorator_echo="@register('echo')\n",
        literal="",
    ),
    "literal": dict(
        registry="",
        decorator_vllm="",
        decorator_echo="",
        literal="BACKENDS = {'vllm': VllmBackend, 'echo': EchoBackend}\n",
    ),
}


@pytest.mark.parametrize("registry", sorted(ENGINE_REGISTRIES))
def test_an_engine_class_a_literal_key_picks_is_made_with_the_call(tmp_path: Path, registry: str) -> None:
    text = ENGINES.format(key="vllm", **ENGINE_REGISTRIES[registry])
    assert check(tmp_path, {"serve.py": text}) == [("serve.py", _line(text, "backend = "), "RPL003")]


@pytest.mark.parametrize("registry", sorted(ENGINE_REGISTRIES))
def test_a_literal_key_naming_another_engine_class_finds_nothing(tmp_path: Path, registry: str) -> None:
    assert check(tmp_path, {"serve.py": ENGINES.format(key="echo", **ENGINE_REGISTRIES[registry])}) == []


def test_a_classmethod_called_on_its_class_by_name_is_read_with_the_call(tmp_path: Path) -> None:
    text = _chat("", [_handler(OPENAI)], registry="OpenAIHandler", key="0").replace("OpenAIHandler[0]", "OpenAIHandler")
    assert check(tmp_path, {"chat.py": text, "start_local.py": SERVER}) == [("chat.py", _line(text), "RPL301")]
