"""`python -m engine ...`: the same as the `engine` command."""
from engine.frontends.cli.entry import script

script()
