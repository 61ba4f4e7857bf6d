"""Card sources (cards/): a tiny AtomicCards file in three compressions, the embedded
snapshot as the default, and rebuilding the card tables when the source changes."""

from __future__ import annotations

import fnmatch
import gzip
import json
import lzma
import os
import shutil
import tomllib

import pytest

from mentalmagic import carddata as cards
from mentalmagic.carddata import Source, source_from_env
from mentalmagic.carddata.atomic import read_atomic
from mentalmagic.carddata.banlist import read_banlist
from mentalmagic.index import CandidateFinder
from mentalmagic.mana import NO_COST, ManaCost
from mentalmagic.runtime import ensure_cards, stale_source
from mentalmagic.storage.carddb import read_pool

LEGAL = {"vintage": "Legal", "legacy": "Legal", "commander": "Legal"}


def french(name, face_name=None):
    entry = {"language": "French", "name": name}
    if face_name:
        entry["faceName"] = face_name
    return [{"language": "German", "name": "Nicht Französisch"}, entry]


TINY = {
    "meta": {"version": "test"},
    "data": {
        "Savannah Lions": [{
            "name": "Savannah Lions", "layout": "normal", "manaCost": "{W}", "manaValue": 1.0,
            "type": "Creature — Cat", "types": ["Creature"], "keywords": [], "text": "",
            "legalities": {"vintage": "Legal", "modern": "Legal"},
            "foreignData": french("Lions des savanes")}],
        "Fire // Ice": [
            {"name": "Fire // Ice", "faceName": "Fire", "side": "a", "layout": "split", "manaCost": "{1}{R}",
             "manaValue": 4.0, "faceManaValue": 2.0, "type": "Instant", "types": ["Instant"],
             "legalities": LEGAL, "foreignData": french("Feu // Glace", "Feu")},
            {"name": "Fire // Ice", "faceName": "Ice", "side": "b", "layout": "split", "manaCost": "{1}{U}",
             "manaValue": 4.0, "faceManaValue": 2.0, "type": "Instant", "types": ["Instant"],
             "legalities": LEGAL, "foreignData": french("Feu // Glace", "Glace")}],
        "Bonecrusher Giant // Stomp": [
            {"name": "Bonecrusher Giant // Stomp", "faceName": "Bonecrusher Giant", "side": "a",
             "layout": "adventure", "manaCost": "{2}{R}", "manaValue": 3.0, "faceManaValue": 3.0,
             "type": "Creature — Giant", "types": ["Creature"], "legalities": LEGAL},
            {"name": "Bonecrusher Giant // Stomp", "faceName": "Stomp", "side": "b", "layout": "adventure",
             "manaValue": 3.0, "isFaceDataMissing": True, "legalities": LEGAL}],
        "Forest": [{"name": "Forest", "layout": "normal", "manaValue": 0.0, "type": "Basic Land — Forest",
                    "types": ["Land"], "legalities": LEGAL, "foreignData": french("Forêt")}],
        "Ornithopter": [{"name": "Ornithopter", "layout": "normal", "manaCost": "{0}", "manaValue": 0.0,
                         "type": "Artifact Creature — Thopter", "types": ["Artifact", "Creature"],
                         "keywords": ["Flying"], "legalities": LEGAL}],
        "Brisela, Voice of Nightmares": [{"name": "Brisela, Voice of Nightmares", "layout": "meld",
                                          "type": "Legendary Creature — Eldrazi Angel", "legalities": {}}],
        "Black Lotus": [{"name": "Black Lotus", "layout": "normal", "manaCost": "{0}", "manaValue": 0.0,
                         "type": "Artifact", "types": ["Artifact"],
                         "legalities": {"vintage": "Restricted", "legacy": "Banned"}}],
    },
}


