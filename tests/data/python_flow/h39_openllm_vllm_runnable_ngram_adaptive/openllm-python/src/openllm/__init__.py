# Imitates bentoml/OpenLLM openllm-python/src/openllm/__init__.py (the package exporting LLM; its lazy module
# loader trimmed to plain imports).
import openllm_core

from . import utils
from ._llm import LLM
from ._runners import runnable

__all__ = ['LLM', 'runnable', 'utils', 'openllm_core']
