"""records.platforms (issue 36.3): adopting a platform's profile in versions, refusals that write
nothing, two adoptions at once, the version in force on a day, and the comparison of two versions."""
from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from audit.profiles import PROFILE_DIR
from records import platforms
from records.platforms import PlatformProfileRefused
from records.store import Store
from tests.deadlines import scaled

KEY = b"k" * 32


def profile_text(name: str = "acme", **values: str) -> str:
    """The bundled weile profile file renamed `name`, with top-level lines replaced or added (`key = value`)."""
    text = (PROFILE_DIR / "weile.toml").read_text(encoding="utf-8").replace('name = "weile"', f'name = "{name}"', 1)
    lines = text.split("\n")
    for key, value in values.items():
        if any(line.startswith(f"{key} = ") for line in lines):
            lines = [f"{key} = {value}" if line.startswith(f"{key} = ") else line for line in lines]
        else:
            at = lines.index(f'name = "{name}"') + 1
            lines[at:at] = [f"{key} = {value}"]
    return "\n".join(lines)


def adopt(store: Store, text: str | None = None, **kwargs: object) -> platforms.Version:
    args: dict[str, object] = {"who": "admin", "why": "fitted on 500 records", "effective_from": "2026-01-01",
                               "key": KEY, **kwargs}
    return platforms.adopt(store.db, "acme", text or profile_text(), **args)  # type: ignore[arg-type]


def trail_actions(store: Store) -> list[str]:
    return [row[0] for row in store.db.execute("SELECT action FROM trail ORDER BY id")]


def test_adopting_stores_a_version_with_its_trail_entry(store: Store) -> None:
    first = adopt(store, fit={"base": "weile", "records": 12})
    second = adopt(store, profile_text("acme2"), effective_from="2026-03-01", why="edited")
    assert (first.version, second.version) == (1, 2)
    assert first.name == "acme" and first.fit == {"base": "weile", "records": 12} and first.who == "admin"
    assert first.profile().name == "acme"
    assert [v.version for v in platforms.versions(store.db, "acme")] == [2, 1]
    assert trail_actions(store).count("platform-adopt") == 2
    assert platforms.platforms(store.db) == [{"platform": "acme", "records": 0, "latest": 2, "in_force": 2}]


@pytest.mark.parametrize(("text", "field", "code"), [
    ("name = [", "profile_file", "platform_profile_not_loaded"),
    (profile_text(players="[5]"), "profile_file", "platform_profile_not_loaded"),
    (profile_text(no_such_parameter="1"), "profile_file", "platform_profile_not_loaded"),
])
def test_a_profile_that_does_not_load_is_refused_and_nothing_is_written(store: Store, text: str, field: str,
                                                                        code: str) -> None:
    with pytest.raises(PlatformProfileRefused) as excinfo:
        adopt(store, text)
    assert (excinfo.value.field, excinfo.value.code) == (field, code)
    assert excinfo.value.problem is not None and excinfo.value.problem.code
    assert store.db["platform_profiles"].count == 0 and "platform-adopt" not in trail_actions(store)


def test_a_bad_field_is_refused_by_name(store: Store) -> None:
    for kwargs, field in (({"why": " "}, "why"), ({"effective_from": "2026-13-01"}, "effective_from"),
                          ({"who": ""}, "who")):
        with pytest.raises(PlatformProfileRefused) as excinfo:
            adopt(store, **kwargs)
        assert excinfo.value.field == field
    assert store.db["platform_profiles"].count == 0


def test_a_version_is_never_changed(store: Store) -> None:
    adopt(store)
    with pytest.raises(sqlite3.IntegrityError):
        store.db.execute("UPDATE platform_profiles SET why = 'other'")
    with pytest.raises(sqlite3.IntegrityError):
        store.db.execute("DELETE FROM platform_profiles")


def test_two_adoptions_at_once_one_wins_the_other_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "race.sqlite3"
    Store.open(path).close()
    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def run(name: str) -> None:
        store = Store.open(path)
        try:
            barrier.wait(timeout=scaled(30))
            outcomes.append(platforms.adopt(store.db, "acme", profile_text(name), who=name, why="race",
                                            effective_from="2026-01-01", expected_latest=0, key=KEY))
        except PlatformProfileRefused as exc:
            outcomes.append(exc)
        finally:
            store.close()

    threads = [threading.Thread(target=run, args=(name,)) for name in ("left", "right")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=scaled(60))
    won = [o for o in outcomes if isinstance(o, platforms.Version)]
    refused = [o for o in outcomes if isinstance(o, PlatformProfileRefused)]
    assert len(won) == 1 and won[0].version == 1
    assert len(refused) == 1 and refused[0].code == "platform_profile_stale"
    store = Store.open(path)
    assert [row[0] for row in store.db.execute("SELECT version FROM platform_profiles")] == [1]
    store.close()


def test_without_an_expected_version_racing_adoptions_get_the_next_numbers(tmp_path: Path) -> None:
    path = tmp_path / "race.sqlite3"
    Store.open(path).close()

    def run() -> None:
        store = Store.open(path)
        try:
            platforms.adopt(store.db, "acme", profile_text(), who="a", why="w", effective_from="2026-01-01", key=KEY)
        finally:
            store.close()

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=scaled(60))
    store = Store.open(path)
    assert sorted(row[0] for row in store.db.execute("SELECT version FROM platform_profiles")) == [1, 2, 3, 4]
    store.close()


def test_the_version_in_force_follows_the_day(store: Store) -> None:
    adopt(store, effective_from="2026-02-01")
    adopt(store, profile_text("acme2"), effective_from="2026-04-01")
    adopt(store, profile_text("acme3"), effective_from="2026-02-01")  # later adopted, same day: wins that span
    assert platforms.in_force(store.db, "acme", "2026-01-31") is None
    assert platforms.in_force(store.db, "acme", "2026-02-01").version == 3  # type: ignore[union-attr]
    assert platforms.in_force(store.db, "acme", "2026-03-31").version == 3  # type: ignore[union-attr]
    assert platforms.in_force(store.db, "acme", "2026-04-01").version == 2  # type: ignore[union-attr]
    assert platforms.in_force(store.db, "other", "2026-04-01") is None
    doc = {"platform": "acme", "played_at": "2026-04-02T01:00:00+08:00"}
    assert platforms.judge_of(store.db, doc).version == 2  # type: ignore[union-attr]
    assert platforms.judge_of(store.db, {"platform": "acme"}, "2026-02-10T00:00:00Z").version == 3  # type: ignore
    assert platforms.record_day("2026-04-02T01:00:00+08:00") == "2026-04-02"


def test_compare_names_every_parameter_that_differs(store: Store) -> None:
    old = adopt(store)
    new = adopt(store, profile_text("acme2", players="[3, 4]"))
    diff = {d.parameter: (d.old, d.new) for d in platforms.compare(old, new)}
    assert diff["name"] == ("acme", "acme2")
    assert diff["players"] == ([4], [3, 4])
    assert platforms.compare(old, old) == []
