# Imitates ShishirPatil/gorilla berkeley-function-call-leaderboard/bfcl_eval/model_handler/local_inference/qwen.py
from bfcl_eval.model_handler.base_oss_handler import OSSHandler


class QwenHandler(OSSHandler):
    dtype = "float16"


if __name__ == "__main__":
    QwenHandler("Qwen/Qwen2.5-1.5B-Instruct", temperature=0.7).spin_up_local_server(num_gpus=1)
