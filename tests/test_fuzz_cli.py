"""Issue 7: a fuzz test over the readers and the options of the command line.

Hypothesis draws a command, options with odd values (look-alike digits, huge, negative,
non-finite, empty, unknown) and an input on standard input (JSON fragments, card text,
bytes); the command runs in-process (click's CliRunner). Whatever it is given, it ends with
an exit code of 0, 1, 2, 130 or 141 and never a traceback (an internal error, exit 70, is a
failure). Solves are kept small by a node limit appended last.
"""

from __future__ import annotations

import json

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.main import main

ALLOWED = {0, 1, 2, 130, 141}

NUMBERS = st.sampled_from([
    "0", "1", "2", "5", "6", "-1", "٣", "１", "1_000", "+1", " 1", "1e3", "2.5", "nan", "inf",
    "-inf", "none", "", "18446744073709551615", "18446744073709551616", "2147483647",
    "2147483648", "9" * 50, "0x10", "1" * 5000,
]) | st.integers(-10, 10**20).map(str) | st.text(max_size=6)

OPTIONS = ["--seed", "--players", "--step", "--rules", "--time-limit", "--node-limit",
           "--memory-limit", "--workers", "--solver-seed", "--explain", "--objective",
           "--deal", "--output", "--position", "--json", "--no-timing", "--bogus"]

RULES = st.sampled_from(["preset=tiny", "rows=3", "rows=Infinity", "rows=٣", "dealing=blocks",
                         "x", "=", "rows=99999999999999999999", "preset=standard"])

CARDS = st.sampled_from(["7r", "12g", "Cg", "B", "S", "P1:", "P2:", "rules: preset=tiny",
                         "13x", "1" * 40 + "r", "٣r", "#", "\ufeff", ",", "\n"])


@st.composite
def stdin_text(draw) -> str | bytes:
    kind = draw(st.integers(0, 4))
    if kind == 0:
        return " ".join(draw(st.lists(CARDS, max_size=30)))
    if kind == 1:
        value = draw(st.recursive(
            st.none() | st.booleans() | st.integers() | st.text(max_size=5)
            | st.sampled_from(["7r", "S", "Infinity"]),
            lambda c: st.lists(c, max_size=4) | st.dictionaries(
                st.sampled_from(["deal", "decks", "rules", "moves", "position", "verdict",
                                 "best_progress", "players", "plan", "mountain", "hands",
                                 "to_move", "kind", "card", "row", "slot", "discard"]),
                c, max_size=5),
            max_leaves=12))
        return json.dumps(value)
    if kind == 2:
        return draw(st.text(max_size=60))
    if kind == 3:
        return draw(st.binary(max_size=60))
    return '{"decks":[["7r"]],"rules":{"rows":' + draw(st.sampled_from(
        ["Infinity", "-Infinity", "NaN", "1e400", "3", "[]", '"3"'])) + "}}"


@st.composite
def command_line(draw) -> list[str]:
    cmd = draw(st.sampled_from(["deal", "show", "legal", "replay", "solve", "nope"]))
    args = [cmd]
    if cmd in ("show", "legal", "replay") and draw(st.booleans()):
        args.append("-")
    for _ in range(draw(st.integers(0, 4))):
        opt = draw(st.sampled_from(OPTIONS))
        args.append(opt)
        if opt in ("--json", "--no-timing", "--bogus"):
            continue
        if opt == "--rules":
            args.append(draw(RULES))
        elif opt == "--explain":
            args.append(draw(CARDS))
        elif opt == "--objective":
            args.append(draw(st.sampled_from(["none", "waste", "turns", "x"])))
        elif opt == "--deal":
            args.append("-")
        elif opt in ("--output", "--position"):
            args.append(draw(st.sampled_from(["", "/", "/nonexistent/x", "."])))
        else:
            args.append(draw(NUMBERS))
    if cmd == "solve":  # keep every solve small: the last value of an option wins
        args += ["--node-limit", "300", "--time-limit", "2", "--solver", "dfs",
                 "--memory-limit", "128"]
    return args


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(command_line(), stdin_text())
def test_no_input_ends_in_a_traceback_or_an_odd_exit_code(args, text):
    result = CliRunner().invoke(main, args, input=text)
    assert result.exit_code in ALLOWED, (args, result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.output
    if result.exception is not None:
        assert isinstance(result.exception, SystemExit), (args, repr(result.exception))
    if result.exit_code == 2:
        err = result.stderr.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("ascent: error: "), (args, result.stderr)
