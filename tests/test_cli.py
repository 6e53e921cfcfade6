"""The ``ascent`` command line: each command's happy path for 1 and 5 players, agreement with
the rules engine, and one-line errors (never a traceback) for every kind of bad input."""

from __future__ import annotations

import hashlib
import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from model.cards import parse_card
from model.deal import Deal
from model.errors import RecordError
from model.game import Game
from model.records import Plan, dumps, parse_deal_text
from model.rules import RuleSet

PLAIN_ENV = {"FORCE_COLOR": None, "NO_COLOR": None, "TTY_COMPATIBLE": None, "COLUMNS": "100",
             "ASCENT_DEBUG": None}


def run(*args: str, input: str | None = None, env: dict | None = None):
    """Run ``ascent ARGS`` in-process; the result has ``exit_code``, ``stdout``, ``stderr``."""
    return CliRunner(env={**PLAIN_ENV, **(env or {})}).invoke(main, list(args), input=input)


def assert_one_line_error(result, code: int = 2, *needles: str) -> None:
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("ascent: error: "), lines
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


def random_plan(seed: int, players: int, moves: int, rules: RuleSet | None = None,
                prefer_place: bool = True) -> Plan:
    """A plan of up to ``moves`` random legal moves (placements preferred) from a seeded deal."""
    deal = Deal.from_seed(seed, players, rules or RuleSet.standard())
    game = Game(deal)
    rng = random.Random(seed * 7 + players)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        places = [m for m in legal if m.kind != "discard"]
        game.push(rng.choice(places if places and prefer_place else legal))
    return Plan(deal, list(game.move_stack))


def write_plan(tmp_path: Path, plan: Plan, name: str = "plan.json") -> Path:
    path = tmp_path / name
    path.write_text(dumps(plan.to_json()), encoding="utf-8")
    return path


def mountain_from_output(text: str) -> dict[int, list[str]]:
    """Row number -> cell texts (cards, ``··`` for empty) parsed from ``show`` output."""
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^\s*(\d+)(?: peak)?\s+│(.*)$", line)
        if m:
            rows[int(m.group(1))] = m.group(2).split()
    return rows


def expected_cells(game: Game) -> dict[int, list[str]]:
    rules = game.rules
    return {
        r: [c.text for c in game.row(r)] + ["··"] * (rules.row_length(r) - len(game.row(r)))
        for r in range(1, rules.peak_row + 1)
    }


# ---- help and version ----------------------------------------------------------------------

@pytest.mark.parametrize("command", [[], ["deal"], ["show"], ["legal"], ["replay"]])
def test_help_has_examples(command):
    result = run(*command, "--help")
    assert result.exit_code == 0
    assert "Examples:" in result.stdout
    assert "ascent" in result.stdout


def test_version():
    result = run("--version")
    assert result.exit_code == 0
    assert re.match(r"ascent \S+", result.stdout)


# ---- deal ----------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [1, 2, 5])
def test_deal_text_parses_back_to_the_same_deal(players):
    result = run("deal", "--seed", "17", "--players", str(players))
    assert result.exit_code == 0, result.stderr
    deck_lines = [ln for ln in result.stdout.splitlines() if ln.startswith("P")]
    assert [ln.split(":")[0] for ln in deck_lines] == [f"P{p + 1}" for p in range(players)]
    expected = Deal.from_seed(17, players)
    # the first line of the text is player 1's deck, top card first
    assert deck_lines[0].split()[1:6] == [c.text for c in expected.decks[0][:5]]
    back = parse_deal_text(result.stdout)
    assert back.decks == expected.decks
    assert back.rules == expected.rules


def test_deal_text_with_rules_parses_back_with_the_same_rules():
    result = run("deal", "--seed", "4", "--players", "3", "--rules", "preset=tiny",
                 "--rules", "dealing=blocks", "--rules", "campfire_move_cost=free")
    assert result.exit_code == 0, result.stderr
    rules = RuleSet.from_options(["preset=tiny", "dealing=blocks", "campfire_move_cost=free"])
    back = parse_deal_text(result.stdout)
    assert back.rules == rules
    assert back.decks == Deal.from_seed(4, 3, rules).decks
    # blocks dealing gives player 1 the first block: 7 of the tiny deck's 20 cards
    assert len(back.decks[0]) == 7


