"""The form dialog's warning that MCP forbids secrets in forms, for the field names and titles the
detector reads (elicit_tray.schema.secrets): the exact warning, naming exactly those fields, and
none for fields that ask for no secret."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QLabel

from tests.ui.harness import Tray

WARNING = (
    "⚠ This form seems to ask for a secret ({fields}). MCP forbids servers to ask for "
    "passwords, tokens or keys in a form. Decline unless you are sure."
)


def ask_form(aio: Any, properties: dict[str, Any]) -> tuple[Tray, Any, Any]:
    tray = Tray(aio)
    params = {"message": "Sign in", "requestedSchema": {"type": "object", "properties": properties}}
    channel, dialog = tray.ask(params, [])
    return tray, channel, dialog


@pytest.mark.parametrize(
    ("name", "prop"),
    [
        ("seed_phrase", {"type": "string", "title": "Seed phrase"}),
        ("Passwort", {"type": "string"}),
        ("totp", {"type": "string", "title": "TOTP"}),
        ("verification_code", {"type": "integer", "title": "Verification code"}),
        ("pw", {"type": "string", "title": "PW"}),
        ("access_key", {"type": "string", "title": "Access key"}),
        ("f", {"type": "string", "title": "Пароль"}),
        ("recovery_codes", {"type": "string", "title": "Recovery codes"}),
        ("iban", {"type": "string", "title": "IBAN"}),
        ("sessionCookie", {"type": "string", "title": "Session cookie"}),
        ("authCode", {"type": "string", "title": "Auth code"}),
        ("mot_de_passe", {"type": "string", "title": "Mot de passe"}),
        ("code", {"type": "string", "title": "验证码"}),
        ("kw", {"type": "string", "title": "كلمة المرور"}),
        ("cvv", {"type": "integer", "title": "CVV"}),
    ],
)
def test_the_warning_names_a_field_that_asks_for_a_secret(aio: Any, name: str, prop: dict[str, Any]) -> None:
    tray, channel, dialog = ask_form(aio, {"user": {"type": "string", "title": "User name"}, name: prop})
    title = prop.get("title", name)
    assert dialog.secret_fields == [name]
    assert dialog.findChild(QLabel, "warning").text() == WARNING.format(fields=title)
    tray.disconnect(channel)


def test_several_secret_fields_are_named_in_form_order_and_others_are_not(aio: Any) -> None:
    tray, channel, dialog = ask_form(
        aio,
        {
            "token_count": {"type": "integer", "title": "Token count"},
            "pin": {"type": "integer", "title": "PIN"},
            "keyboard_layout": {"type": "string", "title": "Keyboard layout"},
            "seed": {"type": "integer", "title": "Random seed"},
            "apiKey": {"type": "string", "title": "API key"},
            "remember": {"type": "boolean", "title": "Remember my password"},
        },
    )
    assert dialog.secret_fields == ["pin", "apiKey"]
    assert dialog.findChild(QLabel, "warning").text() == WARNING.format(fields="PIN, API key")
    tray.disconnect(channel)


@pytest.mark.parametrize(
    "props",
    [
        {"username": {"type": "string", "title": "Username"}, "email": {"type": "string", "format": "email"}},
        {"max_tokens": {"type": "integer", "title": "Max tokens"}, "author": {"type": "string", "title": "Author"}},
        {"passport_country": {"type": "string", "title": "Passport country"}},
        {"pinned": {"type": "boolean", "title": "Pinned"}, "description": {"type": "string", "title": "Description"}},
    ],
)
def test_no_warning_for_fields_that_ask_for_no_secret(aio: Any, props: dict[str, Any]) -> None:
    tray, channel, dialog = ask_form(aio, props)
    assert (dialog.secret_fields, dialog.findChild(QLabel, "warning")) == ([], None)
    tray.disconnect(channel)
