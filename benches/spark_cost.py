#!/usr/bin/env python3
"""CPU of every process of a run (the JVM, Spark's Python workers, the driver), for the command, the Python
package and the Spark example job, on one and nine copies of a file: start-up (fixed) apart from steady state
(per game), games per CPU-second, and Spark's steady state over the command's cost (issue #41's measure).

    python3 benches/spark_cost.py [--input FILE] [--runs N] [--python PY] [--bin PGNKIT]

PY is a Python with pgnkit and pyspark (default: this one); PGNKIT the command (default target/release/pgnkit).
FILE defaults to the first 75,000 games of three copies of ../shared/corpus/games-english (made under target/,
with `pgnkit select --split`). The copies are real files under target/spark-cost/ (deleted at the end).

How CPU is counted: each run goes into a cgroup of its own (cgroup v2's cpu.stat, else v1's cpuacct: the CPU of
every process that ever ran in it, however it was started and whoever reaped it); without one it can create, the
script sums /proc/PID/stat over the run's process tree, polled every 0.1 s (the last 0.1 s of each process
is missed). getrusage(RUSAGE_CHILDREN), which /usr/bin/time reads, is printed beside it: it misses the CPU of
Spark's Python workers (about 8 CPU-s on nine copies, here), which never reach a parent that waits for them, so
it is no measure of a Spark job. Runs are interleaved so that each sees the same machine load. The Spark job
runs as docs/scale.md says: `python3 examples/spark/stats_by_month.py OUT DIR`.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import pathlib
import resource
import shutil
import statistics
import subprocess
import sys
import time
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = pathlib.Path(__file__).resolve().parents[1]
COPIES = 9
PR_SET_CHILD_SUBREAPER = 36
TICKS = os.sysconf("SC_CLK_TCK")


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def reap_all() -> None:
    """Waits for every process left in the tree (orphans come to this process, the subreaper)."""
    while True:
        try:
            os.wait()
        except ChildProcessError:
            return


class Group:
    """A cgroup for one run at a time: its processes' CPU, exactly."""

    def __init__(self) -> None:
        self.path: Optional[pathlib.Path] = None
        name = f"pgnkit-spark-cost-{os.getpid()}"
        for base, usage in ((pathlib.Path("/sys/fs/cgroup"), "cpu.stat"),
                            (pathlib.Path("/sys/fs/cgroup/cpuacct"), "cpuacct.usage")):
            if not (base / "cgroup.procs").exists():
                continue
            try:
                (base / name).mkdir()
            except OSError:
                continue
            self.path, self.usage = base / name, usage
            return

    def cpu(self) -> float:
        assert self.path is not None
        text = (self.path / self.usage).read_text()
        if self.usage == "cpu.stat":
            return int(text.split("usage_usec ")[1].split()[0]) / 1e6
        return int(text) / 1e9

    def enter(self) -> None:
        """In the child before it runs the command: it and all it starts are in the group."""
        assert self.path is not None
        (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def remove(self) -> None:
        if self.path is not None:
            self.path.rmdir()


def tree_cpu(root: int, seen: Dict[int, float]) -> None:
    """The CPU so far of each process under `root`, into `seen` (by pid)."""
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                text = pathlib.Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = text.rsplit(")", 1)[1].split()
            stats[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS)
    tree, grew = {root}, True
    while grew:
        grew = False
        for pid, (parent, _) in stats.items():
            if parent in tree and pid not in tree:
                tree.add(pid)
                grew = True
    for pid in tree:
        if pid in stats:
            seen[pid] = stats[pid][1]


def measure(group: Group, command: Sequence[str], env: Dict[str, str]) -> Tuple[float, float, float]:
    """CPU seconds of all the processes of `command`, its wall seconds, and what getrusage counts of it."""
    reap_all()
    rusage, wall = children_cpu(), time.monotonic()
    before = group.cpu() if group.path else 0.0
    preexec = group.enter if group.path else None
    run = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           preexec_fn=preexec)
    seen: Dict[int, float] = {}
    if group.path is None:
        while run.poll() is None:
            tree_cpu(run.pid, seen)
            time.sleep(0.1)
    _, errors = run.communicate()
    reap_all()
    if run.returncode != 0:
        sys.exit(f"{' '.join(command)} failed:\n{errors.decode(errors='replace')[-3000:]}")
    cpu = group.cpu() - before if group.path else sum(seen.values())
    return cpu, time.monotonic() - wall, children_cpu() - rusage


def games_of(binary: str, path: pathlib.Path) -> int:
    out = subprocess.run([binary, "stats", "-j1", str(path)], capture_output=True, check=False)
    # The closing line: "pgnkit stats: N games, ..."
    return int(out.stderr.decode().split("pgnkit stats: ", 1)[1].split()[0])


