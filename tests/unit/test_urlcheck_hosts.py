"""Issue 10 ("what the user reads is the truth"): hosts whose registrable domain, locality or
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
from elicit_tray.urlcheck.hosts import _one_edit_apart, _one_swap_apart

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


# --- the site itself a typo of a well-known one (one edit or one swap of neighbours) --------
@pytest.mark.parametrize(
    "url, host, registrable",
    [
        ("https://paypai.com/signin", "paypai.com", "paypai.com"),  # l -> i
        ("https://www.gooogle.com/", "www.gooogle.com", "gooogle.com"),  # a letter doubled
        ("https://linkedln.com/", "linkedln.com", "linkedln.com"),
        ("https://mlcrosoft.com/", "mlcrosoft.com", "mlcrosoft.com"),
        ("https://amazno.com/", "amazno.com", "amazno.com"),  # neighbours swapped
        ("https://gogole.com/", "gogole.com", "gogole.com"),
        ("https://faceboook.com/", "faceboook.com", "faceboook.com"),
        ("https://twiter.com/", "twiter.com", "twiter.com"),  # a letter left out
        ("https://netfiix.com/", "netfiix.com", "netfiix.com"),
        ("https://githuh.com/", "githuh.com", "githuh.com"),
        ("https://paypa1l.com/", "paypa1l.com", "paypa1l.com"),  # a skeleton one edit away
        ("https://login.yotube.com/x", "login.yotube.com", "yotube.com"),
    ],
)
def test_a_site_one_typo_away_from_a_well_known_one_is_a_lookalike(url, host, registrable):
    assert _summary(url) == ("warn", (LOOKALIKE,), host, registrable)


#: Real sites, none of them in the well-known list: none may be called a typo of one.
REAL_SITES = """
example.com wikipedia.org mozilla.org python.org debian.org ubuntu.com stackoverflow.com
duckduckgo.com cloudflare.com medium.com nytimes.com bbc.co.uk theguardian.com spotify.com
dropbox.com slack.com zoom.us notion.so figma.com canva.com adobe.com oracle.com salesforce.com
shopify.com stripe.com twitch.tv discord.com telegram.org whatsapp.com signal.org openai.com
anthropic.com huggingface.co kaggle.com arxiv.org nature.com science.org ieee.org springer.com
elsevier.com jstor.org archive.org imdb.com booking.com airbnb.com expedia.com tripadvisor.com
uber.com doordash.com walmart.com target.com bestbuy.com costco.com homedepot.com ikea.com
etsy.com aliexpress.com alibaba.com rakuten.co.jp zillow.com craigslist.org indeed.com
glassdoor.com coursera.org udemy.com khanacademy.org duolingo.com quizlet.com grammarly.com
trello.com asana.com atlassian.com bitbucket.org sourceforge.net npmjs.com pypi.org crates.io
golang.org rust-lang.org nodejs.org angular.io svelte.dev docker.com kubernetes.io vercel.com
netlify.com heroku.com digitalocean.com hetzner.com godaddy.com namecheap.com squarespace.com
wordpress.org tumblr.com pinterest.com flickr.com vimeo.com soundcloud.com bandcamp.com
hulu.com crunchyroll.com epicgames.com roblox.com minecraft.net nintendo.com playstation.com
samsung.com lenovo.com intel.com nvidia.com qualcomm.com cisco.com vmware.com redhat.com
canonical.com archlinux.org kernel.org wikimedia.org openstreetmap.org weather.com espn.com
reuters.com apnews.com bloomberg.com economist.com forbes.com fidelity.com vanguard.com
robinhood.com coinbase.com binance.com kraken.com wellsfargo.com bankofamerica.com
capitalone.com americanexpress.com venmo.com revolut.com monzo.com klarna.com mailchimp.com
hubspot.com zendesk.com twilio.com sendgrid.com okta.com onelogin.com bitwarden.com
nordvpn.com mullvad.net fastmail.com yandex.ru naver.com kakao.com mercadolibre.com allegro.pl
zalando.de coolblue.nl leboncoin.fr marktplaats.nl seznam.cz spiegel.de heise.de golem.de
lemonde.fr elpais.com repubblica.it corriere.it aftonbladet.se irishtimes.com nzherald.co.nz
globo.com clarin.com ndtv.com thehindu.com aljazeera.com haaretz.com scmp.com straitstimes.com
asahi.com chosun.com vnexpress.net kompas.com rappler.com bangkokpost.com news24.com
tcl.com modern.com clever.com corner.co.uk cornell.edu 1und1.de auth0.com 1password.com
""".split()


@pytest.mark.parametrize("site", REAL_SITES)
def test_real_sites_are_not_typos_of_well_known_ones(site):
    assert _summary(f"https://{site}/")[:2] == ("ok", ())


@pytest.mark.parametrize(
    "url, host, registrable",
    [
        ("https://google.com.tw/", "google.com.tw", "google.com.tw"),  # the same name, another suffix
        ("https://oogle.com/", "oogle.com", "oogle.com"),  # differs in the first letter only
        ("https://hoogle.com/", "hoogle.com", "hoogle.com"),
        ("https://pay-pal.com/", "pay-pal.com", "pay-pal.com"),  # a hyphen inserted
        ("https://amaz.com/", "amaz.com", "amaz.com"),  # a name too short to judge
    ],
)
def test_one_edit_matches_that_are_usually_other_names_are_not_typos(url, host, registrable):
    assert _summary(url) == ("ok", (), host, registrable)


def _levenshtein(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


@given(st.text("abc.-", max_size=7), st.text("abc.-", max_size=7))
def test_one_edit_apart_is_levenshtein_distance_one(a, b):
    assert _one_edit_apart(a, b) == (_levenshtein(a, b) == 1)


@given(st.text("abc", min_size=2, max_size=7), st.data())
def test_one_swap_apart_is_exactly_one_swap_of_neighbours(a, data):
    i = data.draw(st.integers(0, len(a) - 2))
    b = a[:i] + a[i + 1] + a[i] + a[i + 2 :]
    assert _one_swap_apart(a, b) == (a != b)
    assert not _one_swap_apart(a, a)
