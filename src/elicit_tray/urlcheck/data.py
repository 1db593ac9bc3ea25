"""The data the URL analysis reads: every file of ``elicit_tray/resources/data`` and the public
suffix list are loaded here and nowhere else.

- ``top_domains.txt``: the brand list (ASCII/Punycode registrable domains) behind
  ``subdomain_embeds_domain``, the typos of ``lookalike_top_domain`` and the brand names of
  ``target_embedding``, ``brand_in_subdomain`` and ``brand_in_name``; it also takes part in the
  look-alike (skeleton) match.
- ``chromium_top_domains.txt``: Chromium's top bucket, for the skeleton match only.
- ``whole_script_confusables.txt``: Chromium's whole-script confusable table (tab separated).
- ``chromium_idn_cases.tsv``: Chromium's IDN test vectors (test data; not in the wheel).

The packaging ships the ``.txt`` files (``pyproject.toml`` package-data and
``packaging/pyinstaller/elicit-tray.spec``).  This module must not import Qt.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING

from publicsuffixlist import PublicSuffixList

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

__all__ = [
    "TOP_DOMAINS",
    "data_file",
    "data_lines",
    "icann_psl",
    "load_domains",
    "psl",
    "skeleton_top_domains",
    "whole_script_confusables",
]

_DATA = resources.files("elicit_tray").joinpath("resources", "data")


def data_file(name: str) -> Traversable:
    """The file ``name`` of ``elicit_tray/resources/data`` (it may be absent: check ``is_file()``)."""
    return _DATA.joinpath(name)


def data_lines(name: str) -> list[str]:
    """Non-comment, non-blank lines of a file in ``resources/data`` (trailing space stripped)."""
    text = data_file(name).read_text(encoding="utf-8")
    return [ln.rstrip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


def load_domains(name: str) -> tuple[str, ...]:
    """Domains of a list file: one per line, lowercase, ``#`` starts a comment."""
    domains = (ln.split("#", 1)[0].strip().lower() for ln in data_lines(name))
    return tuple(d for d in domains if d)


#: Brand list (ASCII/Punycode registrable domains) for ``subdomain_embeds_domain``; it also
#: takes part in the skeleton match, together with Chromium's top bucket.
TOP_DOMAINS = frozenset(load_domains("top_domains.txt"))
_TOP_DOMAIN_FILES = ("top_domains.txt", "chromium_top_domains.txt")


def skeleton_top_domains() -> Iterator[str]:
    """Every domain of the skeleton (look-alike) match: the brand list, then Chromium's."""
    return (d for name in _TOP_DOMAIN_FILES for d in load_domains(name))


def whole_script_confusables() -> tuple[frozenset[str], list[tuple[str, str, frozenset[str]]]]:
    """``whole_script_confusables.txt`` as ``(allowed words, rows)``.

    Each row is ``(script letters, look-alike letters, TLDs where the script is allowed)``,
    the first two as ICU UnicodeSet patterns; ``-`` in the file means no TLD.
    """
    allowed_words: frozenset[str] = frozenset()
    rows = []
    for line in data_lines("whole_script_confusables.txt"):
        fields = line.split("\t")
        if fields[0] == "allowed-words":
            allowed_words = frozenset(fields[1].split())
            continue
        tlds: frozenset[str] = frozenset() if fields[2] == "-" else frozenset(fields[2].split())
        rows.append((fields[0], fields[1], tlds))
    return allowed_words, rows


@lru_cache(maxsize=1)
def psl() -> PublicSuffixList:
    """The public suffix list, private section included (loaded once)."""
    return PublicSuffixList()


@lru_cache(maxsize=1)
def icann_psl() -> PublicSuffixList:
    """The public suffix list's ICANN section only (loaded once)."""
    return PublicSuffixList(only_icann=True)
