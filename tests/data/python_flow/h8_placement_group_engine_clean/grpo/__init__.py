# Imitates allenai/open-instruct open_instruct (the package holding the engine actors)
