"""Pictures: the SVG shows exactly the engine's mountain, hands and decks; PNG,
frames and the animation are real files; the command line writes them whole and never over a
file the user has."""

from __future__ import annotations

import random
import struct
import xml.etree.ElementTree as ET

import pytest

from model.deal import Deal
from model.errors import IllegalMoveError
from model.game import Game
from model.moves import Move
from model.records import Plan, dumps
from model.rules import RuleSet
from render.files import OutputExistsError, write_new
from render.frames import animated_svg, write_frames
from render.png import svg_to_png
from render.svg import FILLS, SHAPES, card_label, card_svg, game_svg
from tests.test_cli import assert_one_line_error, run

SVG = "{http://www.w3.org/2000/svg}"


def random_game(seed: int, moves: int, rules: RuleSet, players: int = 1) -> Game:
    game = Game(Deal.from_seed(seed, players, rules))
    rng = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        places = [m for m in legal if m.kind != "discard"]
        game.push(rng.choice(places or legal))
    return game


def slots_of(svg: str) -> dict[tuple[int, int], str | None]:
    """(row, slot) -> data-card (None when empty) of an interactive picture."""
    root = ET.fromstring(svg.encode())
    out = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "slot" and g.get("data-row"):
            out[(int(g.get("data-row")), int(g.get("data-slot")))] = g.get("data-card")
    return out


@pytest.mark.parametrize("seed,moves,rules,players", [
    (1, 0, RuleSet.tiny(), 1), (2, 8, RuleSet.tiny(), 1), (5, 30, RuleSet.standard(), 2),
    (9, 45, RuleSet.standard(), 5),
])
def test_svg_shows_the_engines_mountain(seed, moves, rules, players):
    game = random_game(seed, moves, rules, players)
    svg = game_svg(game, interactive=True)
    slots = slots_of(svg)
    expected = {(r, s): (c.text if (c := game.card_at(r, s)) else None)
                for r in range(1, rules.peak_row + 1) for s in range(1, rules.row_length(r) + 1)}
    assert slots == expected
    texts = [t.text for t in ET.fromstring(svg.encode()).iter(f"{SVG}text")]
    for p in range(players):  # each hand's cards and the deck count are written out
        assert f"deck: {len(game.decks[p])}" in texts
    titles = [t.text for t in ET.fromstring(svg.encode()).iter(f"{SVG}title")]
    for card in {c for row in game.mountain for c in row} | {c for h in game.hands for c in h}:
        assert any(card_label(card) in (t or "") for t in titles), card


def test_every_colour_has_its_letter_and_shape():
    """Colour is never the only cue: each coloured card shows its letter too."""
    rules = RuleSet.from_options({"preset": "tiny", "colours": 5})
    game = random_game(3, 12, rules)
    svg = game_svg(game)
    root = ET.fromstring(svg.encode())
    for card in {c for row in game.mountain for c in row if c.has_colour}:
        assert FILLS[card.colour] in svg
        assert any(t.text == card.colour for t in root.iter(f"{SVG}text"))
    assert len(set(SHAPES.values())) == len(SHAPES) == len(FILLS)
    assert "<svg" in card_svg(game.hands[0][0]) and "<?xml" not in card_svg(game.hands[0][0])


def test_png_is_a_png_of_the_pictures_size():
    game = random_game(4, 5, RuleSet.tiny())
    svg = game_svg(game)
    root = ET.fromstring(svg.encode())
    png = svg_to_png(svg, scale=1.0)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (round(float(root.get("width"))), round(float(root.get("height"))))


def test_frames_one_per_position_and_never_over_files(tmp_path):
    game = random_game(6, 7, RuleSet.tiny())
    plan = Plan(game.deal, list(game.move_stack))
    paths = write_frames(plan, tmp_path / "f")
    assert len(paths) == len(plan.moves) + 1
    assert [p.name for p in paths] == sorted(p.name for p in paths)
    last = slots_of(game_svg(game, interactive=True))
    assert paths[-1].read_text().count('class="slot"') == len(last)
    with pytest.raises(OutputExistsError):
        write_frames(plan, tmp_path / "f")
    bad = Plan(plan.deal, plan.moves + [Move("discard", 1, discard=tuple(game.rules.composition()[:2]))])
    with pytest.raises(IllegalMoveError):
        write_frames(bad, tmp_path / "g")
    assert not (tmp_path / "g").exists()


