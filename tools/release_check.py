"""Checks a release's built files before they are uploaded (``nox -s release``).

For every wheel and sdist in the folder given: the name and version are the
ones the sources declare, every engine distribution's ``Requires-Dist`` on
hermes-context admits the hermes-context being released, the long description
is the README (as markdown, so PyPI renders it), and each wheel installs in a
fresh virtual environment where ``hermes-context engines --json`` lists the
engines it ships. Exits 1 naming every problem found.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
import venv
import zipfile
from email.parser import HeaderParser
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def declared() -> dict[str, tuple[str, Path]]:
    """Each distribution's normalised name: its version and its project folder."""
    found: dict[str, tuple[str, Path]] = {}
    for pyproject in [ROOT / "pyproject.toml", *sorted(ROOT.glob("*/pyproject.toml"))]:
        # our own files, whose [project] table starts with name (and version) lines; a
        # regular expression keeps this script free of tomllib, which mypy's 3.10 lacks
        text = pyproject.read_text(encoding="utf-8")
        name = re.search(r'^name = "([^"]+)"', text, re.MULTILINE)
        version = re.search(r'^version = "([^"]+)"', text, re.MULTILINE)
        if version is None:  # hermes-context: the version lives in the package
            version = re.search(
                r'"([^"]+)"', (ROOT / "hermes_core" / "_version.py").read_text(encoding="utf-8")
            )
        assert name is not None and version is not None, f"{pyproject}: no name or version"
        found[canonicalize_name(name[1])] = (version[1], pyproject.parent)
    return found


def wheel_metadata(wheel: Path) -> tuple[dict[str, list[str]], str]:
    """A wheel's METADATA headers (every value of each) and its long description."""
    with zipfile.ZipFile(wheel) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        message = HeaderParser().parsestr(archive.read(name).decode("utf-8"))
    headers: dict[str, list[str]] = {}
    for key, value in message.items():
        headers.setdefault(key, []).append(value)
    return headers, str(message.get_payload())


def check(folder: Path) -> list[str]:
    problems: list[str] = []
    sources = declared()
    core_version = sources["hermes-context"][0]
    wheels = sorted(folder.glob("*.whl"))
    built = {canonicalize_name(w.name.split("-")[0]) for w in wheels}
    for name in sources:
        if name not in built:
            problems.append(f"{name}: no wheel in {folder}")
        if not list(folder.glob(f"{name.replace('-', '_')}-*.tar.gz")):
            problems.append(f"{name}: no sdist in {folder}")
    for wheel in wheels:
        headers, description = wheel_metadata(wheel)
        name = canonicalize_name(headers["Name"][0])
        version = headers["Version"][0]
        expected, project = sources.get(name, ("?", ROOT))
        if version != expected:
            problems.append(f"{wheel.name}: version {version}, the sources say {expected}")
        if headers.get("Description-Content-Type", [""])[0] != "text/markdown":
            problems.append(f"{wheel.name}: the long description is not declared as markdown")
        readme = (project / "README.md").read_text(encoding="utf-8").strip()
        if description.strip() != readme:
            problems.append(f"{wheel.name}: the long description is not {project}/README.md")
        for line in headers.get("Requires-Dist", []):
            requirement = Requirement(line)
            if canonicalize_name(requirement.name) == "hermes-context" and not (
                requirement.specifier.contains(Version(core_version), prereleases=True)
            ):
                problems.append(
                    f"{wheel.name}: requires {line}, which excludes hermes-context {core_version}"
                )
    if not problems:
        problems += installed_engines(wheels)
    return problems


def installed_engines(wheels: list[Path]) -> list[str]:
    """Install every wheel (and their dependencies) in a fresh venv; list the engines."""
    with tempfile.TemporaryDirectory(prefix="hermes-release-") as scratch:
        venv.create(scratch, with_pip=True)
        python = Path(scratch) / "bin" / "python"
        subprocess.run(
            [python, "-m", "pip", "install", "-q", *map(str, wheels)],
            check=True,
        )
        listing = subprocess.run(
            [python, "-m", "hermes_core", "engines", "--json"],
            check=True,
            capture_output=True,
            text=True,
            env={"HERMES_HOME": scratch, "PATH": "/usr/bin:/bin"},
        )
    names = {entry["name"] for entry in json.loads(listing.stdout)["engines"]}
    missing = {"compressor", "lcm"} - names
    return [f"installed from the wheels, engines lists no {sorted(missing)}"] if missing else []


def main() -> int:
    folder = Path(sys.argv[1])
    problems = check(folder)
    for problem in problems:
        print(f"release check: {problem}", file=sys.stderr)
    if not problems:
        print(f"release check: {len(list(folder.iterdir()))} files in {folder} are ready")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