@pytest.mark.parametrize("players", [1, 5])
def test_deal_json_is_a_plan_record(players):
    result = run("deal", "--seed", "9", "--players", str(players), "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["moves"] == []
    assert data["deal"]["players"] == players
    assert data["rules"] == RuleSet.standard().to_dict()
    plan = Plan.from_json(data)
    assert plan.deal.decks == Deal.from_seed(9, players).decks
    assert plan.deal.seed == 9


def test_rule_preset_that_is_not_a_string_is_a_rule_option_error():
    # model/rules.py fix: a JSON list or object as preset used to raise TypeError
    from model.errors import RuleOptionError

    for bad in (["tiny"], {"x": 1}, 3):
        with pytest.raises(RuleOptionError, match="valid presets: standard, tiny"):
            RuleSet.from_options({"preset": bad})


def test_a_file_with_a_byte_order_mark_loads(tmp_path):
    # model/records.py fix: a UTF-8 BOM (Windows editors) used to make JSON read as card text
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + run("deal", "--seed", "2", "--json").stdout.encode())
    result = run("show", str(path))
    assert result.exit_code == 0, result.stderr
    assert mountain_from_output(result.stdout) == expected_cells(Game(Deal.from_seed(2)))


def test_deal_text_is_readable_by_show_through_stdin():
    text = run("deal", "--seed", "5", "--players", "2").stdout
    result = run("show", "-", input=text)
    assert result.exit_code == 0, result.stderr
    game = Game(Deal.from_seed(5, 2))
    assert f"hand: {' '.join(c.text for c in game.hands[1])}" in result.stdout


# ---- parse_deal_text labels (model/records.py change for `ascent deal`) --------------------

def test_parse_deal_text_accepts_player_labels_in_order():
    deal = Deal.from_seed(2, 2)
    lines = [f"P{p + 1}: " + " ".join(c.text for c in d) for p, d in enumerate(deal.decks)]
    assert parse_deal_text("\n".join(lines)).decks == deal.decks
    assert parse_deal_text("\n".join(ln.replace(": ", ":") for ln in lines)).decks == deal.decks
    with pytest.raises(RecordError, match="P2 where P1"):
        parse_deal_text("\n".join(reversed(lines)))


def test_parse_deal_text_labelled_empty_line_is_an_empty_deck():
    rules = RuleSet.from_options(["preset=tiny"])
    deal = Deal.from_seed(1, 1, rules)
    text = "P1: " + " ".join(c.text for c in deal.decks[0]) + "\nP2:\n"
    # two decks, the second empty: a valid table deal of the tiny deck
    back = parse_deal_text(text, rules)
    assert back.players == 2 and back.decks[1] == ()


# ---- show ----------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [1, 5])
def test_show_seed_start(players):
    result = run("show", "--seed", "3", "--players", str(players))
    assert result.exit_code == 0, result.stderr
    game = Game(Deal.from_seed(3, players))
    out = result.stdout
    for p in range(players):
        assert f"P{p + 1}  hand: {' '.join(c.text for c in game.hands[p])}   deck: {len(game.decks[p])}" in out
    assert out.count("▶") == 1 and "▶ P1" in out
    assert mountain_from_output(out) == expected_cells(game)
    assert "player 1 to move" in out
    assert "0 of 45 slots filled" in out


def test_show_draws_a_centred_pyramid_with_the_peak_on_top():
    plan = random_plan(11, 1, 30)
    out = run("show", "--seed", "11").stdout
    lines = [ln for ln in out.splitlines() if "│" in ln]
    labels = [int(re.match(r"\s*(\d+)", ln).group(1)) for ln in lines]
    assert labels == list(range(9, 0, -1))
    centres = []
    for line in lines:
        body = line.split("│", 1)[1]
        first = len(body) - len(body.lstrip())
        centres.append((first + len(body.rstrip())) / 2)
    assert max(centres) - min(centres) <= 1, centres
    assert plan.moves  # the random plan helper works for the next tests


