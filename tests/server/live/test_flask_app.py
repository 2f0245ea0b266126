"""The court's Flask class skips URL matching for Socket.IO's event contexts only."""

from __future__ import annotations

from unittest import mock

from flask import request

from server.live.flask_app import CourtFlask


def court_flask() -> CourtFlask:
    app = CourtFlask(__name__)
    app.add_url_rule("/games/<game_id>", "game", lambda game_id: game_id)
    return app


def test_an_event_context_on_the_socketio_path_matches_no_route() -> None:
    # Given the app, when a request context is built as Flask-SocketIO builds one per event
    app = court_flask()
    with mock.patch("werkzeug.routing.MapAdapter.match") as match:
        with app.test_request_context("/socket.io/?EIO=4&transport=websocket"):
            # Then no URL was matched and no 404 is kept for the event
            assert request.routing_exception is None
        match.assert_not_called()


def test_every_other_request_is_routed_as_before() -> None:
    app = court_flask()
    with app.test_request_context("/games/abc"):
        assert request.view_args == {"game_id": "abc"}
    with app.test_request_context("/nowhere"):
        assert request.routing_exception is not None
    assert app.test_client().get("/games/abc").get_data(as_text=True) == "abc"
