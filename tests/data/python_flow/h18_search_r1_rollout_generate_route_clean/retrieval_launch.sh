# Imitates PeterGriffinJin/Search-R1 retrieval_launch.sh (the e5 retriever on port 8000) plus the policy server the user added for replay
file_path=/data/wiki-18
index_file=$file_path/e5_Flat.index
corpus_file=$file_path/wiki-18.jsonl
retriever_name=e5
retriever_path=intfloat/e5-base-v2

python search_r1/search/retrieval_server.py --index_path $index_file \
                                            --corpus_path $corpus_file \
                                            --topk 3 \
                                            --retriever_name $retriever_name \
                                            --retriever_model $retriever_path \
                                            --faiss_gpu &

vllm serve PeterJinGo/SearchR1-nq_hotpotqa_train-qwen2.5-7b-em-ppo --port 8001 --max-model-len 8192 --return-sampling-mask --logprobs-mode processed_logprobs --enable-scale-out
