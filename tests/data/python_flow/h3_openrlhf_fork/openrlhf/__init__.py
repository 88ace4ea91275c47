# Imitates OpenRLHF/OpenRLHF openrlhf/ @ 3c3be6234e0cb353e76bb8019947db9dfe99fca7 (a fork's package).
