"""``benchmarks.blame``: whose move lost a mixed table's game. The losing move it names is
the first move after which the open-hand game is lost, made by the seat it names, and its
report counts what its rows say; bad input is refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import blame
from bots import make_bot
from bots.base import play_table
from bots.greedy import GreedyPolicy
from model.deal import Deal
from model.game import Game
from model.moves import Move
from model.rules import RuleSet
from tests.reference import reference_solve

TINY = RuleSet.tiny()


def _lost_tiny_game() -> dict:
    """A lost tiny 3-player game of plausible partners that is winnable from its start, as a
    benchmarks.mixed row."""
    for seed in range(1, 200):
        deal = Deal.from_seed(seed, 3, TINY)
        if reference_solve(deal)[0] != "win":
            continue
        seats = [make_bot("greedy")] + [make_bot("plausible", rate=0.9, seed=seed) for _ in range(2)]
        r = play_table(deal, seats)
        if r.outcome != "win":
            return {"table": "greedy/plausible", "seat1": "greedy", "partners": "plausible",
                    "players": 3, "seed": seed, "outcome": r.outcome,
                    "plan": [m.to_json() for m in r.plan.moves]}
    raise AssertionError("no lost tiny game found")


def test_blame_names_the_move_after_which_the_open_hand_game_is_lost(tmp_path: Path) -> None:
    row = _lost_tiny_game()
    got = blame.blame_game(row, time_per_move=None, game_seconds=600, rules=TINY)
    k = got["losing_move"]
    assert k is not None and got["start"] == "win"
    deal = Deal.from_seed(row["seed"], 3, TINY)
    g = Game(deal)
    plan = [Move.from_json(m) for m in row["plan"]]
    for m in plan[:k - 1]:
        g.push(m)
    assert reference_solve(g)[0] == "win"  # won with open hands before the move
    first = GreedyPolicy().move(g, g.out) == plan[k - 1]
    g.push(plan[k - 1])
    assert reference_solve(g)[0] == "loss"  # lost after it
    assert got["seat"] == plan[k - 1].player
    assert got["variant"] == ("greedy" if got["seat"] == 1 else "plausible")
    assert got["first_choice"] == first
    # the move played loses, so its rank is not among the winning ones; rank 1 is greedy's
    assert got["played_rank"] not in got["winning_ranks"] and not got["unknown_ranks"]
    assert (got["played_rank"] == 1) == first
    (tmp_path / "blame.jsonl").write_text(json.dumps(got) + "\n", encoding="utf-8")
    text = blame.report(tmp_path)
    assert "| greedy/plausible | 1 | 0 | 1 |" in text
    assert (tmp_path / "report.md").read_text(encoding="utf-8") == text


@pytest.mark.parametrize("argv, why", [
    (["run", "--out", "X", "--table", "nobody/uct"], "unknown variant"),
    (["run", "--out", "X"], "--games"),
    (["report", "--out", "nowhere"], "to report"),
])
def test_blame_refuses_bad_input_in_one_line(argv: list[str], why: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    argv = [str(tmp_path / a) if a in ("X", "nowhere") else a for a in argv]
    assert blame.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert why in err and len(err.splitlines()) == 1
    games = tmp_path / "games.jsonl"
    games.write_text("{}\n", encoding="utf-8")
    assert blame.main(["run", "--games", str(games), "--out", str(tmp_path / "o"),
                       "--count", "0"]) == 2


def test_blame_refuses_an_out_that_is_a_file_and_a_journal_that_is_not_blames(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``run --out FILE`` (a file, not a directory) and ``report`` of a ``blame.jsonl`` whose
    rows are not blame rows: one line on stderr and exit 2, not a traceback; the file given
    is left as it was."""
    games = tmp_path / "games.jsonl"
    games.write_text("{}\n", encoding="utf-8")
    afile = tmp_path / "afile"
    afile.write_text("mine\n", encoding="utf-8")
    assert blame.main(["run", "--games", str(games), "--out", str(afile)]) == 2
    assert afile.read_text(encoding="utf-8") == "mine\n"
    err = capsys.readouterr().err.strip()
    assert "error" in err and len(err.splitlines()) == 1
    for text in ("{}\n", "[1, 2]\n"):
        out = tmp_path / f"o{len(text)}"
        out.mkdir()
        (out / "blame.jsonl").write_text(text, encoding="utf-8")
        assert blame.main(["report", "--out", str(out)]) == 2
        err = capsys.readouterr().err.strip()
        assert "error" in err and len(err.splitlines()) == 1
        assert not (out / "report.md").exists()
