"""pytest setup of the Python SDK suite: async tests run on asyncio (anyio's plugin)."""

import pytest


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
