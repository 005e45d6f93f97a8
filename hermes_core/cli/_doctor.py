"""``hermes-context doctor [NAME]``: load an engine, validate it, check it against the contract."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from hermes_core._errors import (
    EngineError,
    EngineIncompatibleError,
    EngineNeedsHermesError,
    EngineNotFoundError,
)
from hermes_core._names import DEFAULT_ENGINE
from hermes_core.cli._common import USE_CONFIG_HELP, load, not_installed, scratch_registry
from hermes_core.cli._config_check import section_problems
from hermes_core.cli._output import say
from hermes_core.config._sections import report_problems
from hermes_core.registry._activation import source_problem
from hermes_core.testing._rules import ContractSubject, check_contract

if TYPE_CHECKING:
    from hermes_core.hermes_agent._forecast import HermesForecast

__all__ = ["command"]

_WHAT_TO_DO = {
    EngineNotFoundError: "install the distribution that provides it (pip install ...)",
    EngineIncompatibleError: "install a version of the engine that supports this hermes-context",
    EngineNeedsHermesError: "pip install hermes-agent into this environment, then run doctor again",
}
#: What to do when a plugin's own code failed, by where the engine came from.
_FIX_PLUGIN = {
    "hermes_plugin": "the plugin failed to import or register: update or reinstall it (its "
    "error is above), or ask its author",
    "general_plugin": "the plugin failed to import or register: update or reinstall it (its "
    "error is above), or ask its author",
    "directory": "the engine folder failed to import: fix or replace its code (the error is above)",
}


@click.command("doctor")
@click.argument("name", required=False)
@click.option("--use-config", is_flag=True, help=USE_CONFIG_HELP)
@click.pass_context
def command(ctx: click.Context, name: str | None, use_config: bool) -> None:
    """Check engine NAME (default: the selected one) against the ContextEngine contract.

    Runs in any environment (no pytest needed). The engine is created in a
    throwaway HERMES_HOME with its default settings (--use-config: yours): your
    own state is never read or written. Where Hermes Agent is installed, it also says which engine
    Hermes Agent will run with your HERMES_HOME's config.yaml and enabled plugins,
    and why (Hermes' own loaders are asked, in a separate process).
    """
    config = load(ctx)
    predicted = _hermes_forecast(config.home)
    with scratch_registry(ctx, use_config, config) as scratch:
        registry = scratch.registry
        selected = name is None or name == registry.config.engine.name
        name = name or registry.config.engine.name
        say("doctor: engine [bold]{name}[/]", name=name)
        unsourced = source_problem(registry, name) if selected else None
        if unsourced is not None:  # the host would not run it: say what it runs instead
            say(
                "  [red]x[/] the host will run {fallback}, not {name}: {problem}",
                fallback="no engine (context.strict)" if config.strict else DEFAULT_ENGINE,
                name=name,
                problem=unsourced,
            )
            ctx.exit(1)
        if registry.get(name) is None and not registry.not_enabled_plugins(name):
            say("  [red]x[/] {problem}", problem=not_installed(name, registry))
            ctx.exit(1)
        config_problems = section_problems(config, registry)
        if config_problems and config.strict:  # each an error: the host would raise
            for problem in config_problems:
                say("  [red]x[/] {problem}", problem=problem)
            say(
                "    context.strict makes each an error: the host raises on them\n"
                "    what to do: fix them in {file}",
                file=config.label,
            )
            ctx.exit(1)
        report_problems(config_problems, strict=False)  # shown once, however often read
        try:
            engine = scratch.create_engine(name)
        except EngineError as exc:
            record = registry.get(name)
            kind = record.source.kind if record is not None else ""
            hint = next(
                (text for kind_, text in _WHAT_TO_DO.items() if isinstance(exc, kind_)),
                _FIX_PLUGIN.get(
                    kind,
                    "fix the engine (its import, constructor or method signatures), "
                    "then run doctor again",
                ),
            )
            if "is not enabled" in str(exc):
                hint = f"enable the plugin that registers it: hermes-context select {name}"
            say("  [red]x[/] {exc}\n    what to do: {hint}", exc=exc, hint=hint)
            ctx.exit(1)
        record = registry.get(name)
        say("  [green]ok[/] loads from {source}", source=record.source if record else "?")
        say("  [green]ok[/] signatures fit the hookspecs; name is '{name}'", name=engine.name)
        outcomes = check_contract(
            ContractSubject(lambda: scratch.create_engine(name), expected_name=name)
        )
    failed = [outcome for outcome in outcomes if outcome.problem is not None]
    for outcome in failed:
        say("  [red]x[/] {rule}: {problem}", rule=outcome.rule.sentence, problem=outcome.problem)
    held = len(outcomes) - len(failed)
    if failed:
        say(
            "  [red]x[/] {held} of {total} contract rules hold; {failed} do not (above). Each "
            "is a test of hermes_core.testing.ContextEngineContract ({name}) to reproduce "
            "under pytest.",
            held=held,
            total=len(outcomes),
            failed=len(failed),
            name="test_<rule with underscores>",
        )
        ctx.exit(1)
    say("  [green]ok[/] all {total} contract rules hold", total=len(outcomes))
    if predicted is not None and predicted.runs != predicted.configured:
        say(
            "  [red]x[/] Hermes Agent will run {runs}, not the selected {configured}\n"
            "    what to do: {fix}",
            runs=predicted.runs,
            configured=predicted.configured,
            fix=predicted.explain(),
        )
        ctx.exit(1)


def _hermes_forecast(home: Path) -> HermesForecast | None:
    from hermes_core.hermes_agent._forecast import forecast
    from hermes_core.sources.hermes_plugins._shims import hermes_installed

    if not hermes_installed():
        return None
    predicted = forecast(home)
    if predicted is None:
        say("Hermes Agent: could not ask it which engine it runs for {home}", home=home)
        return None
    say(
        "Hermes Agent (for {home}) will run: [bold]{runs}[/]: {why}",
        home=home,
        runs=predicted.runs,
        why=predicted.explain(),
    )
    for line in predicted.registered:
        say("  {line}", line=line)
    for line in predicted.rejected:
        say("  [yellow]{line}[/]", line=line)
    return predicted
