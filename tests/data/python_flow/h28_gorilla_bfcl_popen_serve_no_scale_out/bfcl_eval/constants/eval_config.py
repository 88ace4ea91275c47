# Imitates ShishirPatil/gorilla berkeley-function-call-leaderboard/bfcl_eval/constants/eval_config.py
LOCAL_SERVER_PORT = 1053
