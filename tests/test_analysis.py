"""The analysis board: ``hint`` and ``analyse`` checked against the naive reference
solver on tiny games, consistency on a full deal, and bad input at the command line.

On tiny games (hypothesis; 1–3 players, every ruling option) the searches run without
limits, so every verdict is proven and must equal the reference's from the same position.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.main import main
from model.deal import Deal
from model.game import Game
from model.records import Plan, replay
from solver import solve
from solver.analysis import analyse, hint, move_cost, placement_key, positions_of
from solver.result import LOSS, WIN
from tests.reference import first_losing_move, reference_solve
from tests.strategies import examples, tiny_games

FAST = settings(max_examples=examples(20), deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def random_record(deal: Deal, seed: int, place_bias: float = 0.7) -> list:
    """The moves of one random game of ``deal`` played to its end (placements preferred)."""
    rng = random.Random(seed)
    game = Game(deal)
    while not game.is_over():
        moves = game.legal_moves()
        places = [m for m in moves if m.kind != "discard"]
        game.push(rng.choice(places if places and rng.random() < place_bias else moves))
    return list(game.move_stack)


@FAST
@given(deal=tiny_games(), seed=st.integers(0, 2**16), steps=st.integers(0, 5),
       objective=st.sampled_from(["none", "waste"]))
def test_hint_rates_every_placement_as_the_reference_does(deal, seed, steps, objective):
    moves = random_record(deal, seed)[:steps]
    game = replay(deal, moves).game
    if game.is_over():
        return
    h = hint(game, objective, time_limit=None, all_moves=True)
    assert (h.verdict, h.value) == reference_solve(game, objective)
    groups: dict = {}
    for mv in game.legal_moves():
        groups.setdefault(placement_key(mv), []).append(mv)
    keys = [placement_key(r.move) for r in h.moves]
    assert len(keys) == len(set(keys)) and set(keys) == set(groups)
    for r in h.moves:
        # the best way to pay this placement, by the reference from each child
        results = []
        for mv in groups[placement_key(r.move)]:
            child = game.copy()
            child.push(mv)
            v, value = reference_solve(child, objective)
            if v == WIN:
                results.append(move_cost(game, mv, objective) + (value or 0))
        assert r.verdict == (WIN if results else LOSS)
        child = game.copy()
        child.push(r.move)  # the move shown leads to a position of the promised verdict…
        v, value = reference_solve(child, objective)
        assert v == r.verdict
        if r.verdict == WIN and objective == "waste":  # …and value
            assert r.optimal and r.value == min(results)
            assert move_cost(game, r.move, objective) + value == r.value
            assert replay(game, r.line).game.is_won()
    # best first: wins before losses, cheaper wins first
    keys = [(r.verdict != WIN, r.value or 0) for r in h.moves]
    assert keys == sorted(keys)


@FAST
@given(deal=tiny_games(), seed=st.integers(0, 2**16),
       objective=st.sampled_from(["none", "waste", "turns"]))
def test_analyse_finds_the_losing_move_the_reference_finds(deal, seed, objective):
    moves = random_record(deal, seed)
    a = analyse(deal, moves, objective, time_per_move=None)
    assert a.losing_move == first_losing_move(deal, moves)
    # every verdict decided: the window is the losing move itself, or none
    assert a.window == ((a.losing_move, a.losing_move) if a.losing_move is not None else None)
    games = positions_of(deal, moves)
    ref = [reference_solve(g, objective) for g in games]
    assert [p.verdict for p in a.positions] == [v for v, _ in ref]
    if a.losing_move is not None:
        k = a.losing_move
        assert a.best_instead == a.winning_line[0]
        assert replay(games[k - 1], a.winning_line).game.is_won()
    if objective != "none":  # the cards given away (waste), the turns lost (turns)
        for k in range(1, len(moves) + 1):
            (vb, before), (va, after) = ref[k - 1], ref[k]
            expect = None
            if vb == WIN and va == WIN:
                expect = move_cost(games[k - 1], moves[k - 1], objective) + after - before
            assert a.spent_extra[k - 1] == expect
    fresh = analyse(deal, moves, objective, time_per_move=None, reuse=False)
    assert [p.verdict for p in fresh.positions] == [p.verdict for p in a.positions]
    assert fresh.losing_move == a.losing_move


def test_the_window_spans_the_unknown_positions_between_the_last_win_and_the_first_loss():
    from solver.analysis import Analysis, PositionVerdict, window_text

    def analysis(verdicts: str) -> Analysis:
        v = {"w": WIN, "l": LOSS, "u": "unknown"}
        ps = [PositionVerdict(i, v[c]) for i, c in enumerate(verdicts)]
        n = len(ps) - 1
        losing = next((k for k in range(1, n + 1) if ps[k - 1].verdict == WIN
                       and ps[k].verdict == LOSS), None)
        first = next((k for k in range(1, n + 1) if ps[k].verdict == LOSS), None)
        return Analysis(Deal.from_seed(1), [], "none", ps, [None] * n, losing, first, None,
                        [], {})

    assert analysis("wwuuull").window == (2, 5)   # position 1 won, 5 lost: moves 2..5
    assert analysis("wwll").window == (2, 2)      # pinned: the losing move
    assert analysis("uuull").window == (1, 3)     # no win proven: from move 1
    assert analysis("llll").window is None        # lost from the start: no move lost it
    assert analysis("wwwu").window is None        # no loss proven
    assert window_text(analysis("wwuuull").window) == "lost between move 2 and move 5"
    from cli.analyse import summary

    text = summary(analysis("wwuuull"), None)
    assert text.startswith("The game was lost between move 2 and move 5: the position before "
                           "move 2 could be won and the one after move 5 cannot")
    assert summary(analysis("uuull"), None).startswith(
        "The game was lost between move 1 and move 3: the start was not decided")


@FAST
@given(deal=tiny_games(), seed=st.integers(0, 2**16))
def test_a_resumed_analysis_reuses_the_positions_solved_and_agrees(deal, seed):
    from solver.analysis import PositionVerdict

    moves = random_record(deal, seed)
    kept: list[dict] = []
    a = analyse(deal, moves, "none", time_per_move=None,
                solved=lambda p: kept.append(json.loads(json.dumps(p.to_state()))))
    known = {k["index"]: PositionVerdict.from_state(k) for k in kept}
    again: list[int] = []
    b = analyse(deal, moves, "none", time_per_move=None, known=known,
                solved=lambda p: again.append(p.index))
    assert again == []  # every position it needed was known
    assert [p.verdict for p in b.positions] == [p.verdict for p in a.positions]
    assert b.losing_move == a.losing_move and b.winning_line == a.winning_line


def test_every_position_on_a_winning_line_is_a_win_and_no_worse_than_the_plan() -> None:
    deal = Deal.from_seed(1)
    res = solve(deal, "waste", node_limit=20_000)
    assert res.verdict == WIN
    moves = res.plan.moves
    a = analyse(deal, moves, "none", time_per_move=None)
    assert all(p.verdict == WIN for p in a.positions) and a.losing_move is None
    # each position searched on its own (no inference from the won end): still all wins
    fresh = analyse(deal, moves, "none", time_per_move=None, reuse=False)
    assert all(p.verdict == WIN and not p.derived for p in fresh.positions)
    games = positions_of(deal, moves)
    total = len(games[-1].out)
    for k in (len(moves) - 5, len(moves) - 1):
        later = solve(games[k], "waste", node_limit=200_000)
        assert later.verdict == WIN and later.optimal
        assert later.value <= total - len(games[k].out)  # the plan's remaining cost
        assert later.plan.moves[:k] == moves[:k]  # the record so far, then the solver's


# ---- command line --------------------------------------------------------------------------


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def tiny_record(tmp_path, name: str = "game.json") -> tuple:
    from model.rules import RuleSet

    deal = Deal.from_seed(5, 1, RuleSet.from_options(["preset=tiny"]))
    moves = random_record(deal, 5, 0.8)
    path = tmp_path / name
    path.write_text(json.dumps(Plan(deal, moves).to_json()))
    return path, deal, moves


def test_hint_and_analyse_json_shapes(tmp_path) -> None:
    path, deal, moves = tiny_record(tmp_path)
    res = run("hint", str(path), "--step", "2", "--json", "--all")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["verdict"] in ("win", "loss")
    assert all({"move", "verdict", "value", "optimal"} <= set(m) for m in data["moves"])
    res = run("analyse", str(path), "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert [m["index"] for m in data["moves"]] == list(range(1, len(moves) + 1))
    assert data["losing_move"] == first_losing_move(deal, moves)
    lm = data["losing_move"]
    assert data["window"] == ([lm, lm] if lm is not None else None)
    for m in data["moves"]:
        assert {"move", "before", "after", "spent_extra"} <= set(m)


def test_bad_positions_and_records_are_one_line_errors(tmp_path) -> None:
    path, deal, moves = tiny_record(tmp_path)
    bad = Plan(deal, list(moves)).to_json()
    bad["moves"][1], bad["moves"][2] = bad["moves"][2], bad["moves"][1]  # illegal order
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    pos = Game(deal).to_position()
    pos["mountain"] = [[], ["3r"]]  # a card with no support (R3)
    (tmp_path / "pos.json").write_text(json.dumps({"position": pos}))
    good_pos = tmp_path / "good.json"
    good_pos.write_text(json.dumps({"position": Game(deal).to_position()}))
    cases = [
        ("analyse", str(tmp_path / "bad.json")),
        ("analyse", str(good_pos)),               # a position has no moves to analyse
        ("analyse", str(tmp_path / "missing.json")),
        ("hint", str(tmp_path / "pos.json")),
        ("hint", str(path), "--step", str(len(moves) + 1)),
        ("solve", str(path), "--step", "-1"),
        ("solve", str(tmp_path / "pos.json")),
        ("solve", str(path), "--step", "2", "--solver", "cpsat"),
        ("hint", str(path)),                       # the game is over
    ]
    for args in cases:
        res = run(*args)
        assert res.exit_code == 2, (args, res.exit_code, res.output)
        lines = [ln for ln in res.output.strip().splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("ascent: error: "), (args, res.output)
    # and through the real console script: no traceback
    p = subprocess.run([sys.executable, "-m", "cli.main", "analyse", str(tmp_path / "bad.json")],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.startswith("ascent: error: ") and "illegal" in p.stderr


def test_benchmark_script_runs_and_keeps_results(tmp_path) -> None:
    from benchmarks.analysis import main as bench

    out = tmp_path / "bench"
    args = ["--parts", "ladder", "--ladder-rows", "4", "--ladder-seeds", "4",
            "--before-nodes", "3000", "--out", str(out)]
    assert bench(args) == 0
    rows = [json.loads(ln) for ln in (out / "analysis.jsonl").read_text().splitlines()]
    assert rows and rows[0]["after_verdict"] == "loss"
    assert "hand_size=2 ladder" in (out / "analysis.md").read_text()
    assert bench(args) == 2  # never over existing results


def test_sigterm_stops_a_game_analysis(tmp_path):
    """SIGTERM (like Ctrl-C) stops `ascent analyse` mid-game: exit 130 and one line, not
    the stopped position taken for an unknown and the next one analysed (it ran on for
    half a minute)."""
    import json
    import random
    import signal

    from model.deal import Deal
    from model.game import Game
    from model.records import Plan
    from tests import signalling

    deal, rng = Deal.from_seed(1000, 1), random.Random(1)
    game = Game(deal)
    while not game.is_over():  # a lost random game: its analysis needs full-limit solves
        moves = game.legal_moves()
        places = [m for m in moves if m.kind != "discard"]
        game.push(rng.choice(places if places and rng.random() < 0.8 else moves))
    rec = tmp_path / "lost.json"
    rec.write_text(json.dumps(Plan(deal, list(game.move_stack), {}).to_json()))
    proc = signalling.start(["analyse", str(rec), "--time-per-move", "10"], "solved")
    signalling.wait_ready(proc, "solved")  # a first position is solved, the next one runs
    proc.send_signal(signal.SIGTERM)
    out, err = signalling.finish(proc, timeout=60)  # not the 10 s of every position left
    assert proc.returncode == 130, err
    assert err.startswith("ascent: error: interrupted") and err.count("\n") == 1
    import re

    searched = re.search(r"(\d+) positions? searched", out)  # what was solved is shown
    assert searched and int(searched[1]) >= 1, out
    # the stopped position was not taken for an unknown and the next one analysed: no
    # solve started after the signal
    assert "solved" not in proc.late_marks


def test_analyse_text_shows_the_turns_each_move_lost(tmp_path) -> None:
    """``--objective turns`` is accepted, so its table has the column ("turns lost"), as
    waste has "gave away"; the JSON's spent_extra is what the column shows."""
    path, deal, moves = tiny_record(tmp_path)
    res = run("analyse", str(path), "--objective", "turns", "--time-per-move", "5")
    assert res.exit_code == 0, res.output
    assert "turns lost" in res.output.splitlines()[0]
    data = json.loads(run("analyse", str(path), "--objective", "turns", "--time-per-move", "5",
                          "--json").output)
    assert data["objective"] == "turns" and len(data["moves"]) == len(moves)
    assert all(m["spent_extra"] is None or m["spent_extra"] >= 0 for m in data["moves"])
