"""`python -m engine.i18n extract|compile|check|init`: the engine's gettext catalogues."""
import sys

try:
    from engine.i18n.catalogues import main
except ModuleNotFoundError as err:  # Babel is the `i18n` extra, not needed to play
    if err.name != "babel":
        raise
    sys.exit("python -m engine.i18n needs Babel: pip install 'engine-dsl[i18n]'")

sys.exit(main())
