# Imitates RAGEN-AI/RAGEN ragen/llm_agent/agent_proxy.py (VllmWrapperWg, hydra main) and config/base.yaml
import os

import hydra
from transformers import AutoTokenizer
from vllm import LLM, SamplingParams


class VllmWrapperWg:  # Thi is a developing class for eval and test
    def __init__(self, config, tokenizer):
        self.config = config
        self.tokenizer = tokenizer
        model_name = config.actor_rollout_ref.model.path
        ro_config = config.actor_rollout_ref.rollout
        self.llm = LLM(
            model_name,
            tensor_parallel_size=ro_config.tensor_model_parallel_size,
            dtype=ro_config.dtype,
            enforce_eager=ro_config.enforce_eager,
            gpu_memory_utilization=ro_config.gpu_memory_utilization,
            disable_custom_all_reduce=True,
            skip_tokenizer_init=False,
            max_model_len=ro_config.max_model_len,
            disable_log_stats=ro_config.disable_log_stats,
            max_num_batched_tokens=ro_config.max_num_batched_tokens,
            enable_chunked_prefill=ro_config.enable_chunked_prefill,
            enable_prefix_caching=True,
            trust_remote_code=True,
            return_sampling_mask=True,  # expect: RPL003
        )
        print("LLM initialized")
        self.sampling_params = SamplingParams(
            max_tokens=ro_config.response_length,
            temperature=ro_config.val_kwargs.temperature,
            top_p=ro_config.val_kwargs.top_p,
            top_k=ro_config.val_kwargs.top_k,
            # min_p=0.1,
        )

    def generate_sequences(self, input_texts):
        outputs = self.llm.generate(input_texts, sampling_params=self.sampling_params)
        return [output.outputs[0].text for output in outputs]


@hydra.main(version_base=None, config_path="../../config", config_name="base")
def main(config):
    os.environ["VLLM_WORKER_MULTIPROC_METHOD"] = "spawn"
    os.environ["CUDA_VISIBLE_DEVICES"] = str(config.system.CUDA_VISIBLE_DEVICES)
    tokenizer = AutoTokenizer.from_pretrained(config.actor_rollout_ref.model.path)
    actor_wg = VllmWrapperWg(config, tokenizer)
    texts = actor_wg.generate_sequences(["You are solving Sokoban. Your move:"])
    print(f"rollout texts: {texts}")


if __name__ == "__main__":
    main()
