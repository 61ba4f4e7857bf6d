"""Where the arbiter keeps its database (docs/install.md, issue 24): the setting, else a source
tree's instance/, else the user data folder of an installed package. `make dist-check` installs
the wheel itself and runs it outside the checkout."""

from __future__ import annotations

import sys

import platformdirs

from mentalmagic import runtime


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
