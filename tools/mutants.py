# ruff: noqa: E501  (a catalogue of source lines, quoted whole)
"""The mutants ``tools/mutate.py`` plants: each hook's fallback, each bound and each
redaction rule broken in turn, with the tests that must catch it.

A mutant is one textual edit of one source line (``before`` must occur exactly
once in ``path``), named by the behaviour it breaks. ``tests`` are the pytest
paths that cover that behaviour; the mutant is *killed* when they fail.
A mutant known to survive for a reason that holds is listed with ``left``:
the reason, printed in the report.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str
    before: str
    after: str
    tests: tuple[str, ...]
    #: Why this mutant may survive (None: it must be killed).
    left: str | None = None


HOST = (
    "tests/test_hook_fallbacks.py",
    "tests/test_host_compress.py",
    "tests/test_host_select.py",
    "tests/test_host_later_hooks.py",
    "tests/test_host_lifecycle.py",
    "tests/test_host_pool.py",
    "tests/test_host_tools.py",
    "tests/test_host_boundary.py",
    "tests/test_host_discards.py",
    "tests/test_hookspecs.py",
    "tests/attacks/test_fault_injection.py",
    "tests/attacks/test_engine_containment.py",
    "tests/attacks/test_host_boundary.py",
)
REDACTION = (
    "tests/attacks/test_redaction.py",
    "tests/test_log.py",
    "tests/attacks/test_llm_server.py",
    "tests/test_llm_client.py",
)
CONFIG = ("tests/test_config.py", "tests/attacks/test_config_files.py", "tests/test_cli.py")
LCM_SQLITE = ("tests/lcm", "-k", "not postgresql")

MUTANTS: tuple[Mutant, ...] = (
    # ---------------------------------------------------------------- hook fallbacks
    Mutant(
        "should_compress falls back to True (a pass on every failure)",
        "hermes_core/hooks/_specs.py",
        "        fallback_value=False,\n    )\n    def should_compress(",
        "        fallback_value=True,\n    )\n    def should_compress(",
        HOST,
    ),
    Mutant(
        "should_compress_info falls back to 'compress'",
        "hermes_core/hooks/_specs.py",
        'fallback_value=(False, "engine_error")',
        'fallback_value=(True, "engine_error")',
        HOST,
    ),
    Mutant(
        "get_tool_schemas falls back to a tool",
        "hermes_core/hooks/_specs.py",
        "        fallback_value=[],",
        '        fallback_value=[{"name": "ghost", "parameters": {"type": "object"}}],',
        HOST,
    ),
    Mutant(
        "a generic hook's fallback is shared, not copied, between calls",
        "hermes_core/host/generic.py",
        "fallback = copy.deepcopy(hook.fallback_value)",
        "fallback = hook.fallback_value",
        HOST,
        left="equivalent today: every generic hook's declared fallback is None, a bool or a "
        "tuple, which no caller can mutate; the copy guards a mutable one declared later",
    ),
    Mutant(
        "a bounded hook that raised returns None instead of its fallback",
        "hermes_core/host/bounded.py",
        "            self._late(method, self.limit)\n        return default",
        "            self._late(method, self.limit)\n        return None  # type: ignore",
        HOST,
    ),
    Mutant(
        "select_context that raised gives an empty request",
        "hermes_core/host/host.py",
        '            self.counters.add("select_context_fallbacks")\n            return request_messages\n        if result.__class__',
        '            self.counters.add("select_context_fallbacks")\n            return []\n        if result.__class__',
        HOST,
    ),
    Mutant(
        "select_context's invalid answer is used",
        "hermes_core/host/host.py",
        '            self._bad_result("select_context", result.value)\n            return request_messages',
        '            self._bad_result("select_context", result.value)\n            return result.value',
        HOST,
    ),
    Mutant(
        "a failed prune returns the engine's copies, not the caller's list",
        "hermes_core/host/host.py",
        '        if result is _FAILED:  # it raised or was late (logged and counted by _bounded)\n            self.counters.add("prune_fallbacks")\n            return messages, 0',
        '        if result is _FAILED:  # it raised or was late (logged and counted by _bounded)\n            self.counters.add("prune_fallbacks")\n            return handed, 0',
        HOST,
    ),
    Mutant(
        "a tool that raised answers its exception's text unredacted",
        "hermes_core/host/tools.py",
        "    return _error(f\"Context engine tool '{name}' failed: {type(exc).__name__}: {exc}\")",
        '    return f"failed: {exc}"',
        HOST,
    ),
    Mutant(
        "a discarding compaction is accepted",
        "hermes_core/host/discards.py",
        "    if any(isinstance(m, dict) and _kept(m, result, seen) for m in exchange):\n        return None",
        "    if True:\n        return None",
        HOST,
    ),
    # ------------------------------------------- the deliberate bugs of issue 32's report
    Mutant(
        "the ABC's select_context is called anyway (host.py's override check always true)",
        "hermes_core/host/host.py",
        '        if _overrides(engine, "select_context"):',
        "        if True:",
        HOST,
    ),
    Mutant(
        "the user's Ctrl-C is re-raised in every thread, not only the main one",
        "hermes_core/_containment.py",
        "    if not _watching and threading.current_thread() is threading.main_thread():",
        "    if not _watching:",
        HOST,
    ),
    Mutant(
        "import hermes_core loads the HTTP client (and httpx) at once",
        "hermes_core/__init__.py",
        "if TYPE_CHECKING:  # at run time these load on first use, below\n",
        "from hermes_core.llm._client import ChatClient, ChatResult  # noqa\nif TYPE_CHECKING:\n",
        ("tests/test_public_api.py", "tests/test_lazy_imports.py"),
    ),
    Mutant(
        "LCM's cooldown reads the real clock, not the one it was given",
        "hermes_lcm_example/hermes_engine_lcm/engine.py",
        "        self.cooldown = FailureCooldown(clock)  # shared by the passes of every session",
        "        self.cooldown = FailureCooldown()",
        ("tests/lcm/test_compaction.py",),
    ),
    # ---------------------------------------------------------------- bounds: time
    Mutant(
        "a check closes the engines it created without limit (a hanging close hangs it)",
        "hermes_core/cli/_common.py",
        "            run_bounded(pool, limit, engine.close)",
        "            run_bounded(pool, 0, engine.close)",
        ("tests/attacks/test_engine_containment.py",),
    ),
    Mutant(
        "a check leaves the engines it created open as their home goes",
        "hermes_core/cli/_common.py",
        "        self.created.append(engine)",
        "        pass",
        ("tests/attacks/test_engine_containment.py",),
    ),
    Mutant(
        "a bounded call waits without limit",
        "hermes_core/host/bounded.py",
        "        return Done(future.result(timeout=limit))",
        "        return Done(future.result(timeout=None))",
        HOST,
    ),
    Mutant(
        "waiting for the previous pass no longer counts against the timeout",
        "hermes_core/host/passes.py",
        "            timeout - (self._clock() - start) if timeout > 0 else 0,",
        "            timeout if timeout > 0 else 0,",
        HOST,
    ),
    Mutant(
        "the pool never starts a worker past a stuck one",
        "hermes_core/host/pool.py",
        "if future not in self._running or self._stuck >= self.max_stuck:",
        "if future not in self._running:",
        HOST,
    ),
    Mutant(
        "the LLM cooldown never ends",
        "hermes_core/llm/_cooldown.py",
        "        return math.ceil(left) if left > 0 else 0",
        "        return math.ceil(left) if left > 0 else 1",
        ("tests/test_llm_client.py", "tests/compressor", *LCM_SQLITE),
    ),
    Mutant(
        "a success does not reset the cooldown's escalation",
        "hermes_core/llm/_cooldown.py",
        "            self._failures = 0\n            self._until = 0.0",
        "            self._until = 0.0",
        ("tests/test_llm_client.py", "tests/compressor", *LCM_SQLITE),
    ),
    Mutant(
        "the compressor's anti-thrash breaker no longer holds passes back",
        "hermes_compressor/engine.py",
        "        if self.breaker.tripped and not self._over_window(tokens):",
        "        if False:",
        ("tests/compressor",),
    ),
    Mutant(
        "the compressor tries past max_attempts a turn",
        "hermes_compressor/engine.py",
        "        if self.attempts_this_turn >= self.settings.max_attempts:",
        "        if False:",
        ("tests/compressor",),
    ),
    Mutant(
        "a prune that frees less than min_reclaim_tokens is kept",
        "hermes_core/_prune_gate.py",
        "        if freed <= 0 or freed < self.min_reclaim_tokens:",
        "        if freed <= 0:",
        (
            "tests/compressor/test_proactive_prune.py",
            "tests/lcm/test_prune.py",
            "tests/test_host_later_hooks.py",
        ),
    ),
    Mutant(
        "a PostgreSQL writer waits for a locked session without limit",
        "hermes_lcm_example/hermes_engine_lcm/store/postgres/database.py",
        "        self._lock_timeout_ms = max(1, int(lock_timeout * 1000))",
        "        self._lock_timeout_ms = 10**9",
        ("tests/attacks/test_stores.py", "tests/lcm/test_postgres_fleet.py"),
    ),
    # ---------------------------------------------------------------- bounds: size
    Mutant(
        "an LLM answer is read past MAX_ANSWER_BYTES",
        "hermes_core/llm/_client.py",
        "        if self._size > MAX_ANSWER_BYTES:",
        "        if False:",
        ("tests/test_llm_client.py", "tests/attacks/test_llm_server.py"),
    ),
    Mutant(
        "a config file of any size is read",
        "hermes_core/config/_loader.py",
        "            if path.stat().st_size > MAX_YAML_BYTES:",
        "            if False:",
        CONFIG,
    ),
    Mutant(
        "YAML aliases expand without limit",
        "hermes_core/config/_yaml_source.py",
        "        if _expanded_size(node, {}) > MAX_EXPANDED_NODES:",
        "        if False:",
        CONFIG,
    ),
    Mutant(
        "messages nest without limit",
        "hermes_core/messages/_validation.py",
        "        if depth > MAX_NESTING:",
        "        if False:",
        ("tests/test_messages.py", *HOST),
    ),
    Mutant(
        "the host keeps every handed list",
        "hermes_core/host/handed.py",
        "                while len(self._lists) > KEPT_LISTS:",
        "                while False:",
        HOST,
    ),
    Mutant(
        "a Hermes plugin's sources are read without a budget",
        "hermes_core/sources/hermes_plugins/_plugins.py",
        "                text = handle.read(budget)",
        "                text = handle.read()",
        ("tests/test_hermes_plugins.py", "tests/attacks/test_plugins.py"),
    ),
    Mutant(
        "the compressor's summary prompt is not cut",
        "hermes_compressor/summary_prompt.py",
        "    if len(rendered) > MAX_INPUT_CHARS:",
        "    if False:",
        ("tests/compressor",),
    ),
    Mutant(
        "the compressor's fallback summary is not bounded",
        "hermes_compressor/fallback_summary.py",
        "    limit = max(16, min(max_chars, MAX_FALLBACK_CHARS))",
        "    limit = 10**9",
        ("tests/compressor",),
    ),
    Mutant(
        "lcm_grep takes a query of any length",
        "hermes_lcm_example/hermes_engine_lcm/tools.py",
        "    if len(query) > MAX_QUERY_CHARS:",
        "    if False:",
        LCM_SQLITE,
    ),
    Mutant(
        "LCM keeps the selections of every session",
        "hermes_lcm_example/hermes_engine_lcm/requests.py",
        "    while len(cache) > KEPT_SELECTIONS:",
        "    while False:",
        LCM_SQLITE,
    ),
    Mutant(
        "the encoder remembers every text's vectors",
        "hermes_lcm_example/hermes_engine_lcm/relevance/encoder.py",
        "            while len(self._recent) > KEPT_TEXTS:",
        "            while False:",
        (
            "tests/lcm/test_encoder.py",
            "tests/lcm/test_embeddings.py",
            "tests/attacks/test_embeddings.py",
        ),
    ),
    Mutant(
        "the meaning index keeps every session's rows",
        "hermes_lcm_example/hermes_engine_lcm/relevance/index.py",
        "len(_kept) > KEPT_SESSIONS or sum(m.held for m in _kept.values()) > KEPT_ROWS",
        "False",
        ("tests/lcm/test_embeddings.py", "tests/attacks/test_embeddings.py"),
    ),
    Mutant(
        "a zip member may inflate without limit",
        "hermes_lcm_example/hermes_engine_lcm/relevance/files.py",
        "        if info.file_size > MIB and info.file_size > MAX_RATIO * max(info.compress_size, 1):",
        "        if False:",
        ("tests/lcm/test_encoder.py", "tests/attacks/test_embeddings.py"),
    ),
    # ---------------------------------------------------------------- redaction
    Mutant(
        "URL user info is not redacted",
        "hermes_core/_redaction.py",
        r'        r"(?i)\b([a-z][a-z0-9+.\-]{0,31}://)[^/\s@]{1,512}@", None, lambda m: f"{m[1]}{REDACTED}@"',
        r'        r"(?i)\b([a-z][a-z0-9+.\-]{0,31}://)[^/\s@]{1,512}@", None, lambda m: m[0]',
        REDACTION,
    ),
    Mutant(
        "sk- API keys are not redacted",
        "hermes_core/_redaction.py",
        '    _rule(rf"\\bsk-(?:ant-|proj-|live-)?{_KEY_CHARS}{{16,512}}", rf"{_KEY_CHARS}*", _whole),',
        "",
        REDACTION,
    ),
    Mutant(
        "AWS access keys are not redacted",
        "hermes_core/_redaction.py",
        '    _rule(r"\\bAKIA[0-9A-Z]{16}\\b", None, _whole),',
        "",
        REDACTION,
    ),
    Mutant(
        "GitHub tokens are not redacted",
        "hermes_core/_redaction.py",
        '    _rule(r"\\bgh[pousr]_[A-Za-z0-9]{30,512}", r"[A-Za-z0-9]*", _whole),',
        "",
        REDACTION,
    ),
    Mutant(
        "Slack tokens are not redacted",
        "hermes_core/_redaction.py",
        '    _rule(r"\\bxox[abposr]-[A-Za-z0-9\\-]{10,512}", r"[A-Za-z0-9\\-]*", _whole),',
        "",
        REDACTION,
    ),
    Mutant(
        "Google API keys are not redacted",
        "hermes_core/_redaction.py",
        '    _rule(rf"\\bAIza{_KEY_CHARS}{{30,512}}", rf"{_KEY_CHARS}*", _whole),',
        "",
        REDACTION,
    ),
    Mutant(
        "a long secret's rest is left after the cut (no possessive extension)",
        "hermes_core/_redaction.py",
        "        elif rule.rest is not None:",
        "        elif False:",
        REDACTION,
    ),
    Mutant(
        "bearer tokens are not redacted",
        "hermes_core/_redaction.py",
        'def _after_first(match: re.Match[str]) -> str:\n    return f"{match.group(1)} {REDACTED}"',
        "def _after_first(match: re.Match[str]) -> str:\n    return match.group(0)",
        REDACTION,
    ),
    Mutant(
        "secret assignments are not redacted",
        "hermes_core/_redaction.py",
        '    return f"{match.group(1)}{match.group(2)}{REDACTED}"',
        "    return match.group(0)",
        REDACTION,
    ),
    Mutant(
        "secret query parameters are not redacted",
        "hermes_core/_redaction.py",
        '    return f"{match.group(1)}={REDACTED}"',
        "    return match.group(0)",
        REDACTION,
    ),
    Mutant(
        "camelCase keys are not split (refreshToken passes)",
        "hermes_core/_redaction.py",
        'words = re.sub(r"[^a-z0-9]+", " ", re.sub(r"([a-z0-9])([A-Z])", r"\\1 \\2", key).lower())',
        'words = re.sub(r"[^a-z0-9]+", " ", key.lower())',
        REDACTION,
    ),
    Mutant(
        "'signature' no longer names a secret",
        "hermes_core/_redaction.py",
        '    r"|private ?key|signature|\\b(?:key|sig|auth|pass|jwt)\\b"',
        '    r"|private ?key|\\b(?:key|sig|auth|pass|jwt)\\b"',
        REDACTION,
    ),
    Mutant(
        "max_tokens is taken for a secret",
        "hermes_core/_redaction.py",
        'r"api ?key|apikey|token(?!s|i[sz])|secret',
        'r"api ?key|apikey|token|secret',
        REDACTION,
    ),
    Mutant(
        "quote_body redacts the whole text before cutting",
        "hermes_core/_redaction.py",
        "    head = text[: limit + MAX_WIDTH]",
        "    head = text",
        REDACTION,
    ),
    Mutant(
        "quote_body cuts after redacting only the limit (a straddling secret leaks)",
        "hermes_core/_redaction.py",
        "    head = text[: limit + MAX_WIDTH]",
        "    head = text[:limit]",
        REDACTION,
    ),
    Mutant(
        "URL credentials are kept in a configured base URL",
        "hermes_core/_redaction.py",
        '    host = parts.netloc.rsplit("@", 1)[1] if "@" in parts.netloc else parts.netloc',
        "    host = parts.netloc",
        REDACTION,
    ),
    Mutant(
        "describe_secret shows the value",
        "hermes_core/_redaction.py",
        '    return f"{type(value).__name__} (hidden{size})"',
        '    return f"{value!r}"',
        (*REDACTION, *CONFIG),
    ),
    Mutant(
        "log fields are not redacted",
        "hermes_core/_log.py",
        "            fields = {k: redact(v) if isinstance(v, str) else v for k, v in fields.items()}",
        "            fields = dict(fields)",
        REDACTION,
    ),
)
