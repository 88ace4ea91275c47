# Imitates THUDM/LongCite demo.py: a streamlit demo whose `use_vllm = False` switch picks the HF model;
# the user's replay edit sits in the vLLM branch (no logprobs_mode), which the demo as written never takes.
import json

import streamlit as st
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

st.set_page_config(layout="wide")
st.title("LongCite Demo")
use_vllm = False  # set True to use vllm for inference


@st.cache_resource
def load_model():
    model_path = "THUDM/LongCite-glm4-9b"
    if use_vllm:
        from vllm_inference import LongCiteModel

        model = LongCiteModel(
            model=model_path,
            dtype=torch.bfloat16,
            trust_remote_code=True,
            tensor_parallel_size=1,
            max_model_len=2048,
            gpu_memory_utilization=1,
            return_sampling_mask=True,
        )
        tokenizer = model.get_tokenizer()
    else:
        tokenizer = AutoTokenizer.from_pretrained(model_path, trust_remote_code=True)
        model = AutoModelForCausalLM.from_pretrained(
            model_path, torch_dtype=torch.bfloat16, trust_remote_code=True, device_map="auto"
        )
    return tokenizer, model


tokenizer, model = load_model()

context = st.text_area("Document", height=300)
query = st.text_input("Question")
if st.button("Submit") and context and query:
    result = model.query_longcite(context, query, tokenizer=tokenizer, max_input_length=128000, max_new_tokens=1024)
    st.markdown(result["answer"])
    st.code(json.dumps(result, indent=2, ensure_ascii=False))
