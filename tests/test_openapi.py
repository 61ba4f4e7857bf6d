"""The published OpenAPI document is valid OpenAPI 3 and describes what the API answers."""

from __future__ import annotations

from openapi_spec_validator import validate


def test_the_openapi_document_is_valid_openapi_3(cards_client):
    doc = cards_client.get("/api/v1/openapi.json").get_json()
    validate(doc)  # raises on any structural error
    assert doc["openapi"].startswith("3.")
    for path in ("/candidates", "/check", "/cards/{name}", "/games", "/games/{game_id}/actions",
                 "/games/{game_id}/undo", "/games/{game_id}/could-be"):
        assert path in doc["paths"], path
    body = doc["paths"]["/games/{game_id}/actions"]["post"]
    assert body["security"] == [{"bearer": []}] and "409" in body["responses"]
