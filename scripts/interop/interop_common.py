"""What the interop checks share: the failure they raise, the tally they print, a server
process that says on standard error where it listens, and a free port to give a server that
cannot bind port 0 itself.

The checks run as scripts (`python scripts/interop/check_….py`), so this file's folder is on
`sys.path` and they import it by name.
"""

from __future__ import annotations

import socket
import subprocess
import threading
import traceback
from collections import deque


class Failed(Exception):
    """A check did not hold; the message says what was expected and what came."""


class Tally:
    """Counts the checks, printing `ok   WHERE` or `FAIL WHERE TYPE: REASON` for each; with
    `verbose`, a failure's traceback too."""

    def __init__(self, verbose: bool = False) -> None:
        self.verbose = verbose
        self.passed = 0
        self.failed = 0

    def report(self, where: str, error: BaseException | None) -> None:
        if error is None:
            self.passed += 1
            print(f"ok   {where}")
            return
        self.failed += 1
        # An exception group (anyio's task groups raise them) is reported by its first leaf.
        leaf = error
        while isinstance(leaf, BaseExceptionGroup) and leaf.exceptions:
            leaf = leaf.exceptions[0]
        reason = str(leaf) or "(no message)"
        print(f"FAIL {where} {type(leaf).__name__}: {reason}")
        if self.verbose:
            traceback.print_exception(error)


class Listening:
    """A server started with `argv`, which prints a line holding `marker` on standard error once
    it listens; its URL is `url` with the line's last word in place of `{}` (by default the line
    ends with the URL itself). `stop()` ends it. Raises `Failed`, with the last lines the process
    wrote, if it ends or closes standard error before it says where it listens, or has not said
    it within `timeout` seconds (it is then stopped). The rest of its standard error is read and
    dropped, so that a server that keeps writing there never blocks on a full pipe."""

    def __init__(self, argv: list[str], marker: str, *, url: str = "{}", timeout: float = 30, **popen: object) -> None:
        self.process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            errors="replace",
            **popen,  # type: ignore[call-overload]
        )
        self.url = ""
        stderr = self.process.stderr
        assert stderr is not None
        # Killing the process closes the pipe, which ends the loop below.
        expired = threading.Event()

        def expire() -> None:
            expired.set()
            self.process.kill()

        deadline = threading.Timer(timeout, expire)
        deadline.start()
        said: deque[str] = deque(maxlen=3)
        try:
            for line in stderr:
                if marker in line:
                    self.url = url.format(line.strip().rsplit(" ", 1)[-1])
                    break
                said.append(line.strip())
        finally:
            deadline.cancel()
        if not self.url:
            self.stop()
            why = f"within {timeout:g} s" if expired.is_set() else f"(it ended with status {self.process.returncode})"
            last = " / ".join(said) or "nothing"
            raise Failed(f"{' '.join(argv[:3])} … did not say where it listens {why}; it said: {last}")
        threading.Thread(target=stderr.read, daemon=True).start()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def free_port() -> int:
    """A TCP port free on every interface of this machine now (the kernel's pick), for a server
    that takes its port from its caller and cannot bind port 0 itself; another process may take
    it before that server binds it, so the caller retries when the server says so."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("", 0))
        return int(probe.getsockname()[1])
