"""The OpenAPI 3 document, generated from the marshmallow schemas (apispec)."""

from __future__ import annotations

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Blueprint, jsonify

from .. import __version__
from . import schemas

bp = Blueprint("openapi", __name__, url_prefix="/api/v1")

ERRORS = {
    "400": "malformed request", "401": "missing or bad token", "403": "not allowed for this token",
    "404": "unknown card or game", "409": "refused by a rule (see `rule`)",
    "413": "body too large", "422": "field validation (see `fields`)",
}

# path -> method -> (summary, query schema or None, body schema or None, response schema, status)
OPERATIONS: dict[str, dict[str, tuple]] = {
    "/health": {"get": ("Card source, card count and build date", None, None, "HealthOut", "200")},
    "/cards/{name}": {"get": ("One card by English or French name, or any face's", None, None, "CardOut", "200")},
    "/cards": {"get": ("Autocomplete: prefix and word matches in both languages", "SearchQuery", None,
                       "SearchOut", "200")},
    "/candidates": {"get": ("Every name a printed card or cost may take (704.1, D1-D5)", "CandidatesQuery",
                            None, "CandidatesOut", "200")},
    "/check": {"get": ("May this printed card or cost be named this? (704.1-704.4)", "CheckQuery", None,
                       "CheckOut", "200")},
}


def register_operations(path: str, ops: dict[str, tuple]) -> None:
    """Let another blueprint (the games API) describe its paths here too."""
    OPERATIONS[path] = ops


# Schemas that live beside their blueprint (the decks API), operations that need a bearer token,
# and edits of the finished document (a text/plain answer) that the table above can't say.
EXTRA_SCHEMAS: dict[str, type] = {}
SECURED: set[tuple[str, str]] = set()
PATCHES: list = []


def register_schemas(*classes: type) -> None:
    EXTRA_SCHEMAS.update((c.__name__, c) for c in classes)


def _schema(name: str):
    return EXTRA_SCHEMAS.get(name) or getattr(schemas, name)


def build_spec() -> dict:
    spec = APISpec(
        title="Mental Magic arbiter",
        version=__version__,
        openapi_version="3.0.3",
        info={"description": "The HTTP contract bots rely on (API.md). Errors always use ErrorOut."},
        servers=[{"url": "/api/v1"}],
        plugins=[MarshmallowPlugin()],
    )
    names = {n for ops in OPERATIONS.values() for op in ops.values() for n in op[1:4] if n} | {"ErrorOut"}
    for name in sorted(names):
        if name not in spec.components.schemas:  # nested ones register themselves
            spec.components.schema(name, schema=_schema(name))
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    for path, ops in OPERATIONS.items():
        operations = {}
        for method, (summary, query, body, out, status) in ops.items():
            op = {
                "summary": summary,
                "responses": {
                    status: {"description": "OK", "content": {"application/json": {"schema": out}}},
                    **{code: {"description": why, "content": {"application/json": {"schema": "ErrorOut"}}}
                       for code, why in ERRORS.items()},
                },
            }
            params = [{"in": "path", "name": p.strip("{}"), "required": True, "schema": {"type": "string"}}
                      for p in path.split("/") if p.startswith("{")]
            if query:
                params.append({"in": "query", "schema": _schema(query)})
            if params:
                op["parameters"] = params
            if body:
                op["requestBody"] = {"required": True,
                                     "content": {"application/json": {"schema": body}}}
            if (path.startswith("/games") and not (path == "/games" and method == "post")) or (path, method) in SECURED:
                op["security"] = [{"bearer": []}]
            operations[method] = op
        spec.path(path=path, operations=operations)
    doc = spec.to_dict()
    for patch in PATCHES:
        patch(doc)
    return doc


@bp.get("/openapi.json")
def openapi():
    return jsonify(build_spec())
