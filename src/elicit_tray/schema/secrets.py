"""Does a form field ask for a secret? :func:`looks_secret`, the rule behind the form dialog's
warning that MCP forbids secrets in forms and behind the history never keeping such a value.

MCP 2025-11-25 "Form mode": servers MUST NOT request sensitive information (passwords, API keys,
tokens, payment credentials) through form mode. A field is judged by what it asks for
(``docs/design.md`` "UI rules"): its name and its title, each read as words, for a field that takes
typed text or a number. Never by its description ("do not give us your pin" asks for no pin), nor
for a choice, a date or a yes/no ("Remember my password" asks yes or no).

How a text is read (:func:`words`): camelCase, snake_case, kebab-case and digits-after-letters are
split (``sessionCookie`` -> ``session cookie``, ``APIKey`` -> ``api key``); accents and other
combining marks are dropped and the case folded (``Contraseña`` -> ``contrasena``); scripts written
without spaces (Chinese, Japanese, Korean, Thai) are searched as substrings instead.

What counts (the tables below, one language per line where it matters):

- :data:`WORDS`: a word that alone names a secret (``password``, ``pw``, ``otp``, ``iban``,
  ``passwort``, ``senha``...), also as a plural or with a number after it (``passwords``, ``pin2``);
- :data:`INSIDE`: a stem that names a secret wherever it stands in a word (``newpassword``,
  ``einmalpasswort``, ``пароля``); :data:`SUFFIXES`: a word ending so (``accesstoken``);
- :data:`HEADS`: a noun that names a secret only after one of its qualifiers (``code`` after
  ``verification``, ``auth``, ``recovery``...; ``key`` after ``api``, ``private``...), as two words
  or one (``authcode``, German ``bestätigungscode``, ``kreditkartennummer``);
- :data:`PHRASES`: word sequences in other orders (``mot de passe``, ``código de verificación``,
  ``كلمة المرور``); :data:`SUBSTRINGS`: the unspaced scripts' terms (``密码``, ``パスワード``).

A term followed by a word of :data:`ABOUT` (``token_count``, ``password_length``,
``api_key_name``) or preceded by one of :data:`COUNTING` (``max_tokens``, ``number of tokens``) is
about the secret, not the secret itself, and does not count. A number field counts only terms
that can be numbers (a PIN, a code, a card number; never a token, a key or a phrase): an integer
``tokens`` is a count. A field of ``format`` ``email`` or ``idn-email`` asks for an address, never
a secret (``password_reset_email``).

Borderline decisions (each also a row of the tests' must-warn / must-not-warn tables):

- ``iban``, ``account_number``, ``ssn`` warn: payment credentials and the US identity number that
  is used as one; ``passport_number`` and ``passport_country`` do not (personal data, not a
  credential; the warning speaks of passwords, tokens and keys);
- ``key`` alone, ``public_key``, ``primary_key``, ``sort_key`` do not (a key of a table or of
  music); ``api_key``, ``access_key``, ``private_key``, ``license_key`` do;
- ``code`` alone and ``zip_code``, ``promo_code``, ``country_code``, ``invite_code`` do not;
  ``verification_code``, ``security_code`` (a card's), ``access_code``, ``recovery_codes`` do;
- ``session`` alone does not; ``session_id``, ``session_token``, ``cookie`` do (a bearer of the
  session); ``seed`` alone does not (a random seed), ``seed_phrase`` does;
- ``pin`` warns, ``pinned``/``spin`` do not (whole words only); ``tan`` warns (the German banking
  transaction number: a form asking for a colour would offer a choice, which is never judged);
- ``author``/``authority`` do not (``auth`` counts only before ``code``/``key``/``token``),
  ``keyboard_layout``, ``tokenizer``, ``footprint``, ``boarding pass`` do not.
A false warning costs a moment's attention (the user can still answer); a missed one lets a
secret through a form and into the history, so ambiguous credential words warn.

Pure Python (no Qt).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator

from .model import FieldKind, FieldSpec

__all__ = [
    "ABOUT",
    "COUNTING",
    "HEADS",
    "INSIDE",
    "PHRASES",
    "SUBSTRINGS",
    "SUFFIXES",
    "WORDS",
    "looks_secret",
    "normalise",
    "secret_term",
    "words",
]


def normalise(text: str) -> str:
    """``text`` compatibility-decomposed (NFKD) without combining marks, case-folded:
    ``"Contraseña"`` -> ``"contrasena"``, ``"Schlüssel"`` -> ``"schlussel"``. Both the tables and
    the judged texts go through it, so they always compare alike."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.category(c).startswith("M")).casefold()


