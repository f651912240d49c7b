"""The wheel's build hook: with ENGINE_COMPILE=1, the runtime compiled to C by Cython.

`ENGINE_COMPILE=1 pip install .` builds the modules named in pyproject.toml
([tool.hatch.build.targets.wheel.hooks.custom] `modules`: the runtime a game's every step
runs through) as extension modules, unchanged Python compiled by Cython, beside their .py
files: Python imports the extension first. The wheel is then for this Python and platform
only. Without ENGINE_COMPILE (the default, and every editable install, whose .py files a
developer edits) nothing is compiled and the wheel is pure Python. `engine compile PACK`
compiles a pack's rules the same way (engine.dsl.native).
"""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def wanted() -> bool:
    return os.environ.get("ENGINE_COMPILE", "").strip().lower() in ("1", "yes", "true", "on")


class CompiledRuntime(BuildHookInterface):
    def dependencies(self) -> list[str]:
        return ["cython>=3.0", "setuptools>=61"] if wanted() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable" or not wanted():
            return
        root = Path(self.root)
        # Cython's settings, those the rules are compiled with (engine.dsl.native imports
        # the standard library only, so the build environment can import it)
        sys.path.insert(0, str(root))
        from engine.dsl.native import DIRECTIVES
        modules = sorted({m for pattern in self.config.get("modules", [])
                          for m in glob.glob(pattern, root_dir=root)
                          if not m.endswith("__init__.py")})
        self._scratch = tempfile.mkdtemp(prefix="engine-compile-")
        scratch = Path(self._scratch)
        # compiled in a copy (the checkout gets no .c or .so files), with the packages'
        # __init__.py, by which Cython names each module (engine.core.runtime.loop)
        packages = {str(p / "__init__.py") for m in modules for p in Path(m).parents
                    if (root / p / "__init__.py").is_file()}
        for m in [*modules, *packages]:
            (scratch / m).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(root / m, scratch / m)
        script = textwrap.dedent(f"""
            import os
            DIRECTIVES = {DIRECTIVES!r}
            from setuptools import setup
            from Cython.Build import cythonize
            setup(name="engine-runtime",
                  script_args=["build_ext", "--inplace", "-q", "-j", str(os.cpu_count() or 1)],
                  ext_modules=cythonize({modules!r}, quiet=True,
                                        nthreads=os.cpu_count() or 1,
                                        compiler_directives=DIRECTIVES))
        """)
        subprocess.run([sys.executable, "-c", script], cwd=scratch, check=True)
        for m in modules:
            stem = Path(m).with_suffix("")
            for built in scratch.glob(f"{stem}.*"):
                if built.suffix in (".so", ".pyd"):
                    build_data["force_include"][str(built)] = str(built.relative_to(scratch))
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
