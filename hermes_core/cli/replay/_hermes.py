"""``replay --hermes-session ID``: a session from the user's Hermes store, rebuilt, replayed
through each engine side by side, with what Hermes itself did beside them."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.table import Table

from hermes_core._discovery import discover
from hermes_core._errors import HermesError
from hermes_core.cli._common import engine_config, not_installed
from hermes_core.cli._output import emit_json, err, fail, out, say
from hermes_core.cli.replay._chart import PlotUnavailableError, write_overlay
from hermes_core.config import HermesConfig
from hermes_core.hermes_agent.sessions import (
    HermesSession,
    SessionStoreError,
    list_sessions,
    rebuild,
    session_rows,
)
from hermes_core.hermes_agent.sessions._probes import Probe, find_probes
from hermes_core.hermes_agent.sessions._scoring import EngineScore, score_engine
from hermes_core.host import ContextHost
from hermes_core.host._summarizer import summarizer_of
from hermes_core.registry import EngineRegistry

__all__ = ["DEFAULT_WINDOW", "replay_hermes"]

#: The window when neither --context-length nor model.context_length says one.
DEFAULT_WINDOW = 128_000


def _window(config: HermesConfig, given: int | None) -> tuple[int, str]:
    if given is not None:
        return given, "--context-length"
    length = config.model_context_length
    if length is not None:
        return length, f"model.context_length in {config.label}"
    return DEFAULT_WINDOW, "the default (model.context_length is not set)"


def _chosen(home: Path, ids: tuple[str, ...], latest: int | None) -> list[HermesSession]:
    skipped: list[str] = []
    sessions = list_sessions(home, skipped)
    for line in skipped:
        say("[yellow]skipped[/] {line}", to=err, line=line)
    if latest is not None:
        return sessions[:latest]
    by_id = {session.id: session for session in sessions}
    missing = [i for i in ids if i not in by_id]
    if missing:
        raise SessionStoreError(
            f"{home}: no session {missing[0]!r}; 'hermes-context sessions' lists them"
        )
    return [by_id[i] for i in ids]


def replay_hermes(
    config: HermesConfig,
    home: Path,
    ids: tuple[str, ...],
    latest: int | None,
    engines: str | None,
    context_length: int | None,
    as_json: bool,
    include_text: bool,
    use_config: bool,
    plot: Path | None = None,
) -> None:
    """Replay the chosen sessions through each engine; print or emit the comparison; with
    ``plot``, draw the first session's requests, engines overlaid."""
    registry = discover(config)
    names = [n.strip() for n in engines.split(",") if n.strip()] if engines else None
    if names is None:
        names = [r.name for r in registry if r.status.usable]
    for name in names:
        if registry.get(name) is None:
            fail(f"--engines {name}: {not_installed(name, registry)}")
    window, window_from = _window(config, context_length)
    try:
        sessions = _chosen(home, ids, latest)
    except SessionStoreError as exc:
        fail(str(exc))
    # each engine's configuration, read once, on the one discovery of the installed engines
    chosen = {name: _engine_config(config, name) for name in names}
    markers = _engine_markers(registry, names)
    reports = []
    for session in sessions:
        try:
            _, rows = session_rows(session.store, session.id)
        except SessionStoreError as exc:
            fail(str(exc))
        transcript = rebuild(rows, markers)
        if transcript.unreadable:
            say(
                "[yellow]skipped[/] {count} rows of session {id} that are no message ({store})",
                to=err,
                count=transcript.unreadable,
                id=session.id,
                store=session.store,
            )
        probes = find_probes(transcript.messages)
        scores = [
            _score(registry, chosen[name], transcript.messages, window, probes, use_config)
            for name in names
        ]
        reports.append((session, transcript, probes, scores))
    if plot is not None and reports:
        scores = reports[0][3]
        try:
            write_overlay(
                {s.engine: s.request_tokens for s in scores}, window, scores[0].budget, plot
            )
        except (PlotUnavailableError, ValueError) as exc:
            fail(str(exc))
        except OSError as exc:  # the folder went away or filled up during the replay
            fail(f"--plot {plot}: {exc.strerror or exc}")
    if as_json:
        emit_json(
            {
                "window": window,
                "window_from": window_from,
                "sessions": [_as_dict(*report, include_text) for report in reports],
            }
        )
        return
    say(
        "window {window:,} tokens (from {source}); summaries by {summarizer}",
        window=window,
        source=window_from,
        summarizer=summarizer_of(registry),  # the same for every engine: the host gives it
    )
    for report in reports:
        _show(*report)
    if plot is not None:
        say("chart written to {path}", path=plot)


