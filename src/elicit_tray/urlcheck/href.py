"""The href handed to the browser, written the way Qt writes it (pure, no Qt).

The system browser is reached through QUrl (presenter.system_browser), which parses the href
again in StrictMode and serialises it (QUrl::FullyEncoded) before handing it on.  The href is
therefore written the way Qt writes it, so that what is opened is exactly what was analysed and
shown: RFC 3986 characters only (WHATWG leaves "{", "|", "^", "[", "`", a stray "%", and a second
"#" raw in some components), percent-encoded unreserved characters decoded (RFC 3986 6.2.2.2)
and hex digits in upper case (6.2.2.1), IPv6 written as qipaddress.cpp does.  All of these are
equivalent forms for a WHATWG parser: it parses the result to the same URL, host included.
"""

from __future__ import annotations

import ipaddress

__all__ = ["qt_stable_href"]

_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_SUB_DELIMS = frozenset("!$&'()*+,;=")
_HEX = frozenset("0123456789abcdefABCDEF")
_RAW_ALLOWED = {
    "user": _UNRESERVED | _SUB_DELIMS,
    "password": _UNRESERVED | _SUB_DELIMS | {":"},
    "path": _UNRESERVED | _SUB_DELIMS | set(":@/"),
    "query": _UNRESERVED | _SUB_DELIMS | set(":@/?"),
    "fragment": _UNRESERVED | _SUB_DELIMS | set(":@/?"),
}


def _rfc3986_component(text: str, part: str) -> str:
    """``text`` (ASCII, as ada serialises it) with every character outside RFC 3986's set for
    ``part`` percent-encoded, stray ``%`` as ``%25``, escapes of unreserved characters decoded
    and the hex digits of the other escapes in upper case."""
    allowed = _RAW_ALLOWED[part]
    out = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "%" and i + 2 < len(text) and text[i + 1] in _HEX and text[i + 2] in _HEX:
            decoded = chr(int(text[i + 1 : i + 3], 16))
            out.append(decoded if decoded in _UNRESERVED else "%" + text[i + 1 : i + 3].upper())
            i += 3
            continue
        if ch in allowed:
            out.append(ch)
        else:
            out.extend(f"%{b:02X}" for b in ch.encode("utf-8"))
        i += 1
    return "".join(out)


def _qt_ipv6(addr: ipaddress.IPv6Address) -> str:
    """IPv6 text as Qt writes it (qipaddress.cpp ``toString``): RFC 5952 compression, except
    that ``::ffff:a.b.c.d`` and ``::a.b.c.d`` (unless a.b.c are all 0) end in dotted IPv4."""
    packed = addr.packed
    if packed[:10] == bytes(10) and (
        packed[10:12] == b"\xff\xff" or (packed[10:12] == b"\0\0" and packed[12:15] != bytes(3))
    ):
        prefix = "::ffff:" if packed[10] else "::"
        return prefix + str(ipaddress.IPv4Address(packed[12:]))
    return addr.compressed


def qt_stable_href(href: str, addr: ipaddress.IPv4Address | ipaddress.IPv6Address | None) -> str:
    """The ada ``href`` of an http(s) URL rewritten as QUrl (StrictMode) parses and writes it
    back unchanged (see the module docstring), with ``addr`` the host when it is an IP literal."""
    scheme, rest = href.split("://", 1)
    slash = rest.find("/")  # ada always gives a special URL a path; "/", "?", "#" are escaped before it
    authority, tail = (rest, "") if slash < 0 else (rest[:slash], rest[slash:])
    userinfo, at, hostport = authority.rpartition("@")
    if at:
        user, colon, password = userinfo.partition(":")
        userinfo = (
            _rfc3986_component(user, "user") + (":" + _rfc3986_component(password, "password") if colon else "") + "@"
        )
    if addr is not None and addr.version == 6:
        host_end = hostport.index("]") + 1
        hostport = "[" + _qt_ipv6(addr) + "]" + hostport[host_end:]
    tail, hash_sign, fragment = tail.partition("#")
    path, question, query = tail.partition("?")
    return "".join(
        (
            scheme,
            "://",
            userinfo,
            hostport,
            _rfc3986_component(path, "path"),
            question,
            _rfc3986_component(query, "query"),
            hash_sign,
            _rfc3986_component(fragment, "fragment"),
        )
    )
