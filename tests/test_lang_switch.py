"""The language switch (``/lang/<code>?next=``) goes back only to a path of this site: whatever else
``next`` holds once decoded (a scheme, ``//``, a backslash, a control character a browser drops or
a header can't hold) goes to ``/``, never elsewhere and never a 500 (issue 30)."""

from __future__ import annotations

from urllib.parse import quote

import pytest

HOSTILE = [
    "//evil.example/",
    "/\t/evil.example",  # a browser drops the tab: //evil.example
    "/\n/evil.example",  # no header holds a newline: was a 500
    "/\r\n/evil.example",
    "/\r/evil.example",
    "/\x00/evil.example",
    "/\x7f/evil.example",
    "/\x0b/evil.example",
    "/\u2028/evil.example",  # a line separator
    "/\u200b/evil.example",  # a zero-width space
    "/\\evil.example",
    "\\\\evil.example",
    "/\\/evil.example",
    "https://evil.example/",
    "HTTPS://evil.example/",
    "javascript:alert(1)",
    "evil.example",
    " //evil.example",
    "\t//evil.example",
    "",
    "/%0A/evil.example" + "\n",
]


@pytest.mark.parametrize("target", HOSTILE)
def test_a_next_that_is_not_a_path_of_this_site_goes_home(client, target):
    resp = client.get(f"/lang/fr?next={quote(target, safe='')}")
    assert resp.status_code == 303
    assert resp.headers["Location"] == "/"
    assert resp.headers["Set-Cookie"].startswith("lang=fr")  # the choice is still kept


@pytest.mark.parametrize("target", ["/", "/console", "/games/AbC123xyz456?seat=p1",
                                    "/?printed=Boros%20Guildmage&format=vintage", "/%2F/evil.example"])
def test_a_path_of_this_site_is_where_it_goes_back(client, target):
    resp = client.get(f"/lang/en?next={quote(target, safe='')}")
    assert resp.status_code == 303 and resp.headers["Location"] == target


def test_no_next_goes_home(client):
    resp = client.get("/lang/en")
    assert resp.status_code == 303 and resp.headers["Location"] == "/"
