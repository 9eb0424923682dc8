"""Bad save files get an error naming the file, the field and the reason, and change nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from meeple.games.monopoly import new_monopoly
from meeple.kernel.errors import SaveFileError
from meeple.kernel.protocol import Action
from meeple.kernel.saves import load_game, save_data


def good() -> dict[str, Any]:
    s = new_monopoly("classic", 3, 8)
    s.apply(Action("roll"))
    return save_data(s)


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda d: d.update(format="chess"), "format"),
        (lambda d: d.update(version=99), "version"),
        (lambda d: d.pop("seed"), "seed"),
        (lambda d: d.update(players="four"), "players"),
        (lambda d: d.update(game="no-such-edition"), "game"),
        (lambda d: d.update(players=1), "game"),
        (lambda d: d["actions"].append("fly 3"), "actions[1]"),
        (lambda d: d["actions"].append("roll x"), "actions[1]"),
        (lambda d: d["actions"].append(7), "actions[1]"),
        (lambda d: d["state"]["cash"].__setitem__(0, 999999), "state"),
    ],
)
def test_malformed_save_is_rejected_with_field(tmp_path: Path, edit: Any, field: str) -> None:
    data = good()
    edit(data)
    path = tmp_path / "bad.json"
    text = json.dumps(data)
    path.write_text(text)
    with pytest.raises(SaveFileError) as info:
        load_game(path)
    assert info.value.field == field
    assert str(path) in str(info.value)
    assert path.read_text() == text  # nothing written


def test_not_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(SaveFileError, match="not JSON"):
        load_game(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(SaveFileError, match="cannot read"):
        load_game(tmp_path / "nothing.json")
