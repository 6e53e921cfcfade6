"""The test loop's own figures: the quick tests' (or CI's) wall time, CPU time and test count.

Run ``python -m benchmarks.quick_loop`` (``--help`` for the options). It runs, from the
repository, the README's quick tests (``python -m pytest -m "not slow" -n auto``) or, with
``--ci``, what ``.ci/run`` runs after its install (``ruff check .``, ``mypy``, then
``python -m pytest -n 2 --dist loadgroup --hypothesis-profile ci --durations=15``), each step
once, and measures:

* **wall**: seconds from the start of the first step to the end of the last;
* **CPU**: user + system seconds of every process the steps ran (pytest, its xdist workers,
  the subprocesses the tests start: ``getrusage(RUSAGE_CHILDREN)``), which depends far less
  on what else runs on the machine than the wall time does;
* **tests**: pytest's summary line (passed, failed, skipped, deselected);
* **load**: the 1-minute load average before, after, and its mean over samples every 5 s
  during the run (``/proc/loadavg``; the machine's other work, with this run's own).

The date of a row is the run's start (UTC).

``--nice N`` runs the steps under ``nice -n N``. Outputs ``quick-loop.md`` (a table row per
run with date, machine, command) and ``quick-loop.jsonl`` in ``--out`` (default: a new folder
``benchmarks/out/quick-loop-<date>``; an existing file is appended to, never overwritten).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import re
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUICK = [[sys.executable, "-m", "pytest", "-m", "not slow", "-n", "auto", "-q"]]
CI = [["ruff", "check", "."], ["mypy"],
      [sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "--hypothesis-profile",
       "ci", "--durations=15", "-q"]]
SUMMARY = re.compile(r"(\d+) (passed|failed|skipped|deselected|errors?|xfailed|xpassed)")


def load() -> float:
    """The 1-minute load average (``/proc/loadavg``), or -1 where there is none."""
    try:
        return float(Path("/proc/loadavg").read_text().split()[0])
    except OSError:
        return -1.0


def machine() -> str:
    """``arch, CPU model, cores, Python``."""
    cpu = platform.processor()
    try:
        cpu = next(ln.split(":", 1)[1].strip() for ln in
                   Path("/proc/cpuinfo").read_text().splitlines() if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{platform.machine()}, {cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def measure(steps: list[list[str]], nice: int, log: Path | None = None) -> dict:
    """Run ``steps`` one after the other from the repository; the figures of the run (see
    the module's docstring). A step that fails is recorded (``exit``) and the rest still run.
    ``log``: a file to append each step's output to."""
    samples: list[float] = []
    done = threading.Event()

    def sample() -> None:
        while not done.wait(5.0):
            samples.append(load())

    started = _dt.datetime.now(_dt.UTC)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    load_before = load()
    t0 = time.monotonic()
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    codes, counts, tail = [], {}, ""
    for cmd in steps:
        full = (["nice", "-n", str(nice)] if nice else []) + cmd
        r = subprocess.run(full, cwd=ROOT, capture_output=True, text=True)
        codes.append(r.returncode)
        if log is not None:
            with open(log, "a", encoding="utf-8") as f:
                f.write(f"$ {' '.join(full)}\n{r.stdout}{r.stderr}\n")
        if "pytest" in cmd:
            last = [ln for ln in r.stdout.splitlines() if SUMMARY.search(ln)]
            tail = last[-1].strip("= ") if last else r.stdout[-500:]
            counts = {k: int(n) for n, k in SUMMARY.findall(tail)}
            slowest = r.stdout.split("slowest 15 durations", 1)
            if len(slowest) == 2:
                tail += "\n" + "\n".join(slowest[1].splitlines()[1:16])
    wall = time.monotonic() - t0
    done.set()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "date": started.strftime("%Y-%m-%d %H:%M UTC"),  # the start
        "command": " && ".join(" ".join(c) for c in steps).replace(sys.executable, "python"),
        "nice": nice, "exit": codes, "tests": counts, "wall_s": round(wall, 1),
        "cpu_s": round(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, 1),
        "load_before": load_before, "load_after": load(),
        "load_mean": round(sum(samples) / len(samples), 2) if samples else load_before,
        "machine": machine(), "summary": tail,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.quick_loop",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--ci", action="store_true", help="measure .ci/run's lint and tests "
                    "(not its install) instead of the README's quick tests")
    ap.add_argument("--nice", type=int, default=0, help="run the steps under nice -n N")
    ap.add_argument("--out", type=Path, default=None,
                    help="folder for quick-loop.md/.jsonl (default: benchmarks/out/quick-loop-DATE)")
    ap.add_argument("--log", type=Path, default=None,
                    help="append each step's whole output to this file")
    args = ap.parse_args(argv)
    out = args.out or ROOT / "benchmarks" / "out" / f"quick-loop-{_dt.date.today().isoformat()}"
    out.mkdir(parents=True, exist_ok=True)
    row = measure(CI if args.ci else QUICK, args.nice, args.log)
    row["kind"] = "ci" if args.ci else "quick"
    with open(out / "quick-loop.jsonl", "a", encoding="utf-8") as f:
        f.write(json.dumps(row) + "\n")
    md = out / "quick-loop.md"
    if not md.exists():
        md.write_text("# The test loop's figures (python -m benchmarks.quick_loop)\n\n"
                      "| date | kind | tests | wall | CPU | load before / mean / after | exit | "
                      "machine | command |\n|---|---|---|---|---|---|---|---|---|\n",
                      encoding="utf-8")
    tests = ", ".join(f"{n} {k}" for k, n in row["tests"].items())
    niced = f"nice -n {row['nice']} " if row["nice"] else ""
    with open(md, "a", encoding="utf-8") as f:
        f.write(f"| {row['date']} | {row['kind']} | {tests} | {row['wall_s']:.0f} s | "
                f"{row['cpu_s']:.0f} s | {row['load_before']} / {row['load_mean']} / "
                f"{row['load_after']} | {row['exit']} | {row['machine']} | "
                f"`{niced}{row['command']}` |\n")
    print(json.dumps({k: v for k, v in row.items() if k != "summary"}))
    print(row["summary"])
    return 0 if not any(row["exit"]) else 1


if __name__ == "__main__":
    sys.exit(main())
