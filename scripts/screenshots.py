"""Render each dialog kind to docs/screenshots/*.png (offscreen), for the README and for review.

Usage: QT_QPA_PLATFORM=offscreen python scripts/screenshots.py [OUT_DIR]
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication  # noqa: E402

from elicit_tray.elicitation import parse_elicit_params  # noqa: E402
from elicit_tray.request import Peer  # noqa: E402
from elicit_tray.ui.presenter import Presenter, save_screenshot  # noqa: E402

REQUESTER = {
    "serverName": "calendar-server",
    "serverTitle": "Team Calendar",
    "serverVersion": "1.4.0",
    "clientName": "agent-runner",
}
PEER = Peer(pid=48213, uid=1000, process_name="agent-runner")
EXAMPLES = {
    "form-deploy": {
        "message": "Confirm the deployment of web to production.",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "environment": {
                    "type": "string",
                    "title": "Environment",
                    "oneOf": [{"const": "stg", "title": "Staging"}, {"const": "prd", "title": "Production"}],
                    "default": "stg",
                },
                "notify": {"type": "boolean", "title": "Notify the on-call channel", "default": True},
                "window": {
                    "type": "string",
                    "format": "date-time",
                    "title": "Deploy at",
                    "description": "Leave empty to deploy now.",
                },
                "replicas": {"type": "integer", "title": "Replicas", "minimum": 1, "maximum": 10, "default": 3},
                "reviewers": {
                    "type": "array",
                    "title": "Reviewers",
                    "minItems": 1,
                    "maxItems": 2,
                    "items": {"type": "string", "enum": ["Ada", "Grace", "Linus"]},
                    "default": ["Ada"],
                },
                "contact": {"type": "string", "format": "email", "title": "Contact e-mail"},
            },
            "required": ["environment"],
        },
    },
    "form-error": {
        "message": "How many copies should be printed?",
        "requestedSchema": {
            "type": "object",
            "properties": {"copies": {"type": "integer", "title": "Copies", "minimum": 1, "maximum": 10}},
            "required": ["copies"],
        },
    },
    "url-ok": {
        "mode": "url",
        "elicitationId": "e1",
        "message": "Authorize access to your calendar.",
        "url": "https://auth.example.com/connect?flow=3f1c2a9e",
    },
    "url-warn": {
        "mode": "url",
        "elicitationId": "e2",
        "message": "Sign in to continue.",
        "url": "https://xn--80ak6aa92e.com/login",
    },
    "url-refuse": {
        "mode": "url",
        "elicitationId": "e3",
        "message": "Click to continue",
        "url": "javascript:alert(document.cookie)",
    },
}


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
    app = QApplication.instance() or QApplication([])
    presenter = Presenter(opener=lambda href: True, arm_delay_ms=0)
    for name, params in EXAMPLES.items():
        params = dict(params, _meta={"elicit-tray/requester": REQUESTER})
        dialog = presenter.build(parse_elicit_params(params, PEER))
        dialog.show()
        app.processEvents()
        if name == "form-error":
            from elicit_tray.ui.scripted import perform

            perform(dialog, [{"do": "type", "field": "copies", "text": "12"}])
            dialog.attempt_submit()
            app.processEvents()
        print(save_screenshot(dialog, out, name))
        dialog.close()


if __name__ == "__main__":
    main()