#: Scripts written without spaces between words (CJK, kana, Hangul, Thai): searched as substrings.
_UNSPACED = re.compile(r"[\u0e00-\u0e7f\u1100-\u11ff\u2e80-\u9fff\u3130-\u318f\uac00-\ud7af\uf900-\ufaff]+")


_ASCII_CASE = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z0-9])(?=[A-Z][a-z])")


def _split_case(text: str) -> str:
    """Spaces where camelCase and digits-after-letters change: ``sessionCookie`` -> ``session
    Cookie``, ``APIKey`` -> ``API Key``, ``Base64Key`` -> ``Base64 Key`` (any script's case)."""
    if text.isascii():
        return _ASCII_CASE.sub(" ", text)
    if text[1:].lower() == text[1:]:  # no upper case after the first letter: no boundary
        return text
    out: list[str] = []
    for i, c in enumerate(text):
        prev = text[i - 1] if i else ""
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if prev and (
            (prev.islower() and c.isupper()) or ((prev.isupper() or prev.isdigit()) and c.isupper() and nxt.islower())
        ):
            out.append(" ")
        out.append(c)
    return "".join(out)


def words(text: str) -> list[str]:
    """The words of ``text`` as the detector reads them: split at camelCase, at ``_``, ``-``,
    spaces and other punctuation, and between an unspaced script and the rest, each
    :func:`normalise`-d. ``words("sessionCookie")`` -> ``["session", "cookie"]``;
    ``words("输入OTP")`` -> ``["输入", "otp"]``."""
    return _tokens(normalise(_split_case(text)))


def _tokens(flat: str) -> list[str]:
    """The words of an already split and normalised text (:func:`words`)."""
    return re.findall(r"[^\W_]+", _UNSPACED.sub(lambda m: f" {m.group(0)} ", flat))


def _variants(word: str) -> tuple[str, ...]:
    """``word``, without its trailing digits (``pin2`` -> ``pin``), and each without a plural
    ``s`` (``codes`` -> ``code``; words of more than three letters)."""
    bases = [word]
    bare = word.rstrip("0123456789")
    if bare and bare != word and not bare.isdigit():
        bases.append(bare)
    out: list[str] = []
    for base in bases:
        out.append(base)
        if len(base) > 3 and base.endswith("s"):
            out.append(base[:-1])
    return tuple(out)


def _words(text: str) -> frozenset[str]:
    """The space-separated words of ``text``, :func:`normalise`-d (one table line)."""
    return frozenset(normalise(w) for w in text.split())


def _terms(text: str, numeric: bool) -> dict[tuple[str, ...], bool]:
    """The ``|``-separated terms of ``text`` as word sequences (:func:`words`) -> ``numeric``."""
    return {tuple(words(term)): numeric for term in text.split("|")}