def default_input(binary: str, work: pathlib.Path) -> pathlib.Path:
    corpus = sorted((ROOT.parent / "shared" / "corpus" / "games-english").glob("*.pgn"))
    triple = work / "triple.pgn"
    with triple.open("wb") as out:
        for _ in range(3):
            for path in corpus:
                out.write(path.read_bytes())
    parts = work / "parts"
    shutil.rmtree(parts, ignore_errors=True)
    subprocess.run([binary, "select", "-q", "--split", "75000", "-o", str(parts), str(triple)], check=True)
    triple.unlink()
    first = sorted(parts.iterdir())[0]
    return first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--input", type=pathlib.Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--bin", default=str(ROOT / "target" / "release" / "pgnkit"))
    parser.add_argument("--keep", action="store_true", help="keep target/spark-cost/")
    args = parser.parse_args()

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit("prctl(PR_SET_CHILD_SUBREAPER) failed: Linux only")

    work = ROOT / "target" / "spark-cost"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    source = args.input or default_input(args.bin, work)
    one, nine, joined = work / "one", work / "nine", work / "joined"
    for d in (one, nine, joined):
        d.mkdir()
    shutil.copyfile(source, one / "games.pgn")
    for i in range(COPIES):
        shutil.copyfile(source, nine / f"games-{i}.pgn")
    # The nine copies as one file: larger than pgnkit.spark.MAX_FILE_BYTES, so read as Spark's text records.
    with (joined / "games.pgn").open("wb") as out:
        for _ in range(COPIES):
            out.write(source.read_bytes())
    games = games_of(args.bin, one / "games.pgn")
    size = (one / "games.pgn").stat().st_size
    print(f"input: {source} ({games} games, {size / 1e6:.1f} MB); {args.runs} interleaved runs; "
          f"load before: {' '.join(open('/proc/loadavg').read().split()[:3])}")

    env = {k: v for k, v in os.environ.items() if k not in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON")}
    job = str(ROOT / "examples" / "spark" / "stats_by_month.py")
    py_stats = "import pathlib, sys, pgnkit; pgnkit.stats([pathlib.Path(p) for p in sys.argv[1:]], jobs=1)"
    commands = {
        "cli-1": [args.bin, "stats", "-q", "-j1", "-o", str(work / "x.parquet"), str(one / "games.pgn")],
        "cli-9": [args.bin, "stats", "-q", "-j1", "-o", str(work / "x.parquet"), str(nine)],
        "python-1": [args.python, "-c", py_stats, str(one / "games.pgn")],
        "python-9": [args.python, "-c", py_stats, str(nine)],
        "spark-1": [args.python, job, str(work / "out-1"), str(one)],
        "spark-9": [args.python, job, str(work / "out-9"), str(nine)],
        "records-1": [args.python, job, "--max-file-bytes", "0", str(work / "out-r1"), str(one)],
        "records-9": [args.python, job, "--max-file-bytes", "0", str(work / "out-r9"), str(nine)],
        "joined-9": [args.python, job, str(work / "out-joined"), str(joined)],
    }
    cpu: Dict[str, List[float]] = {name: [] for name in commands}
    wall: Dict[str, List[float]] = {name: [] for name in commands}
    rusage: Dict[str, List[float]] = {name: [] for name in commands}
    group = Group()
    print("CPU counted by " + (f"the cgroup {group.path}" if group.path else "polling /proc (no cgroup)"))
    for run in range(args.runs):
        for name, command in commands.items():
            c, w, r = measure(group, command, env)
            cpu[name].append(c)
            wall[name].append(w)
            rusage[name].append(r)
        cli = cpu["cli-1"][-1]
        steady = (cpu["spark-9"][-1] - cpu["spark-1"][-1]) / (COPIES - 1)
        records = (cpu["records-9"][-1] - cpu["records-1"][-1]) / (COPIES - 1)
        print(f"run {run + 1}: CLI {cli:.2f} CPU-s; Spark 1 copy {cpu['spark-1'][-1]:.2f}, {COPIES} copies "
              f"{cpu['spark-9'][-1]:.2f} CPU-s; steady {steady:.2f} CPU-s a copy: {steady / cli:.2f}x the CLI; "
              f"as records {records / cli:.2f}x")

    print()
    print(f"{'how':<34} {'fixed CPU-s':>12} {'µs/game':>9} {'games/CPU-s':>12} {'wall s (1)':>11} {'wall s (9)':>11}")
    ratios = []
    ratios: Dict[str, List[float]] = {}
    for what, one_copy, label in (
        ("cli", "cli", "pgnkit stats -j1 -o x.parquet"),
        ("python", "python", "pgnkit.stats(paths, jobs=1)"),
        ("spark", "spark", "Spark job, whole files"),
        ("records", "records", "Spark job, text records"),
        ("joined", "spark", "Spark, 9 copies in 1 file - 1 copy"),
    ):
        steady = [(c9 - c1) / (COPIES - 1) for c1, c9 in zip(cpu[f"{one_copy}-1"], cpu[f"{what}-9"])]
        fixed = [c1 - s for c1, s in zip(cpu[f"{one_copy}-1"], steady)]
        per_game = statistics.median(steady) / games * 1e6
        print(f"{label:<34} {statistics.median(fixed):>12.2f} {per_game:>9.2f} {1e6 / per_game:>12,.0f} "
              f"{statistics.median(wall[f'{one_copy}-1']):>11.1f} {statistics.median(wall[f'{what}-9']):>11.1f}")
        ratios[label] = [s / c for s, c in zip(steady, cpu["cli-1"])]
    cli_one = statistics.median(cpu["cli-1"])
    print(f"\nCLI on one copy: {cli_one:.3f} CPU-s ({cli_one / games * 1e6:.2f} µs/game, start-up included)")
    for label, r in ratios.items():
        print(f"{label}: steady state / CLI on one copy: median {statistics.median(r):.2f}x, "
              f"runs {', '.join(f'{x:.2f}' for x in r)} (spread {min(r):.2f}-{max(r):.2f})")
    print("getrusage(RUSAGE_CHILDREN), as /usr/bin/time counts, medians: " + ", ".join(
        f"{name} {statistics.median(rusage[name]):.2f}" for name in commands) + " CPU-s (against "
        + ", ".join(f"{name} {statistics.median(cpu[name]):.2f}" for name in commands) + ")")
    group.remove()
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
