"""Content packs shipped with the engine (YAML records and .rules files)."""
