"""What pyproject.toml can't declare: the packages, the translation catalogues compiled into the wheel,
and the top level's schema.sql carried into it.

The packages are every folder under ``mentalmagic/`` (those holding only data too: setuptools
would otherwise warn that it may one day leave them out) and ``mentalmagic.carddata``, the
repository's ``cards/`` (pyproject.toml maps it).

Every ``.po`` under ``mentalmagic/`` becomes its ``.mo`` in the build (Babel, a build requirement),
and the ``.po`` is left out of the wheel: the installed package reads only the ``.mo``, so a
start never tries to recompile into a read-only site-packages. The ``.po`` stays the committed
source (and ships in the sdist).

``schema.sql`` stays at the repository's top level, its one source (MANIFEST.in puts it in the
sdist); the build copies it to ``mentalmagic/storage/schema.sql`` in the wheel, where
``mentalmagic.storage`` looks first (a checkout has no copy there and reads the top level's).
"""

import shutil
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py

SCHEMA = Path(__file__).resolve().parent / "schema.sql"


class BuildPyWithCatalogues(build_py):
    def run(self):
        super().run()
        if self.editable_mode:  # an editable install reads the checkout's .mo (`make setup` compiles it)
            return
        shutil.copyfile(SCHEMA, Path(self.build_lib) / "mentalmagic" / "storage" / "schema.sql")
        for po in sorted(Path(self.build_lib).glob("mentalmagic/**/LC_MESSAGES/*.po")):
            with open(po, "rb") as fh:
                catalog = read_po(fh)
            with open(po.with_suffix(".mo"), "wb") as fh:
                write_mo(fh, catalog)
            po.unlink()


setup(
    packages=[*find_namespace_packages(include=["mentalmagic*"], exclude=["*__pycache__"]), "mentalmagic.carddata"],
    cmdclass={"build_py": BuildPyWithCatalogues},
)
