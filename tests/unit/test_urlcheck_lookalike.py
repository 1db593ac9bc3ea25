"""Look-alike addresses: a well-known site's name written into another site's host (Chromium's
target embedding, with ``.`` or ``-``), a brand's name as a label or a word of a host it does
not own, and a well-known name one keyboard slip away.  Each row asserts the exact verdict,
reasons, the site named as imitated, and the display host and registrable domain; the real
sites and their real neighbours stay ``ok``.  docs/url-safety.md ("Warned").  No Qt here.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from elicit_tray.urlcheck import REASONS, analyze_url
from elicit_tray.urlcheck.embedding import EVERYDAY_WORDS, SELF_HOSTED, brand_names, known_sites
from elicit_tray.urlcheck.hosts import _KEYBOARD_NEIGHBOURS, _typo_of
from elicit_tray.urlcheck.reasons import LOOKS_LIKE, REASON_TABLE, describe

TARGET = "target_embedding"
SUB = "brand_in_subdomain"
NAME = "brand_in_name"
TYPO = "lookalike_top_domain"
EMBED = "subdomain_embeds_domain"


def _seen(url: str) -> tuple:
    result = analyze_url(url)
    return result.verdict, result.reasons, result.imitated_domain, result.display_host, result.registrable_domain


# --- must warn: (url, reasons, imitated, display host, registrable domain) ------------------
MUST_WARN = [
    # a well-known domain written with "-" or "." into another site's name
    ("https://paypal.com-secure.net/", (TARGET,), "paypal.com", "paypal.com-secure.net", "com-secure.net"),
    (
        "https://accounts.google.com-signin.net/",
        (TARGET,),
        "google.com",
        "accounts.google.com-signin.net",
        "com-signin.net",
    ),
    ("https://github.com-login.info/", (TARGET,), "github.com", "github.com-login.info", "com-login.info"),
    ("https://paypal-com.evil.net/", (TARGET,), "paypal.com", "paypal-com.evil.net", "evil.net"),
    ("https://www-paypal-com.evil.net/", (TARGET,), "paypal.com", "www-paypal-com.evil.net", "evil.net"),
    ("https://paypal-com.net/", (TARGET,), "paypal.com", "paypal-com.net", "paypal-com.net"),
    ("https://bbc-co-uk.evil.net/", (TARGET,), "bbc.co.uk", "bbc-co-uk.evil.net", "evil.net"),
    ("https://google-co-uk.evil.net/", (TARGET,), "google.co.uk", "google-co-uk.evil.net", "evil.net"),
    ("https://amazon.co.uk-orders.info/", (TARGET,), "amazon.co.uk", "amazon.co.uk-orders.info", "uk-orders.info"),
    ("https://irs-gov.refund.example/", (TARGET,), "irs.gov", "irs-gov.refund.example", "refund.example"),
    ("https://outlook.com-mail.example/", (TARGET,), "outlook.com", "outlook.com-mail.example", "com-mail.example"),
    ("https://gitlab-com.evil.net/", (TARGET,), "gitlab.com", "gitlab-com.evil.net", "evil.net"),
    ("https://paypa1-com.evil.net/", (TARGET,), "paypal.com", "paypa1-com.evil.net", "evil.net"),  # spelled like
    ("https://paypal.de-login.net/", (TARGET,), "paypal.com", "paypal.de-login.net", "de-login.net"),  # its ccTLD
    ("https://paypalcom.evil.net/", (TARGET,), "paypal.com", "paypalcom.evil.net", "evil.net"),  # one word
    ("https://githubcom.net/", (TARGET,), "github.com", "githubcom.net", "githubcom.net"),
    ("https://paypal-com.evil.github.io/", (TARGET,), "paypal.com", "paypal-com.evil.github.io", "evil.github.io"),
    # a distinctive brand's name as a label left of another site's registrable domain
    ("https://login.paypal.evil.net/", (SUB,), "paypal.com", "login.paypal.evil.net", "evil.net"),
    ("https://paypal.evil.net/", (SUB,), "paypal.com", "paypal.evil.net", "evil.net"),
    (
        "https://www.netflix.account-help.example/",
        (SUB,),
        "netflix.com",
        "www.netflix.account-help.example",
        "account-help.example",
    ),
    ("https://appleid.apple.evil.com/", (SUB,), "apple.com", "appleid.apple.evil.com", "evil.com"),
    # a customer's name on a provider not on the lists: it does lead to another company's site
    (
        "https://paypal.wd1.myworkdayjobs.com/",
        (SUB,),
        "paypal.com",
        "paypal.wd1.myworkdayjobs.com",
        "myworkdayjobs.com",
    ),
    # a brand's name as a word with a sign-in word (also the self-hosted names)
    ("https://login.github.evil.net/", (SUB,), "github.com", "login.github.evil.net", "evil.net"),
    ("https://paypal-login.evil.net/", (SUB,), "paypal.com", "paypal-login.evil.net", "evil.net"),
    (
        "https://secure.microsoft-team.example/",
        (NAME,),
        "microsoft.com",
        "secure.microsoft-team.example",
        "microsoft-team.example",
    ),
    ("https://paypal-secure.com/", (NAME,), "paypal.com", "paypal-secure.com", "paypal-secure.com"),
    ("https://secure-paypal.com/", (NAME,), "paypal.com", "secure-paypal.com", "secure-paypal.com"),
    ("https://github-login.info/", (NAME,), "github.com", "github-login.info", "github-login.info"),
    ("https://apple-id.com/", (NAME,), "apple.com", "apple-id.com", "apple-id.com"),
    ("https://paypallogin.com/", (NAME,), "paypal.com", "paypallogin.com", "paypallogin.com"),
    ("https://securepaypal.net/", (NAME,), "paypal.com", "securepaypal.net", "securepaypal.net"),
    # keyboard neighbours (QWERTY), also as the last letter
    ("https://githuh.com/", (TYPO,), "github.com", "githuh.com", "githuh.com"),
    ("https://githib.com/", (TYPO,), "github.com", "githib.com", "githib.com"),
    ("https://paupal.com/", (TYPO,), "paypal.com", "paupal.com", "paupal.com"),
    ("https://amazom.com/", (TYPO,), "amazon.com", "amazom.com", "amazom.com"),
    ("https://www.amazin.com/", (TYPO,), "amazon.com", "www.amazin.com", "amazin.com"),
    ("https://gpogle.com/", (TYPO,), "google.com", "gpogle.com", "gpogle.com"),
    ("https://microsofr.com/", (TYPO,), "microsoft.com", "microsofr.com", "microsofr.com"),
    ("https://amazom.de/", (TYPO,), "amazon.de", "amazom.de", "amazom.de"),
    ("https://login.githuv.com/", (TYPO,), "github.com", "login.githuv.com", "githuv.com"),
]


@pytest.mark.parametrize("url, reasons, imitated, host, registrable", MUST_WARN)
def test_a_look_alike_address_warns_and_names_the_site_it_imitates(url, reasons, imitated, host, registrable):
    assert _seen(url) == ("warn", reasons, imitated, host, registrable)


# --- variants: case, trailing dot, port, user information, IDN and Punycode ------------------
VARIANTS = [
    ("https://PAYPAL.COM-SECURE.NET/", ("warn", (TARGET,), "paypal.com", "paypal.com-secure.net")),
    ("https://Login.PayPal.Evil.Net/", ("warn", (SUB,), "paypal.com", "login.paypal.evil.net")),
    ("https://GITHUH.COM/", ("warn", (TYPO,), "github.com", "githuh.com")),
    ("https://paypal.com-secure.net./", ("warn", ("trailing_dot", TARGET), "paypal.com", "paypal.com-secure.net.")),
    ("https://login.paypal.evil.net./", ("warn", ("trailing_dot", SUB), "paypal.com", "login.paypal.evil.net.")),
    ("https://paypal-com.evil.net:8443/x", ("warn", (TARGET,), "paypal.com", "paypal-com.evil.net")),
    ("https://githuh.com:443/", ("warn", (TYPO,), "github.com", "githuh.com")),
    (
        "https://www.paypal.com@paypal-com.evil.net/",
        ("warn", ("userinfo", TARGET), "paypal.com", "paypal-com.evil.net"),
    ),
    ("https://user:pw@login.paypal.evil.net/", ("warn", ("userinfo", SUB), "paypal.com", "login.paypal.evil.net")),
    ("http://paypal.com-secure.net/", ("warn", ("insecure_scheme", TARGET), "paypal.com", "paypal.com-secure.net")),
    # IDN top-level domains, as Unicode and as Punycode
    ("https://paypal.com-secure.рф/", ("warn", (TARGET,), "paypal.com", "paypal.com-secure.рф")),
    ("https://paypal.com-secure.xn--p1ai/", ("warn", (TARGET,), "paypal.com", "paypal.com-secure.рф")),
    ("https://login.paypal.пример.рф/", ("warn", (SUB,), "paypal.com", "login.paypal.пример.рф")),
    # a Cyrillic "а" in the embedded name: its skeleton is the brand's
    (
        "https://pаypal.com-secure.net/",
        ("warn", (TARGET, "idn_shown_as_punycode", "idn_mixed_script"), "paypal.com", "xn--pypal-4ve.com-secure.net"),
    ),
    (
        "https://xn--pypal-4ve.com-secure.net/",
        ("warn", (TARGET, "idn_shown_as_punycode", "idn_mixed_script"), "paypal.com", "xn--pypal-4ve.com-secure.net"),
    ),
    (
        "https://login.pаypal.evil.net/",
        ("warn", (SUB, "idn_shown_as_punycode", "idn_mixed_script"), "paypal.com", "login.xn--pypal-4ve.evil.net"),
    ),
    # a whole-script Cyrillic look-alike of apple (skeletons appie and apple): apple is the brand
    (
        "https://аррӏе.com-login.net/",
        (
            "warn",
            (TARGET, "idn_shown_as_punycode", "idn_whole_script_confusable"),
            "apple.com",
            "xn--80ak6aa92e.com-login.net",
        ),
    ),
    (
        "https://login.аррӏе.evil.net/",
        (
            "warn",
            (SUB, "idn_shown_as_punycode", "idn_whole_script_confusable"),
            "apple.com",
            "login.xn--80ak6aa92e.evil.net",
        ),
    ),
    # an internationalized word before the embedding changes nothing
    ("https://bücher-paypal-com.evil.net/", ("warn", (TARGET,), "paypal.com", "bücher-paypal-com.evil.net")),
    ("https://apple.com-verify.xn--p1ai/", ("warn", (TARGET,), "apple.com", "apple.com-verify.рф")),
    # a host the parser rewrites is judged as rewritten
    ("https://paypal%2Ecom-secure.net/", ("warn", ("host_normalized", TARGET), "paypal.com", "paypal.com-secure.net")),
    (
        "https://ｐａｙｐａｌ.com-secure.net/",
        ("warn", ("host_normalized", TARGET), "paypal.com", "paypal.com-secure.net"),
    ),
    ("https://PayPal-Com.Evil.Net./", ("warn", ("trailing_dot", TARGET), "paypal.com", "paypal-com.evil.net.")),
    # a hosting platform's user site carrying a brand as a subdomain
    ("https://paypal.evil.github.io/", ("warn", (SUB,), "paypal.com", "paypal.evil.github.io")),
    ("https://x.com-login.net/", ("warn", (TARGET,), "x.com", "x.com-login.net")),
    ("https://secure-paypal.com.evil.net/", ("warn", (TARGET,), "paypal.com", "secure-paypal.com.evil.net")),
]


@pytest.mark.parametrize("url, expected", VARIANTS)
def test_variants_of_a_look_alike_still_warn(url, expected):
    assert _seen(url)[:4] == expected


# --- must not warn: the real sites, their real subdomains, real neighbours -------------------
REAL = """
paypal.com www.paypal.com paypal.me www.paypal.me paypal.com.au www.paypal.com.co paypalobjects.com
paypal-community.com paypal-status.com github.com gist.github.com docs.github.com api.github.com
githubusercontent.com raw.githubusercontent.com objects.githubusercontent.com github.io
paypal.github.io google.github.io microsoft.github.io githubassets.com githubstatus.com github.blog
google.com accounts.google.com mail.google.com myaccount.google.com google.co.uk
accounts.google.co.uk www.google.com.au google.de googleusercontent.com amazon.com amazon.de
amazon.co.uk aws.amazon.com signin.aws.amazon.com s3.amazonaws.com amazon.science amazon.jobs
apple.com appleid.apple.com support.apple.com icloud.com microsoft.com login.microsoftonline.com
account.microsoft.com live.com login.live.com outlook.live.com bing.com www.bing.com
apple.stackexchange.com android.stackexchange.com gaming.stackexchange.com microsoft.sharepoint.com
paypal.okta.com github.zendesk.com google.slack.com paypal.atlassian.net
github-production-release-asset-2e65be.s3.amazonaws.com
github.ibm.com gitlab.gnome.org gitlab.freedesktop.org bitbucket.example.org outlook.example.com
office.example.com live.example.com zoom.example.edu minecraft.example.net wordpress.example.org
docs.python-requests.org python-requests.org www.paypal-community.com mail.yahoo.co.uk
uk.yahoo.com www.service.gov.uk mozilla.mirror.example.org ebay-kleinanzeigen.de paypal.netlify.app
www.amazon.com.tr paypal-de.example.net google-is-down.example www.apple-tv-guide.com
google-io.example.com spotify-ai.example.org www.x-com.example t-online.de telecom.net intercom.com
""".split()

#: Real domains that hold a brand's letters by chance: a substring rule would flag every one.
BY_CHANCE = """
snapple.com pineapple.com applebees.com grapple.com slackware.com bingo.com bingham.edu
olive.com deliveroo.com livestrong.com metacritic.com metallica.com zoominfo.com
boxofficemojo.com officedepot.com outlookindia.com amazonia.org ebayer.example chromatic.com
googolplex.example paypalm.example thegithubblog.example xboxygen.example ubereats.com
discordapp.com netflixtechblog.com instacart.com targetbooking.example spotifyforartists.com
""".split()


@pytest.mark.parametrize("host", REAL + BY_CHANCE)
def test_real_sites_and_their_neighbours_stay_ok(host):
    result = analyze_url(f"https://{host}/")
    assert (result.verdict, result.reasons, result.imitated_domain) == ("ok", (), None)


@pytest.mark.parametrize(
    "url, reasons",
    [
        ("https://PayPal.com/", ()),
        ("https://www.paypal.com:443/x", ()),
        ("https://user@github.com/", ("userinfo",)),  # only the user information warns
        ("https://gist.github.com./", ("trailing_dot",)),
        ("https://paypal.com.au./", ("trailing_dot",)),
        ("https://bücher.de/", ()),
    ],
)
def test_variants_of_real_sites_name_no_imitation(url, reasons):
    result = analyze_url(url)
    assert (result.reasons, result.imitated_domain) == (reasons, None)


# --- the keyboard ------------------------------------------------------------------------------
def test_keyboard_neighbours_are_the_keys_next_to_each_other():
    for pair in ("qw", "qa", "wa", "bh", "bg", "nm", "uy", "ui", "uj", "uh", "pl", "po", "zx", "az", "sx"):
        assert frozenset(pair) in _KEYBOARD_NEIGHBOURS, pair
    for pair in ("qe", "qs", "bj", "pk", "ap", "ml", "zc"):
        assert frozenset(pair) not in _KEYBOARD_NEIGHBOURS, pair
    # 9 + 8 + 6 within the rows, 18 between the first two rows, 14 between the last two
    assert len(_KEYBOARD_NEIGHBOURS) == 23 + 18 + 14


@pytest.mark.parametrize(
    "name, top, typo",
    [
        ("githuh", "github", True),
        ("paupal", "paypal", True),
        ("amazom", "amazon", True),
        ("foogle", "google", False),  # the first letter: another word (hoogle, foogle)
        ("gixhub", "github", False),  # x is not next to t
        ("githun", "github", True),  # n is next to b
        ("githuj", "github", False),  # j is not
        ("github", "github", False),
    ],
)
def test_a_neighbour_key_is_a_typo_except_as_the_first_letter(name, top, typo):
    assert _typo_of(name, top) is typo


@given(st.sampled_from(sorted(n for n in brand_names() if len(n) >= 5 and n.isalpha())), st.data())
def test_every_keyboard_slip_inside_a_listed_name_warns_unless_it_is_a_known_site(name, data):
    i = data.draw(st.integers(1, len(name) - 1))
    neighbours = sorted(next(iter(p - {name[i]})) for p in _KEYBOARD_NEIGHBOURS if name[i] in p)
    slipped = name[:i] + data.draw(st.sampled_from(neighbours)) + name[i + 1 :]
    domain = brand_names()[name]
    typo = slipped + domain[len(name) :]
    result = analyze_url(f"https://{typo}/")
    if typo in known_sites():
        assert result.reasons == ()
    else:  # the domain slipped from, or another one it is as near (cistco.com: cisco, costco)
        assert result.reasons == (TYPO,)
        imitated = result.imitated_domain
        assert imitated == domain or _typo_of(slipped, imitated.split(".", 1)[0])


# --- the sentence names the site ---------------------------------------------------------------
def test_each_look_alike_row_names_the_site_in_its_sentence():
    rows = {r.id: r for r in REASON_TABLE}
    for reason in (TARGET, SUB, NAME):
        assert rows[reason].names_site and "{domain}" in rows[reason].sentence
    assert rows[EMBED].names_site and rows[TYPO].names_site
    assert describe(TARGET, "paypal.com") == (
        "The address spells out paypal.com with dots or dashes, but it leads to a different site."
    )
    assert describe(SUB, "paypal.com") == (
        "The name of paypal.com is only part of this address: it leads to a different site."
    )
    assert describe(NAME, "github.com") == (
        "The site name joins the name of github.com with other words, but it is not that site."
    )
    assert describe(EMBED, "google.com") == (REASONS[EMBED] + " " + LOOKS_LIKE.replace("{domain}", "google.com"))
    assert describe(TARGET, None) == REASONS[EMBED]  # never a bare "{domain}"
    assert describe("insecure_scheme", "paypal.com") == REASONS["insecure_scheme"]
    assert describe("no_such_reason", None) == "no_such_reason"
    assert describe(SUB, "paypal.com", lambda text: f"«{text}»", lambda d: f"[{d}]") == (
        "«The name of [paypal.com] is only part of this address: it leads to a different site.»"
    )


def test_check_url_names_the_imitated_site_on_its_looks_like_line_and_in_the_reason(capsys):
    from elicit_tray.cli import main as cli_main

    assert cli_main(["check-url", "https://paypal.com-secure.net/login"]) == 0
    assert capsys.readouterr().out == (
        "verdict:            warn\n"
        "display host:       paypal.com-secure.net\n"
        "registrable domain: com-secure.net\n"
        "looks like:         paypal.com (a well-known site it is not)\n"
        "- target_embedding: The address spells out paypal.com with dots or dashes, "
        "but it leads to a different site.\n"
    )
    assert cli_main(["check-url", "--json", "https://login.paypal.evil.net/"]) == 0
    assert capsys.readouterr().out == (
        '{"verdict": "warn", "reasons": ["brand_in_subdomain"], "display_host": "login.paypal.evil.net", '
        '"registrable_domain": "evil.net"}\n'
    )


def test_the_word_lists_only_name_listed_brands():
    names = set(brand_names())
    assert SELF_HOSTED <= names
    assert EVERYDAY_WORDS <= names
