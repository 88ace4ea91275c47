# Imitates OpenRLHF/OpenRLHF openrlhf/__init__.py (a package of the tree).
