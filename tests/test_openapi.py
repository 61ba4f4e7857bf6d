"""The published OpenAPI document is valid OpenAPI 3 and describes what the API answers."""

from __future__ import annotations


def test_the_openapi_document_is_valid_openapi_3(cards_client):
    from openapi_spec_validator import validate  # here, not at the top: only a run of this test imports it

    doc = cards_client.get("/api/v1/openapi.json").get_json()
    validate(doc)  # raises on any structural error
    assert doc["openapi"].startswith("3.")
    for path in ("/candidates", "/check", "/cards/{name}", "/games", "/games/{game_id}/actions",
                 "/games/{game_id}/undo", "/games/{game_id}/could-be"):
        assert path in doc["paths"], path
    body = doc["paths"]["/games/{game_id}/actions"]["post"]
    assert body["security"] == [{"bearer": []}] and "409" in body["responses"]


def test_each_action_type_has_its_own_schema_under_a_discriminated_one_of(cards_client):
    from openapi_schema_validator import OAS30Validator

    from mentalmagic.commands import ACTION_TYPES

    doc = cards_client.get("/api/v1/openapi.json").get_json()
    body = doc["paths"]["/games/{game_id}/actions"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    mapping = body["discriminator"]["mapping"]
    assert body["discriminator"]["propertyName"] == "type" and tuple(mapping) == ACTION_TYPES
    assert [o["$ref"] for o in body["oneOf"]] == list(mapping.values())
    components = doc["components"]["schemas"]

    def valid(body: dict) -> bool:
        schema = components[mapping[body["type"]].rsplit("/", 1)[1]]
        return OAS30Validator(schema).is_valid(body)

    # bodies the server refuses with 422 are invalid by the document too
    assert valid({"type": "move", "card": "c1", "to": "hand"}) and not valid({"type": "move"})
    assert not valid({"type": "move", "card": "c1", "to": "sideboard"})
    assert not valid({"type": "draw", "count": 1, "printed": "Shock"}) and valid({"type": "draw", "count": 2})
    assert not valid({"type": "reveal", "player": "p1"}) and valid({"type": "reveal", "count": 1})
    assert not valid({"type": "reveal", "cards": ["c1"], "count": 1})
    assert not valid({"type": "name", "card": "c1"}) and not valid({"type": "draw", "colour": "red"})


def test_operations_have_ids_tags_and_only_their_own_error_statuses(cards_client):
    doc = cards_client.get("/api/v1/openapi.json").get_json()
    ops = [op for path in doc["paths"].values() for op in path.values()]
    ids = [op["operationId"] for op in ops]
    assert len(set(ids)) == len(ids) and all(op["tags"] for op in ops)
    statuses = {op["operationId"]: set(op["responses"]) for op in ops}
    assert statuses["getCard"] == {"200", "404", "429"}  # every route is rate-limited (issue 9)
    assert "409" in statuses["undo"] and "422" not in statuses["undo"] and "401" not in statuses["createGame"]
    schemas = doc["components"]["schemas"]
    assert schemas["GameCardOut"]["additionalProperties"] is True  # docs/api.md: fields may be added
    assert schemas["EventOut"]["properties"]["at"]["format"] == "date-time"
    assert "removed" in schemas["GameCardOut"]["properties"]["zone"]["enum"]
    assert {"nullable": True, "type": "object"} in schemas["CandidatesOut"]["properties"]["printed"]["anyOf"]
    cost = [p for p in doc["paths"]["/candidates"]["get"]["parameters"] if p["name"] == "cost"]
    assert cost[0]["schema"]["type"] == "string"


def test_every_route_with_a_body_documents_its_400_and_a_missing_body_is_that_400(cards_client):
    """A body that isn't JSON is a 400 on every route that reads one (POST /decks with no body was
    an undocumented 400, issue 23); the four retried writes take an Idempotency-Key (a game imported: its
    tokens shown once, as a game created)."""
    doc = cards_client.get("/api/v1/openapi.json").get_json()
    with_body = {(path, method): op for path, ops in doc["paths"].items() for method, op in ops.items()
                 if "requestBody" in op}
    assert with_body and all("400" in op["responses"] for op in with_body.values()), \
        [k for k, op in with_body.items() if "400" not in op["responses"]]
    response = cards_client.post("/api/v1/decks")
    assert response.status_code == 400 and response.get_json()["error"]["code"] == "bad_request"
    keyed = {op["operationId"] for ops in doc["paths"].values() for op in ops.values()
             if any(p.get("name") == "Idempotency-Key" for p in op.get("parameters", []))}
    assert keyed == {"createGame", "importGame", "act", "createDeck"}
