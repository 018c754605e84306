"""Shared fixtures: paths into the repository's own fixture files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
SEEDS = REPO / "fixtures" / "seeds"


@pytest.fixture
def forecast_path() -> Path:
    """The seeds' get_forecast catalog (an MCP tools/list result)."""
    return SEEDS / "get_forecast.json"


@pytest.fixture
def forecast(forecast_path: Path) -> list[dict]:
    """The get_forecast tool as Python values."""
    return json.loads(forecast_path.read_text())["tools"]


@pytest.fixture
def repo() -> Path:
    """The repository root."""
    return REPO
