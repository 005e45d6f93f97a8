"""A model's files, read from a folder or a zip of one, each within a size bound.

A model setting is the user's, but the files behind it may come from anywhere
(a download, a shared folder): every file is a regular file (a FIFO or a
device in its place would block the read for ever), no file is read past its
bound, and a zip member that claims to inflate far past its compressed size
(a zip bomb) is refused before it is inflated. What was read is digested, so
that vectors are labelled by the model's content, not by the name it was
reached by.
"""

from __future__ import annotations

import hashlib
import json
import stat
import zipfile
from pathlib import Path
from typing import Any

from hermes_engine_lcm.relevance.errors import ModelError

__all__ = ["LIMITS", "MAX_RATIO", "ModelFiles"]

MIB = 1024 * 1024
#: The most bytes each file of a model may hold (BERT-large's weights are 1.34 GB; a
#: multilingual tokenizer.json about 17 MB); any other file, a megabyte.
LIMITS = {"model.safetensors": 1536 * MIB, "tokenizer.json": 64 * MIB}
DEFAULT_LIMIT = MIB
#: How many times its compressed size a zip member over a megabyte may inflate to (weights
#: and tokenizers compress 1-4x; a zip bomb, a thousand times and more).
MAX_RATIO = 20


def _limit(name: str) -> int:
    return LIMITS.get(name.rsplit("/", 1)[-1], DEFAULT_LIMIT)


class ModelFiles:
    """The files of a model folder or zip at ``location``, read by their path inside it."""

    def __init__(self, location: Path) -> None:
        self.location = location
        self._digest = hashlib.blake2b(digest_size=16)
        mode = _mode(location)
        self._zip: zipfile.ZipFile | None = None
        if stat.S_ISREG(mode):
            try:
                self._zip = zipfile.ZipFile(location)
            except (zipfile.BadZipFile, OSError, ValueError) as exc:
                raise ModelError(
                    f"{location}: not a model folder nor a zip of one ({exc})"
                ) from None
            names = self._zip.namelist()
            top = {name.split("/")[0] for name in names}
            # a zip of the folder itself (all-MiniLM-L6-v2/config.json) or of its contents
            single = len(top) == 1 and "config.json" not in names
            self._prefix = f"{top.pop()}/" if single else ""
        elif not stat.S_ISDIR(mode):
            raise ModelError(f"{location}: neither a folder nor a file; point to the model")

    def read(self, name: str) -> bytes:
        """The bytes of ``name``; ModelError when it is missing, not a regular file, or over
        its bound."""
        limit = _limit(name)
        if self._zip is not None:
            data = self._read_member(self._prefix + name, limit)
        else:
            data = self._read_file(self.location / name, limit)
        self._digest.update(name.encode("utf-8") + len(data).to_bytes(8, "big"))
        self._digest.update(data)
        return data

    def _read_member(self, member: str, limit: int) -> bytes:
        assert self._zip is not None
        try:
            info = self._zip.getinfo(member)
        except KeyError:
            raise self._missing(member) from None
        _bounded(member, info.file_size, limit, self.location)
        if info.file_size > MIB and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise ModelError(
                f"{self.location}: {member} would inflate from {info.compress_size:,} to "
                f"{info.file_size:,} bytes, more than {MAX_RATIO} times; not a model's file"
            )
        try:
            with self._zip.open(info) as member_file:
                data = member_file.read(limit + 1)
        except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError) as exc:
            raise ModelError(f"{self.location}: {member} cannot be read ({exc})") from None
        _bounded(member, len(data), limit, self.location)
        return data

    def _read_file(self, path: Path, limit: int) -> bytes:
        try:
            mode = _mode(path)
        except ModelError:
            raise self._missing(path.name) from None
        if not stat.S_ISREG(mode):
            raise ModelError(f"{path}: not a regular file; a model's files are plain files")
        try:
            with path.open("rb") as handle:
                data = handle.read(limit + 1)
        except OSError as exc:
            raise ModelError(f"{path}: cannot be read ({exc})") from None
        _bounded(str(path), len(data), limit, self.location)
        return data

    def _missing(self, name: str) -> ModelError:
        return ModelError(
            f"{self.location}: no {name}; a sentence-transformers model folder (or zip) "
            "holds config.json, model.safetensors and tokenizer.json"
        )

    def json(self, name: str, default: dict[str, Any] | None = None) -> dict[str, Any]:
        """``name`` parsed as a JSON object; ``default`` when missing (if given)."""
        try:
            raw = self.read(name)
        except ModelError:
            if default is None:
                raise
            return default
        try:
            data = json.loads(raw)
        except (ValueError, RecursionError) as exc:
            raise ModelError(f"{self.location}: {name} is not JSON ({exc})") from None
        if not isinstance(data, dict):
            raise ModelError(f"{self.location}: {name} is not a JSON object")
        return data

    def digest(self) -> str:
        """A digest of every file read so far, names and bytes."""
        return self._digest.hexdigest()


def _mode(path: Path) -> int:
    try:
        return path.stat().st_mode
    except OSError as exc:
        raise ModelError(f"{path}: {exc.strerror or exc}") from None


def _bounded(what: str, size: int, limit: int, location: Path) -> None:
    if size > limit:
        raise ModelError(
            f"{location}: {what} holds more than {limit:,} bytes, over the bound for a "
            "model's file of its kind"
        )