@pytest.mark.parametrize("players", [1, 5])
def test_show_plan_at_step_matches_the_engine(tmp_path, players):
    plan = random_plan(21, players, 40)
    path = write_plan(tmp_path, plan)
    n = len(plan.moves)
    assert n >= 20
    for step in (0, 7, n // 2, n):
        result = run("show", str(path), "--step", str(step))
        assert result.exit_code == 0, result.stderr
        game = plan.replay(step).game
        assert mountain_from_output(result.stdout) == expected_cells(game)
        for p in range(players):
            hand = " ".join(c.text for c in game.hands[p]) or "(empty)"
            assert f"P{p + 1}  hand: {hand}   deck: {len(game.decks[p])}" in result.stdout
        assert f"Out of the game: {len(game.out)} cards" in result.stdout
    # default: after every move
    assert mountain_from_output(run("show", str(path)).stdout) == expected_cells(plan.replay().game)


def test_show_bridges_and_campfires_appear(tmp_path):
    # find a plan in which a Bridge and a Campfire reach the mountain
    for seed in range(1, 60):
        plan = random_plan(seed, 1, 45)
        game = plan.replay().game
        cards = {c.text for row in game.mountain for c in row}
        if "B" in cards and cards & {"Cr", "Cg", "Cb"}:
            break
    else:  # pragma: no cover
        pytest.skip("no random game with a Bridge and a Campfire")
    out = run("show", str(write_plan(tmp_path, plan))).stdout
    cells = [c for row in mountain_from_output(out).values() for c in row]
    assert "B" in cells and set(cells) & {"Cr", "Cg", "Cb"}


def test_show_is_in_colour_when_colour_is_forced(tmp_path):
    plan = random_plan(3, 1, 25)
    path = write_plan(tmp_path, plan)
    coloured = run("show", str(path), env={"FORCE_COLOR": "1"}).stdout
    plain = run("show", str(path)).stdout
    assert "\x1b[" not in plain
    red = next(c.text for row in plan.replay().game.mountain for c in row
               if c.is_ascent and c.colour == "r")
    # the red card's text comes right after an escape sequence containing 31 (red)
    assert re.search(r"\x1b\[[0-9;]*31m\s*" + re.escape(red), coloured), coloured


def test_show_finished_game_states_the_outcome(tmp_path):
    plan = random_plan(1, 2, 200)
    game = plan.replay().game
    assert game.outcome() is not None
    out = run("show", str(write_plan(tmp_path, plan))).stdout
    assert "Game over:" in out
    assert ("won" if game.outcome() == "win" else "lost") in out
    assert "▶" not in out


def test_show_position_file(tmp_path):
    game = random_plan(8, 3, 12).replay().game
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"position": game.to_position()}), encoding="utf-8")
    result = run("show", str(path))
    assert result.exit_code == 0, result.stderr
    assert mountain_from_output(result.stdout) == expected_cells(game)
    assert f"player {game.to_move + 1} to move" in result.stdout
    assert_one_line_error(run("show", str(path), "--step", "1"), 2, "--step applies to a plan")


# ---- legal ---------------------------------------------------------------------------------

def engine_placements(game: Game) -> list[dict]:
    return [
        {"card": pl.card.text, "row": pl.row, "slot": pl.slot, "to_row": pl.to_row,
         "to_slot": pl.to_slot, "cost": pl.cost, "onto_bridge": pl.onto_bridge}
        for pl in game.generate_placements()
    ]