def write(path, doc: dict):
    text = json.dumps(doc, ensure_ascii=False)
    if path.name.endswith(".xz"):
        path.write_bytes(lzma.compress(text.encode()))
    elif path.name.endswith(".gz"):
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(params=["AtomicCards.json", "AtomicCards.json.gz", "AtomicCards.json.xz"])
def tiny_file(request, tmp_path):
    return write(tmp_path / request.param, TINY)


def records_by_name(path) -> dict:
    return {r["name"]: r for r in read_atomic(path)}


# -- the AtomicCards importer ----------------------------------------------------------------------
def test_an_atomic_cards_file_imports_in_every_compression(tiny_file):
    records = records_by_name(tiny_file)
    assert set(records) == set(TINY["data"])
    lions = records["Savannah Lions"]
    assert lions["french_name"] == "Lions des savanes"
    assert lions["legalities"] == {"vintage": "legal", "modern": "legal"}
    assert lions["faces"][0]["mana_cost"] == "{W}"


def test_a_face_marked_missing_keeps_an_unknown_cost_never_no_mana_cost(tiny_file):
    stomp = records_by_name(tiny_file)["Bonecrusher Giant // Stomp"]["faces"][1]
    assert stomp["name"] == "Stomp"
    assert stomp["mana_cost"] is None
    assert stomp["mana_value"] is None


def test_a_face_without_mana_cost_has_no_mana_cost(tiny_file):
    records = records_by_name(tiny_file)
    assert records["Forest"]["faces"][0]["mana_cost"] == ""
    assert records["Ornithopter"]["faces"][0]["mana_cost"] == "{0}"


def test_split_faces_carry_their_own_names_costs_and_french_names(tiny_file):
    fire_ice = records_by_name(tiny_file)["Fire // Ice"]
    assert fire_ice["french_name"] == "Feu // Glace"
    assert [(f["name"], f["french_name"], f["mana_cost"], f["mana_value"]) for f in fire_ice["faces"]] == [
        ("Fire", "Feu", "{1}{R}", 2.0), ("Ice", "Glace", "{1}{U}", 2.0)]


def test_a_melded_back_face_is_kept_out_of_the_library(tiny_file):
    assert records_by_name(tiny_file)["Brisela, Voice of Nightmares"]["layout"] == "meld_result"


def test_a_file_that_is_not_atomic_cards_is_refused(tmp_path):
    path = write(tmp_path / "cards.json", {"meta": {}, "cards": []})
    with pytest.raises(ValueError, match="AtomicCards"):
        list(read_atomic(path))


def test_a_missing_source_file_is_refused(tmp_path):
    with pytest.raises(FileNotFoundError):
        source_from_env(str(tmp_path / "nothing.json.xz"))


def test_the_source_comes_from_mentalmagic_cards(tiny_file, monkeypatch):
    monkeypatch.setenv("MENTALMAGIC_CARDS", str(tiny_file))
    source = source_from_env()
    assert source.path == tiny_file.resolve()
    assert source.lacks == []
    assert source.legalities_known and source.french_known


def test_a_tiny_file_becomes_a_pool_that_keeps_unknown_faces_unknown(tiny_file, tmp_path):
    db_path = tmp_path / "cards.sqlite"
    assert ensure_cards(db_path, source_from_env(str(tiny_file))) is True
    pool = read_pool(db_path)
    assert len(pool) == len(TINY["data"])
    giant = pool.lookup("Stomp")
    assert giant.faces[1].cost is None
    assert giant.unknown_faces == ("Stomp",)
    assert giant.printed_costs == (ManaCost.parse("{2}{R}"),)
    assert pool.lookup("Forest").front.cost == NO_COST
    assert pool.lookup("lions des savanes").name == "Savannah Lions"
    finder = CandidateFinder(pool)
    assert [n.name for n in finder.candidates(cost=NO_COST).candidates] == ["Forest"]  # never Stomp
    assert [n.name for n in finder.candidates(cost=ManaCost.parse("{0}")).candidates] == ["Ornithopter"]