def _engine_markers(registry: EngineRegistry, names: list[str]) -> tuple[str, ...]:
    """The ``summary_markers`` the engines declare (what they write begins with), for the
    rows of theirs a store holds; an engine that cannot be loaded declares none."""
    found: list[str] = []
    for name in names:
        record = registry.get(name)
        try:
            factory = record.load() if record is not None and record.load else None
        except Exception:  # reported when the engine is built for its replay
            continue
        declared = getattr(factory, "summary_markers", ())
        if isinstance(declared, tuple | list):
            found += [m for m in declared if isinstance(m, str) and m]
    return tuple(sorted(set(found)))


def _engine_config(config: HermesConfig, name: str) -> HermesConfig:
    try:
        return engine_config(config, name)
    except HermesError as exc:
        fail(f"engine {name}: {exc}")


def _score(
    registry: EngineRegistry,
    chosen: HermesConfig,
    transcript: list[dict[str, Any]],
    window: int,
    probes: list[Probe],
    use_config: bool,
) -> EngineScore:
    """The engine ``chosen`` selects, in a throwaway home (its state never the user's), over
    the session."""
    with tempfile.TemporaryDirectory(prefix="hermes-context-replay-") as scratch:
        trial = chosen.isolated(Path(scratch), settings=use_config)
        try:
            host = ContextHost(registry.with_config(trial), env=trial.env)
        except HermesError as exc:
            fail(f"engine {chosen.engine.name}: {exc}")
        try:
            return score_engine(host, transcript, window, probes)
        finally:
            host.close()


def _recommend(scores: list[EngineScore]) -> str:
    fit = [s for s in scores if s.over_window == 0 and s.passes_failed == 0]
    if not fit:
        return "none: every engine sent requests over the window or failed passes (above)"

    def recall(score: EngineScore) -> float:
        asked = len(score.probes)
        return sum(held for _, held in score.probes) / asked if asked else 1.0

    def median(score: EngineScore) -> int:
        return int(score.figures()["tokens_median"])

    best = max(fit, key=lambda s: (recall(s), -s.cache_breaks, -median(s)))
    held = sum(ok for _, ok in best.probes)
    others = [s for s in scores if s is not best]
    against = "; ".join(
        f"{s.engine}: {sum(ok for _, ok in s.probes)} of {len(s.probes)}, "
        f"{s.over_window} over the window"
        for s in others
    )
    return (
        f"{best.engine}: no request over the window, and it kept {held} of {len(best.probes)} "
        f"probes" + (f" ({against})" if against else "")
    )


def _as_dict(
    session: HermesSession,
    transcript: Any,
    probes: list[Probe],
    scores: list[EngineScore],
    include_text: bool,
) -> dict[str, Any]:
    held = {s.engine: {id(p): ok for p, ok in s.probes} for s in scores}
    fell_out = {s.engine: s.fell_out for s in scores}
    return {
        "session": session.as_dict() | ({} if include_text else {"title": None}),
        "messages": len(transcript.messages),
        "hermes": {
            "compactions": len(transcript.compactions) or session.compactions,
            "input_tokens": session.input_tokens,
            "output_tokens": session.output_tokens,
        },
        "engines": [s.figures() for s in scores],
        "probes": [
            {
                "kind": p.kind,
                "source_message": p.source,
                "asked_at_message": p.asked_at,
                "held": {engine: found.get(id(p)) for engine, found in held.items()},
                # the pass after which it was first missing (0: before any pass)
                "fell_out_after_pass": {
                    engine: lost.get(p) for engine, lost in fell_out.items() if p in lost
                },
            }
            | ({"text": p.shown} if include_text else {})
            for p in probes
        ],
        "recommendation": _recommend(scores),
    }


