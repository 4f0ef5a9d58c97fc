"""Line input for a human seat, with an optional deadline."""

from __future__ import annotations

import io
import os
import select
import sys
import time


class Timeout:
    """What ``LineReader.read`` returns when the deadline passed first."""


TIMEOUT = Timeout()


class LineReader:
    """Reads answers one line at a time, optionally with a deadline.

    On a real file descriptor (a terminal or a pipe) lines are read with
    ``os.read`` into a buffer of our own, so ``select`` tells the truth
    about waiting input (a Python text buffer could hold a line ``select``
    cannot see). Streams without a descriptor (test runners) are read with
    ``readline`` and cannot time out.
    """

    def __init__(self, stream=None):
        self.stream = stream if stream is not None else sys.stdin
        self.fd = _fileno(self.stream)
        self.buffer = b""
        self.eof = False

    @property
    def can_time_out(self) -> bool:
        return self.fd is not None

    def isatty(self) -> bool:
        try:
            return bool(self.stream.isatty())
        except (AttributeError, ValueError, OSError):
            return False

    def read(self, timeout: float | None = None) -> str | None | Timeout:
        """The next line without its newline; None at the end of input;
        TIMEOUT when ``timeout`` seconds passed without a whole line."""
        if self.fd is None:
            line = self.stream.readline()
            return None if not line else line.rstrip("\r\n")
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self.buffer and not self.eof:
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return TIMEOUT
                try:
                    ready, _, _ = select.select([self.fd], [], [], left)
                except (OSError, ValueError):
                    ready = [self.fd]  # cannot wait on this descriptor: read without a clock
                if not ready:
                    return TIMEOUT
            chunk = os.read(self.fd, 4096)
            if not chunk:
                self.eof = True
            self.buffer += chunk
        if b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
        elif self.buffer:
            line, self.buffer = self.buffer, b""
        else:
            return None
        return line.decode("utf-8", "replace").rstrip("\r")


def _fileno(stream) -> int | None:
    try:
        fd = stream.fileno()
    except (AttributeError, ValueError, OSError, io.UnsupportedOperation):
        return None
    return fd if isinstance(fd, int) and fd >= 0 else None