@pytest.mark.parametrize("players,step", [(1, 0), (1, 20), (5, 0), (5, 25)])
def test_legal_lists_exactly_the_engine_placements(tmp_path, players, step):
    plan = random_plan(31, players, 30)
    path = write_plan(tmp_path, plan)
    game = plan.replay(step).game
    expected = engine_placements(game)
    data = json.loads(run("legal", str(path), "--step", str(step), "--json").stdout)
    got = [{k: v for k, v in d.items() if k != "pay_from"} for d in data["placements"]]
    assert got == expected
    assert data["discard_two"] == (len(game.hands[game.to_move]) >= 2)

    text = run("legal", str(path), "--step", str(step)).stdout
    lines = [ln for ln in text.splitlines() if ln.startswith("  ") and "costs" in ln]
    assert len(lines) == len(expected)
    assert f"Legal placements ({len(expected)}):" in text
    for line, pl in zip(lines, game.generate_placements()):
        assert line.split()[0] == pl.card.text
        assert f"row {pl.row} slot {pl.slot}" in line
        assert f"costs {pl.cost}" in line
        if pl.cost:
            ways = len(game.discard_choices(
                [c for i, c in enumerate(game.hands[game.to_move])
                 if i != game.hands[game.to_move].index(pl.card)], pl.cost))
            assert f"discard any {pl.cost} of" in line and f"({ways} way" in line


def test_legal_counts_the_discard_two_move():
    result = run("legal", "--seed", "1", "--players", "2")
    assert result.exit_code == 0
    game = Game(Deal.from_seed(1, 2))
    hand = " ".join(c.text for c in game.hands[0])
    assert f"Discard 2: any 2 of {hand} (10 ways)" in result.stdout
    # total moves = expanded placements + discard choices, as the engine counts them
    assert len(game.legal_moves()) == 5 + 10


def test_legal_with_a_costly_placement_lists_the_payers(tmp_path):
    for seed in range(1, 40):
        plan = random_plan(seed, 1, 20)
        game = plan.replay().game
        costly = [pl for pl in game.generate_placements() if pl.cost > 0]
        if costly:
            break
    else:  # pragma: no cover
        pytest.skip("no costly placement found")
    data = json.loads(run("legal", str(write_plan(tmp_path, plan)), "--json").stdout)
    entry = next(d for d in data["placements"] if d["cost"] > 0)
    hand = [c.text for c in game.hands[game.to_move]]
    hand.remove(entry["card"])
    assert entry["pay_from"] == hand


def test_legal_explain_names_rulings():
    result = run("legal", "--seed", "1", "--explain", "7r")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "row 1 slot 1" in out and "legal, costs 0" in out
    assert "R3: row 2 slot 1 needs slots 1 and 2 of row 1 filled" in out
    assert re.search(r"row 9 slot 1 \(peak\)\s+R10:", out)
    summit = run("legal", "--seed", "1", "--explain", "S").stdout
    assert "R10: the Summit needs every row below the peak full" in summit
    bridge = run("legal", "--seed", "1", "--explain", "B").stdout
    assert "R7: a Bridge never takes the first or last slot" in bridge


def test_legal_explain_json_matches_engine(tmp_path):
    plan = random_plan(6, 2, 30)
    game = plan.replay().game
    path = write_plan(tmp_path, plan)
    for card in ("5g", "Cr", "B", "S"):
        data = json.loads(run("legal", str(path), "--explain", card, "--json").stdout)
        expected = [list(t) for t in game.explain(parse_card(card))]
        got = [[d["row"], d["slot"], d["to_row"], d["to_slot"], d["ruling"], d["reason"]]
               for d in data["slots"]]
        assert got == expected
    text = run("legal", str(path), "--explain", "Cr").stdout
    assert "R9" in text


def test_legal_on_a_finished_game_says_so(tmp_path):
    plan = random_plan(1, 2, 200)
    assert plan.replay().game.outcome() is not None
    result = run("legal", str(write_plan(tmp_path, plan)))
    assert result.exit_code == 0
    assert "The game is over" in result.stdout
    assert json.loads(run("legal", str(write_plan(tmp_path, plan)), "--json").stdout)["placements"] == []


# ---- replay --------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [1, 5])
def test_replay_reports_the_outcome(tmp_path, players):
    plan = random_plan(41, players, 300)
    game = plan.replay().game
    result = run("replay", str(write_plan(tmp_path, plan)))
    assert result.exit_code == 0, result.stderr
    outcome = game.outcome()
    word = {"win": "win in", "loss": "loss after", None: "unfinished after"}[outcome]
    assert f"{word} {game.turn} turns" in result.stdout
    assert f"{len(game.out)} cards out of the game" in result.stdout
    assert f"{game.filled_slots()} of 45 slots filled" in result.stdout
    data = json.loads(run("replay", str(write_plan(tmp_path, plan)), "--json").stdout)
    assert data["outcome"] == (outcome or "unfinished")
    assert data["position"] == game.to_position()