# -- rebuilding ------------------------------------------------------------------------------------
def test_the_card_tables_are_rebuilt_only_when_the_source_changes(tmp_path):
    path = write(tmp_path / "AtomicCards.json", TINY)
    db_path = tmp_path / "cards.sqlite"
    assert ensure_cards(db_path, source_from_env(str(path))) is True
    assert ensure_cards(db_path, source_from_env(str(path))) is False
    assert ensure_cards(db_path, source_from_env(str(path)), force=True) is True

    smaller = {"meta": TINY["meta"], "data": {"Savannah Lions": TINY["data"]["Savannah Lions"]}}
    write(path, smaller)
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))  # a new signature even on a coarse clock
    assert ensure_cards(db_path, source_from_env(str(path))) is True
    assert ensure_cards(db_path, source_from_env(str(path))) is False
    pool = read_pool(db_path)
    assert [c.name for c in pool.cards] == ["Savannah Lions"]


def test_a_rebuild_replaces_the_cards_of_another_source(tmp_path):
    a = write(tmp_path / "a.json", TINY)
    b = write(tmp_path / "b.json.xz", {"meta": {}, "data": {"Ornithopter": TINY["data"]["Ornithopter"]}})
    db_path = tmp_path / "cards.sqlite"
    assert ensure_cards(db_path, source_from_env(str(a))) is True
    assert ensure_cards(db_path, source_from_env(str(b))) is True
    assert ensure_cards(db_path, source_from_env(str(a))) is True
    assert len(read_pool(db_path)) == len(TINY["data"])


# -- the ban list file -----------------------------------------------------------------------------
def test_the_project_ban_list_has_every_row_of_the_seed():
    bans = read_banlist()
    assert len(bans.entries) == 53
    assert {e.rule for e in bans.entries} == {"706.2", "706.3", "706.4", "706.4a"}
    assert all(e.status == ("watched" if e.rule == "706.4a" else "banned") for e in bans.entries)
    # the last two French names, resolved from Forge's French card names (see the CSV's comment)
    assert bans.unresolved == ()
    by_french = {e.french_name: e.english_name for e in bans.entries}
    assert by_french["Arrache-pensées"] == "Thought Lash"
    assert by_french["Sorcier devin"] == "Divining Witch"


def test_a_ban_list_with_a_bad_status_is_refused(tmp_path):
    path = tmp_path / "list.csv"
    path.write_text("rule,french_name,english_name,status\n706.2,Abondance,Abundance,maybe\n", encoding="utf-8")
    with pytest.raises(ValueError, match="maybe"):
        read_banlist(path)