#: Words that alone name a secret, mapped to whether the secret can be a number (an integer
#: field named ``pin`` asks for one; one named ``tokens`` counts tokens).
WORDS: dict[str, bool] = {
    **dict.fromkeys(
        _words("password passwd pwd pw passcode secret pin pincode otp totp hotp 2fa mfa cvv cvv2 cvc cvc2 ssn")
        | _words("passwort kennwort geheimzahl geheimnummer tan mtan smstan pushtan chiptan")  # de
        | _words("mdp motdepasse contraseña senha wachtwoord")  # fr, es, pt, nl
        | _words("lösenord adgangskode kodeord passord salasana")  # sv, da, no, fi
        | _words("hasło haslo heslo jelszó şifre lozinka geslo parool slaptažodis")  # pl, cs, hu, tr, hr, sl, et, lt
        | _words("пароль пин סיסמה סיסמא पासवर्ड گذرواژه"),  # ru/uk, he, hi, fa
        True,
    ),
    **dict.fromkeys(
        _words("passphrase passkey token apikey cookie jwt bearer credential mnemonic iban")
        | _words("zugangsdaten anmeldedaten"),  # de
        False,
    ),
}

#: Stems that name a secret wherever they stand in a word (none is part of an ordinary word):
#: ``newpassword``, ``passwordconfirm``, ``einmalpasswort``, ``пароля``. All can be numbers.
INSIDE: frozenset[str] = _words(
    "password passwd passphrase passcode passwort kennwort contrasena wachtwoord losenord salasana парол"
)

#: Endings that make a word a secret: ``accesstoken``, ``clientsecret``, ``sessioncookie``
#: (never numbers; the word must be longer than the ending).
SUFFIXES: frozenset[str] = _words("token secret cookie")

#: Nouns that name a secret after one of their qualifiers (two words, or one word with or without
#: a German linking ``s``): head -> (qualifiers, whether it can be a number). Qualifiers are
#: ``|``-separated and may be several words.
HEADS: dict[str, tuple[frozenset[str], bool]] = {
    normalise(head): (frozenset(" ".join(words(q)) for q in qualifiers.split("|")), numeric)
    for head, qualifiers, numeric in (
        (
            "code",
            "verification|confirmation|security|access|auth|oauth|authentication|authorization|"
            "authorisation|recovery|backup|login|signin|otp|sms|2fa|mfa|one time|two factor|activation|"
            "pass|unlock|reset|pin|secret|"
            "bestätigung|sicherheit|zugang|verifizierung|einmal|wiederherstellung|anmelde|freischalt|"
            "authentifizierung|entsperr",  # de
            True,
        ),
        ("kod", "doğrulama|güvenlik", True),  # tr "doğrulama kodu"
        ("kodu", "doğrulama|güvenlik", True),
        ("number", "card|credit card|debit card|account|bank account|routing|social security|pin|tan|cc", True),
        ("no", "card|account", True),
        ("num", "card|account", True),
        ("nummer", "karten|kreditkarten|konto|sozialversicherung|pin|tan|transaktion|geheim", True),  # de
        ("card", "credit|debit", True),
        ("karte", "kredit|debit", True),  # de
        (
            "key",
            "api|access|secret|private|signing|encryption|decryption|license|licence|product|recovery|"
            "master|auth|session|wallet|secret access",
            False,
        ),
        ("schlüssel", "api|zugang|privat|privater|geheim|geheimer|lizenz|produkt|wiederherstellung", False),
        ("phrase", "seed|recovery|backup|secret|mnemonic|wallet|pass", False),
        ("word", "seed|recovery|backup|mnemonic|secret", False),
        ("seed", "recovery|wallet|backup", False),
        ("id", "session", False),
        ("answer", "security|secret", False),
    )
}

