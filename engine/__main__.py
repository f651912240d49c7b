"""`python -m engine ...`: the same as the `engine` command."""
import sys

from engine.cli import main

sys.exit(main())