def test_replay_unfinished_plan(tmp_path):
    plan = random_plan(2, 3, 10)
    result = run("replay", str(write_plan(tmp_path, plan)))
    assert result.exit_code == 0
    assert "unfinished after 10 turns (player 2 to move)" in result.stdout


@pytest.mark.parametrize("corrupt", ["slot", "player", "card"])
def test_replay_of_a_corrupted_plan_names_move_and_ruling(tmp_path, corrupt):
    plan = random_plan(12, 2, 30)
    k = 9  # 1-based move number to corrupt
    data = plan.to_json()
    move = data["moves"][k - 1]
    if corrupt == "slot":
        place = next(i for i, m in enumerate(data["moves"]) if i >= k - 1 and m["kind"] == "place")
        k, move = place + 1, data["moves"][place]
        move["slot"] += 3
    elif corrupt == "player":
        move["player"] = 2 if move["player"] == 1 else 1
    else:
        place = next(i for i, m in enumerate(data["moves"]) if i >= k - 1 and m["kind"] == "place")
        k, move = place + 1, data["moves"][place]
        hand = plan.replay(k - 1).game.hands[move["player"] - 1]
        move["card"] = next(t for t in ("1r", "12g", "5b", "3g") if parse_card(t) not in hand)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    expected = Plan.from_json(data).replay().error
    assert expected is not None and expected.move_number == k

    result = run("replay", str(path))
    assert result.exit_code == 1
    assert "Traceback" not in result.stdout + result.stderr
    line = result.stdout.splitlines()[-1]
    assert line.startswith(f"move {k} (T{k} P{move['player']} ")
    assert f"illegal ({expected.ruling}): {expected.reason}" in line
    assert f"{k - 1} of 30 moves legal" in result.stdout
    # show / legal past the illegal move: a one-line error that names the move
    assert_one_line_error(run("show", str(path)), 2, f"move {k} (", f"up to --step {k - 1}")
    assert run("show", str(path), "--step", str(k - 1)).exit_code == 0
    data_json = json.loads(run("replay", str(path), "--json").stdout)
    assert data_json["error"]["move"] == k and data_json["error"]["ruling"] == expected.ruling


def test_replay_refuses_a_position(tmp_path):
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"position": Game(Deal.from_seed(1)).to_position()}))
    assert_one_line_error(run("replay", str(path)), 2, "replay needs a plan")


# ---- bad input: one line on stderr, non-zero exit, never a traceback -----------------------

