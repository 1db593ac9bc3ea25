"""JSON Pointers (RFC 6901), the one place they are written and read (pure Python, no Qt).

Every violation path (``/requestedSchema/properties/a~1b``) is written by :func:`pointer`, and
every local ``$ref`` fragment (``#/$defs/Color``) is read by :func:`ref_tokens`, exactly as
``jsonschema`` reads it when ``validate_content`` follows the same reference.
"""

from __future__ import annotations

from urllib.parse import unquote

__all__ = ["pointer", "ref_tokens"]


def pointer(*parts: str) -> str:
    """The JSON Pointer of the unescaped ``parts``: each as ``/`` plus the part with ``~``
    written ``~0`` and ``/`` written ``~1`` (RFC 6901 §3); ``""`` for no parts.
    ``pointer("properties", "a/b") == "/properties/a~1b"``. Raises nothing for ``str`` parts."""
    return "".join("/" + part.replace("~", "~0").replace("/", "~1") for part in parts)


def ref_tokens(ref: str) -> list[str]:
    """The unescaped tokens of a local reference ``#/...`` (URI fragment, RFC 6901 §6):
    percent-decoded, then ``~1`` read as ``/`` and ``~0`` as ``~``.
    ``ref_tokens("#/$defs/a~1b") == ["$defs", "a/b"]``. The caller checks that ``ref`` starts
    with ``#/``; raises nothing for a ``str``."""
    return [unquote(token).replace("~1", "/").replace("~0", "~") for token in ref[2:].split("/")]
