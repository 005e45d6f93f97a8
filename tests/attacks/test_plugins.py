"""Attacks through plugins: Hermes plugins on our host, their stand-in modules, added
commands. Plugin folders are written to disk as their authors would."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path
from typing import Any

from hermes_core import ContextHost
from tests.attacks import rendezvous
from tests.servers import ChatServer

#: A Hermes plugin whose engine summarises on a thread it starts itself.
THREADED_ENGINE = """
import threading

from agent.auxiliary_client import call_llm
from agent.context_engine import ContextEngine
from hermes_cli.config import get_hermes_home
from tests.attacks import rendezvous


class Threaded(ContextEngine):
    outcome = None

    @property
    def name(self):
        return "threaded"

    def update_from_response(self, usage):
        pass

    def should_compress(self, prompt_tokens=None):
        return False

    def compress(self, messages, current_tokens=None, focus_topic=None):
        if get_hermes_home().name == "second":  # inside its pass while the first one works
            rendezvous.second_inside.set()
            rendezvous.first_done.wait(30)
            return messages[:1]
        if get_hermes_home().name == "first":
            rendezvous.first_inside.set()
            rendezvous.second_inside.wait(30)
        text = " ".join(str(m.get("content")) for m in messages)

        def summarise():
            try:
                answer = call_llm(messages=[{"role": "user", "content": text}])
                Threaded.outcome = answer.choices[0].message.content
            except RuntimeError as exc:
                Threaded.outcome = f"refused: {exc}"

        worker = threading.Thread(target=summarise)
        worker.start()
        worker.join()
        rendezvous.first_done.set()
        return [messages[0], {"role": "user", "content": str(Threaded.outcome)}, messages[-1]]


def register(ctx):
    ctx.register_context_engine(Threaded())
"""


def _plugin_home(home: Path, name: str, source: str, llm_url: str | None = None) -> Path:
    folder = home / "plugins" / name
    folder.mkdir(parents=True)
    (folder / "plugin.yaml").write_text(f"name: {name}\nversion: 1.0\n", encoding="utf-8")
    (folder / "__init__.py").write_text(source, encoding="utf-8")
    config = f"plugins:\n  enabled: [{name}]\ncontext:\n  engine: {name}\n"
    if llm_url:
        config += f"auxiliary:\n  compression:\n    base_url: {llm_url}\n    model: m\n"
    (home / "config.yaml").write_text(config, encoding="utf-8")
    return home


def _host(home: Path) -> ContextHost:
    return ContextHost.from_config(home / "config.yaml", env={"HERMES_HOME": str(home)})


CONVERSATION: list[dict[str, Any]] = [
    {"role": "system", "content": "agent"},
    {"role": "user", "content": "alice's secret plan " * 200},
    {"role": "assistant", "content": "noted " * 200},
]


def test_a_plugin_thread_never_sends_one_hosts_conversation_to_another_hosts_llm(
    tmp_path: Path,
) -> None:
    rendezvous.reset()
    with ChatServer("A-SUMMARY") as alices, ChatServer("B-SUMMARY") as bobs:
        alice = _host(_plugin_home(tmp_path / "first", "threaded", THREADED_ENGINE, alices.url))
        bob = _host(_plugin_home(tmp_path / "second", "threaded", THREADED_ENGINE, bobs.url))
        assert bob.engine_name == "threaded"
        results: list[Any] = []
        alices_pass = threading.Thread(target=lambda: results.append(alice.compress(CONVERSATION)))
        alices_pass.start()
        assert rendezvous.first_inside.wait(30)
        bob.compress(CONVERSATION)  # runs while alice's plugin thread calls call_llm
        alices_pass.join()
        result = results[0]
        assert all("alice" not in str(body) for body in bobs.requests)
        assert "refused" in str(result[1]["content"]) or "A-SUMMARY" in str(result)
        alice.close()
        bob.close()


#: A Hermes plugin whose engine leaves a thread behind that summarises once it is told to.
LINGERING_ENGINE = """
import threading

from agent.auxiliary_client import call_llm
from agent.context_engine import ContextEngine
from hermes_cli.config import get_hermes_home
from tests.attacks import rendezvous


class Lingering(ContextEngine):
    outcome = None

    @property
    def name(self):
        return "lingering"

    def update_from_response(self, usage):
        pass

    def should_compress(self, prompt_tokens=None):
        return False

    def compress(self, messages, current_tokens=None, focus_topic=None):
        text = " ".join(str(m.get("content")) for m in messages)

        def summarise():
            rendezvous.second_inside.wait(30)  # the host that started it is gone by then
            try:
                answer = call_llm(messages=[{"role": "user", "content": text}])
                Lingering.outcome = answer.choices[0].message.content
            except RuntimeError as exc:
                Lingering.outcome = f"refused: {exc}"
            Lingering.home = get_hermes_home()
            rendezvous.first_done.set()

        threading.Thread(target=summarise, daemon=True).start()
        return messages


def register(ctx):
    ctx.register_context_engine(Lingering())
