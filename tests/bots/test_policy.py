"""The ``policy:FILE`` bot: the file format, its checks, play in the drivers, and the NumPy
training pipeline end to end (examples/train_policy.py)."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from typer.testing import CliRunner

np = pytest.importorskip("numpy")

from meeple.bots.base import bot_kinds, make_bot  # noqa: E402
from meeple.bots.policy import (  # noqa: E402
    PolicyBot,
    load_policy,
    packaged_games,
    packaged_policy,
    policy_for,
    save_policy,
)
from meeple.cli.main import app  # noqa: E402
from meeple.kernel.bot import play_out  # noqa: E402
from meeple.kernel.family import family_of_state, new_game  # noqa: E402
from meeple.kernel.rng import Rng, derive_seed  # noqa: E402

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def linear(game: str = "classic", players: int = 4, seed: int = 0, **kw: Any) -> Any:
    """A random linear policy for ``game`` (no hidden layer)."""
    probe = new_game(game, players, 0)
    fam = family_of_state(probe)
    n_obs, n_act = fam.observer(probe).size, fam.encoding(probe).size
    rng = np.random.default_rng(seed)
    return policy_for(probe, [(rng.normal(size=(n_obs, n_act)), rng.normal(size=n_act))], **kw)


def write(tmp_path: Path, policy: Any, name: str = "p.npz") -> Path:
    path = tmp_path / name
    save_policy(policy, path)
    return path


def simulate(*args: str) -> Any:
    return runner.invoke(app, ["simulate", *args])


def test_policy_is_a_bot_kind_of_every_family() -> None:
    assert "policy" in bot_kinds("monopoly") and "policy" in bot_kinds("monopolis")


def test_a_saved_policy_loads_back_the_same(tmp_path: Path) -> None:
    probe = new_game("classic", 4, 0)
    fam = family_of_state(probe)
    n_obs, n_act = fam.observer(probe).size, fam.encoding(probe).size
    rng = np.random.default_rng(1)
    layers = [
        (rng.normal(size=(n_obs, 8)), rng.normal(size=8)),
        (rng.normal(size=(8, n_act)), rng.normal(size=n_act)),
    ]
    p = policy_for(probe, layers, activation="relu", meta={"trainer": "test"})
    q = load_policy(write(tmp_path, p))
    assert (q.game, q.family, q.activation, q.meta) == (
        "classic",
        "monopoly",
        "relu",
        {"trainer": "test"},
    )
    x = fam.observer(probe).observe(probe, 0)
    assert np.allclose(p.scores(x), q.scores(x), atol=1e-3)  # float32 on disk


def test_greedy_plays_the_best_scored_legal_action(tmp_path: Path) -> None:
    probe = new_game("classic", 4, 0)
    enc = family_of_state(probe).encoding(probe)
    n_obs = family_of_state(probe).observer(probe).size
    # Scores fall with the index: the bot must play the lowest legal index, whatever is higher.
    p = policy_for(probe, [(np.zeros((n_obs, enc.size)), -np.arange(enc.size, dtype=float))])
    bot = make_bot(f"policy:{write(tmp_path, p)}", "monopoly", 0)
    state = new_game("classic", 4, 3)
    for _ in range(300):
        if state.is_terminal():
            break
        mask = enc.mask(state)
        action = bot.choose(state)
        assert enc.encode(state, action) == int(np.flatnonzero(mask)[0])
        state.apply(action)


@pytest.mark.parametrize("mode", ["", ":sample"])
def test_the_same_seed_plays_the_same_game(tmp_path: Path, mode: str) -> None:
    path = write(tmp_path, linear())

    def game(bot_seed: int) -> list[str]:
        state = new_game("classic", 4, 5, {"max_turns": 60})
        bots = [make_bot(f"policy:{path}{mode}", "monopoly", bot_seed + p) for p in range(4)]
        play_out(state, bots)
        return [str(a) for a in state.history]

    assert game(1) == game(1)
    if mode:  # sampling draws from the bot's own stream: another seed, another game
        assert game(1) != game(2)


def test_a_policy_plays_monopolis(tmp_path: Path) -> None:
    path = write(tmp_path, linear("monopolis", 3))
    state = new_game("monopolis", 3, 2)
    bots = [make_bot(f"policy:{path}", "monopolis", p) for p in range(3)]
    play_out(state, bots)
    assert state.is_terminal()


def save_raw(path: Path, **entries: Any) -> Path:
    with open(path, "wb") as f:
        np.savez(f, **entries)
    return path


def entries_of(path: Path) -> dict[str, Any]:
    data = np.load(path)
    return {k: data[k] for k in data.files}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": np.array("other")}, "not a policy file (format 'other')"),
        ({"version": np.array(99)}, "policy format version 99"),
        ({"activation": np.array("gelu")}, "unknown activation 'gelu'"),
        ({"W0": np.zeros((3, 4))}, "layer 0 has weights (3, 4)"),
        ({"b0": np.array([np.nan] * 426)}, "layer 0 holds a NaN"),
        ({"n_actions": np.array(5)}, "the last layer gives 426 scores for 5 actions"),
        ({"obs_size": np.array("x")}, "obs_size must be an integer"),
    ],
)
def test_a_malformed_file_says_what_is_wrong(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    good = entries_of(write(tmp_path, linear()))
    bad = save_raw(tmp_path / "bad.npz", **{**good, **change})
    with pytest.raises(ValueError, match=r"bad\.npz") as err:
        load_policy(bad)
    assert message in str(err.value)


def test_missing_entries_and_other_files_are_named(tmp_path: Path) -> None:
    good = entries_of(write(tmp_path, linear()))
    del good["W0"]
    with pytest.raises(ValueError, match=r"layer 0 is missing"):
        load_policy(save_raw(tmp_path / "nolayer.npz", **good))
    with pytest.raises(ValueError, match=r"no 'activation' entry"):
        load_policy(
            save_raw(tmp_path / "nogame.npz", format=np.array("meeple-policy"), version=np.array(1))
        )
    text = tmp_path / "text.npz"
    text.write_text("not a zip")
    with pytest.raises(ValueError, match=r"text.npz: not a policy file"):
        load_policy(text)
    with pytest.raises(ValueError, match=r"missing.npz: no such policy file"):
        load_policy(tmp_path / "missing.npz")
    with zipfile.ZipFile(tmp_path / "empty.npz", "w"):
        pass
    with pytest.raises(ValueError, match=r"empty.npz: not a policy file"):
        load_policy(tmp_path / "empty.npz")


def test_a_policy_for_another_game_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, linear("classic"))
    bot = make_bot(f"policy:{path}", "monopoly", 0)
    assert isinstance(bot, PolicyBot)
    with pytest.raises(ValueError, match=r"trained for classic .*not friends"):
        bot.choose(new_game("friends", 4, 0))
    with pytest.raises(ValueError, match=r"plays classic \(monopoly\), not a monopolis game"):
        make_bot(f"policy:{path}", "monopolis", 0)
    with pytest.raises(ValueError, match="needs a policy file"):
        make_bot("policy", "monopoly", 0)


def test_simulate_refuses_a_bad_policy_with_exit_2(tmp_path: Path) -> None:
    missing = simulate("classic", "--bots", "policy:missing.npz", "--games", "1")
    assert missing.exit_code == 2
    assert "missing.npz: no such policy file" in missing.output
    path = write(tmp_path, linear("classic"))
    other = simulate("friends", "--bots", f"policy:{path}", "--games", "1")
    assert other.exit_code == 2 and "trained for classic" in other.output


def test_terminal_play_seats_a_policy(tmp_path: Path) -> None:
    path = write(tmp_path, linear("classic"))
    bad = runner.invoke(app, ["play", "friends", "--seats", f"human,policy:{path},random,random"])
    assert bad.exit_code == 2 and "trained for classic" in bad.output


def load_example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_train_a_policy_and_play_it_in_a_simulation(tmp_path: Path) -> None:
    """The pipeline end to end with NumPy alone: teacher games, behaviour cloning, the policy
    file, and ``meeple simulate --bots policy:FILE``."""
    out = tmp_path / "bc.npz"
    train = load_example("train_policy")
    train.main(
        [
            "bc",
            "--games",
            "2",
            "--epochs",
            "2",
            "--hidden",
            "16",
            "--workers",
            "1",
            "--out",
            str(out),
        ]
    )
    policy = load_policy(out)
    assert [w.shape for w, _ in policy.layers] == [(policy.obs_size, 16), (16, 426)]
    assert "bc teacher=standard" in policy.meta["trainer"]
    result = simulate(
        "classic",
        "--json",
        "-",
        "--games",
        "2",
        "--seed",
        "1",
        "--max-turns",
        "200",
        "--bots",
        f"policy:{out},standard,standard,standard",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["bots"][0] == f"policy:{out}" and data["games"] == 2


def test_dagger_refits_a_policy_on_the_positions_it_reaches(tmp_path: Path) -> None:
    """The DAgger stage end to end: a policy file in, games of it against standard bots
    labelled by the teacher, the decisions kept, a refitted policy file out that plays."""
    train = load_example("train_policy")
    bc, out, kept = tmp_path / "bc.npz", tmp_path / "dagger.npz", tmp_path / "kept.npz"
    common = ["--hidden", "16", "--workers", "1"]
    train.main(["bc", "--games", "1", "--epochs", "1", *common, "--out", str(bc)])
    dagger = ["dagger", "--init", str(bc), "--games", "1", "--iterations", "2", "--epochs", "1"]
    dagger += ["--offers", "--keep", str(kept), "--weight", "trade=2", "--out", str(out)]
    train.main([*dagger, *common])
    policy = load_policy(out)
    assert [w.shape for w, _ in policy.layers] == [(policy.obs_size, 16), (16, 426)]
    assert "dagger teacher=standard" in policy.meta["trainer"]
    assert "iterations=2" in policy.meta["trainer"]
    assert not (tmp_path / "dagger.current.npz").exists()
    with np.load(kept) as data:  # the policy's positions of both iterations, labelled
        assert len(data["y"]) == len(data["x"]) == len(data["mask"]) > 100
        assert all(data["mask"][i, data["y"][i]] for i in range(len(data["y"])))
    state = against_standard(f"policy:{out}", 3, 100)
    assert state.is_terminal()


def against_standard(kind: str, seed: int, max_turns: int) -> Any:
    """A 4-player classic game played out by a ``kind`` bot in seat 1 and three standard
    bots (turn cap ``max_turns``)."""
    state = new_game("classic", 4, seed, {"max_turns": max_turns})
    bots = [make_bot(kind, "monopoly", 1)] + [
        make_bot("standard", "monopoly", 2 + p) for p in range(3)
    ]
    play_out(state, bots)
    return state


def test_a_teacher_amount_off_the_ladder_is_labelled_with_the_nearest() -> None:
    """The standard bot bids a quarter of the way to its limit (``bid 137``): the label is the
    legal bid ladder index nearest to it, not a skipped decision."""
    from meeple.games.monopoly import actions as A
    from meeple.games.monopoly.rules.auction import AuctionFrame
    from meeple.kernel.protocol import Action

    train = load_example("train_policy")
    state = new_game("classic", 4, 0)
    bot = make_bot("standard", "monopoly", 0)
    for _ in range(5000):  # to the first auction
        if state.stack and isinstance(state.stack[-1], AuctionFrame):
            break
        legal = state.legal_actions()
        decline = [a for a in legal if a.kind == A.DECLINE]
        state.apply(decline[0] if decline else bot.choose(state))
    enc = family_of_state(state).encoding(state)
    low = state.stack[-1].next_min()
    mask = enc.mask(state)
    off = Action(A.BID, (low + 30,))  # between min+24 and min+49: nearer 24
    assert enc.try_encode(state, off) == -1
    index = train.teacher_index(enc, state, off, mask)
    assert enc.labels[index] == "bid min+24" and mask[index]
    on = Action(A.BID, (low + 9,))
    assert train.teacher_index(enc, state, on, mask) == enc.encode(state, on)


def test_the_shipped_policy_plays_classic() -> None:
    path = ROOT / "src" / "meeple" / "bots" / "policies" / "classic.npz"
    assert path.stat().st_size < 1_000_000  # kept small: it ships in the package
    state = against_standard(f"policy:{path}", 9, 100)
    assert state.is_terminal()


def test_the_learned_bot_plays_the_packaged_policy_of_its_game() -> None:
    """``learned`` is the shipped policy under a kind with no file (what the web app can seat):
    the same games as ``policy:`` on the packaged file, offered only for the games it has a
    policy for, and refused elsewhere with the games it plays."""
    assert packaged_games() == ("classic",)
    assert "learned" in bot_kinds("monopoly", "classic")
    assert "learned" not in bot_kinds("monopoly", "friends")
    assert "learned" not in bot_kinds("monopolis")
    path = packaged_policy("classic")
    assert path is not None

    learned = against_standard("learned", 9, 60).history
    assert learned == against_standard(f"policy:{path}", 9, 60).history
    with pytest.raises(ValueError, match="learned takes no file"):
        make_bot("learned:/etc/passwd", "monopoly", 1)
    friends = new_game("friends", 4, 9)
    with pytest.raises(ValueError, match="no policy for friends; it plays classic"):
        make_bot("learned", "monopoly", 1).choose(friends)
    out = CliRunner().invoke(
        app, ["simulate", "friends", "--games", "1", "--players", "2", "--bots", "learned,standard"]
    )
    assert out.exit_code == 2 and "no policy for friends" in out.output


# Games the learned bot played before its decisions were made cheaper (the policy code of commit
# 89d78ff, where it made the observer and the action table, built the mask and scored every index
# at every decision; `meeple simulate --seed S` seeds the bots so), on the engine of commit
# 9c53985 (the building-shortage reading of issue 38 changed these games): the first 16 hex
# digits of the SHA-256 of each game's actions, one a line. The cheaper bot must play them
# exactly.
LEARNED_GAMES = {
    (("learned", "standard", "standard", "standard"), 4): "01e79d50229c519a",
    (("learned:sample", "learned", "random", "standard"), 2): "a8997971d36a2b8e",
}


@pytest.mark.parametrize(("kinds", "seed"), list(LEARNED_GAMES))
def test_the_learned_bot_plays_the_games_it_played_before(
    kinds: tuple[str, ...], seed: int
) -> None:
    state = new_game("classic", len(kinds), seed)
    state.record_events = False
    play_out(
        state, [make_bot(k, "monopoly", derive_seed(seed, 1 + s)) for s, k in enumerate(kinds)]
    )
    digest = hashlib.sha256("\n".join(str(a) for a in state.history).encode()).hexdigest()
    assert state.is_terminal() and digest[:16] == LEARNED_GAMES[(kinds, seed)]


def test_the_bot_makes_the_observer_and_the_action_table_once_a_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Not at every decision (they cost 200 µs, four times the rest of a decision), and the
    family hands out one shared table per edition."""
    first, second = new_game("classic", 4, 1), new_game("classic", 4, 2)
    family = family_of_state(first)
    assert family.encoding(first) is family.encoding(second)
    assert family.observer(first) is family.observer(second)
    fam = type(family)
    made = {"observer": 0, "encoding": 0}
    for name in made:
        real = getattr(fam, name)

        def counted(self: Any, state: Any, name: str = name, real: Any = real) -> Any:
            made[name] += 1
            return real(self, state)

        monkeypatch.setattr(fam, name, counted)
    state = against_standard("learned", 9, 60)
    assert len(state.history) > 300  # hundreds of the learned seat's decisions
    assert made == {"observer": 2, "encoding": 2}  # the policy's check, then the bot's own


def test_a_single_legal_action_is_played_without_scoring(monkeypatch: pytest.MonkeyPatch) -> None:
    """The only legal action is what the policy would pick whatever its scores: nothing is
    observed, and the sampling bot still takes its one draw, so its stream goes on as if it
    had scored (the same games: test_the_learned_bot_plays_the_games_it_played_before)."""
    state = new_game("classic", 4, 0)
    assert [str(a) for a in state.legal_actions()] == ["roll"]
    observer = type(family_of_state(state).observer(state))

    def refuse(*_: Any) -> None:
        raise AssertionError("observed a position with one legal action")

    monkeypatch.setattr(observer, "observe", refuse)
    greedy, sampling = make_bot("learned", "monopoly", 7), make_bot("learned:sample", "monopoly", 7)
    assert str(greedy.choose(state)) == str(sampling.choose(state)) == "roll"
    stream = Rng(7)
    stream.next64()
    assert sampling.rng.state == stream.state and greedy.rng.state == Rng(7).state
