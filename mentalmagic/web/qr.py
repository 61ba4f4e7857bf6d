"""QR codes for the table (issue 31): ``POST /api/v1/qr`` draws a text (a seat's link) as an SVG
image, a ``data:`` URI a page shows in an ``<img>`` (the pages' CSP allows ``img-src data:``).

Drawn here, with segno, rather than by a script library in the page: one maintained encoder, and
the page stays free of third-party script. The text comes in the body, never in the query: a
seat's link carries its token (in its fragment), which no access log may hold (web/accesslog.py
writes paths and queries, never bodies).
"""

from __future__ import annotations

from flask import Blueprint, jsonify
from marshmallow import fields, validate

from ..runtime.inputs import Strict
from .bodies import json_body
from .openapi import Op, register_operations, register_schemas

bp = Blueprint("qr", __name__, url_prefix="/api/v1")

MOST = 1000  # characters: a seat's link is ~80; a version-27 code at level M holds ~1,000 bytes


class QrIn(Strict):
    text = fields.String(required=True, validate=validate.Length(min=1, max=MOST), metadata={
        "description": "what the code holds: a seat's link, with its token in the fragment"})


class QrOut(Strict):
    text = fields.String(required=True)
    image = fields.String(required=True, metadata={
        "description": "the code as an SVG image, a data: URI (no fixed size: its viewBox scales to the box it "
                       "is drawn in), dark modules on white with a quiet zone of 4 modules"})
    modules = fields.Integer(required=True, metadata={"description": "modules a side, quiet zone included"})


_load = QrIn()


def drawn(text: str) -> tuple[str, int]:
    """``text`` as a QR code at error correction level M (a code a phone reads from across a
    table, and still reads with a crease or a glare on 15 % of it): a data: URI and its size."""
    import segno

    code = segno.make(text, error="m", boost_error=False)
    width, _ = code.symbol_size(scale=1, border=4)
    return code.svg_data_uri(border=4, omitsize=True, dark="#000", light="#fff"), width


@bp.post("/qr")
def qr():
    text = _load.load(json_body())["text"]
    image, modules = drawn(text)
    resp = jsonify({"text": text, "image": image, "modules": modules})
    resp.headers["Cache-Control"] = "no-store"  # the text is a seat's link: its token stays out of caches
    return resp


register_schemas(QrIn, QrOut)
register_operations("/qr", {"post": Op(
    "qrCode", "service", "A text (a seat's link) drawn as a QR code: an SVG image as a data: URI",
    "QrOut", ("400", "413", "422"), body="QrIn")})
