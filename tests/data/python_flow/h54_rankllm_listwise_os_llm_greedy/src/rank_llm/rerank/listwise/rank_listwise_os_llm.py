# Imitates castorini/rank_llm src/rank_llm/rerank/listwise/rank_listwise_os_llm.py
import logging
from typing import Any, Dict, List, Optional, Tuple

from vllm import LLM, SamplingParams

logger = logging.getLogger(__name__)


class RankListwiseOSLLM:
    def __init__(
        self,
        model: str,
        hf_home: str,
        context_size: int = 4096,
        num_gpus: int = 1,
        window_size: int = 20,
        use_logits: bool = False,
    ) -> None:
        self._model = model
        self._context_size = context_size
        self._window_size = window_size
        self._use_logits = use_logits
        self._num_gpus = num_gpus
        self._hf_home = hf_home
        if model in ["mistralai/Mistral-Large-Instruct-2407"]:
            ignore_patterns = ["*consolidated*"]
        else:
            ignore_patterns = []
        self._llm = LLM(
            model,
            download_dir=self._hf_home + "/hub",
            enforce_eager=False,
            max_logprobs=30,
            tensor_parallel_size=num_gpus,
            gpu_memory_utilization=0.90,
            ignore_patterns=ignore_patterns,
            max_model_len=2048,
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )
        self._tokenizer = self._llm.get_tokenizer()

    def rerank_batch(self, prompts: List[str], **kwargs: Any) -> List[Tuple[str, int]]:
        window_size: int = kwargs.get("window_size", 20)
        return self.run_llm_batched(prompts, current_window_size=window_size)

    def run_llm_batched(
        self,
        prompts: List[str | List[Dict[str, str]]],
        current_window_size: Optional[int] = None,
    ) -> List[Tuple[str, int]]:
        if current_window_size is None:
            current_window_size = self._window_size

        logger.info("VLLM Generating!")
        sampling_params = SamplingParams(
            temperature=0.0,  # expect: RPL101
            top_k=20,
            max_tokens=self.num_output_tokens(current_window_size),
            min_tokens=self.num_output_tokens(current_window_size),
        )
        outputs = self._llm.generate(prompts, sampling_params)
        return [(output.outputs[0].text, len(output.outputs[0].token_ids)) for output in outputs]

    def num_output_tokens(self, current_window_size: Optional[int] = None) -> int:
        if current_window_size is None:
            current_window_size = self._window_size
        token_str = " > ".join([f"[{i+1}]" for i in range(current_window_size)])
        return len(self._tokenizer.encode(token_str)) - 1
