# Ids from Qwen3's tokenizer.json ("added_tokens"), looked up once and pinned here.
SPECIAL_TOKEN_IDS = {
    "<|endoftext|>": 151643,
    "<|im_start|>": 151644,
    "<tool_call>": 151657,
}
