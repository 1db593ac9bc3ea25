"""Global options are accepted before and after the subcommand (``elicit-tray --socket S serve`` and
``elicit-tray serve --socket S`` mean the same)."""

from __future__ import annotations

import pytest

from elicit_tray.cli import _parser


@pytest.mark.parametrize(
    "argv",
    [
        ["--socket", "/s", "serve"],
        ["serve", "--socket", "/s"],
        ["--socket", "/s", "ask"],
        ["ask", "--socket", "/s"],
        ["ask", "--socket=/s", "-"],
    ],
)
def test_socket_is_accepted_before_and_after_the_subcommand(argv):
    assert _parser().parse_args(argv).socket == "/s"


@pytest.mark.parametrize("argv", [["-v", "serve"], ["serve", "-v"], ["ask", "--verbose"]])
def test_verbose_is_accepted_before_and_after_the_subcommand(argv):
    assert _parser().parse_args(argv).verbose is True


def test_without_the_options_the_defaults_hold_and_the_one_after_the_subcommand_wins():
    assert (_parser().parse_args(["serve"]).socket, _parser().parse_args(["serve"]).verbose) == (None, False)
    assert _parser().parse_args([]).socket is None
    assert _parser().parse_args(["--socket", "/a", "serve", "--socket", "/b"]).socket == "/b"
