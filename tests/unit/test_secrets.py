"""The secret detector (elicit_tray.schema.secrets.looks_secret): the names and titles that must
warn and those that must not, in several languages and spellings, by field kind; the words it
reads. The borderline rows are decided in the module's docstring."""

from __future__ import annotations

import pytest

from elicit_tray.schema import parse_requested_schema
from elicit_tray.schema.model import FieldKind, FieldSpec
from elicit_tray.schema.secrets import looks_secret, secret_term, words

K = FieldKind


def text_field(name: str, title: str | None = None, **kw: object) -> FieldSpec:
    return FieldSpec(name=name, kind=kw.pop("kind", K.TEXT), title=title or name, **kw)  # type: ignore[arg-type]


#: Names (the title is the name) that ask for a secret: each must warn.
MUST_WARN = [
    # the faults' own names
    "seed_phrase", "Passwort", "totp", "verification_code", "pw", "access_key", "Пароль",
    "recovery_codes", "iban", "sessionCookie", "authCode",
    # passwords, spelled every way
    "password", "PASSWORD", "new_password", "newPassword", "newpassword", "password2", "password-confirm",
    "passwordConfirmation", "confirm_password", "passwd", "pwd", "passphrase", "passcode", "app_password",
    "Password (max 20 characters)", "Password:", "wifi-password",
    # other languages
    "Kennwort", "Einmalpasswort", "Passwort wiederholen", "Mot de passe", "mot_de_passe", "mdp", "Contraseña",
    "contrasena", "Senha", "wachtwoord", "Lösenord", "salasana", "hasło", "Şifre", "пароля", "Пароль пользователя",
    "密码", "请输入密码", "密碼", "パスワード", "ﾊﾟｽﾜｰﾄﾞ", "비밀번호", "كلمة المرور", "كلمة السر", "κωδικός πρόσβασης",
    "mật khẩu", "kata sandi", "סיסמה", "पासवर्ड",
    # PINs, one-time and verification codes
    "pin", "PIN", "user_pin", "pinCode", "PIN-Code", "pin1", "Geheimzahl", "otp", "OTP code", "otpCode", "2fa_code",
    "2FA", "mfaCode", "one_time_code", "oneTimePassword", "One-time password", "TAN", "smsTan", "confirmation_code",
    "security_code", "access_code", "reset_code", "login_code", "authorization_code", "Bestätigungscode",
    "Sicherheitscode", "Code de vérification", "Código de verificación", "код подтверждения", "رمز التحقق",
    "验证码", "認証コード", "인증번호", "输入OTP",
    # recovery phrases and keys
    "seedPhrase", "seed words", "recovery phrase", "Recovery codes", "backupCodes", "Wiederherstellungscodes",
    "mnemonic", "wallet_seed", "private_key", "privateKey", "secret_key", "apiKey", "API key", "APIKey",
    "api-key", "X-API-Key", "license_key", "API-Schlüssel", "Clé API", "clave privada", "секретный ключ",
    "المفتاح الخاص", "私钥", "秘密鍵",
    # tokens, sessions, cookies
    "token", "accessToken", "access_token", "refresh_token", "api_token", "csrf_token", "X-Auth-Token",
    "bearer", "jwt", "client_secret", "secret", "session_id", "sessionId", "sessionToken", "cookie",
    "Session cookie", "credentials",
    # payment and identity
    "card_number", "cardNumber", "credit_card", "Credit card number", "Kreditkartennummer", "Número de tarjeta",
    "номер карты", "cvv", "CVC", "cvv2", "IBAN", "account_number", "routing_number", "ssn", "security_answer",
]  # fmt: skip