"""


def test_a_thread_left_by_a_closed_and_dropped_host_never_reaches_a_later_hosts_llm(
    tmp_path: Path,
) -> None:
    rendezvous.reset()
    with ChatServer("A-SUMMARY") as alices, ChatServer("B-SUMMARY") as bobs:
        alice = _host(_plugin_home(tmp_path / "first", "lingering", LINGERING_ENGINE, alices.url))
        assert alice.engine_name == "lingering"
        alice.compress(CONVERSATION, force=True)  # leaves its thread waiting
        plugin = sys.modules[type(alice.engine.inner).__module__]  # type: ignore[attr-defined]
        alice.close()
        del alice
        gc.collect()
        bob = _host(_plugin_home(tmp_path / "second", "lingering", LINGERING_ENGINE, bobs.url))
        assert bob.engine_name == "lingering"
        rendezvous.second_inside.set()  # alice's thread calls call_llm now, bob alive
        assert rendezvous.first_done.wait(30)
        assert bobs.requests == []
        assert str(plugin.Lingering.outcome).startswith("refused")
        assert plugin.Lingering.home != tmp_path / "second"
        bob.close()


def test_a_plugin_thread_started_after_the_last_host_left_gets_the_live_hosts_llm(
    tmp_path: Path,
) -> None:
    """The rule is about threads that outlived a host, not about hosts that came before."""
    gc.collect()  # hosts earlier tests dropped leave now, before this test's threads start
    rendezvous.reset()
    with ChatServer("A-SUMMARY") as alices, ChatServer("B-SUMMARY") as bobs:
        alice = _host(_plugin_home(tmp_path / "earlier", "threaded", THREADED_ENGINE, alices.url))
        alice.close()
        del alice
        gc.collect()
        bob = _host(_plugin_home(tmp_path / "later", "threaded", THREADED_ENGINE, bobs.url))
        done: list[Any] = []
        worker = threading.Thread(target=lambda: done.append(bob.compress(CONVERSATION)))
        worker.start()  # a thread of its own: whatever the main thread outlived does not count
        worker.join()
        assert done[0][1]["content"] == "B-SUMMARY"
        bob.close()


def test_a_plugin_thread_of_the_only_host_gets_that_hosts_llm(
    tmp_path: Path,
) -> None:
    gc.collect()  # hosts earlier tests dropped leave now, before this test's threads start
    with ChatServer("ONLY-SUMMARY") as server:
        host = _host(_plugin_home(tmp_path, "threaded", THREADED_ENGINE, server.url))
        result = host.compress(CONVERSATION, force=True)
        assert result[1]["content"] == "ONLY-SUMMARY"
        assert "alice" in str(server.requests)
        host.close()


def test_the_stand_ins_never_shadow_the_applications_own_agent_package(tmp_path: Path) -> None:
    app = tmp_path / "app"
    (app / "agent").mkdir(parents=True)
    (app / "agent" / "__init__.py").write_text("MINE = True\n", encoding="utf-8")
    (app / "agent" / "tools.py").write_text("def tool():\n    return 'own'\n", encoding="utf-8")
    home = _plugin_home(tmp_path / "home", "threaded", THREADED_ENGINE)
    script = textwrap.dedent(
        f"""
        from hermes_core import ContextHost
        host = ContextHost.from_config({str(home / "config.yaml")!r},
                                       env={{"HERMES_HOME": {str(home)!r}}})
        assert host.engine_name == "threaded", host.status()
        import agent, agent.tools
        assert agent.MINE and agent.tools.tool() == "own"
        print("ok")
        """
    )
    env = {**os.environ, "PYTHONPATH": str(app)}
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


#: A plugin that imports the module-level names Hermes Agent's context_engine has.
MEMORY_ENGINE = """
from agent.context_engine import MEMORY_CONTEXT_MAX_CHARS, ContextEngine, sanitize_memory_context


class Remembering(ContextEngine):
    seen = None

    @property
    def name(self):
        return "remembering"

    def update_from_response(self, usage):
        pass

    def should_compress(self, prompt_tokens=None):
        return False

    def compress(self, messages, current_tokens=None, focus_topic=None, force=False,
                 memory_context=""):
        Remembering.seen = sanitize_memory_context(memory_context)
        return messages


def register(ctx):
    ctx.register_context_engine(Remembering())
"""


def test_a_plugin_importing_the_modules_other_names_runs_without_hermes(tmp_path: Path) -> None:
    host = _host(_plugin_home(tmp_path, "remembering", MEMORY_ENGINE))
    assert host.engine_name == "remembering"
    memory = "key sk-" + "A" * 40 + " " + "note " * 3_000
    host.compress(CONVERSATION, force=True, memory_context=memory)
    plugin = sys.modules[type(host.engine.inner).__module__]  # type: ignore[attr-defined]
    seen = plugin.Remembering.seen
    assert "AAAAAAAAAAAAAAAA" not in seen  # redacted before an LLM could see it
    assert len(seen) <= plugin.MEMORY_CONTEXT_MAX_CHARS + 100 and seen.startswith("key")
    host.close()


def test_a_plugin_folder_is_read_only_up_to_its_budget_to_find_an_engine(tmp_path: Path) -> None:
    """Whether a plugin folder holds an engine is decided from at most 2 MiB of its source,
    without importing it: a mark past that budget is not seen, and the plugin is not run."""
    from hermes_core.sources.hermes_plugins import _plugins as plugins

    home = _plugin_home(tmp_path / "home", "padded", THREADED_ENGINE.replace("threaded", "padded"))
    folder = home / "plugins" / "padded"
    # read before __init__.py (sorted): the budget's worth of comments, then the mark
    (folder / "_0padding.py").write_text(
        "#" * plugins._MAX_SOURCE_BYTES + "\n# register_context_engine\n"
    )
    host = _host(home)
    assert host.engine_name == "compressor"
    host.close()
    (folder / "_0padding.py").write_text("# short\n")  # within the budget: found and used
    host = _host(home)
    assert host.engine_name == "padded"
    host.close()
