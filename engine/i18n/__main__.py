"""`python -m engine.i18n extract|compile|check|init`: the engine's gettext catalogues."""
import sys

from engine.i18n.catalogues import main

sys.exit(main())
