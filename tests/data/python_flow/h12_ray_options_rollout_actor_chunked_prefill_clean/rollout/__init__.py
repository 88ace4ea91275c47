# Imitates OpenRLHF/OpenRLHF (package marker of openrlhf/trainer/ray/).
