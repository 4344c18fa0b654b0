"""The monitoring shipped in deploy/: Prometheus alert rules that promtool accepts and whose
unit tests pass, and alerts and a Grafana dashboard that name only metrics the API serves."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess

import yaml
from tests.conftest import ROOT, missing

from thirtyone.web.metrics import open_fds

PROMETHEUS = ROOT / "deploy" / "prometheus"
DASHBOARD = ROOT / "deploy" / "grafana" / "thirtyone.json"
SUFFIXES = {"counter": ("_total",), "gauge": ("",),
            "histogram": ("_bucket", "_sum", "_count")}


def _promtool() -> str:
    found = shutil.which("promtool")
    if found is None:
        missing("promtool (Debian package prometheus)")
    return found  # type: ignore[return-value]


def test_promtool_checks_the_rules_and_their_unit_tests_pass():
    promtool = _promtool()
    for command in (["check", "rules", "alerts.yml"], ["test", "rules", "alerts.test.yml"]):
        done = subprocess.run([promtool, *command], cwd=PROMETHEUS, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr


def _expressions() -> list[str]:
    rules = yaml.safe_load((PROMETHEUS / "alerts.yml").read_text())
    found = [rule["expr"] for group in rules["groups"] for rule in group["rules"]]
    dashboard = json.loads(DASHBOARD.read_text())
    found += [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    return found


def test_alerts_and_dashboard_name_only_metrics_the_api_serves(client):
    client.get("/healthz")
    text = client.get("/metrics").get_data(as_text=True)
    served = {name.removesuffix("_total") + suffix
              for name, kind in re.findall(r"^# TYPE (\w+) (\w+)$", text, re.M)
              for suffix in SUFFIXES.get(kind, ("",))}
    named = {name for expression in _expressions()
             for name in re.findall(r"\bthirtyone_\w+", expression)}
    assert named and named <= served, named - served
    assert "thirtyone_process_resident_bytes" in served


def test_open_descriptors_are_counted_without_listing_them():
    before = open_fds()
    pairs = [socket.socketpair() for _ in range(20)]
    try:
        assert open_fds() == before + 40
        # The listing holds one more: its own descriptor of the folder.
        assert open_fds() in range(len(os.listdir("/proc/self/fd")) - 1,
                                   len(os.listdir("/proc/self/fd")) + 1)
    finally:
        for one, other in pairs:
            one.close()
            other.close()
    assert open_fds() == before