#: Names (the title is the name) of fields that do not ask for a secret: none may warn.
MUST_NOT_WARN = [
    "username", "email", "name", "city", "description", "author", "authority", "authentication_method",
    "keyboard_layout", "pinned", "spin", "footprint", "Boarding pass", "passport_country", "passport_number",
    "tokenizer", "compass", "bypass", "passage", "pass_rate", "secretary", "stan", "titan", "monkey", "turkey",
    "hotkey", "keyword", "key", "public_key", "primary_key", "sort_key", "code", "zip_code", "Postal code",
    "promo_code", "country_code", "invite_code", "source_code", "session", "session_name", "seed", "random_seed",
    "account_id", "card_holder", "card_type", "login", "user", "oauth_provider", "private_notes",
    # about a secret, not the secret (a following or counting word)
    "token_count", "tokenCount", "max_tokens", "Number of tokens", "Anzahl der Tokens", "token_type", "token_url",
    "Token budget", "password_length", "Passwort-Länge", "password_hint", "password_policy", "password_manager",
    "api_key_name", "secret_name", "otp_method", "pin_location", "cookie_consent", "security_question",
    "private_key_path",
]  # fmt: skip


@pytest.mark.parametrize("name", MUST_WARN)
def test_a_field_that_asks_for_a_secret_warns(name: str) -> None:
    assert looks_secret(text_field(name)), words(name)
    assert looks_secret(text_field("f", title=name)), "the title alone says it"


@pytest.mark.parametrize("name", MUST_NOT_WARN)
def test_a_field_that_asks_for_no_secret_does_not_warn(name: str) -> None:
    assert not looks_secret(text_field(name)), secret_term(name)


@pytest.mark.parametrize(
    ("name", "kind", "secret"),
    [
        ("pin", K.INTEGER, True),
        ("otp", K.NUMBER, True),
        ("cvv", K.INTEGER, True),
        ("verification_code", K.INTEGER, True),
        ("card_number", K.INTEGER, True),
        ("Geheimzahl", K.INTEGER, True),
        ("passcode", K.INTEGER, True),
        # never numbers: an integer of these names counts or sizes something
        ("tokens", K.INTEGER, False),
        ("token", K.NUMBER, False),
        ("api_key", K.INTEGER, False),
        ("iban", K.INTEGER, False),
        ("seed_phrase", K.INTEGER, False),
        ("seed", K.INTEGER, False),
        ("max_tokens", K.INTEGER, False),
        ("password_length", K.INTEGER, False),
        # never judged: a choice, a date, a yes/no
        ("password", K.BOOLEAN, False),
        ("pin", K.SINGLE_SELECT, False),
        ("recovery_codes", K.MULTI_SELECT, False),
        ("pin", K.DATE, False),
        ("otp", K.DATETIME, False),
    ],
)
def test_the_kind_decides_which_terms_count(name: str, kind: FieldKind, secret: bool) -> None:
    assert looks_secret(text_field(name, kind=kind)) is secret


def test_an_email_field_asks_for_an_address_and_a_uri_field_is_judged_by_its_words() -> None:
    assert not looks_secret(text_field("password_reset_email", format="email"))
    assert not looks_secret(text_field("recovery_token", format="idn-email"))
    assert looks_secret(text_field("magic_token", format="uri"))
    assert looks_secret(text_field("password_reset_email"))  # without the format: "password" warns


def test_the_description_never_counts_nor_words_split_across_name_and_title() -> None:
    assert not looks_secret(text_field("comment", "Comment", description="Paste your password or API key here"))
    assert not looks_secret(text_field("card", "Number"))  # "card" and "number" in different texts
    schema = {"type": "object", "properties": {"f": {"type": "string", "title": "Recovery codes"}}}
    assert looks_secret(parse_requested_schema(schema).fields[0])


@pytest.mark.parametrize(
    ("text", "tokens", "term"),
    [
        ("sessionCookie", ["session", "cookie"], "cookie"),
        ("APIKey", ["api", "key"], "api key"),
        ("X-Auth-Token", ["x", "auth", "token"], "token"),
        ("verification_code", ["verification", "code"], "verification code"),
        ("Base64Key", ["base64", "key"], None),
        ("Contraseña", ["contrasena"], "contrasena"),
        ("Bestätigungscode", ["bestatigungscode"], "bestatigungscode"),
        ("输入OTP", ["输入", "otp"], "otp"),
        ("token_count", ["token", "count"], None),
        ("Password (max 20)", ["password", "max", "20"], "password"),
    ],
)
def test_words_and_the_term_found(text: str, tokens: list[str], term: str | None) -> None:
    assert (words(text), secret_term(text)) == (tokens, term)
