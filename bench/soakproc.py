"""The soak bench's view of processes and of its own PostgreSQL (bench/soak.py).

Processes come from /proc (Linux): a pid is named with its start time, so a pid the
system reuses later is never taken for one of the bot's. The PostgreSQL cluster is a
throw-away one in the bench's temporary folder, on a free port, run with Debian's
binaries (/usr/lib/postgresql/*/bin) as the ``postgres`` user when the bench runs as
root: the bench may stop and start it at will, the shared server is never touched."""

from __future__ import annotations

import glob
import os
import pwd
import signal
import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    start: int  # clock ticks after boot: with the pid, names one process for good
    state: str
    rss_mb: float
    cmd: str

    @property
    def key(self) -> tuple[int, int]:
        return self.pid, self.start

    @property
    def role(self) -> str:
        if "forkserver" in self.cmd:
            return "forkserver"
        if "resource_tracker" in self.cmd:
            return "resource tracker"
        if "bot.cli" in self.cmd:
            return "bot"
        return "worker"


def read_proc(pid: int) -> Proc | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read().decode(errors="replace")
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            cmd = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        with open(f"/proc/{pid}/statm") as f:
            resident = int(f.read().split()[1])
    except (OSError, IndexError, ValueError):
        return None
    fields = stat[stat.rfind(")") + 2 :].split()  # the name may hold spaces and parentheses
    return Proc(pid, int(fields[1]), int(fields[19]), fields[0], resident * PAGE_KB / 1024, cmd)


def all_procs() -> dict[int, Proc]:
    procs = {}
    for name in os.listdir("/proc"):
        if name.isdigit() and (p := read_proc(int(name))) is not None:
            procs[p.pid] = p
    return procs


def tree(root: int, procs: dict[int, Proc] | None = None) -> list[Proc]:
    """``root`` and all its living descendants (zombies left out: they hold no memory)."""
    procs = all_procs() if procs is None else procs
    children: dict[int, list[Proc]] = {}
    for each in procs.values():
        children.setdefault(each.ppid, []).append(each)
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        if (p := procs.get(pid)) is not None and p.state != "Z":
            out.append(p)
        todo += [c.pid for c in children.get(pid, ())]
    return out


def alive(key: tuple[int, int]) -> Proc | None:
    """The process ``key`` names, if it still runs (a zombie does not)."""
    p = read_proc(key[0])
    return p if p is not None and p.start == key[1] and p.state != "Z" else None


def kill(key: tuple[int, int]) -> None:
    if alive(key) is not None:
        try:
            os.kill(key[0], signal.SIGKILL)
        except OSError:
            pass


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgCluster:
    """A PostgreSQL cluster of the bench's own in ``root``/pg, listening on 127.0.0.1 only."""

    def __init__(self, root: Path) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
        if not found:
            raise RuntimeError("no PostgreSQL binaries under /usr/lib/postgresql/*/bin")
        self.bin = Path(found[-1]).parent
        self.dir = root / "pg"
        self.data = self.dir / "data"
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self.as_postgres = os.geteuid() == 0  # initdb refuses root

    def _run(self, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self.as_postgres:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)

    def init(self) -> None:
        self.dir.mkdir(parents=True)
        if self.as_postgres:
            user = pwd.getpwnam("postgres")
            os.chmod(self.dir.parent, 0o755)  # the temporary folder: postgres must pass through
            os.chown(self.dir, user.pw_uid, user.pw_gid)
        done = self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "-N")
        if done.returncode:
            raise RuntimeError(f"initdb failed: {done.stderr.strip()[-500:]}")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c max_connections=60"
        done = self._run("pg_ctl", "-D", str(self.data), "-l", str(self.dir / "server.log"), "-w", "-t", "90",
                         "-o", options, "start")  # fmt: skip
        if done.returncode:
            raise RuntimeError(f"pg_ctl start failed: {done.stdout.strip()[-300:]} {done.stderr.strip()[-300:]}")

    def stop(self, mode: str = "fast") -> bool:
        """Stop the server (``immediate`` when ``fast`` does not end it in time)."""
        if not (self.data / "postmaster.pid").exists():
            return True
        try:
            done = self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop", timeout=90)
            ok = done.returncode == 0
        except subprocess.TimeoutExpired:
            ok = False
        if not ok and mode != "immediate":
            return self.stop("immediate")
        return ok

    def postmaster(self) -> int | None:
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None
