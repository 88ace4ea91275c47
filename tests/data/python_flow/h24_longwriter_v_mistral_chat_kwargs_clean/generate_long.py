# Imitates THU-KEG/LongWriter-V inference scripts: a shared dict of sampling keywords updated per
# run and forwarded to the local model's chat.
from inference.local.mistral import get_model

GEN_KWARGS = {"temperature": 0.5, "max_tokens": 8192}
GEN_KWARGS.update(top_k=30, top_p=0.8)

model = get_model("12b")
msgs = [{"role": "user", "content": "Write a 5000-word essay about autumn."}]
print(model.inference(msgs, **GEN_KWARGS))
