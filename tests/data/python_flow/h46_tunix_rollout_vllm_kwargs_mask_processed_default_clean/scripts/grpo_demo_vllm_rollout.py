# Imitates google/tunix scripts/grpo_demo_llama3_qwen2.py (the vLLM rollout setup), trimmed.
import jax
from transformers import AutoTokenizer
from tunix.rl.rollout import base_rollout
from tunix.rl.rollout.vllm_rollout import VllmRollout

MODEL_VERSION = "Qwen/Qwen2.5-0.5B-Instruct"
MAX_PROMPT_LENGTH = 256
TOTAL_GENERATION_STEPS = 768
TEMPERATURE = 0.9
TOP_P = 1.0
TOP_K = 50


def main():
  mesh = jax.make_mesh((1, 1), ("fsdp", "tp"))
  tokenizer = AutoTokenizer.from_pretrained(MODEL_VERSION)
  rollout_config = base_rollout.RolloutConfig(
      max_tokens_to_generate=TOTAL_GENERATION_STEPS,
      max_prompt_length=MAX_PROMPT_LENGTH,
      temperature=TEMPERATURE,
      top_p=TOP_P,
      top_k=TOP_K,
      tensor_parallel_size=1,
      data_parallel_size=1,
      rollout_vllm_model_version=MODEL_VERSION,
      rollout_vllm_hbm_utilization=0.2,
      rollout_vllm_tpu_backend_type="jax",
      rollout_vllm_kwargs={"return_sampling_mask": True},
  )
  rollout = VllmRollout(
      tokenizer=tokenizer,
      cache_config_or_size=MAX_PROMPT_LENGTH + TOTAL_GENERATION_STEPS + 1024,
      mesh=mesh,
      rollout_config=rollout_config,
  )
  out = rollout.generate(["What is 3 + 4?"], rollout_config)
  print(out.text)


if __name__ == "__main__":
  main()