#: Probes named per engine in what it lost, at most (--json lists them all).
SHOWN_LOST = 8


def _show_lost(score: EngineScore) -> None:
    """What ``score``'s engine left out of a request it should have held, and when."""
    lost = sorted(score.fell_out.items(), key=lambda item: (item[0].asked_at, item[0].source))
    if not lost:
        return
    say(
        "{engine} lost {count} of {asked}:",
        engine=score.engine,
        count=len(lost),
        asked=len(score.probes),
    )
    for probe, after in lost[:SHOWN_LOST]:
        when = f"after pass {after}" if after else "before any pass (left out by selection)"
        say(
            "  {kind} {token} (message {source}, asked at {asked}): {when}",
            kind=probe.kind.replace("_", " "),
            token=probe.shown[:60],
            source=probe.source,
            asked=probe.asked_at,
            when=when,
        )
    if len(lost) > SHOWN_LOST:
        say("  ... {more} more (--json lists them all)", more=len(lost) - SHOWN_LOST)


def _show(
    session: HermesSession, transcript: Any, probes: list[Probe], scores: list[EngineScore]
) -> None:
    say(
        "\n[bold]session {id}[/] ({profile}): {messages:,} messages, model {model}; Hermes "
        "compacted it {passes} times, {tokens:,} input tokens",
        id=session.id,
        profile=session.profile,
        messages=len(transcript.messages),
        model=session.model or "?",
        passes=len(transcript.compactions) or session.compactions,
        tokens=session.input_tokens,
    )
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("")
    for score in scores:
        table.add_column(score.engine, justify="right")
    figures = [s.figures() for s in scores]
    rows: tuple[tuple[str, Callable[[dict[str, Any]], str]], ...] = (
        ("requests over the window", lambda f: str(f["requests_over_window"])),
        ("compaction passes per 100 turns", lambda f: str(f["passes_per_100_turns"])),
        ("passes that gained nothing", lambda f: str(f["passes_no_gain"])),
        ("passes that failed", lambda f: str(f["passes_failed"])),
        ("tokens per request, median", lambda f: f"{f['tokens_median']:,}"),
        ("tokens per request, p95", lambda f: f"{f['tokens_p95']:,}"),
        ("prompt-cache breaks", lambda f: str(f["cache_breaks"])),
        ("rare tokens recalled", lambda f: "{} of {}".format(*f["rare_tokens_recalled"])),
        (
            "standing instructions kept",
            lambda f: "{} of {}".format(*f["standing_instructions_kept"]),
        ),
    )
    for label, shown in rows:
        table.add_row(label, *(shown(f) for f in figures))
    out.print(table)
    if probes:
        say("probes (message numbers count from 0 in the rebuilt conversation):")
        for probe in probes[:12]:
            marks = ", ".join(
                f"{s.engine} {'yes' if ok else 'no'}"
                for s in scores
                for p, ok in s.probes
                if p is probe
            )
            say(
                "  {kind} from message {source}, asked at {asked}: {token} ({marks})",
                kind=probe.kind.replace("_", " "),
                source=probe.source,
                asked=probe.asked_at,
                token=probe.shown[:80],
                marks=marks,
            )
        if len(probes) > 12:
            say("  ... {more} more (--json lists them all)", more=len(probes) - 12)
    for score in scores:
        _show_lost(score)
    say("[bold]recommendation[/]: {text}", text=_recommend(scores))