def _bad_inputs(tmp_path: Path) -> list[tuple[list[str], int, tuple[str, ...]]]:
    good = Plan(Deal.from_seed(1, 2)).to_json()
    bad_card = json.loads(json.dumps(good))
    bad_card["deal"]["decks"][0][3] = "13x"
    three = Game(Deal.from_seed(1)).to_position()
    three["hands"][0] = ["7r", "7r", "7r"]
    three["decks"][0] = [t for t in three["decks"][0] if t != "7r"]
    files = {
        "malformed.json": '{"deal": {"players": 1,',
        "badcard.json": json.dumps(bad_card),
        "three.json": json.dumps({"position": three}),
        "empty.txt": "",
        "list.json": "[1, 2, 3]",
        "badtext.txt": "7r 8g 99q\n",
        "badrules.json": json.dumps({**good, "rules": {"colour": "x"}}),
        "badmove.json": json.dumps({**good, "moves": [{"player": 1, "kind": "jump"}]}),
        "badpreset.json": json.dumps({**good, "rules": {"preset": ["tiny"]}}),
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "binary.dat").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "dir").mkdir()
    plan = tmp_path / "plan.json"
    plan.write_text(dumps(random_plan(1, 1, 5).to_json()), encoding="utf-8")
    t = str(tmp_path)
    return [
        (["show", f"{t}/missing.json"], 2, ("missing.json", "no such file")),
        (["legal", f"{t}/dir"], 2, ("is a directory",)),
        (["show", f"{t}/malformed.json"], 2, ("malformed JSON", "line 1")),
        (["replay", f"{t}/badcard.json"], 2, ("'13x'", "position 4")),
        (["show", f"{t}/three.json"], 2, ("3 copies of 7r",)),
        (["show", f"{t}/empty.txt"], 2, ("empty.txt",)),
        (["show", f"{t}/binary.dat"], 2, ("binary.dat",)),
        (["show", f"{t}/list.json"], 2, ("list.json",)),
        (["show", f"{t}/badtext.txt"], 2, ("'99q'", "position 3", "line 1")),
        (["replay", f"{t}/badrules.json"], 2, ("unknown rule option 'colour'", "valid options")),
        (["replay", f"{t}/badmove.json"], 2, ("move 1", "kind")),
        (["replay", f"{t}/badpreset.json"], 2, ("unknown preset ['tiny']", "standard, tiny")),
        (["deal", "--seed", "1", "--rules", "colour=x"], 2, ("'colour'", "preset, rows")),
        (["deal", "--seed", "1", "--rules", "dealing=shuffled"], 2, ("round-robin, blocks",)),
        (["deal", "--seed", "1", "--players", "0"], 2, ("--players", "0 is not from 1 to 5")),
        (["deal", "--seed", "1", "--players", "6"], 2, ("--players", "6 is not from 1 to 5")),
        (["show", "--seed", "1", "--players", "6"], 2, ("6 is not from 1 to 5",)),
        (["deal", "--seed", "-1"], 2, ("seed",)),
        (["deal", "--seed", "x"], 2, ("--seed", "ascent deal --help")),
        (["deal"], 2, ("--seed",)),
        (["show", str(plan), "--step", "6"], 2, ("--step must be from 0 to 5",)),
        (["legal", str(plan), "--step", "-1"], 2, ("--step", "-1 is not from 0")),
        (["show", str(plan), "--rules", "rows=3"], 2, ("its own rules",)),
        (["show", str(plan), "--seed", "1"], 2, ("not both",)),
        (["show"], 2, ("--seed N",)),
        (["legal", "--seed", "1", "--explain", "7x"], 2, ("'7x'",)),
        (["legal", "--seed", "1", "--explain", "13r"], 2, ("13r", "not in this deck")),
        (["frobnicate"], 2, ("frobnicate",)),
        (["replay", "-"], 2, ("malformed JSON",)),
    ]


def test_every_bad_input_is_one_line(tmp_path):
    cases = _bad_inputs(tmp_path)
    before = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in tmp_path.iterdir() if p.is_file()}
    for args, code, needles in cases:
        result = run(*args, input="{nope" if args[-1] == "-" else None)
        try:
            assert_one_line_error(result, code, *needles)
        except AssertionError as exc:  # pragma: no cover - say which case failed
            raise AssertionError(f"{args}: {exc}") from None
    after = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in tmp_path.iterdir() if p.is_file()}
    assert after == before  # nothing the user gave is overwritten (and nothing is written)


def test_interrupt_and_internal_error_are_one_line(monkeypatch):
    import cli.show

    def boom(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli.show, "render_game", boom)
    assert_one_line_error(run("show", "--seed", "1"), 130, "interrupted")

    def bug(*_a, **_k):
        raise ZeroDivisionError("oops")

    monkeypatch.setattr(cli.show, "render_game", bug)
    assert_one_line_error(run("show", "--seed", "1"), 70, "internal error", "ZeroDivisionError")


# ---- the installed script: real exit codes ------------------------------------------------

ASCENT = shutil.which("ascent")


