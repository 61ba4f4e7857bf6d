"""Builds the Flask app (nothing else): `flask --app app run`, or `make serve`."""

from mentalmagic.web import create_app

app = create_app()
