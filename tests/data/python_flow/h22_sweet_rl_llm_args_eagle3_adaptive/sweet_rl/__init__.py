# Imitates facebookresearch/sweet_rl (package root).
