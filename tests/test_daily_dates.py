"""Daily puzzles: the date derivation (test vectors, leap days, year ends) and bad dates."""

from __future__ import annotations

import datetime as dt
import doctest

import pytest

import puzzles.dates
from puzzles.dates import (
    DateError,
    band_for,
    candidate,
    day_number,
    parse_date,
    salt,
    stream_seed,
)

MASK = (1 << 64) - 1

# (date, day number, deal/full candidate 0 seed, deal/mini candidate 1 seed,
#  position/full candidate 0 (seed, players, playout)): the documented derivation, frozen.
VECTORS = [
    ("2000-01-01", 0, 16514455706166547975, 9165243969653488081, (13535502329711152703, 5, 10643790098861897259)),
    ("2000-02-29", 59, 17559101626564970888, 2002474181616555576, (1320753029260823304, 4, 1212131542159262098)),
    ("2001-03-01", 425, 5215808698325458063, 12642196059613509205, (16678027423356417069, 5, 17364002204230233603)),
    ("2020-02-29", 7364, 5849872279077592148, 11068411505976234414, (10595731282333228996, 2, 10050262719190995425)),
    ("2024-02-29", 8825, 365358908016247629, 5635638938389030731, (15655436181694938823, 2, 11410065299378376574)),
    ("2025-12-31", 9496, 16946114088813263011, 10962685631333783504, (14296151159687785921, 4, 2346693234539265916)),
    ("2026-01-01", 9497, 14753602913292647190, 5550179564231295347, (5386141927342464213, 1, 16660658359231812202)),
    ("2026-12-01", 9831, 2393270731669369698, 6083217245636438816, (16575616397470427376, 3, 16510547426034221888)),
    ("2026-12-31", 9861, 518229044527805129, 9851907048353881043, (17817009145765989222, 1, 11767149853302163539)),
    ("2027-01-01", 9862, 12547087164957220954, 4580245971222231059, (13708024707003612089, 4, 1524026255096077053)),
    ("2028-02-29", 10286, 18152012557205999786, 3696541719848750944, (11392120403445968675, 5, 12644830289781160330)),
    ("2099-12-31", 36524, 1373539847421163367, 6919026327458819139, (13911544389240038645, 4, 12202680483117647558)),
    ("2100-03-01", 36584, 3417198803988599142, 8925380723272141857, (10788188918314323396, 3, 8470305476767002750)),
    ("2999-12-31", 365242, 5232989803640363824, 16008869134283178652, (228300799410994133, 1, 18348552246184083567)),
]


def splitmix_outputs(seed: int, n: int) -> list[int]:
    """An independent SplitMix64 (written from the paper's constants, not model.deal)."""
    out, state = [], seed & MASK
    for _ in range(n):
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        out.append(z ^ (z >> 31))
    return out


@pytest.mark.parametrize("text,day,deal_full,deal_mini_1,pos_full", VECTORS)
def test_vectors(text, day, deal_full, deal_mini_1, pos_full):
    date = parse_date(text)
    assert day_number(date) == day
    assert candidate(date, "deal", "full", 0) == {"seed": deal_full, "players": 1}
    assert candidate(date, "deal", "mini", 1)["seed"] == deal_mini_1
    seed, players, playout = pos_full
    assert candidate(date, "position", "full", 0) == {"seed": seed, "players": players,
                                                      "playout": playout}
    # the documented recipe, by hand: salt = 8 ASCII bytes big-endian, seed = salt + day
    s = int.from_bytes(b"DEALFULL", "big")
    assert stream_seed(date, "deal", "full") == (s + day) & MASK
    assert splitmix_outputs((s + day) & MASK, 1)[0] == deal_full
    out = splitmix_outputs((int.from_bytes(b"POSNFULL", "big") + day) & MASK, 3)
    assert (out[0], 1 + out[1] % 5, out[2]) == pos_full


def test_salts_and_streams_differ():
    assert salt("deal", "full") == 0x4445414C46554C4C
    d = parse_date("2026-12-01")
    firsts = {candidate(d, k, s, 0)["seed"] for k in ("deal", "position") for s in ("full", "mini")}
    assert len(firsts) == 4
    # the same day of another year is another puzzle (no day-of-year seeding)
    assert candidate(parse_date("2027-12-01"), "deal", "full", 0) != candidate(d, "deal", "full", 0)


def test_weekday_ramp():
    # 2026-11-30 is a Monday
    bands = [band_for(dt.date(2026, 11, 30) + dt.timedelta(days=i)) for i in range(7)]
    assert bands == ["easy", "easy", "medium", "medium", "hard", "hard", "expert"]


@pytest.mark.parametrize("bad", ["2026-02-30", "yesterday", "2026-13-01", "1999-12-31",
                                 "3000-01-01", "2026-1-1", "", "2026-12-01x"])
def test_bad_dates(bad):
    with pytest.raises(DateError):
        parse_date(bad)


def test_leap_days_accepted():
    for text in ("2000-02-29", "2024-02-29", "2028-02-29"):
        assert parse_date(text).day == 29
    for text in ("2100-02-29", "2026-02-29"):
        with pytest.raises(DateError):
            parse_date(text)


def test_module_doctests():
    assert doctest.testmod(puzzles.dates).failed == 0
