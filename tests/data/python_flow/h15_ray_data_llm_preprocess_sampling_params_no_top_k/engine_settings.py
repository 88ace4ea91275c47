# Imitates ray-project/ray doc/source/data/doc_code/working-with-llms/basic_llm_example.py (engine_kwargs dict)
ENGINE_KWARGS = dict(
    enable_chunked_prefill=True,
    max_num_batched_tokens=4096,
    max_model_len=16384,
)
ENGINE_KWARGS.setdefault("return_sampling_mask", True)
ENGINE_KWARGS.setdefault("logprobs_mode", "processed_logprobs")
