"""Download names as they leave the service: the one `Content-Disposition` of every download (issue 34.2).

A download is named after what the operator or a record wrote (a case number typed by hand, a game
id, a profile name), which may hold anything: Chinese, quotes, CR/LF, NUL. The header carries the
name twice, as RFC 6266 (section 4.3) recommends: `filename*=UTF-8''...`, the name percent-encoded
by RFC 5987 (every browser in use reads it), and `filename="..."`, an ASCII fallback for a client
that does not. So the header is always ASCII (gunicorn writes headers as Latin-1, and a Chinese one
used to end the connection with no answer), holds no CR, LF or NUL (a 500 and a 400 before), and no
`"` or `\\` can end the quoted fallback early (a `"` added header parameters).

A name is a file name, not a path: control characters and the separators `/` and `\\` become `_`
in both forms; the fallback also turns every character outside printable ASCII, `"`, `%` and `;`
into `_`.
"""
from __future__ import annotations

import unicodedata
from urllib.parse import quote

ATTR_CHARS = "!#$&+-.^_`|~"
"""RFC 5987 `attr-char` besides letters and digits: written as they are in `filename*`."""
FALLBACK_UNSAFE = frozenset('"\\%;')
"""Printable ASCII the fallback replaces too: the quoted string's own syntax, and what a client
might read as percent-encoding or as the end of the parameter."""
DEFAULT_NAME = "download"
"""The fallback of a name with nothing printable in ASCII left."""


def file_name(name: str) -> str:
    """`name` as a file name: control characters (CR, LF, NUL, ...), unpaired surrogates and the
    path separators `/` and `\\` as `_`."""
    return "".join("_" if ch in "/\\" or unicodedata.category(ch) in ("Cc", "Cs") else ch for ch in name)


def ascii_fallback(name: str) -> str:
    """The `filename="..."` form: printable ASCII only, nothing that ends or escapes the quoted string."""
    text = "".join(ch if " " <= ch <= "~" and ch not in FALLBACK_UNSAFE else "_" for ch in file_name(name))
    return text.strip() or DEFAULT_NAME


def content_disposition(name: str, disposition: str = "attachment") -> str:
    """`attachment; filename="<ascii fallback>"; filename*=UTF-8''<percent-encoded name>` (or
    `inline; ...` for a PDF shown in the browser)."""
    assert disposition in ("attachment", "inline")
    encoded = quote(file_name(name), safe=ATTR_CHARS, encoding="utf-8", errors="replace")
    return f"{disposition}; filename=\"{ascii_fallback(name)}\"; filename*=UTF-8''{encoded}"


__all__ = ["ascii_fallback", "content_disposition", "file_name"]
