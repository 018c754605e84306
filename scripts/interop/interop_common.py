"""What the interop checks share: the failure they raise, the tally they print, and a server
process that says on standard error where it listens.

The checks run as scripts (`python scripts/interop/check_….py`), so this file's folder is on
`sys.path` and they import it by name.
"""

from __future__ import annotations

import subprocess
import traceback


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
    """A server started with `argv`, which prints a line holding `marker` and ending with its
    URL on standard error once it listens; `stop()` ends it. Raises `Failed` if the process
    ends or closes standard error before it says where it listens."""

    def __init__(self, argv: list[str], marker: str, **popen: object) -> None:
        self.process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            **popen,  # type: ignore[call-overload]
        )
        self.url = ""
        assert self.process.stderr is not None
        for line in self.process.stderr:
            if marker in line:
                self.url = line.strip().rsplit(" ", 1)[-1]
                break
        if not self.url:
            self.stop()
            raise Failed(f"{' '.join(argv[:3])} … did not say where it listens")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
