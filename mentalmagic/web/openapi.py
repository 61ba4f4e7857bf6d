"""The OpenAPI 3 document, generated from the same marshmallow schemas that load and describe the API."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Blueprint, jsonify

from .. import __version__
from ..runtime import inputs
from . import idempotency, schemas
from .fields import ManaCostField

bp = Blueprint("openapi", __name__, url_prefix="/api/v1")

ERRORS = {
    "400": "malformed request", "401": "missing or bad token", "403": "not allowed for this token",
    "404": "unknown card, game, player or game card", "409": "refused by a rule (see `rule`), or nothing to undo",
    "413": "body too large", "422": "field validation (see `fields`)",
}
# Answers any operation may give besides its own (web/limits.py: every route is rate-limited).
RATE_LIMITED = {"description": "too many requests from this client: retry after `Retry-After` seconds",
                "headers": {"Retry-After": {"schema": {"type": "integer", "minimum": 0}}},
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}}}
DEGRADED = {"/health": ("503", "degraded: the card tables, the database or the card file failed (see `reasons`)")}
# What an answer about a game may be when the disk failed to make a write durable (storage/durable.py).
STORAGE_FAILED = ("/games", "/series", "/candidates", "/check", "/decks")
IDEMPOTENCY_KEY = {"in": "header", "name": "Idempotency-Key", "required": False,
                   "schema": {"type": "string", "minLength": 1, "maxLength": idempotency.LONGEST,
                              "pattern": idempotency.PATTERN},
                   "description": "a retry with the same key (same route, caller and body) within a day gets the "
                                  "first answer (header `Idempotent-Replayed: true`) and writes nothing; the same "
                                  "key with another body: 422 `idempotency_key_reused`"}
ACTIONS = "ActionIn"  # the body of POST /actions: one schema per action type, under a oneOf


@dataclass(frozen=True)
class Op:
    """One operation: its id, tag, summary, schemas (names in schemas.py) and the errors it can answer."""

    id: str
    tag: str
    summary: str
    out: str
    errors: tuple[str, ...] = ()
    query: str | None = None
    body: str | None = None
    status: str = "200"
    idempotent: bool = False  # takes an Idempotency-Key (web/idempotency.py)


CARDS = "cards and costs"
OPERATIONS: dict[str, dict[str, Op]] = {
    "/health": {"get": Op("health", "service", "Card source, card count and build date", "HealthOut")},
    "/cards/{name}": {"get": Op("getCard", CARDS, "One card by English or French name, or any face's", "CardOut",
                                ("404",))},
    "/cards": {"get": Op("searchCards", CARDS, "Autocomplete: prefix and word matches in both languages",
                         "SearchOut", ("422",), query="SearchQuery")},
    "/candidates": {"get": Op("candidates", CARDS, "Every name a printed card or cost may take (704.1, D1-D5)",
                              "CandidatesOut", ("404", "422"), query="CandidatesQuery")},
    "/rule-sets": {"get": Op("ruleSets", CARDS, "Every rule set: source, options, differences (docs/rule-sets.md)",
                             "RuleSetsOut")},
    "/check": {"get": Op("check", CARDS, "May this printed card or cost be named this? (704.1-704.4)", "CheckOut",
                         ("404", "422"), query="CheckQuery")},
}


def register_operations(path: str, ops: dict[str, Op]) -> None:
    """Let another blueprint (the games API) describe its paths here too."""
    OPERATIONS[path] = ops


def _content(schema) -> dict:
    return {"application/json": {"schema": schema}}


# Schemas that live beside their blueprint (the decks API), and edits of the finished document
# (a text/plain answer) that the table above can't say.
EXTRA_SCHEMAS: dict[str, type] = {}
PATCHES: list = []


def register_schemas(*classes: type) -> None:
    EXTRA_SCHEMAS.update((c.__name__, c) for c in classes)


def _schema(name: str):
    return EXTRA_SCHEMAS.get(name) or getattr(schemas, name, None) or getattr(inputs, name)


def _forbid(component: dict, schema: type) -> None:
    """Say what ``validates_schema`` refuses as one ``not``: both of ``not_both``; none, or more than
    one, of ``exactly_one``. A ``oneOf`` of bare ``required`` lists would say it too, but client
    generators then give up the object's type (openapi-python-client makes it ``Any``); they skip a
    ``not`` and keep the properties."""
    forbidden = []
    if getattr(schema, "not_both", None):
        forbidden.append({"required": list(schema.not_both)})
    if exactly_one := getattr(schema, "exactly_one", None):
        forbidden += [{"required": list(pair)} for pair in combinations(exactly_one, 2)]
        forbidden.append({"not": {"anyOf": [{"required": [f]} for f in exactly_one]}})
    if forbidden:
        component["not"] = forbidden[0] if len(forbidden) == 1 else {"anyOf": forbidden}


def build_spec() -> dict:
    plugin = MarshmallowPlugin()
    spec = APISpec(
        title="Mental Magic arbiter",
        version=__version__,
        openapi_version="3.0.3",
        info={"description": "The HTTP contract bots rely on (docs/api.md). Errors always use ErrorOut."},
        servers=[{"url": "/api/v1"}],
        plugins=[plugin],
    )
    plugin.map_to_openapi_type(ManaCostField, "string", None)
    names = {n for ops in OPERATIONS.values() for op in ops.values() for n in (op.query, op.body, op.out)
             if n and n != ACTIONS} | {"ErrorOut"} | {s.__name__ for s in schemas.ACTIONS.values()}
    for name in sorted(names):
        if name not in spec.components.schemas:  # nested ones register themselves
            spec.components.schema(name, schema=_schema(name))
    for schema in [*schemas.ACTIONS.values(), schemas.CreateGameIn]:  # what validates_schema checks, said too
        _forbid(spec.components.schemas[schema.__name__], schema)
    refs = {kind: f"#/components/schemas/{s.__name__}" for kind, s in schemas.ACTIONS.items()}
    one_action = {"oneOf": [{"$ref": r} for r in refs.values()],
                  "discriminator": {"propertyName": "type", "mapping": refs}}
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    for path, ops in OPERATIONS.items():
        operations = {}
        for method, op in ops.items():
            doc = {
                "operationId": op.id,
                "tags": [op.tag],
                "summary": op.summary,
                "responses": {
                    op.status: {"description": "OK", "content": _content(op.out)},
                    **{code: {"description": ERRORS[code], "content": _content("ErrorOut")} for code in op.errors},
                    "429": RATE_LIMITED,
                },
            }
            params = [{"in": "path", "name": p.strip("{}"), "required": True, "schema": {"type": "string"}}
                      for p in path.split("/") if p.startswith("{")]
            if op.query:
                params.append({"in": "query", "schema": _schema(op.query)})
            if op.idempotent:
                params.append(IDEMPOTENCY_KEY)
            if params:
                doc["parameters"] = params
            if op.body:
                doc["requestBody"] = {"required": True,
                                      "content": _content(one_action if op.body == ACTIONS else op.body)}
            if "401" in op.errors:
                doc["security"] = [{"bearer": []}]
            if path in DEGRADED:
                code, why = DEGRADED[path]
                doc["responses"][code] = {"description": why, "content": _content(op.out)}
            elif path.startswith(STORAGE_FAILED):
                doc["responses"]["503"] = {"description": "storage_failed: the disk refuses writes (full, read-only, "
                                           "an I/O error: nothing was recorded, retry later), the database file "
                                           "is broken, gone or replaced under the server, or the disk failed to make a "
                                           "write durable (this server process then answers nothing it doesn't "
                                           "know is on disk until restarted)", "content": _content("ErrorOut")}
            operations[method] = doc
        spec.path(path=path, operations=operations)
    doc = spec.to_dict()
    for patch in PATCHES:
        patch(doc)
    return doc


@bp.get("/openapi.json")
def openapi():
    return jsonify(build_spec())
