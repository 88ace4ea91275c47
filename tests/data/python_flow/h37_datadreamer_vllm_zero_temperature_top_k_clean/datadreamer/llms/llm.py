# Imitates datadreamer-dev/DataDreamer src/llms/llm.py (trimmed: the sampling-argument helper and the base class).
DEFAULT_BATCH_SIZE = 10


def _check_temperature_and_top_p(
    temperature: float,
    top_p: float,
    supports_zero_temperature: bool = True,
    supports_zero_top_p: bool = True,
    supports_one_top_p: bool = True,
) -> tuple[float, float]:
    if not supports_zero_temperature and temperature == 0.0:
        temperature = 1.0
        top_p = 0.0
    if not supports_zero_top_p and top_p == 0.0:
        temperature = 1.0
        top_p = 0.001
    if not supports_one_top_p and top_p == 1.0:
        top_p = 0.999
    return temperature, top_p


class LLM:
    def __init__(self, cache_folder_path: None | str = None):
        self.cache_folder_path = cache_folder_path
        self.chat_prompt_template: None | str = None
        self.system_prompt: None | str = None