#: Word sequences naming a secret in an order the heads do not cover: sequence -> can be a number.
PHRASES: dict[tuple[str, ...], bool] = {
    **_terms("mot de passe|code de vérification|code de sécurité|code d'accès|code de confirmation", True),
    **_terms("code pin|numéro de carte", True),
    **_terms("clé api|clé privée|clé secrète|phrase de récupération", False),  # fr
    **_terms("código de verificación|código de seguridad|código de acceso|código de confirmación", True),
    **_terms("número de tarjeta|clave de acceso", True),
    **_terms("clave privada|clave secreta|clave api|frase de recuperación|frase semilla", False),  # es
    **_terms("código de verificação|código de segurança|código de acesso|número do cartão", True),
    **_terms("chave privada|chave secreta|chave de api|chave api|frase de recuperação", False),  # pt
    **_terms("codice di verifica|codice di sicurezza|numero della carta", True),
    **_terms("chiave privata", False),  # it
    **_terms("код подтверждения|код доступа|код безопасности|код проверки|одноразовый код|номер карты", True),
    **_terms("секретный ключ|закрытый ключ|приватный ключ|api ключ|ключ api|сид фраза", False),
    **_terms("мнемоническая фраза|фраза восстановления", False),  # ru
    **_terms("كلمة المرور|كلمة مرور|كلمة السر|رمز المرور|الرقم السري|الرمز السري|رمز التحقق", True),
    **_terms("رمز الأمان|رمز التأكيد|رمز التفعيل|رقم البطاقة", True),
    **_terms("المفتاح السري|المفتاح الخاص|مفتاح api|عبارة الاسترداد", False),  # ar
    **_terms("رمز عبور", True),  # fa
    **_terms("κωδικός πρόσβασης", True),  # el
    **_terms("mật khẩu", True),  # vi
    **_terms("kata sandi|kata laluan", True),  # id, ms
}

#: Terms of the unspaced scripts, found anywhere in the text: term -> can be a number.
SUBSTRINGS: dict[str, bool] = {
    **dict.fromkeys(_words("密码 密碼 口令 验证码 驗證碼 校验码 安全码 支付密码"), True),  # zh
    **dict.fromkeys(_words("密钥 密鑰 私钥 私鑰 助记词 助記詞"), False),
    **dict.fromkeys(_words("パスワード 暗証番号 認証コード 確認コード パスコード ワンタイム"), True),  # ja
    **dict.fromkeys(_words("秘密鍵"), False),
    **dict.fromkeys(_words("비밀번호 인증번호 인증코드 보안코드"), True),  # ko
    **dict.fromkeys(_words("รหัสผ่าน"), True),  # th
}

#: Words after a term that make the field ask about the secret, not for it: ``token_count``,
#: ``password_length``, ``api_key_name``, ``pin_location`` (a map pin), ``cookie_consent``.
ABOUT: frozenset[str] = (
    _words("count length len size limit type kind format policy strength hint name label title description")
    | _words("expiry expires expiration expire ttl lifetime age rotation scope budget usage rate enabled")
    | _words("required consent changed created updated date days hours minutes seconds timeout attempts")
    | _words("retries tries version algorithm path file filename dir directory location url uri endpoint")
    | _words("manager question method provider device app mode status setting option email mail address field")
    | _words("länge anzahl hinweis richtlinie")  # de
)

#: Words before a term (or two before, across ``of``) that make it a count: ``max_tokens``,
#: ``number of tokens``, ``Anzahl der Tokens``.
COUNTING: frozenset[str] = _words(
    "max min maximum minimum num number total remaining used count amount anzahl maximale"
)
_LINKS = _words("of der des de di")


def _phrases() -> dict[str, list[tuple[tuple[str, ...], bool]]]:
    """Every multi-word sequence (the heads' and :data:`PHRASES`), by its first word."""
    table: dict[str, list[tuple[tuple[str, ...], bool]]] = {}
    sequences = dict(PHRASES)
    for head, (qualifiers, numeric) in HEADS.items():
        for qualifier in qualifiers:
            sequences[(*qualifier.split(), head)] = numeric
    for sequence, numeric in sequences.items():
        table.setdefault(sequence[0], []).append((sequence, numeric))
    return table


def _compounds() -> dict[str, bool]:
    """Every one-word compound of a head: ``authcode``, ``bestatigungscode``, ``onetimecode``."""
    table: dict[str, bool] = {}
    for head, (qualifiers, numeric) in HEADS.items():
        for qualifier in qualifiers:
            joined = qualifier.replace(" ", "")
            table[joined + head] = table[joined + "s" + head] = numeric
    return table


_SEQUENCES = _phrases()
_COMPOUNDS = _compounds()


