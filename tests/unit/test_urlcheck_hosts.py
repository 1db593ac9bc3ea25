"""What the user reads is the truth: hosts whose registrable domain, locality or
validity the analysis used to get wrong.  Each row asserts the exact verdict, reasons, display
host and registrable domain.  No Qt is imported here.

* A well-known domain followed by more labels across the registrable-domain boundary is a
  look-alike (``google.com.click``), the brand under a country's ICANN suffix is not
  (``google.com.au``).
* An IPv6 address that embeds an IPv4 address is judged by that IPv4 address.
* A host with an empty label (``example.com..``) or a label Qt cannot carry is refused instead
  of getting a bogus registrable domain.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from elicit_tray.urlcheck import REASONS, analyze_url
from elicit_tray.urlcheck.hosts import _typo_of

EMBED = "subdomain_embeds_domain"


def _summary(url: str) -> tuple:
    result = analyze_url(url)
    return result.verdict, result.reasons, result.display_host, result.registrable_domain


# --- a well-known domain followed by more labels -------------------------------------------
@pytest.mark.parametrize(
    "url, host, registrable",
    [
        # across the boundary: the well-known domain ends inside the registrable domain
        ("https://accounts.google.com.click/signin", "accounts.google.com.click", "com.click"),
        ("https://facebook.com.مصر/٠/123", "facebook.com.مصر", "com.مصر"),  # IDN TLD
        ("https://facebook.com.xn--wgbh1c/", "facebook.com.مصر", "com.مصر"),  # same, as Punycode
        ("https://youtube.com.xn--p1ai/", "youtube.com.рф", "com.рф"),
        ("https://apple.com.xn--fiqs8s/", "apple.com.中国", "com.中国"),
        ("https://paypal.com.公司.cn/", "paypal.com.公司.cn", "com.公司.cn"),  # multi-label IDN suffix
        ("https://GOOGLE.COM.click/", "google.com.click", "com.click"),
        ("https://google.com.com/", "google.com.com", "com.com"),
        # multi-label well-known domains, and privately run suffixes (uk.com, uk.net, com.de,
        # github.io): anyone can register under those, so the ICANN boundary counts
        ("https://amazon.co.uk.com/", "amazon.co.uk.com", "co.uk.com"),
        ("https://google.co.uk.net/", "google.co.uk.net", "co.uk.net"),
        ("https://signin.google.com.de/", "signin.google.com.de", "google.com.de"),
        ("https://google.com.github.io/", "google.com.github.io", "com.github.io"),
        # wholly inside the subdomain part (as before), also with a country variant
        ("https://google.com.evil.net/", "google.com.evil.net", "evil.net"),
        ("https://www.google.com.au.evil.com/", "www.google.com.au.evil.com", "evil.com"),
        ("https://github.com.evil.co.uk/", "github.com.evil.co.uk", "evil.co.uk"),
        ("https://google.com.evil.github.io/", "google.com.evil.github.io", "evil.github.io"),
    ],
)
def test_a_well_known_domain_followed_by_more_labels_is_a_lookalike(url, host, registrable):
    assert _summary(url) == ("warn", (EMBED,), host, registrable)


def test_the_lookalike_warning_adds_to_the_other_reasons():
    assert _summary("https://google.com.click./") == ("warn", ("trailing_dot", EMBED), "google.com.click.", "com.click")
    assert _summary("http://paypal.com.secure.example/") == (
        "warn",
        ("insecure_scheme", EMBED),
        "paypal.com.secure.example",
        "secure.example",
    )


@pytest.mark.parametrize(
    "url, host, registrable",
    [
        ("https://www.google.com.au/", "www.google.com.au", "google.com.au"),
        ("https://maps.google.com.br/", "maps.google.com.br", "google.com.br"),
        ("https://www.amazon.co.uk/", "www.amazon.co.uk", "amazon.co.uk"),
        ("https://www.amazon.com.mx/", "www.amazon.com.mx", "amazon.com.mx"),
        ("https://www.paypal.com.co/", "www.paypal.com.co", "paypal.com.co"),
        ("https://www.google.co.uk/", "www.google.co.uk", "google.co.uk"),
        ("https://mail.google.com/", "mail.google.com", "google.com"),
        ("https://google.com/", "google.com", "google.com"),
        ("https://foo.blogspot.com/", "foo.blogspot.com", "foo.blogspot.com"),
        ("https://google.com.google.com/", "google.com.google.com", "google.com"),  # its own subdomain
        ("https://notgoogle.com.click/", "notgoogle.com.click", "com.click"),  # labels, not substrings
    ],
)
def test_real_domains_and_their_subdomains_stay_ok(url, host, registrable):
    assert _summary(url) == ("ok", (), host, registrable)


# --- IPv6 forms that embed an IPv4 address ---------------------------------------------------
LOCAL = ("ip_literal", "local_target")


@pytest.mark.parametrize(
    "url, reasons, host",
    [
        # IPv4-mapped (RFC 4291 2.5.5.2)
        ("https://[::ffff:8.8.8.8]/", ("ip_literal",), "[::ffff:808:808]"),
        ("https://[::ffff:127.0.0.1]/", LOCAL, "[::ffff:7f00:1]"),
        ("https://[::ffff:192.168.1.1]/", LOCAL, "[::ffff:c0a8:101]"),
        ("https://[::ffff:169.254.1.1]/", LOCAL, "[::ffff:a9fe:101]"),
        # NAT64 well-known prefix (RFC 6052)
        ("https://[64:ff9b::8.8.8.8]/", ("ip_literal",), "[64:ff9b::808:808]"),
        ("https://[64:ff9b::10.0.0.1]/", LOCAL, "[64:ff9b::a00:1]"),
        # 6to4 (RFC 3056)
        ("https://[2002:808:808::1]/", ("ip_literal",), "[2002:808:808::1]"),
        ("https://[2002:c0a8:101::1]/", LOCAL, "[2002:c0a8:101::1]"),
        ("https://[2002:7f00:1::]/", LOCAL, "[2002:7f00:1::]"),
        # IPv4-compatible (RFC 4291 2.5.5.1, deprecated)
        ("https://[::8.8.8.8]/", ("ip_literal",), "[::808:808]"),
        ("https://[::192.168.1.1]/", LOCAL, "[::c0a8:101]"),
        # IPv6's own loopback and unspecified addresses are not IPv4-compatible ones
        ("https://[::1]/", LOCAL, "[::1]"),
        ("https://[::]/", LOCAL, "[::]"),
        # no IPv4 inside: judged as IPv6
        ("https://[2001:4860:4860::8888]/", ("ip_literal",), "[2001:4860:4860::8888]"),
        ("https://[fd00::1]/", LOCAL, "[fd00::1]"),
        ("https://[64:ff9b:1::808:808]/", LOCAL, "[64:ff9b:1::808:808]"),  # local-use NAT64 (RFC 8215)
    ],
)
def test_an_ipv6_address_that_embeds_ipv4_is_judged_by_its_ipv4_address(url, reasons, host):
    assert _summary(url) == ("warn", reasons, host, None)


def test_only_direct_and_mapped_loopback_is_exempt_from_the_insecure_warning():
    # NAT64 and 6to4 forms go through a translator on the network, so http is still cleartext.
    assert analyze_url("http://[::ffff:127.0.0.1]/").reasons == LOCAL
    assert analyze_url("http://[::1]/").reasons == LOCAL
    assert analyze_url("http://[64:ff9b::127.0.0.1]/").reasons == ("insecure_scheme", *LOCAL)
    assert analyze_url("http://[2002:7f00:1::]/").reasons == ("insecure_scheme", *LOCAL)
    assert analyze_url("http://[::ffff:8.8.8.8]/").reasons == ("insecure_scheme", "ip_literal")


# --- empty labels and labels Qt cannot carry -------------------------------------------------
@pytest.mark.parametrize(
    "url",
    [
        "https://example.com../",  # used to get the registrable domain "com."
        "https://example.com.../x",
        "https://a..example.com/",
        "https://.example.com/",
        "https://a-.example.com/",  # QUrl rejects a hyphen at either end of a label
        "https://-a.example.com/",
        "https://a*b.example.com/",  # WHATWG allows these characters in a host, Qt and DNS do not
        "https://exa~mple.com/",
        "https://exa!mple.com/",
        "https://" + "a" * 64 + ".com/",  # longer than a DNS label
    ],
)
def test_a_host_with_an_empty_or_invalid_label_is_refused(url):
    result = analyze_url(url)
    assert (result.verdict, result.reasons) == ("refuse", ("invalid_host",))
    assert (result.display_host, result.registrable_domain, result.href) == (None, None, None)


def test_a_malformed_punycode_label_stays_invalid_idna_not_invalid_host():
    assert analyze_url("https://xn--example-.com/").reasons == ("invalid_idna",)


def test_a_single_trailing_dot_keeps_its_real_registrable_domain():
    assert _summary("https://example.com./") == ("warn", ("trailing_dot",), "example.com.", "example.com")
    assert _summary("https://a.b.example.co.uk./") == ("warn", ("trailing_dot",), "a.b.example.co.uk.", "example.co.uk")


def test_underscores_and_inner_hyphens_are_accepted():
    assert _summary("https://exa_mple.com/") == ("ok", (), "exa_mple.com", "exa_mple.com")
    assert _summary("https://a-b--c.example.com/") == ("ok", (), "a-b--c.example.com", "example.com")
    assert _summary("https://" + "a" * 63 + ".com/") == ("ok", (), "a" * 63 + ".com", "a" * 63 + ".com")


def test_invalid_host_is_a_refusal_told_in_the_already_translated_words_of_unparseable():
    assert REASONS["invalid_host"] == REASONS["unparseable"]
    assert list(REASONS).index("invalid_host") < list(REASONS).index("insecure_scheme")


# --- a well-known domain spelled with look-alike characters, followed by more labels ---------
@pytest.mark.parametrize(
    "url, host, registrable",
    [
        ("https://accounts.goog1e.com.evil.example/", "accounts.goog1e.com.evil.example", "evil.example"),
        ("https://g00gle.com.evil.net/", "g00gle.com.evil.net", "evil.net"),
        ("https://rnicrosoft.com.login.example/", "rnicrosoft.com.login.example", "login.example"),
        ("https://paypa1.com.click/", "paypa1.com.click", "com.click"),  # across the boundary
        ("https://GOOG1E.COM.evil.net/", "goog1e.com.evil.net", "evil.net"),
    ],
)
def test_a_look_alike_spelling_of_a_well_known_domain_followed_by_more_labels_is_a_lookalike(url, host, registrable):
    assert _summary(url) == ("warn", (EMBED,), host, registrable)


@pytest.mark.parametrize(
    "url, host, registrable",
    [
        ("https://googie.com.example.net/", "googie.com.example.net", "example.net"),  # i is not l
        ("https://mail.google.com/", "mail.google.com", "google.com"),
    ],
)
def test_what_only_resembles_or_is_its_own_domain_is_not_an_embedding(url, host, registrable):
    assert _summary(url) == ("ok", (), host, registrable)


# --- the site itself spelled like a well-known one ------------------------------------------
LOOKALIKE = "lookalike_top_domain"


@pytest.mark.parametrize(
    "url, host, registrable",
    [
        ("https://rnicrosoft.com/login", "rnicrosoft.com", "rnicrosoft.com"),
        ("https://g00gle.com/", "g00gle.com", "g00gle.com"),
        ("https://www.goog1e.com/", "www.goog1e.com", "goog1e.com"),
        ("https://paypa1.com/", "paypa1.com", "paypa1.com"),
        ("https://micros0ft.com/", "micros0ft.com", "micros0ft.com"),
        ("https://goog1e.co.uk/", "goog1e.co.uk", "goog1e.co.uk"),
        ("https://rnicrosoft.co.uk/", "rnicrosoft.co.uk", "rnicrosoft.co.uk"),  # the name, any suffix
        ("https://app1e.de/", "app1e.de", "app1e.de"),
    ],
)
def test_a_site_spelled_like_a_well_known_one_is_a_lookalike(url, host, registrable):
    assert _summary(url) == ("warn", (LOOKALIKE,), host, registrable)


@pytest.mark.parametrize(
    "url, host, registrable",
    [
        ("https://tcl.com/", "tcl.com", "tcl.com"),  # reads as td.com: too short a name to imitate
        ("https://tcl.com.example.net/", "tcl.com.example.net", "example.net"),
        ("https://arnd.com.example.net/", "arnd.com.example.net", "example.net"),  # amd.com
        ("https://my.1password.com/", "my.1password.com", "1password.com"),
        ("https://auth0.com/", "auth0.com", "auth0.com"),
        ("https://modern.com/", "modern.com", "modern.com"),
        ("https://clever.com/", "clever.com", "clever.com"),
        ("https://apple.co.uk/", "apple.co.uk", "apple.co.uk"),  # the name itself, another suffix
        ("https://corner.co.uk/", "corner.co.uk", "corner.co.uk"),
        ("https://cornell.edu/", "cornell.edu", "cornell.edu"),
        ("https://1und1.de/", "1und1.de", "1und1.de"),
    ],
)
def test_real_names_with_look_alike_letters_are_not_lookalikes(url, host, registrable):
    assert _summary(url) == ("ok", (), host, registrable)


# --- the site itself a typo of a well-known one --------------------------------------------
@pytest.mark.parametrize(
    "url, host, registrable",
    [
        ("https://paypai.com/signin", "paypai.com", "paypai.com"),  # a look-alike letter (l -> i)
        ("https://linkedln.com/", "linkedln.com", "linkedln.com"),
        ("https://mlcrosoft.com/", "mlcrosoft.com", "mlcrosoft.com"),
        ("https://netfiix.com/", "netfiix.com", "netfiix.com"),
        ("https://lnstagram.com/", "lnstagram.com", "lnstagram.com"),  # ... the first letter too
        ("https://qoogle.com/", "qoogle.com", "qoogle.com"),
        ("https://www.gooogle.com/", "www.gooogle.com", "gooogle.com"),  # a letter doubled
        ("https://faceboook.com/", "faceboook.com", "faceboook.com"),
        ("https://twiter.com/", "twiter.com", "twiter.com"),  # a double undone
        ("https://login.yotube.com/x", "login.yotube.com", "yotube.com"),  # a letter left out inside
        ("https://facbook.com/", "facbook.com", "facbook.com"),
        ("https://pay-pal.com/", "pay-pal.com", "pay-pal.com"),  # a hyphen put in
        ("https://micro-soft.com/", "micro-soft.com", "micro-soft.com"),
        ("https://amazno.com/", "amazno.com", "amazno.com"),  # neighbours swapped
        ("https://gogole.com/", "gogole.com", "gogole.com"),
        ("https://paypa1l.com/", "paypa1l.com", "paypa1l.com"),  # the skeleton has a double
        ("https://paypal.cm/", "paypal.cm", "paypal.cm"),  # the name under a slip of .com
        ("https://amazon.om/", "amazon.om", "amazon.om"),
    ],
)
def test_a_site_one_typo_away_from_a_well_known_one_is_a_lookalike(url, host, registrable):
    assert _summary(url) == ("warn", (LOOKALIKE,), host, registrable)


#: Real sites one edit (or one swap) from a listed well-known domain: other words, not typos.
REAL_NEIGHBOURS = """
loews.com discovery.com blockchair.com dockers.com stripes.com revolt.com canvas.com apply.com
stack.com window.com braves.com targets.com bookings.com officer.com forte.com forge.com
europe.eu intex.com oogle.com hoogle.com google.com.tw apple.co.uk amaz.com
""".split()


@pytest.mark.parametrize("site", REAL_NEIGHBOURS)
def test_real_sites_one_edit_from_a_well_known_one_are_not_typos(site):
    assert _summary(f"https://{site}/")[:2] == ("ok", ())


#: Real sites that are not near any listed domain (none may start warning).
REAL_SITES = """
example.com wikipedia.org mozilla.org python.org debian.org stackoverflow.com duckduckgo.com
cloudflare.com medium.com nytimes.com theguardian.com spotify.com dropbox.com figma.com
salesforce.com shopify.com telegram.org signal.org huggingface.co kaggle.com arxiv.org
springer.com jstor.org tripadvisor.com doordash.com homedepot.com glassdoor.com coursera.org
khanacademy.org grammarly.com atlassian.com sourceforge.net golang.org rust-lang.org
kubernetes.io netlify.com digitalocean.com hetzner.com squarespace.com bandcamp.com
crunchyroll.com epicgames.com qualcomm.com openstreetmap.org accuweather.com marketwatch.com
robinhood.com mailchimp.com bitwarden.com mullvad.net fastmail.com mercadolibre.com
marktplaats.nl seznam.cz heise.de repubblica.it aftonbladet.se nzherald.co.nz straitstimes.com
vnexpress.net bangkokpost.com tcl.com modern.com clever.com corner.co.uk cornell.edu 1und1.de
""".split()


@pytest.mark.parametrize("site", REAL_SITES)
def test_real_sites_are_not_typos_of_well_known_ones(site):
    assert _summary(f"https://{site}/")[:2] == ("ok", ())


def _one_slip_apart(a: str, b: str) -> bool:
    """Levenshtein distance 1, or one swap of neighbours (a reference, quadratic)."""
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 2 and diff[1] == diff[0] + 1:
            return a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1] == 1


@given(st.text("abilgq-", max_size=8), st.text("abilgq-", max_size=8))
def test_a_typo_is_always_one_slip_from_the_name_it_imitates(a, b):
    if _typo_of(a, b):
        assert _one_slip_apart(a, b)


@given(st.text("abcde", min_size=3, max_size=8), st.data())
def test_a_swap_of_neighbours_is_a_typo_and_a_letter_added_at_either_end_is_not(a, data):
    i = data.draw(st.integers(0, len(a) - 2))
    swapped = a[:i] + a[i + 1] + a[i] + a[i + 2 :]
    assert _typo_of(swapped, a) == (swapped != a)
    for end in ("z" + a, a + "z"):
        assert not _typo_of(end, a)


@pytest.mark.parametrize(
    "url, imitated",
    [
        ("https://paypai.com/", "paypal.com"),
        ("https://www.gooogle.com/", "google.com"),
        ("https://goog1e.com/", "google.com"),
        ("https://goog1e.co.uk/", "google.co.uk"),
        ("https://rnicrosoft.co.uk/", "microsoft.com"),  # the name under another suffix
        ("https://paypal.cm/", "paypal.com"),
        ("https://amazno.com/", "amazon.com"),
        ("https://example.com/", None),
        ("https://google.com/", None),
        ("https://google.com.evil.example/", "google.com"),  # an embedding names the domain embedded
        ("https://goog1e.com.evil.example/", "google.com"),  # ... the one it is spelled like
        ("https://paypal.com-secure.net/", "paypal.com"),
    ],
)
def test_a_look_alike_names_the_well_known_domain_it_imitates(url, imitated):
    assert analyze_url(url).imitated_domain == imitated


def test_check_url_names_the_site_a_look_alike_imitates(capsys):
    from elicit_tray.cli import main as cli_main

    assert cli_main(["check-url", "https://www.paypai.com/signin"]) == 0
    assert capsys.readouterr().out == (
        "verdict:            warn\n"
        "display host:       www.paypai.com\n"
        "registrable domain: paypai.com\n"
        "looks like:         paypal.com (a well-known site it is not)\n"
        "- lookalike_top_domain: The site name looks almost identical to a well-known site. "
        "It looks like paypal.com, but it is not that site.\n"
    )
    assert cli_main(["check-url", "--json", "https://www.paypai.com/signin"]) == 0
    assert capsys.readouterr().out == (
        '{"verdict": "warn", "reasons": ["lookalike_top_domain"], "display_host": "www.paypai.com", '
        '"registrable_domain": "paypai.com"}\n'
    )
