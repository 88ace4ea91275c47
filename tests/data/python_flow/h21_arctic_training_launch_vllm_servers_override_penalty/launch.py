# Imitates snowflakedb/ArcticTraining arctic_training/synth/vllm_callers.py (MultiReplicaVllmSynth.__init__ calls
# launch_vllm_servers(self.model, tensor_parallel, gpu_ids=gpu_ids)).
from synth.vllm_utils import launch_vllm_servers

if __name__ == "__main__":
    print(launch_vllm_servers("Snowflake/Llama-3.1-SwiftKV-8B-Instruct", 2))
