"""``elicit-tray check --png``: the tray's own dialog rendered offscreen.

Renders through the CLI in a fresh process (the way authors run it) and checks the images'
pixels: size follows ``--scale`` and ``--width``, ``--theme dark`` is dark, ``--after-submit``
shows the inline error of an untouched required field, and a refused request gives no image.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

from tests.conftest import REPO

REQUIRED = {
    "message": "How do you want to continue?",
    "requestedSchema": {
        "type": "object",
        "properties": {
            "choice": {
                "type": "string",
                "title": "Next step",
                "oneOf": [
                    {"const": "signin", "title": "Sign in first"},
                    {"const": "anon", "title": "Continue without an account"},
                ],
            }
        },
        "required": ["choice"],
    },
}


def _check(tmp_path: Path, params: dict, *args: str) -> tuple[int, str, str]:
    source = tmp_path / "params.json"
    source.write_text(json.dumps(params), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    env.pop("QT_QPA_PLATFORM", None)  # check must choose offscreen by itself
    proc = subprocess.run(
        [sys.executable, "-m", "elicit_tray", "check", str(source), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    return proc.returncode, proc.stdout, proc.stderr


def _mean_lightness(image: QImage) -> float:
    step = max(1, image.width() // 40)
    values = [
        image.pixelColor(x, y).lightnessF()
        for x in range(0, image.width(), step)
        for y in range(0, image.height(), step)
    ]
    return sum(values) / len(values)


def test_png_scale_width_theme_and_after_submit(tmp_path: Path) -> None:
    one, two, dark, wide = (tmp_path / n for n in ("one.png", "two.png", "dark.png", "wide.png"))
    assert _check(tmp_path, REQUIRED, "--png", str(one))[:2] == (
        0,
        f"ok: the tray would show this dialog (0 error(s), 0 warning(s))\nwrote {one}\n",
    )
    assert _check(tmp_path, REQUIRED, "--png", str(two), "--scale", "2", "--after-submit", "--json")[:2] == (
        0,
        '{"errors": [], "warnings": []}\n',
    )
    assert _check(tmp_path, REQUIRED, "--png", str(dark), "--theme", "dark")[0] == 0
    assert _check(tmp_path, REQUIRED, "--png", str(wide), "--width", "800")[0] == 0
    a, b, d, w = (QImage(str(p)) for p in (one, two, dark, wide))
    assert b.width() == 2 * a.width() and b.height() > 2 * a.height()  # the error line adds height
    assert w.width() == 800
    assert _mean_lightness(a) > 0.7 and _mean_lightness(d) < 0.3


def test_after_submit_shows_the_inline_error_in_the_chosen_language(tmp_path: Path) -> None:
    from PySide6.QtCore import QLocale
    from PySide6.QtWidgets import QLabel

    from elicit_tray.checker.render import render_png
    from elicit_tray.ui.i18n import install_translations

    path = render_png(REQUIRED, tmp_path / "de.png", lang="de", after_submit=True)
    assert QImage(str(path)).width() > 0
    # the same build, kept alive to read its labels: the error is the tray's own sentence
    from PySide6.QtCore import QCoreApplication, QEvent

    from elicit_tray.elicitation import parse_elicit_params
    from elicit_tray.ui.presenter import Presenter

    install_translations(QLocale("de"))
    presenter = Presenter(arm_delay_ms=0)
    dialog = presenter.build(parse_elicit_params(REQUIRED))
    try:
        dialog.show()
        dialog.finish = lambda _outcome: None
        dialog.attempt_submit()
        assert dialog.errors() == {"choice": "Dieses Feld ist ein Pflichtfeld."}
        assert any(label.text() == "⚠ Dieses Feld ist ein Pflichtfeld." for label in dialog.findChildren(QLabel))
    finally:
        dialog.hide()
        dialog.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        install_translations(QLocale("en_US"))


def test_a_refused_request_has_no_png(tmp_path: Path) -> None:
    out = tmp_path / "no.png"
    code, stdout, stderr = _check(
        tmp_path,
        {"message": "m", "requestedSchema": {"type": "object", "properties": {"a": {"type": "object"}}}},
        "--png",
        str(out),
    )
    assert (code, out.exists()) == (1, False)
    assert stderr == "elicit-tray check: no PNG: the tray refuses this request, so it shows no dialog\n"
