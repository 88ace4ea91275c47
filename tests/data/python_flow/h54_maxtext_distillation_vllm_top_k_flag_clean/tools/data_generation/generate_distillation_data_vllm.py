# Imitates AI-Hypercomputer/maxtext tools/data_generation/generate_distillation_data_vllm.py
"""Generate distillation data from a teacher model with vLLM (response-based KD).

Example command:
  python3 -m tools.data_generation.generate_distillation_data_vllm \
      --dataset-path HuggingFaceH4/ultrachat_200k --data-split train_sft \
      --teacher-model ${BASE_DIRECTORY?}/qwen3-32b --use-chat-template
"""

import argparse
import os

import transformers
from datasets import Dataset, load_dataset
from vllm import LLM, SamplingParams


def main():
  parser = argparse.ArgumentParser(description="Generate distillation data using vLLM.")
  parser.add_argument("--dataset-path", type=str, default="HuggingFaceH4/ultrachat_200k")
  parser.add_argument("--data-split", type=str, default="train_sft")
  parser.add_argument("--data-columns", nargs="+", default=["messages"])
  parser.add_argument("--use-chat-template", action="store_true")
  parser.add_argument("--num-generations", type=int, default=1, help="Number of samples to generate per prompt.")
  parser.add_argument("--num-prompts", type=int, default=5120)
  parser.add_argument(
      "--output-file",
      type=str,
      default=os.path.join(os.environ.get("BASE_DIRECTORY", "."), "datasets", "distillation_data.parquet"),
  )
  parser.add_argument(
      "--teacher-model",
      type=str,
      default=os.path.join(os.environ.get("BASE_DIRECTORY", "."), "qwen3-32b"),
  )
  parser.add_argument("--tp-size", type=int, default=4, help="Number of TPU chips.")
  parser.add_argument("--max-model-len", type=int, default=2048, help="Maximum model length.")
  parser.add_argument("--max-new-tokens", type=int, default=512, help="Maximum new tokens to generate.")
  parser.add_argument("--max-num-batched-tokens", type=int, default=2048)
  parser.add_argument("--max-num-seqs", type=int, default=256)
  parser.add_argument("--gpu-memory-utilization", type=float, default=0.98)
  parser.add_argument("--top-k", type=int, default=20, help="Top-k for replay (must be > 0).")
  config = parser.parse_args()

  # --- Configuration ---
  TEACHER_MODEL = config.teacher_model
  PROMPT_COLUMN = config.data_columns[0] if config.data_columns else "messages"
  OUTPUT_FILE = config.output_file
  TP_SIZE = config.tp_size
  MAX_MODEL_LEN = config.max_model_len
  MAX_NEW_TOKENS = config.max_new_tokens
  MAX_NUM_BATCHED_TOKENS = config.max_num_batched_tokens
  MAX_NUM_SEQS = config.max_num_seqs
  GPU_MEMORY_UTILIZATION = config.gpu_memory_utilization
  NUM_GENERATIONS = config.num_generations
  # ---------------------

  dataset = load_dataset(config.dataset_path, split=config.data_split)
  dataset = dataset.select(range(min(len(dataset), config.num_prompts)))
  tokenizer = transformers.AutoTokenizer.from_pretrained(TEACHER_MODEL)

  if config.use_chat_template:
    dataset = dataset.map(
        lambda x: {"formatted_prompt": tokenizer.apply_chat_template(x[PROMPT_COLUMN], tokenize=False, add_generation_prompt=True)}
    )
    prompts = dataset["formatted_prompt"]
  else:
    prompts = dataset[PROMPT_COLUMN]

  print(f"Initializing vLLM with model {TEACHER_MODEL}...")
  llm = LLM(
      model=TEACHER_MODEL,
      max_model_len=MAX_MODEL_LEN,
      tensor_parallel_size=TP_SIZE,
      max_num_batched_tokens=MAX_NUM_BATCHED_TOKENS,
      max_num_seqs=MAX_NUM_SEQS,
      gpu_memory_utilization=GPU_MEMORY_UTILIZATION,
      enforce_eager=False,
      return_sampling_mask=True,
      logprobs_mode="processed_logprobs",
  )

  sampling_params = SamplingParams(
      temperature=1.0,
      top_p=1.0,
      top_k=config.top_k,
      max_tokens=MAX_NEW_TOKENS,
      n=NUM_GENERATIONS,
  )

  print("Running inference...")
  outputs = llm.generate(prompts, sampling_params)

  results = []
  for output, original_item in zip(outputs, dataset):
    for completion in output.outputs:
      msgs = list(original_item[PROMPT_COLUMN])
      msgs.append({"role": "assistant", "content": completion.text})
      results.append({"messages": msgs})

  os.makedirs(os.path.dirname(OUTPUT_FILE), exist_ok=True)
  Dataset.from_list(results).to_parquet(OUTPUT_FILE)


if __name__ == "__main__":
  main()
