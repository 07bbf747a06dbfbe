"""The last line of defence: an unexpected internal error becomes one line and a report file."""

from __future__ import annotations

import sys
import tempfile
import time
import traceback
from pathlib import Path

import platformdirs


def report_dir() -> Path:
    """Where crash reports go: the user's log directory for this program."""
    return Path(platformdirs.user_log_dir("hanabi-deducer"))


def write_report(error: BaseException) -> Path:
    """Write the full traceback of `error`, with the command line, to a new file; return its path."""
    text = f"command: {' '.join(sys.argv)}\npython: {sys.version}\n\n" + "".join(traceback.format_exception(error))
    name = f"crash-{time.strftime('%Y%m%d-%H%M%S')}-{id(error) % 10000:04}.txt"
    for folder in (report_dir(), Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / name
            path.write_text(text, encoding="utf-8")
            return path
        except OSError:
            continue
    return Path("(nowhere: no writable folder)")


def one_line(error: BaseException) -> str:
    """The message printed instead of a traceback."""
    path = write_report(error)
    return f"internal error ({type(error).__name__}: {error}): this is a bug, not your input's fault; full report in {path}"
