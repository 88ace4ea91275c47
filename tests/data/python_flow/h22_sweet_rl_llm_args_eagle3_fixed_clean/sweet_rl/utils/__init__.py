# Imitates facebookresearch/sweet_rl sweet_rl/utils.
