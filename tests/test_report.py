"""``ascent study report``: intervals against a hand computation (unknowns both ways), paired
differences, Markdown and JSON, the plots (PNG and SVG), bad input."""

from __future__ import annotations

import json
import math
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import main
from studies.runner import connect, ensure_table
from studies.study import COLUMNS, TABLE

BASE = "standard"
LEFT = "standard bridge_replace_cost=left"


def make_db(path: Path) -> None:
    """1 player, 10 seeds under two rule sets (verdicts chosen by hand), plus 2 players."""
    con = connect(path)
    ensure_table(con, TABLE, COLUMNS)
    base = ["win"] * 8 + ["unknown", "loss"]           # seeds 1..10
    left = ["win"] * 6 + ["loss", "win", "win", "win"]  # seed 7 lost; 8, 9, 10 won
    rows = []
    for variant, verdicts in ((BASE, base), (LEFT, left)):
        for seed, v in enumerate(verdicts, 1):
            rows.append((1, seed, variant, v, 0.1 * seed, 20 + seed if v == "win" else None))
    for seed in range(1, 5):
        rows.append((2, seed, BASE, "loss" if seed == 4 else "win", 1.0, 30 if seed < 4 else None))
    for players, seed, variant, verdict, secs, out in rows:
        key = f"{players}|{seed}|{variant}"
        con.execute(
            f"INSERT INTO {TABLE} (key, task, point, seed, players, rules, variant, objective, "
            "time_limit, solver_version, verdict, seconds, cards_out) "
            "VALUES (?, '{}', ?, ?, ?, '{}', ?, 'none', 10, 'v', ?, ?, ?)",
            (key, key, seed, players, variant, verdict, secs, out))
    con.close()


