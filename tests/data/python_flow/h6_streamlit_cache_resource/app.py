# Imitates the Streamlit chat demos (vllm-project/vllm/examples/online_serving/streamlit_openai_chatbot_webserver.py),
# here with the engine in process, cached with st.cache_resource and chosen in the sidebar
import streamlit as st
from vllm import LLM, SamplingParams


@st.cache_resource
def load_engine(model_name: str) -> LLM:
    return LLM(
        model=model_name,
        return_sampling_mask=True,  # expect: RPL003
        max_model_len=4096,
    )


st.title("Rollout playground")
model_name = st.sidebar.selectbox("Model", ["Qwen/Qwen2.5-1.5B-Instruct", "Qwen/Qwen2.5-3B-Instruct"])
temperature = st.sidebar.slider("Temperature", 0.0, 1.5, 0.7)
top_k = st.sidebar.number_input("Top-k", min_value=-1, max_value=200, value=50)
llm = load_engine(model_name)

if prompt := st.chat_input("Ask something"):
    params = SamplingParams(temperature=temperature, top_k=int(top_k), max_tokens=512)
    output = llm.generate([prompt], params)[0]
    st.chat_message("assistant").write(output.outputs[0].text)
