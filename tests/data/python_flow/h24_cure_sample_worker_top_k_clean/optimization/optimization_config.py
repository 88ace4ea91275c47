# Imitates Gen-Verse/CURE optimization/optimization_config.py: the run's settings as module
# constants, the defaults of sample.py's argparse options.
pretrained_model = "Gen-Verse/ReasonFlux-Coder-7B"
train_dataset = "CodeContests_train"
max_model_len = 10000
max_generation_token = 4096
temp = 1.0
k_code = 16
gpu_groups = [[0]]
