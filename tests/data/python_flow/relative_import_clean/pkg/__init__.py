# Imitates a package whose engine defaults sit next to its rollout module.