def test_animation_has_one_frame_per_position():
    game = random_game(7, 6, RuleSet.tiny())
    plan = Plan(game.deal, list(game.move_stack))
    root = ET.fromstring(animated_svg(plan).encode())
    frames = [g for g in root.iter(f"{SVG}g") if g.get("class") == "frame"]
    assert len(frames) == len(plan.moves) + 1
    assert all(len(list(g.iter(f"{SVG}animate"))) == 1 for g in frames)


def test_write_new_refuses_existing(tmp_path):
    target = tmp_path / "x.svg"
    target.write_text("mine")
    with pytest.raises(OutputExistsError):
        write_new(target, b"new")
    assert target.read_text() == "mine"
    write_new(tmp_path / "y.svg", b"data")
    assert (tmp_path / "y.svg").read_bytes() == b"data"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.svg", "y.svg"]  # no temp file left


# ---- command line --------------------------------------------------------------------------

def test_show_svg_to_stdout_matches_engine():
    result = run("show", "--seed", "3", "--rules", "preset=tiny", "--format", "svg")
    assert result.exit_code == 0, result.stderr
    root = ET.fromstring(result.stdout.encode())
    assert root.tag == f"{SVG}svg"
    game = Game(Deal.from_seed(3, 1, RuleSet.tiny()))
    texts = {t.text for t in root.iter(f"{SVG}text")}
    assert f"deck: {len(game.decks[0])}" in texts


def test_show_png_and_text_files(tmp_path):
    game = random_game(2, 6, RuleSet.tiny())
    plan_path = tmp_path / "plan.json"
    plan_path.write_text(dumps(Plan(game.deal, list(game.move_stack)).to_json()))
    png = tmp_path / "p.png"
    result = run("show", str(plan_path), "--step", "2", "--format", "png", "--picture", str(png))
    assert result.exit_code == 0, result.stderr
    assert png.read_bytes()[:4] == b"\x89PNG"
    txt = tmp_path / "p.txt"
    assert run("show", str(plan_path), "--format", "text", "--picture", str(txt)).exit_code == 0
    assert "Out of the game" in txt.read_text()
    again = run("show", str(plan_path), "--format", "png", "--picture", str(png))
    assert_one_line_error(again, 2, "exists")
    frames = run("show", str(plan_path), "--frames", str(tmp_path / "fr"))
    assert frames.exit_code == 0, frames.stderr
    assert len(list((tmp_path / "fr").iterdir())) == len(game.move_stack) + 1


def test_show_bad_picture_requests(tmp_path):
    assert_one_line_error(run("show", "--seed", "1", "--format", "gif"), 2, "gif")
    assert_one_line_error(run("show", "--seed", "1", "--format", "svg", "--picture",
                              str(tmp_path / "nope" / "x.svg")), 2, "does not exist")
    pos = tmp_path / "pos.json"
    pos.write_text(dumps({"position": Game(Deal.from_seed(1)).to_position()}))
    assert_one_line_error(run("show", str(pos), "--frames", str(tmp_path / "f")), 2, "position")


def test_solve_draws_the_final_mountain(tmp_path):
    pic, anim = tmp_path / "final.svg", tmp_path / "anim.svg"
    result = run("solve", "--seed", "1", "--rules", "preset=tiny", "--format", "svg",
                 "--picture", str(pic), "--animate", str(anim), "--record",
                 str(tmp_path / "plan.json"))
    assert result.exit_code == 0, result.stderr
    from model.records import load

    _, plan = load(tmp_path / "plan.json")
    final = plan.replay().game
    assert final.is_won()
    root = ET.fromstring(pic.read_bytes())
    filled = [t.text for t in root.iter(f"{SVG}title")
              if (t.text or "").startswith(("row", "peak")) and not t.text.endswith("empty")]
    assert len(filled) == final.filled_slots()
    assert any("Won in" in (t.text or "") for t in root.iter(f"{SVG}text"))
    frames = [g for g in ET.fromstring(anim.read_bytes()).iter(f"{SVG}g")
              if g.get("class") == "frame"]
    assert len(frames) == len(plan.moves) + 1
    out = run("solve", "--seed", "1", "--rules", "preset=tiny", "--format", "svg")
    assert out.stdout.lstrip().startswith("<?xml")
    assert_one_line_error(run("solve", "--seed", "1", "--rules", "preset=tiny", "--json",
                              "--format", "png"), 2, "--picture")
