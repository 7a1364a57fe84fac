"""The deployment files: no Docker engine runs here, so check what can be checked."""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def test_compose_parses_and_declares_grpc_health_check():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    service = compose["services"]["numgrid"]
    assert service["build"] == "."
    check = service["healthcheck"]["test"]
    assert check[0] == "CMD"
    assert check[1:3] == ["/app/.venv/bin/numgrid", "health"]
    assert "50051" in " ".join(check)


def test_dockerfile_mirrors_the_readme_server_command():
    """scripts/serve (the README's command) and the Dockerfile install the same way."""
    dockerfile = (ROOT / "Dockerfile").read_text()
    serve = (ROOT / "scripts" / "serve").read_text()
    assert "python3 -m venv" in serve and "python3 -m venv .venv" in dockerfile
    install = re.search(r"-m pip install (.*) \.$", serve, re.M).group(1)
    assert f"-m pip install {install} ." in dockerfile
    assert 'exec "$VENV/bin/numgrid-server"' in serve
    assert 'CMD [".venv/bin/numgrid-server"]' in dockerfile


def test_readme_commands_are_the_scripts_ci_runs():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "./scripts/serve" in readme and "./scripts/test" in readme
    assert "./scripts/test" in ci


def test_compose_runs_replicas_that_the_cli_reaches_through_dns():
    """Two replicas, each with its own host port; the `cli` service dials the name that
    resolves to all of them (round_robin spreads a batch), after they are healthy."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    server = compose["services"]["numgrid"]
    assert server["deploy"]["replicas"] >= 2
    assert "container_name" not in server  # a fixed name allows one container only
    assert all("-" in str(port).split(":")[0] for port in server.get("ports", []))
    assert server["healthcheck"]["test"][1:3] == ["/app/.venv/bin/numgrid", "health"]
    cli = compose["services"]["cli"]
    assert cli["image"] == server["image"]
    assert cli["environment"]["NUMGRID_SERVER"] == "dns:///numgrid:50051"
    assert cli["depends_on"]["numgrid"]["condition"] == "service_healthy"
