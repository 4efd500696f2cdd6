"""Usage errors (unknown option, missing argument, out-of-range value) print click's usage message and
exit 2 - never an "internal error" - whichever click the installed typer raises them from."""

from __future__ import annotations

import pytest
from cli_helpers import run_cli


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("run", "--bogus"), "No such option: --bogus"),
        (("run", "--budget-usd", "-1"), "Invalid value for '--budget-usd'"),
        (("tasks", "show"), "Missing argument"),
    ],
)
def test_usage_errors_exit_2_with_clicks_message(capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                                  message: str) -> None:
    result = run_cli(capsys, *args)
    assert result.code == 2
    assert message in result.err
    assert "internal error" not in result.err + result.out
