# Imitates willccbb/verifiers verifiers (a package whose settings module holds the engine's arguments)
