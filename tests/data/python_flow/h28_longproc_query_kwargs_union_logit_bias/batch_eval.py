# Imitates princeton-pli/LongProc batch_eval.py (a task loop calling the query helper), with query_kwargs that
# keep the model from emitting a tab token in the wrong place.
from llm_utils import _batch_vllm_query

TAB_TOKEN_ID = 197

if __name__ == "__main__":
    prompts = [[{"role": "user", "content": "Convert the HTML table to TSV."}]]
    _batch_vllm_query(
        prompts,
        "Qwen/Qwen2.5-7B-Instruct",
        max_tokens=1024,
        temperature=0.6,
        query_kwargs={"logit_bias": {TAB_TOKEN_ID: -5.0}},  # expect: RPL302
    )
