"""The ``toolpact`` command, run in-process through the extension module."""

from __future__ import annotations

import signal
import sys

from toolpact._toolpact import run


def main() -> None:
    """Runs the command line on ``sys.argv`` and exits with its code."""
    # The command writes to the process's own standard streams: what Python buffered goes
    # first.
    sys.stdout.flush()
    sys.stderr.flush()
    # Ctrl-C as the binary gets it: the default action, or the command's own handler where it
    # installs one (serve and live checks stop cleanly), rather than Python's, which would only
    # take effect once the command returned.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    argv = ["toolpact", *sys.argv[1:]]
    sys.exit(run(argv))


if __name__ == "__main__":
    main()
