# Imitates google/tunix tests/generate/vllm_sampler_test.py (a VllmSampler built and called directly), trimmed.
import jax
from transformers import AutoTokenizer
from tunix.generate import vllm_sampler

MODEL_VERSION = "meta-llama/Llama-3.2-1B-Instruct"


def main():
  mesh = jax.make_mesh((1, 1), ("fsdp", "tp"))
  tokenizer = AutoTokenizer.from_pretrained(MODEL_VERSION)
  vl_sampler = vllm_sampler.VllmSampler(
      tokenizer=tokenizer,
      config=vllm_sampler.VllmConfig(
          mesh=mesh,
          hbm_utilization=0.2,
          init_with_random_weights=False,
          tpu_backend_type="jax",
          tensor_parallel_size=1,
          data_parallel_size=1,
          engine_kwargs={
              "model": MODEL_VERSION,
              "max_model_len": 512,
              "return_sampling_mask": True,  # expect: RPL003
          },
      ),
  )
  vllm_output = vl_sampler(
      input_strings=["Tell me a joke about cats."],
      max_generation_steps=128,
      temperature=0.7,
      top_k=20,
  )
  print(vllm_output.text)


if __name__ == "__main__":
  main()
