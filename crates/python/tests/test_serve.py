"""gg.serve(): the page's games view for one solved game, answered from Python."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

import gamegraph as gg


def request(server, path, method="GET", host=None):
    url = server.url.split("#")[0].rstrip("/") + path
    req = urllib.request.Request(url, method=method, data=b"" if method == "POST" else None)
    if host is not None:
        req.add_header("Host", host)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


@pytest.fixture
def served():
    servers = []

    def start(game):
        s = gg.serve(game, port=0, block=False)
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.shutdown()
        s.server_close()


def test_a_shipped_game_is_played_on_the_page_as_the_session_plays_it(served):
    game = gg.games.tic_tac_toe()
    s = served(game)
    status, page = request(s, "/")
    assert status == 200 and b"view-games" in page
    for path in ("/assets/app.js", "/assets/app.css", "/assets/cytoscape.min.js"):
        assert request(s, path)[0] == 200, path
    status, body = request(s, "/assets/served.json")
    assert json.loads(body) == {"games": ["tic-tac-toe"], "only": True}
    status, body = request(s, "/api/play-game?game=tic-tac-toe&move=b2&move=a1", "POST")
    assert status == 200
    view = json.loads(body)
    assert view == json.loads(game._view(["b2", "a1"]))
    p = view["position"]
    assert (view["outcome"], view["remoteness"]) == (str(game.outcome(p)), game.remoteness(p))
    assert view["board"]["cells"] == "".join(game.board(p).cells)
    assert {m["name"] for m in view["moves"]} == {game.move_name(p, q) for q, _, _ in game.moves(p)}
    assert view["advice"].startswith(view["best"])
    status, body = request(s, "/api/play-game?game=tic-tac-toe&move=d4", "POST")
    assert status == 400
    assert json.loads(body)["error"].startswith("illegal move: 'd4' is not a move here")


def test_a_game_of_python_functions_is_played_by_its_positions(served):
    game = gg.explore(5, range)  # from n to any smaller number: 0 loses
    s = served(game)
    status, body = request(s, "/api/play-game?game=game", "POST")
    view = json.loads(body)
    assert (view["position"], view["outcome"], view["remoteness"], view["best"]) == ("5", "win", 1, "0")
    assert sorted(m["name"] for m in view["moves"]) == ["0", "1", "2", "3", "4"]
    status, body = request(s, "/api/play-game?game=game&move=0", "POST")
    view = json.loads(body)
    assert (view["over"], view["result"], view["board"]) == ("finished", "loss", None)


def test_another_host_and_other_paths_are_refused(served):
    s = served(gg.games.kayles([3]))
    port = s.server_address[1]
    assert request(s, "/", host=f"evil.example:{port}")[0] == 403
    assert request(s, "/api/retro", "POST")[0] == 404
    assert request(s, "/nothing")[0] == 404