def wilson_by_hand(k: int, n: int) -> tuple[float, float]:
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_intervals_pairs_and_plots(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    make_db(db)
    r = run("study", "report", "--db", str(db), "--by", "players,variant", "--json",
            "--plots", str(tmp_path / "plots"))
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    groups = {(g["players"], g["variant"]): g for g in data["groups"]}
    g = groups[(1, BASE)]
    assert (g["won"], g["lost"], g["unknown"], g["total"]) == (8, 1, 1, 10)
    lo, hi = g["interval"]
    assert lo == pytest.approx(wilson_by_hand(8, 10)[0]) and lo == pytest.approx(0.4902, abs=1e-4)
    assert hi == pytest.approx(wilson_by_hand(9, 10)[1]) and hi == pytest.approx(0.9821, abs=1e-4)
    g2 = groups[(2, BASE)]
    assert g2["interval"] == pytest.approx(list(wilson_by_hand(3, 4)))
    assert g["cards_out"]["histogram"] == {str(20 + s): 1 for s in range(1, 9)}
    assert g["median_s"] == pytest.approx(0.5)
    (pair,) = [p for p in data["pairs"] if p["players"] == 1]
    assert pair["baseline"] == BASE and pair["variant"] == LEFT and pair["deals"] == 10
    # seed 7: won under the baseline, lost under left; seed 10: the reverse; seed 9: unknown
    assert (pair["won_both"], pair["lost_both"], pair["won_base_only"],
            pair["won_variant_only"], pair["unknown_either"]) == (7, 0, 1, 1, 1)
    assert pair["differing_seeds"] == [7, 10]
    for name in ("winnability_by_players", "winnability_by_rule", "cards_out_by_players",
                 "solve_time_cdf"):
        png = (tmp_path / "plots" / f"{name}.png").read_bytes()
        svg = (tmp_path / "plots" / f"{name}.svg").read_text()
        assert png.startswith(b"\x89PNG") and "<svg" in svg
    md = run("study", "report", "--db", str(db), "--by", "players", "--markdown")
    assert md.exit_code == 0
    assert "| 1 | 17 | 2 | 1 | 0 | 20 | 85.0% |" in md.stdout
    assert "Paired on the same deals" in md.stdout


def test_only_filters_rows(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    make_db(db)
    r = run("study", "report", "--db", str(db), "--by", "players", "--json",
            "--only", f"variant={BASE}", "--only", "seed=2-4,9")
    assert r.exit_code == 0, r.output
    g = {x["players"]: x for x in json.loads(r.stdout)["groups"]}
    assert (g[1]["won"], g[1]["unknown"], g[1]["total"]) == (3, 1, 4)
    assert (g[2]["won"], g[2]["lost"], g[2]["total"]) == (2, 1, 3)
    r = run("study", "report", "--db", str(db), "--only", "players=7")
    assert r.exit_code == 2 and "no rows match" in r.stderr


def test_bad_input(tmp_path: Path) -> None:
    notes = tmp_path / "notes.db"
    notes.write_text("hello\n")
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).execute("CREATE TABLE other (x)").connection.close()
    for args, needle in (
        (["--db", str(tmp_path / "missing.db")], "no such database"),
        (["--db", str(notes)], "not an SQLite database"),
        (["--db", str(empty)], "not a study database"),
        (["--db", str(empty), "--by", "colour"], "unknown column 'colour'"),
        (["--db", str(empty), "--only", "colour=r"], "--only takes COLUMN=V1,V2"),
    ):
        r = run("study", "report", *args)
        assert r.exit_code == 2, r.output
        assert needle in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert notes.read_text() == "hello\n"


def test_plots_never_overwrite_and_non_ascii_ranges_are_values(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    make_db(db)
    folder = tmp_path / "plots"
    folder.mkdir()
    mine = folder / "solve_time_cdf.svg"
    mine.write_text("my own drawing\n")
    r = run("study", "report", "--db", str(db), "--plots", str(folder))
    assert r.exit_code == 2, r.output
    assert "exists" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert mine.read_text() == "my own drawing\n"
    assert sorted(p.name for p in folder.iterdir()) == ["solve_time_cdf.svg"]
    # a second report into a folder it drew before is refused too, the first plots kept
    other = tmp_path / "fresh"
    assert run("study", "report", "--db", str(db), "--plots", str(other)).exit_code == 0
    before = {p.name: p.read_bytes() for p in other.iterdir()}
    assert len(before) == 8
    assert run("study", "report", "--db", str(db), "--plots", str(other)).exit_code == 2
    assert {p.name: p.read_bytes() for p in other.iterdir()} == before
    # Arabic-Indic digits are not a range of seeds, nor a word a seed: one-line errors
    for bad, needle in (("seed=\u0661-\u0662", "takes"), ("seed=abc", "takes"),
                        ("players=1,x", "takes"), ("hand_size=five", "takes"),
                        ("time_limit=ten", "takes"), ("time_limit=nan", "takes"),
                        ("time_limit=5-20", "takes"), ("time_limit=-10", "takes"),
                        ("seed=" + "9" * 30, "takes"), ("seed=5-3", "runs backwards"),
                        ("seed=1,5-3", "runs backwards"), ("seed=,", "at least one value")):
        r = run("study", "report", "--db", str(db), "--only", bad)
        assert r.exit_code == 2 and needle in r.stderr, (bad, r.output)
        assert len(r.stderr.strip().splitlines()) == 1
    # time_limit is compared as a number; empty values between commas are ignored
    counts = set()
    for only in ("time_limit=10", "time_limit=10.0", "time_limit=1e1", "seed=1-10,", "seed=,1-10"):
        r = run("study", "report", "--db", str(db), "--json", "--by", "players", "--only", only)
        assert r.exit_code == 0, (only, r.output)
        counts.add(sum(g["total"] for g in json.loads(r.stdout)["groups"]))
    assert counts == {24}
    # a whole number written with a leading zero is that number
    r = run("study", "report", "--db", str(db), "--json", "--only", "seed=02")
    assert r.exit_code == 0 and json.loads(r.stdout)["groups"][0]["total"] >= 1, r.output


def test_plots_of_groups_all_won_draw(tmp_path: Path) -> None:
    """57 deals all won: Wilson's upper end came out as 1 - 1e-16, below the share, and the
    error bar's negative length stopped the report ("'yerr' must not contain negative
    values"; the cards-out figures of 2026-12-02)."""
    con = connect(tmp_path / "w.db")
    ensure_table(con, TABLE, COLUMNS)
    for seed in range(1, 58):
        key = f"2|{seed}|{BASE}"
        con.execute(
            f"INSERT INTO {TABLE} (key, task, point, seed, players, rules, variant, objective, "
            "time_limit, solver_version, verdict, seconds, cards_out) "
            "VALUES (?, '{}', ?, ?, 2, '{}', ?, 'waste', 5, 'v', 'win', 5.0, 22)",
            (key, key, seed, BASE))
    con.close()
    r = run("study", "report", "--db", str(tmp_path / "w.db"), "--json",
            "--plots", str(tmp_path / "plots"))
    assert r.exit_code == 0, r.output
    (group,) = json.loads(r.output)["groups"]
    assert group["interval"][1] == 1.0 and group["won"] == 57
    assert (tmp_path / "plots" / "winnability_by_players.svg").stat().st_size > 0


def test_reports_of_disjoint_seeds_add_up_to_the_report_of_all(tmp_path: Path, capsys) -> None:
    """benchmarks/combine_reports.py: the parts' sum equals the report over every seed."""
    from benchmarks.combine_reports import CombineError, combine
    from benchmarks.combine_reports import main as combine_main

    db = tmp_path / "s.db"
    make_db(db)

    def rep(*only: str) -> dict:
        r = run("study", "report", "--db", str(db), "--by", "players,variant", "--json",
                *[x for o in only for x in ("--only", o)])
        assert r.exit_code == 0, r.output
        return json.loads(r.stdout)

    whole, a, b = rep(), rep("seed=1-3"), rep("seed=4-10")
    both = combine([a, b])
    assert [(g["players"], g["variant"]) for g in both["groups"]] == \
        [(g["players"], g["variant"]) for g in whole["groups"]]
    for g, w in zip(both["groups"], whole["groups"]):
        for k in ("won", "lost", "unknown", "error", "total", "share_won", "unknown_share"):
            assert g[k] == w[k], k
        assert g["interval"] == pytest.approx(w["interval"])
        assert g["cards_out"] == w["cards_out"]
        assert g["median_s"] is None and g["max_s"] == w["max_s"]
    (p,) = both["pairs"]
    (q,) = whole["pairs"]
    assert p == q and p["differing_seeds"] == [7, 10]
    # parts of other groups are refused, with a one-line error from the command
    with pytest.raises(CombineError, match="other groups"):
        combine([a, rep("players=1")])
    (tmp_path / "a.json").write_text(json.dumps(a))
    (tmp_path / "bad.json").write_text("{not json")
    assert combine_main([str(tmp_path / "a.json"), str(tmp_path / "bad.json")]) == 2
    err = capsys.readouterr().err
    assert "bad.json" in err and len(err.strip().splitlines()) == 1
    assert combine_main([str(tmp_path / "a.json"), "--markdown"]) == 0
    assert "| 1 | standard | 3 | 0 | 0 | 0 | 3 | 100.0% |" in capsys.readouterr().out


def test_pooled_groups_are_noted_and_markdown_has_its_legend(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    make_db(db)
    r = run("study", "report", "--db", str(db), "--by", "players", "--markdown")
    assert r.exit_code == 0, r.output
    assert "note: a group pools up to 2 rule sets" in r.stderr
    assert "24 solves. Share won: 95 % Wilson interval" in r.stdout
    r = run("study", "report", "--db", str(db), "--by", "players,variant", "--markdown")
    assert r.exit_code == 0 and "pools" not in r.stderr
    r = run("study", "report", "--db", str(db), "--by", "players", "--markdown",
            "--only", f"variant={BASE}")
    assert r.exit_code == 0 and "pools" not in r.stderr
    # grouped by seed and variant, no group pools anything even though the rows hold two
    r = run("study", "report", "--db", str(db), "--by", "seed,variant", "--json")
    assert r.exit_code == 0 and "pools" not in r.stderr
    json.loads(r.stdout)  # the note never goes to standard output