def test_ban_list_comment_lines_are_skipped_and_errors_keep_the_file_line(tmp_path):
    path = tmp_path / "list.csv"
    path.write_text("rule,french_name,english_name,status\n# a note, with commas\n706.2,Abondance,Abundance,banned\n"
                    "  # another\n706.2,Lisseur,Leveler,maybe\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"list.csv:5: .*maybe"):
        read_banlist(path)
    path.write_text("rule,french_name,english_name,status\n# a note\n706.2,Abondance,Abundance,banned\n",
                    encoding="utf-8")
    assert [(e.french_name, e.english_name) for e in read_banlist(path).entries] == [("Abondance", "Abundance")]


# -- the embedded default --------------------------------------------------------------------------
def test_the_embedded_snapshot_is_used_when_no_source_is_named(monkeypatch):
    monkeypatch.delenv("MENTALMAGIC_CARDS", raising=False)
    source = source_from_env()
    assert isinstance(source, Source)
    assert source.path == cards.EMBEDDED_PATH and source.path.is_file()
    assert source.label.startswith("embedded:")
    assert source_from_env("   ").signature == source.signature
    assert source.legalities_known and source.french_known


def test_the_embedded_snapshot_says_what_it_lacks():
    source = source_from_env("")
    assert source.signature == f"sha256:{cards.SNAPSHOT_2026_11_21}"
    lacks = " ".join(source.lacks).lower()
    for gap in ("legalities", "french", "faces", "2018"):
        assert gap in lacks


def test_the_embedded_signature_is_its_content_not_its_path_or_mtime(tmp_path):
    """A clone or checkout gives the file a new mtime: that must not rebuild the cards."""
    default = source_from_env("")
    copy = tmp_path / "elsewhere.json.xz"
    shutil.copyfile(cards.EMBEDDED_PATH, copy)
    os.utime(copy, ns=(1_000_000_000, 1_000_000_000))
    named = source_from_env(str(copy))
    assert named.signature == default.signature and named.lacks == default.lacks
    assert named.label == str(copy.resolve())  # it says which file it read
    other = write(tmp_path / "other.json.xz", TINY)
    assert source_from_env(str(other)).signature != default.signature
    assert source_from_env(str(other)).lacks == []


def test_a_newer_file_in_place_of_the_embedded_one_is_not_assumed_to_lack_anything(tmp_path, monkeypatch):
    newer = write(tmp_path / "AtomicCards.json.xz", TINY)
    monkeypatch.setattr(cards, "EMBEDDED_PATH", newer)
    source = source_from_env("")
    assert source.path == newer and source.lacks == []
    assert source.signature.startswith("sha256:") and source.signature != f"sha256:{cards.SNAPSHOT_2026_11_21}"


def test_the_embedded_snapshot_ships_in_the_package():
    pyproject = tomllib.loads((cards.DATA_DIR.parent / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["mentalmagic.carddata"]
    assert any(fnmatch.fnmatch(cards.EMBEDDED_PATH.name, p) for p in patterns)


def test_the_stored_default_is_not_stale_while_the_setting_is_unset(tmp_path, monkeypatch):
    """Issue 7: no warning when MENTALMAGIC_CARDS is unset and the stored cards are the default."""
    monkeypatch.setattr(cards, "EMBEDDED_PATH", write(tmp_path / "AtomicCards.json.xz", TINY))
    monkeypatch.delenv("MENTALMAGIC_CARDS", raising=False)
    db_path = tmp_path / "cards.sqlite"
    assert ensure_cards(db_path) is True
    assert ensure_cards(db_path) is False
    assert stale_source(db_path) is None
    monkeypatch.setenv("MENTALMAGIC_CARDS", str(write(tmp_path / "b.json", TINY)))
    assert "MENTALMAGIC_CARDS names" in str(stale_source(db_path))


def test_a_playgroups_edited_ban_list_is_data_not_code(pool, tmp_path, monkeypatch):
    """House rules: a copy of the list with one more ban, named by MENTALMAGIC_BANLIST, is obeyed."""
    from mentalmagic.carddata import BANLIST_PATH
    from mentalmagic.carddata.banlist import read_banlist
    from mentalmagic.index import CandidateFinder
    from mentalmagic.pool import CardPool

    house = tmp_path / "house-bans.csv"
    house.write_text(BANLIST_PATH.read_text(encoding="utf-8") + "706.2,Éclair,Lightning Bolt,banned\n",
                     encoding="utf-8")
    monkeypatch.setenv("MENTALMAGIC_BANLIST", str(house))
    finder = CandidateFinder(CardPool(list(pool.cards), read_banlist(), pool.info))
    names = [n.name for n in finder.candidates(printed=pool.lookup("Shock")).candidates]
    assert "Lightning Bolt" not in names and "Burst Lightning" in names
    verdict = finder.check("Lightning Bolt", printed=pool.lookup("Shock"))
    assert not verdict.legal and verdict.reasons[0].rule == "706.2"
    default = [n.name for n in CandidateFinder(pool).candidates(printed=pool.lookup("Shock")).candidates]
    assert "Lightning Bolt" in default


# -- colour identity (903.4, #10) --------------------------------------------------------------------
def with_identity(doc: dict) -> dict:
    """TINY with MTGJSON's colorIdentity (every face repeats the card's) and face colours."""
    given = {"Savannah Lions": ["W"], "Fire // Ice": ["R", "U"], "Bonecrusher Giant // Stomp": ["R"]}
    def colours(face):
        return {} if face.get("isFaceDataMissing") else {"colors": [c for c in "WUBRG" if "{" + c in
                                                                      face.get("manaCost", "")]}

    data = {}
    for name, faces in doc["data"].items():
        data[name] = [{**f, "colorIdentity": given.get(name, []), **colours(f)} for f in faces]
    return {"meta": doc["meta"], "data": data}


def test_colour_identity_and_face_colours_are_imported_and_unknown_stays_unknown(tmp_path):
    path = write(tmp_path / "AtomicCards.json", with_identity(TINY))
    records = records_by_name(path)
    assert records["Fire // Ice"]["color_identity"] == ["R", "U"]
    assert [f["colors"] for f in records["Fire // Ice"]["faces"]] == [["R"], ["U"]]
    assert records["Bonecrusher Giant // Stomp"]["faces"][1]["colors"] is None  # isFaceDataMissing
    assert records_by_name(write(tmp_path / "old.json", TINY))["Forest"]["color_identity"] is None

    db_path = tmp_path / "cards.sqlite"
    ensure_cards(db_path, source_from_env(str(path)))
    pool = read_pool(db_path)
    assert pool.lookup("Fire // Ice").color_identity == frozenset("RU")
    assert pool.lookup("Forest").color_identity == frozenset()  # colourless, not unknown
    assert {n.name: n.identity for n in pool.lookup("Fire // Ice").nameables()} == {
        "Fire": frozenset("R"), "Ice": frozenset("U")}
    assert pool.lookup("Stomp").faces[1].colors is None


def test_card_tables_built_before_colour_identity_are_rebuilt_at_start(tmp_path):
    import sqlite3

    from mentalmagic.storage import connect

    path = write(tmp_path / "AtomicCards.json", with_identity(TINY))
    db_path = tmp_path / "cards.sqlite"
    assert ensure_cards(db_path, source_from_env(str(path))) is True
    conn = sqlite3.connect(db_path)  # as an older release left it: no identity, schema 1
    conn.execute("update cards set color_identity = null")
    conn.execute("update card_source set card_schema = 1")
    conn.commit()
    conn.close()
    assert read_pool(db_path).lookup("Savannah Lions").color_identity is None
    assert ensure_cards(db_path, source_from_env(str(path))) is True  # same source, older tables
    assert ensure_cards(db_path, source_from_env(str(path))) is False
    assert read_pool(db_path).lookup("Savannah Lions").color_identity == frozenset("W")
    connect(db_path).conn.close()


def test_a_database_file_without_the_identity_columns_gets_them(tmp_path):
    import sqlite3

    from mentalmagic.storage import SCHEMA_PATH, connect

    old = SCHEMA_PATH.read_text(encoding="utf-8")
    for added in ("    color_identity TEXT", "    colors      TEXT", "    card_schema      INTEGER"):
        old = "\n".join(line for line in old.splitlines() if not line.startswith(added))
    old = old.replace("'{}',  -- JSON {format", "'{}'   -- JSON {format").replace(
        "french_known     INTEGER NOT NULL DEFAULT 1,", "french_known     INTEGER NOT NULL DEFAULT 1")
    db_path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(db_path)
    conn.executescript(old)
    assert "color_identity" not in {r[1] for r in conn.execute("PRAGMA table_info(cards)")}
    conn.close()
    connect(db_path).conn.close()  # what every start does
    conn = sqlite3.connect(db_path)
    assert "color_identity" in {r[1] for r in conn.execute("PRAGMA table_info(cards)")}
    assert "colors" in {r[1] for r in conn.execute("PRAGMA table_info(faces)")}
    assert "card_schema" in {r[1] for r in conn.execute("PRAGMA table_info(card_source)")}
    conn.close()

