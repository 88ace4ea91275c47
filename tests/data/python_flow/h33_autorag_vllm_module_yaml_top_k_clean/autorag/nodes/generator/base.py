# Imitates Marker-Inc-Korea/AutoRAG autorag/nodes/generator/vllm.py, autorag/nodes/generator/base.py (generator_node, trimmed to a pass-through)
import functools
import logging

logger = logging.getLogger("AutoRAG")


def generator_node(func):
	@functools.wraps(func)
	def wrapper(prompts, llm: str, **kwargs):
		logger.info(f"Running generator node - {func.__name__} module...")
		return func(prompts, llm, **kwargs)

	return wrapper
