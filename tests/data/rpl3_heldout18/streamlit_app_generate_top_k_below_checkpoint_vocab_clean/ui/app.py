import requests
import streamlit as st

from ui.settings import EXPLORE, SERVER

st.title("Policy sampler")
ids = st.text_input("token ids", "9707 11 1879")
if st.button("Generate"):
    body = {"model": "policy", "token_ids": [int(t) for t in ids.split()], "sampling_params": EXPLORE}
    out = requests.post(f"{SERVER}/inference/v1/generate", json=body, timeout=120).json()
    st.json(out["choices"][0])
