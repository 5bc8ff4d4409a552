"""The Dockerfile and compose.yaml against the package: what the image copies exists and
is not ignored, its entry point is the package's, its health check asks the health
endpoint on the port the image sets, it runs as a user without rights, and compose builds
it in both profiles. Where Docker's daemon runs, the image is built and started too."""

from __future__ import annotations

import importlib
import re
import shlex
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from bot.config import load_settings
from bot.ops.server import HEALTH_PATH

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "A" * 24 + "." + "B" * 6 + "." + "C" * 27


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def final_stage() -> list[tuple[str, str]]:
    steps = instructions()
    last = max(i for i, (word, _) in enumerate(steps) if word == "FROM")
    return steps[last:]


def env_of(steps: list[tuple[str, str]]) -> dict[str, str]:
    env = {}
    for word, rest in steps:
        if word == "ENV":
            for item in shlex.split(rest):
                name, _, value = item.partition("=")
                env[name] = value
    return env


def test_the_image_is_built_in_stages_and_runs_as_a_user_without_rights():
    froms = [rest for word, rest in instructions() if word == "FROM"]
    assert len(froms) >= 2 and " AS " in froms[0].upper(), "a build stage, then the runtime"
    users = [rest for word, rest in final_stage() if word == "USER"]
    assert users and users[-1] not in ("root", "0"), "the bot does not run as root"
    assert any(word == "COPY" and rest.startswith("--from=") for word, rest in final_stage())


def test_what_the_image_copies_exists_and_is_not_ignored():
    ignore = (ROOT / ".dockerignore").read_text().splitlines()
    kept = {line[1:].strip().rstrip("/") for line in ignore if line.startswith("!")}
    assert "*" in ignore, "the build context is only what is named"
    for word, rest in instructions():
        if word != "COPY" or rest.startswith("--from="):
            continue
        *sources, _target = rest.split()
        for source in sources:
            assert (ROOT / source).exists(), f"COPY {source}: not in the repository"
            assert source.rstrip("/") in kept, f"COPY {source}: excluded by .dockerignore"
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    for include in packages["packages"]["find"]["include"]:
        top = include.rstrip("*")
        assert top in kept, f"the package {top} is not copied into the image"


def test_the_entry_point_is_the_package_script():
    cmd = [rest for word, rest in final_stage() if word == "CMD"][-1]
    program = shlex.split(cmd.strip("[]").replace(",", " "))[0]
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert program in scripts, f"CMD runs {program}, not a script of the package"
    module, _, function = scripts[program].partition(":")
    assert callable(getattr(importlib.import_module(module), function))


def test_the_health_check_asks_the_health_endpoint_on_the_metrics_port():
    steps = final_stage()
    env = env_of(steps)
    port = env["METRICS_PORT"]
    assert load_settings({"DISCORD_TOKEN": TOKEN, "METRICS_PORT": port}).metrics_port == \
        int(port)
    assert [rest for word, rest in steps if word == "EXPOSE"] == [port]
    check = " ".join(rest for word, rest in steps if word == "HEALTHCHECK")
    assert HEALTH_PATH in check and "METRICS_PORT" in check and f"'{port}'" in check
    volume = next(rest for word, rest in steps if word == "VOLUME")
    assert env["DATABASE_PATH"].startswith(volume.strip('[]"') + "/"), "SQLite in the volume"
    assert [rest for word, rest in steps if word == "STOPSIGNAL"] == ["SIGTERM"]


def test_compose_builds_the_image_in_both_profiles():
    text = (ROOT / "compose.yaml").read_text()
    assert "dockerfile: Dockerfile" in text and "dockerfile_inline" not in text
    assert re.search(r'profiles: \["embedded"\]', text) and re.search(r'profiles: \["big"\]',
                                                                      text)
    embedded = text[text.index("\n  bot:\n"):text.index("\n  db:\n")]
    assert "tricktable-data:/data" in embedded and "DATABASE_URL" not in embedded
    assert "9108:9108" in embedded


def _docker_runs() -> bool:
    if shutil.which("docker") is None:
        return False
    return subprocess.run(["docker", "info"], capture_output=True).returncode == 0


@pytest.mark.skipif(not _docker_runs(), reason="no Docker daemon on this machine")
def test_the_image_builds_and_its_entry_point_starts():
    subprocess.run(["docker", "build", "-t", "tricktable:test", str(ROOT)], check=True,
                   capture_output=True, timeout=900)
    shown = subprocess.run(["docker", "run", "--rm", "tricktable:test", "tricktable", "--help"],
                           capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0 and "backup" in shown.stdout
    who = subprocess.run(["docker", "run", "--rm", "tricktable:test", "id", "-u"],
                         capture_output=True, text=True, timeout=120)
    assert who.stdout.strip() != "0"
