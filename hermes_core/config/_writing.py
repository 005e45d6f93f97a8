"""Writing a user's ``config.yaml``: all or nothing, and never over a change made meanwhile.

An edit is made from the text read; the file is replaced only while it still holds that
text, checked under a lock of its folder (two ``select`` runs take turns), so a line
another process added since is never lost: :class:`ConfigChangedError` says the edit must
be made again from the new text (:func:`edit_config_file` does, a few times). The new
text is written to a temporary file, flushed to disk, and renamed over the file (a crash
leaves the old file or the new one); the folder is flushed too, so the rename survives a
crash. A file with other hard links is rewritten in place instead, so that every name of
it sees the edit (a rename would leave the other names on the old text).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

try:  # POSIX; elsewhere the check of the text read stands alone
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]
from hermes_core._errors import ConfigChangedError

__all__ = ["EDIT_TRIES", "ConfigChangedError", "edit_config_file", "write_config_text"]

#: Edits made again from a file that changed while the last one was made, at most.
EDIT_TRIES = 5


def _read(path: Path) -> str | None:
    # bytes, not read_text: its newline translation would rewrite a CRLF file
    return path.read_bytes().decode("utf-8") if path.exists() else None


@contextlib.contextmanager
def _folder_locked(folder: Path) -> Iterator[None]:
    """An exclusive lock of ``folder`` (flock on the folder itself: no file is made)."""
    if fcntl is None:
        yield
        return
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock


def _flush_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):  # a folder that cannot be opened (Windows)
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def write_config_text(path: Path, text: str, expected: str | None = None) -> None:
    """Replace ``path`` with ``text``, all or nothing, keeping its permission bits.

    With ``expected`` (the text the edit was made from; ``""`` for a file that did not
    exist), the file is replaced only while it still holds it: otherwise
    :class:`ConfigChangedError`, and nothing is written. A symbolic link is followed (its
    target is replaced, the link stays); a file with other hard links is rewritten in
    place, so each of its names sees the new text.
    """
    path = path.resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    with _folder_locked(path.parent):
        if expected is not None and (_read(path) or "") != expected:
            raise ConfigChangedError(f"{path} changed while it was edited")
        if path.exists() and path.stat().st_nlink > 1:
            with path.open("r+b") as stream:
                stream.write(text.encode("utf-8"))
                stream.truncate()
                stream.flush()
                os.fsync(stream.fileno())
            return
        mode = path.stat().st_mode & 0o7777 if path.exists() else 0o644
        handle, temporary = tempfile.mkstemp(prefix=".config-", suffix=".yaml", dir=path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
                stream.write(text)
                stream.flush()
                os.fsync(stream.fileno())
            os.chmod(temporary, mode)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        _flush_folder(path.parent)


def edit_config_file(path: Path, edit: Callable[[str], str]) -> str:
    """Apply ``edit`` (old text to new) to ``path`` and write the result; made again from
    the new text when the file changed meanwhile, up to :data:`EDIT_TRIES` times. The text
    written; :class:`ConfigChangedError` when the file kept changing (nothing written)."""
    for _ in range(EDIT_TRIES):
        before = _read(path) or ""
        edited = edit(before)
        try:
            write_config_text(path, edited, expected=before)
        except ConfigChangedError:
            continue
        return edited
    raise ConfigChangedError(
        f"{path} kept changing while it was edited ({EDIT_TRIES} tries); nothing was "
        "written: try again when whatever is writing it has finished"
    )