@pytest.mark.skipif(ASCENT is None, reason="the ascent console script is not installed")
def test_installed_script_exit_codes(tmp_path):
    ok = subprocess.run([ASCENT, "deal", "--seed", "1", "--players", "2"],
                        capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and ok.stdout.count("\nP") == 2
    (tmp_path / "bad.json").write_text('{"deal": [', encoding="utf-8")
    bad = subprocess.run([ASCENT, "show", str(tmp_path / "bad.json")],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.startswith("ascent: error: ") and bad.stderr.count("\n") == 1
    assert "Traceback" not in bad.stderr


@pytest.mark.skipif(ASCENT is None, reason="the ascent console script is not installed")
def test_installed_script_replay_of_illegal_plan_exits_1(tmp_path):
    data = random_plan(5, 1, 6).to_json()
    data["moves"][2]["player"] = 2
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    proc = subprocess.run([ASCENT, "replay", str(path)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 1
    assert "move 3 (T3 P2" in proc.stdout and "illegal (R11)" in proc.stdout
    assert "Traceback" not in proc.stderr


def test_legal_with_one_card_in_hand_has_no_discard_two(tmp_path):
    rules = RuleSet.from_options(["preset=tiny"])
    game = Game.from_parts(rules, [], [[parse_card("1r")]], [[]])
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"position": game.to_position()}), encoding="utf-8")
    data = json.loads(run("legal", str(path), "--json").stdout)
    assert data["discard_two"] is False
    assert [(d["card"], d["row"], d["slot"]) for d in data["placements"]] == [("1r", 1, 1)]
    text = run("legal", str(path)).stdout
    assert "Discard 2: not possible" in text
    shown = run("show", str(path)).stdout
    assert "(rules: tiny)" in shown
    assert mountain_from_output(shown) == expected_cells(game)


def test_rules_option_applies_to_a_typed_in_deal(tmp_path):
    rules = RuleSet.from_options(["preset=tiny"])
    deal = Deal.from_seed(6, 2, rules)
    path = tmp_path / "table.txt"
    path.write_text("\n".join(" ".join(c.text for c in d) for d in deal.decks), encoding="utf-8")
    assert_one_line_error(run("show", str(path)), 2, "table.txt")  # read as the standard deck
    result = run("show", str(path), "--rules", "preset=tiny")
    assert result.exit_code == 0, result.stderr
    assert mountain_from_output(result.stdout) == expected_cells(Game(deal))
    assert f"hand: {' '.join(c.text for c in Game(deal).hands[1])}" in result.stdout


@pytest.mark.parametrize("options", [
    [],  # each preset by name
    ["rows=3", "values=5", "copies=1", "bridges=1", "summits=1", "hand_size=4"],  # mini's values
    ["rows=3", "values=4", "colours=2", "bridges=1", "summits=1", "hand_size=3"],  # tiny's
    ["dealing=blocks"],
])
@pytest.mark.parametrize("preset", ["standard", "tiny", "mini"])
def test_every_rules_name_printed_is_accepted_back(preset, options):
    """``describe()`` (the rules line of ``solve``, ``simulate``, the page) and ``ascent deal``'s
    ``rules:`` line name a rule set in words ``--rules`` takes: given back, the same game."""
    rules = RuleSet.from_options([f"preset={preset}", *options])
    name, *changed = rules.describe().split()
    again = RuleSet.from_options([f"preset={name}", *changed])
    assert again == rules and again.describe() == rules.describe()
    dealt = run("deal", "--seed", "1", *[a for o in [f"preset={preset}", *options] for a in ("--rules", o)])
    assert dealt.exit_code == 0, dealt.stderr
    line = next((ln for ln in dealt.stdout.splitlines() if ln.startswith("rules: ")),
                "rules: preset=standard")  # no rules line: the standard rules
    back = run("solve", "--seed", "1", "--node-limit", "200",
               *[a for o in line.split()[1:] for a in ("--rules", o)])
    assert back.exit_code in (0, 1), back.stderr


def test_solve_takes_the_mini_preset_the_daily_puzzle_prints():
    printed = run("daily", "--date", "2026-12-01", "--size", "mini")
    name = re.search(r"rules: (\S+) \(20 cards\)", printed.stdout).group(1)
    result = run("solve", "--seed", "1", "--rules", f"preset={name}")
    assert result.exit_code == 0, result.stderr
    assert "win in" in result.stdout
