"""Where the arbiter keeps its database (docs/install.md, issue 24): the setting, else a source
tree's instance/, else the user data folder of an installed package. `make dist-check` installs
the wheel itself and runs it outside the checkout. The checkout's top level is the one the project
was specified with, schema.sql included, and the wheel carries that schema.sql (issue 34)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import platformdirs
import pytest

from mentalmagic import runtime, storage

ROOT = Path(__file__).resolve().parents[1]
SPECIFIED = ["app.py", "mentalmagic", "schema.sql", "cards", "tests", "requirements.txt", "README.md"]


def test_the_top_level_holds_the_specified_files_and_the_one_schema():
    assert [name for name in SPECIFIED if not (ROOT / name).exists()] == []
    assert storage.SCHEMA_PATH == ROOT / "schema.sql"  # a checkout reads the top level's
    assert not (ROOT / "mentalmagic" / "storage" / "schema.sql").exists()  # no second copy to drift


@pytest.mark.processes
def test_the_wheel_carries_the_top_levels_schema_byte_for_byte(tmp_path):
    """The sdist, then the wheel built from it (as `make dist` does), offline: the build tools of
    requirements-dev.txt instead of an isolated environment."""
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True, timeout=300)
    [wheel] = tmp_path.glob("mentalmagic-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        assert zf.read("mentalmagic/storage/schema.sql") == (ROOT / "schema.sql").read_bytes()


def test_the_setting_then_the_checkout_then_the_users_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("MENTALMAGIC_DB", str(tmp_path / "named.sqlite"))
    assert runtime.default_db_path() == tmp_path / "named.sqlite"

    monkeypatch.delenv("MENTALMAGIC_DB")
    assert (runtime.ROOT / "pyproject.toml").is_file()  # these tests run from a checkout
    assert runtime.default_db_path() == runtime.ROOT / "instance" / "mentalmagic.sqlite"

    installed = tmp_path / "site-packages"  # an installed package: no pyproject.toml above it
    (installed / "mentalmagic").mkdir(parents=True)
    monkeypatch.setattr(runtime, "ROOT", installed)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = runtime.default_db_path()
    assert path == platformdirs.user_data_path("mentalmagic", appauthor=False) / "mentalmagic.sqlite"
    if sys.platform.startswith("linux"):
        assert path == tmp_path / "data" / "mentalmagic" / "mentalmagic.sqlite"
