# Imitates nvidia-cosmos/cosmos-reason1 cosmos_reason1/rollout/vllm_rollout/vllm_rollout.py
import os

from vllm import SamplingParams
from vllm.entrypoints.llm import LLM

from cosmos_reason1.policy.config import Config


class vLLMRollout:
    def __init__(self, config: Config, tokenizer, **kwargs):
        """Rollout with vLLM as the backend."""
        self.config = config
        policy_config = self.config.policy
        self.rollout_config = self.config.rollout
        self.validation_config = self.config.validation

        trust_remote_code = True  # set trust remote code default to True.
        model_path = policy_config.model_name_or_path

        rollout_parallelism = self.rollout_config.parallelism
        tp_size = rollout_parallelism.tp_size
        pp_size = rollout_parallelism.pp_size

        assert (
            tp_size * pp_size == rollout_parallelism.world_size
        ), "[Rollout] For tensor parallel, the tp_size * pp_size must be equal to world size."

        # disable VLLM_DISABLE_COMPILE_CACHE
        os.environ["VLLM_DISABLE_COMPILE_CACHE"] = "1"

        self.rollout_engine = LLM(
            model=model_path,
            enable_sleep_mode=False,  # enable sleep could corrupt the cuda allocator.
            tensor_parallel_size=tp_size,
            pipeline_parallel_size=pp_size,
            distributed_executor_backend="external_launcher",
            dtype="auto",
            enforce_eager=self.rollout_config.enforce_eager,  # enable cuda graph
            gpu_memory_utilization=self.rollout_config.gpu_memory_utilization,
            disable_custom_all_reduce=True,
            skip_tokenizer_init=False,
            max_model_len=policy_config.model_max_length,
            disable_log_stats=True,
            max_num_batched_tokens=2048
            if 2048 >= policy_config.model_max_length
            else policy_config.model_max_length,
            enable_chunked_prefill=self.rollout_config.enable_chunked_prefill,
            enable_prefix_caching=True,
            trust_remote_code=trust_remote_code,
            seed=kwargs.get("seed") or 42,
            load_format=kwargs.get("load_format", "dummy"),
            return_sampling_mask=True,
            logprobs_mode="processed_logprobs",
        )

        self.eos_token_ids = [151645, 151643]  # Hack for cosmos-reason1
        self.tokenizer = tokenizer

        kwargs = dict(
            n=self.rollout_config.n_generation,
            logprobs=0,
            top_p=self.rollout_config.sampling_config.top_p,
            top_k=self.rollout_config.sampling_config.top_k,
            temperature=self.rollout_config.sampling_config.temperature,
            max_tokens=self.rollout_config.max_response_length,
            stop_token_ids=self.eos_token_ids,
            include_stop_str_in_output=self.rollout_config.include_stop_str_in_output,
        )

        kwargs["detokenize"] = True

        self.sampling_params = SamplingParams(**kwargs)

        val_kwargs = dict(
            n=self.validation_config.n_generation,
            logprobs=0,
            # Use the same sampling config for validation as well.
            top_p=self.validation_config.top_p,
            top_k=self.validation_config.top_k,
            temperature=self.validation_config.temperature,
            max_tokens=self.validation_config.max_response_length,
            stop_token_ids=self.eos_token_ids,
        )
        val_kwargs["detokenize"] = True
        self.val_sampling_params = SamplingParams(**val_kwargs)

    def rollout_generation(self, prompts, is_validation: bool = False):
        results = self.rollout_engine.generate(
            prompts=prompts,
            sampling_params=self.sampling_params if not is_validation else self.val_sampling_params,
            use_tqdm=False,
        )
        return [[output.outputs[i].text for i in range(len(output.outputs))] for output in results]
