"""The Dockerfile and compose.yaml against the package: the image stands on a base pinned
by version and digest and installs the locked dependencies only, what it copies exists and
is not ignored, its entry point is the package's, its health check asks the health
endpoint on the port the bot is set to, it runs as a user without rights, and compose
builds it in both profiles. Where Docker's daemon runs, the image is built and started
too."""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from bot.config import load_settings
from bot.ops.server import HEALTH_PATH
from tests.e2e.harness import free_port, running

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


BASE = re.compile(r"^python:3\.11\.\d+-slim@sha256:[0-9a-f]{64}$")


def test_the_base_image_is_pinned_by_version_and_digest():
    bases = [rest.split()[0] for word, rest in instructions() if word == "FROM"]
    assert all(BASE.match(base) for base in bases), bases
    assert len(set(bases)) == 1, "the build and the runtime stand on the same base"


def _locked() -> dict[str, tuple[str, str]]:
    """requirements.lock: name -> (version, marker)."""
    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        requirement, _, marker = line.partition(";")
        name, equals, version = requirement.strip().partition("==")
        assert equals and re.fullmatch(r"[0-9][0-9A-Za-z.+!-]*", version), \
            f"not one exact version: {line}"
        pins[canonicalize_name(name)] = (version, marker.strip())
    return pins


def test_every_dependency_is_locked_to_one_version_the_project_accepts():
    """The lock holds each of pyproject's dependencies at a version its range accepts,
    and, for every locked package installed here, each of its own dependencies (on Linux,
    CPython 3.11: the image): `pip install --no-deps -r requirements.lock` is complete."""
    pins = _locked()
    image = {"sys_platform": "linux", "platform_system": "Linux", "os_name": "posix",
             "python_version": "3.11", "implementation_name": "cpython",
             "platform_python_implementation": "CPython", "extra": ""}
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for text in project["dependencies"]:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is not in requirements.lock"
        assert requirement.specifier.contains(pins[name][0], prereleases=True), \
            f"requirements.lock has {name} {pins[name][0]}; pyproject.toml asks {text}"
    for name in pins:
        try:
            needs = metadata.distribution(name).requires or []
        except metadata.PackageNotFoundError:
            continue
        for text in needs:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate(image):
                assert canonicalize_name(requirement.name) in pins, \
                    f"{name} needs {requirement.name}, which requirements.lock lacks"


def test_the_image_installs_the_lock_and_nothing_else():
    runs = [rest for word, rest in instructions() if word == "RUN" and " install " in rest
            and "pip" in rest]
    assert any("--no-deps -r requirements.lock" in run for run in runs), runs
    assert all("--no-deps" in run for run in runs), "nothing is resolved at build time"
    assert any("pip check" in run for run in runs), "a lock that misses a package fails"
    copied = [rest.split()[0] for word, rest in instructions() if word == "COPY"]
    assert copied.index("requirements.lock") < copied.index("bot"), \
        "the dependencies' layer does not change with the code"


def test_the_entry_point_is_the_package_script():
    cmd = [rest for word, rest in final_stage() if word == "CMD"][-1]
    program = shlex.split(cmd.strip("[]").replace(",", " "))[0]
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert program in scripts, f"CMD runs {program}, not a script of the package"
    module, _, function = scripts[program].partition(":")
    assert callable(getattr(importlib.import_module(module), function))


def health_check() -> list[str]:
    """The HEALTHCHECK's command (exec form), run as this checkout runs it: a script of
    the package becomes `python -m <its module>`, `python` this interpreter."""
    check = " ".join(rest for word, rest in final_stage() if word == "HEALTHCHECK")
    argv = json.loads(check[check.index("CMD ") + 4:])
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    if argv[0] in scripts:
        module = scripts[argv[0]].partition(":")[0].removesuffix(".__main__")
        return [sys.executable, "-m", module, *argv[1:]]
    return [sys.executable if argv[0] == "python" else argv[0], *argv[1:]]


def test_the_health_check_asks_the_health_endpoint_on_the_metrics_port():
    steps = final_stage()
    env = env_of(steps)
    port = env["METRICS_PORT"]
    assert load_settings({"DISCORD_TOKEN": TOKEN, "METRICS_PORT": port}).metrics_port == \
        int(port)
    assert [rest for word, rest in steps if word == "EXPOSE"] == [port]
    assert HEALTH_PATH == "/health" and health_check()[-1] == "health"
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


async def _check(env: dict[str, str], cwd: Path) -> tuple[int, str]:
    process = await asyncio.create_subprocess_exec(
        *health_check(), cwd=str(cwd), env=env, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode is not None
    return process.returncode, out.decode()


async def test_the_health_check_follows_metrics_port_wherever_it_is_set(discord_double,
                                                                        tmp_path):
    """The image's check, run as Docker runs it (in the bot's folder, with the container's
    environment), against the bot serving /health on a port other than the image's."""
    port, elsewhere = free_port(), free_port()
    base = {name: value for name, value in os.environ.items() if name != "METRICS_PORT"}
    base.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN=TOKEN)
    folder = tmp_path / "data"
    folder.mkdir()
    async with running(discord_double, tmp_path, metrics_port=port):
        code, said = await _check({**base, "METRICS_PORT": str(port)}, folder)
        assert code == 0, said
        # Set in the .env of the bot's folder (/data in the image) and nowhere else.
        (folder / ".env").write_text(f"METRICS_PORT={port}\n")
        code, said = await _check(base, folder)
        assert code == 0, said
        (folder / ".env").unlink()
        # Changed to a port the bot does not serve: unhealthy, and said where it asked.
        code, said = await _check({**base, "METRICS_PORT": str(elsewhere)}, folder)
        assert code == 1 and f"127.0.0.1:{elsewhere}/health" in said
    # Cleared: the bot serves no /health, and is not called unhealthy for it.
    code, said = await _check({**base, "METRICS_PORT": ""}, folder)
    assert code == 0 and "METRICS_PORT is not set" in said


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
