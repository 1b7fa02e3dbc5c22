"""What an operator deploys: the image's recipe, compose, the settings file, the systemd
units, the dashboard. No container runtime runs here, so the Dockerfile is linted
(hadolint), compose.yaml is checked against the Compose Specification's schema, and the
image's entrypoint runs in this venv with the environment the image sets."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.ops import metrics

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SETTING = re.compile(r"[\"']((?:BELOTE|DISCORD|TELEGRAM|DATABASE)_[A-Z_]+)[\"']")


def tool(name: str) -> str:
    path = BIN / name
    assert path.exists(), f"{name} comes with the dev install (pip install -e '.[dev]')"
    return str(path)


def test_dockerfile_passes_hadolint() -> None:
    res = subprocess.run([tool("hadolint"), "Dockerfile"], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr


def test_dockerfile_runs_the_bot_as_nobody_in_particular() -> None:
    text = (ROOT / "Dockerfile").read_text()
    stages = [line for line in text.splitlines() if line.startswith("FROM ")]
    assert len(stages) == 2 and "AS build" in stages[0]  # multi-stage: no compiler shipped
    assert 'python -c "import engine.ai._dds"' in text  # the compiled solver, or no image
    assert re.search(r"^USER 10001:10001$", text, re.M)
    assert 'VOLUME ["/data"]' in text and "BELOTE_DB=/data/belote.db" in text
    assert 'ENTRYPOINT ["belote"]' in text and 'CMD ["belote", "healthcheck"]' in text
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".env", "*.db", ".git", "**/*.so"} <= set(ignored)  # no secret, no stale build


def test_compose_file_follows_the_compose_specification() -> None:
    res = subprocess.run(
        [tool("check-jsonschema"), "--builtin-schema", "vendor.compose-spec", "compose.yaml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    text = (ROOT / "compose.yaml").read_text()
    assert "condition: service_healthy" in text and "pg_isready" in text
    assert 'test: ["CMD", "belote", "healthcheck"]' in text
    # the password apart from the URL, every container's log bounded
    assert "DATABASE_URL: postgresql://belote@db:5432/belote" in text
    assert "PGPASSWORD: ${POSTGRES_PASSWORD:?" in text
    assert text.count("logging: *logging") == 4 and 'max-size: "10m"' in text


def settings_in_code() -> set[str]:
    found: set[str] = set()
    for package in ("bot", "adapters", "engine"):
        for path in (ROOT / package).rglob("*.py"):
            found |= set(SETTING.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_setting_is_in_env_example_and_the_docs() -> None:
    settings = settings_in_code()
    assert {"DISCORD_TOKEN", "TELEGRAM_TOKEN", "BELOTE_DB", "BELOTE_METRICS_PORT"} <= settings
    example = (ROOT / ".env.example").read_text()
    listed = set(re.findall(r"^#? ?([A-Z][A-Z_]+)=", example, re.M))
    docs = (ROOT / "docs" / "operations.md").read_text()
    assert sorted(settings - listed) == []
    assert sorted(s for s in settings if f"`{s}`" not in docs) == []


def test_the_dashboard_is_generated_and_asks_for_real_metrics() -> None:
    sys.path.insert(0, str(ROOT))
    from bench.dashboard import PANELS, dashboard

    shipped = json.loads((ROOT / "deploy" / "grafana" / "belote-dashboard.json").read_text())
    assert shipped == dashboard(), "regenerate: python bench/dashboard.py json > deploy/..."
    exposed = {s.name for family in metrics.REGISTRY.collect() for s in family.samples} | {
        family.name for family in metrics.REGISTRY.collect()
    }
    for panel in PANELS:
        for query in panel.queries:
            base = query.metric.removesuffix("_total").removesuffix("_count")
            assert query.metric in exposed or base in exposed, query.metric


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_systemd_units_verify(tmp_path: Path) -> None:
    units = sorted((ROOT / "deploy" / "systemd").iterdir())
    # systemd-analyze checks that the binaries exist: stand the venv's belote in for it
    text = {
        u.name: u.read_text().replace("/opt/belote/venv/bin/belote", tool("belote")) for u in units
    }
    for name, body in text.items():
        (tmp_path / name).write_text(body)
    res = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", *[str(tmp_path / n) for n in text]],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 0 and not res.stderr.strip(), res.stderr


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_image_entrypoint_runs_and_answers_its_health_check(tmp_path: Path) -> None:
    """``belote run`` with the image's environment (JSON logs, /data-like database,
    metrics port), then ``belote healthcheck`` as the image's HEALTHCHECK runs it."""
    port = free_port()
    (tmp_path / "data").mkdir()  # the image's volume
    env = {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "BELOTE_DB": str(tmp_path / "data" / "belote.db"),
        "BELOTE_LOG_LEVEL": "INFO",
        "BELOTE_LOG_FORMAT": "json",
        "BELOTE_METRICS_PORT": str(port),
        "BELOTE_PLATFORM": "console",
        "DISCORD_TOKEN": "",
        "TELEGRAM_TOKEN": "",
    }
    bot = subprocess.Popen(
        [tool("belote"), "run"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        check = [tool("belote"), "healthcheck"]
        for _ in range(200):
            res = subprocess.run(check, env=env, capture_output=True, text=True)
            if res.returncode == 0:
                break
            assert bot.poll() is None, bot.stderr.read() if bot.stderr else ""
            time.sleep(0.1)
        assert res.returncode == 0, res.stderr
        assert json.loads(res.stdout)["status"] == "ok"
        assert bot.stdin is not None
        out, err = bot.communicate("alice: /table create\n", timeout=60)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
    assert bot.returncode == 0, err
    assert "t1" in out
    events = [json.loads(line) for line in err.splitlines()]
    assert any(e["message"].startswith("metrics and health on") for e in events)
    assert (tmp_path / "data" / "belote.db").exists()
    down = subprocess.run([tool("belote"), "healthcheck"], env=env, capture_output=True)
    assert down.returncode == 2  # nothing answers once it stopped
