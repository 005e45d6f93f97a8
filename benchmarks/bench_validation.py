"""Why hermes-context checks engines itself instead of through pluggy: the cost of each
check at activation, side by side, and what each says about three broken engines.

pluggy's check runs when an object is registered with a plugin manager that
knows the specs; since engines do not mark their methods, the manager here is
told that every spec-named method is an implementation (the only way pluggy
could see them).
"""

from __future__ import annotations

import timeit
from typing import Any

import pluggy
from judging import Target, judge, median_ratio

from hermes_compressor import CompressorEngine
from hermes_core.hooks._specs import ENGINE_HOOKS, ContextEngineSpec
from hermes_core.registry._validation import validate_engine


class EngineManager(pluggy.PluginManager):
    """A plugin manager that takes every spec-named method of an engine as a hookimpl."""

    def parse_hookimpl_opts(self, plugin: object, name: str) -> Any:
        if name in ENGINE_HOOKS:
            return {}
        return super().parse_hookimpl_opts(plugin, name)


def pluggy_check(engine: object) -> None:
    manager = EngineManager("hermes")
    manager.add_hookspecs(ContextEngineSpec)
    manager.register(engine)


def ours(engine: object) -> None:
    validate_engine(engine, name="compressor", source="entry point demo")  # type: ignore[arg-type]


class ExtraArgument(CompressorEngine):
    def get_status(self, verbose: bool) -> dict[str, Any]:  # type: ignore[override]
        return {}


class MissingArgument(CompressorEngine):
    def handle_tool_call(self, name: str) -> str:  # type: ignore[override]
        return ""


class ExtraKeywordOnly(CompressorEngine):
    def get_status(self, *, verbose: bool) -> dict[str, Any]:  # type: ignore[override]
        return {}


def verdict(check: Any, engine: object) -> str:
    try:
        check(engine)
    except Exception as exc:
        return f"rejects: {exc}".replace("\n", " | ")
    return "ACCEPTS it"


def main() -> int:
    engine = CompressorEngine()
    runs = 500

    def trial() -> tuple[float, float]:
        theirs = timeit.timeit(lambda: pluggy_check(engine), number=runs)
        mine = timeit.timeit(lambda: ours(engine), number=runs)
        return mine, theirs

    ratio = median_ratio(7, trial)
    print(f"validation at activation: ours / pluggy {ratio:.2f}x (median of 7 trials)")
    caught = 0
    for broken in (ExtraArgument, MissingArgument, ExtraKeywordOnly):
        said = verdict(ours, broken())
        caught += said.startswith("rejects")
        print(f"{broken.__name__}:")
        print(f"  ours:   {said}")
        print(f"  pluggy: {verdict(pluggy_check, broken())}")
    return judge(
        [
            # the reason we check engines ourselves: cheaper, and it catches all three
            Target("ours / pluggy's check, per activation", ratio, 1.0),
            Target("broken engines ours rejects, of 3", caught / 3, 1.0, at_least=True),
        ],
        source="bench_validation",
    )


if __name__ == "__main__":
    raise SystemExit(main())