def _single(word: str) -> bool | None:
    """Whether ``word`` alone names a secret that can be a number (``True``), one that cannot
    (``False``), or none (``None``)."""
    for variant in _variants(word):
        if variant in WORDS:
            return WORDS[variant]
        if variant in _COMPOUNDS:
            return _COMPOUNDS[variant]
        if any(stem in variant for stem in INSIDE):
            return True
        if any(variant.endswith(end) and len(variant) > len(end) for end in SUFFIXES):
            return False
    return None


def _is(got: str, want: str) -> bool:
    return any(v == want for v in _variants(got))


def _about(tokens: list[str], start: int, end: int) -> bool:
    """Whether the term ``tokens[start:end]`` is counted or described rather than asked for."""
    if end < len(tokens) and any(v in ABOUT for v in _variants(tokens[end])):
        return True
    before = tokens[start - 1] if start else ""
    if before in COUNTING:
        return True
    return before in _LINKS and start >= 2 and tokens[start - 2] in COUNTING


def _matches(tokens: list[str], i: int) -> Iterator[tuple[int, bool]]:
    """``(end, numeric)`` of each term that starts at ``tokens[i]``."""
    single = _single(tokens[i])
    if single is not None:
        yield i + 1, single
    for first in dict.fromkeys(_variants(tokens[i])):
        for sequence, numeric in _SEQUENCES.get(first, ()):
            end = i + len(sequence)
            if end <= len(tokens) and all(_is(g, w) for g, w in zip(tokens[i + 1 : end], sequence[1:], strict=True)):
                yield end, numeric


#: What ends a clause: a word after it does not describe a term before it ("Password (max 20)").
_CLAUSE = re.compile(r"[()\[\]{}<>:;,/|!?\"«»“”…=+*#]+")


#: Texts up to this long are remembered with their verdict (the dialog, the checker and the
#: recorder judge each field), at most :data:`_REMEMBERED` of them: a bounded memory whatever
#: servers send.
_SHORT_TEXT = 256
_REMEMBERED = 1024


def secret_term(text: str, *, number: bool = False) -> str | None:
    """The term of ``text`` (a field's name or title) that names a secret, as :func:`words`
    writes it, or ``None``. With ``number`` only terms that can be numbers count.
    ``secret_term("verificationCode")`` -> ``"verification code"``;
    ``secret_term("token_count")`` -> ``None``; ``secret_term("tokens", number=True)`` -> ``None``."""
    return _remembered(text, number) if len(text) <= _SHORT_TEXT else _secret_term(text, number)


@functools.lru_cache(maxsize=_REMEMBERED)
def _remembered(text: str, number: bool) -> str | None:
    return _secret_term(text, number)


def _secret_term(text: str, number: bool) -> str | None:
    flat = normalise(_split_case(text))
    for term, numeric in SUBSTRINGS.items():
        if term in flat and (numeric or not number):
            return term
    for clause in _CLAUSE.split(flat):
        tokens = _tokens(clause)
        for i in range(len(tokens)):
            for end, numeric in _matches(tokens, i):
                if (numeric or not number) and not _about(tokens, i, end):
                    return " ".join(tokens[i:end])
    return None


_EMAIL_FORMATS = frozenset({"email", "idn-email"})


def looks_secret(spec: FieldSpec) -> bool:
    """Whether ``spec`` seems to ask for a secret (password, PIN, one-time code, token, API or
    private key, recovery phrase, session cookie, card number or CVV, IBAN, SSN) in any of the
    languages of the tables: :func:`secret_term` of its name or its title, for a ``TEXT`` field
    (not of an email format) or, with terms that can be numbers, a ``NUMBER``/``INTEGER`` field.
    Never for a choice, a date or a yes/no, and never by its description (module docstring)."""
    if spec.kind is FieldKind.TEXT:
        if spec.format in _EMAIL_FORMATS:
            return False
        number = False
    elif spec.kind in (FieldKind.NUMBER, FieldKind.INTEGER):
        number = True
    else:
        return False
    return any(secret_term(text, number=number) is not None for text in (spec.name, spec.title) if text)
