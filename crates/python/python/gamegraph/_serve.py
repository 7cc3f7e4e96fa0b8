"""The page's games view for one solved game, served from Python: ``gg.serve(solved)``.

A game given by Python functions has its moves in Python, so the ``gamegraph`` binary's
server cannot play it; this server answers the page's requests from the SolvedGame itself,
with the same play session and the same JSON as ``gamegraph play --json``.
"""

from __future__ import annotations

import json
import threading
import webbrowser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from . import _native


class Server(ThreadingHTTPServer):
    """The running server: ``url`` to open, ``shutdown()`` to stop it."""

    daemon_threads = True
    url: str


def serve(game: Any, *, host: str = "127.0.0.1", port: int = 8080, open: bool = False,
          block: bool = True) -> Server:
    """Serves the page's games view for ``game`` (a SolvedGame) at ``http://host:port``: its
    board (for a shipped game), every move with its value, hints, undo, the value history
    and an engine for either side, each answer from the solved values.

    With ``block=False`` (in a notebook) the server runs in a thread and is returned:
    ``server.url`` is its address (``port=0`` picks a free port), ``server.shutdown()``
    stops it. Otherwise it serves until interrupted. ``open=True`` opens the page in a
    browser. Requests naming another host than this server's are refused (403), so that
    another site cannot reach it through a name of its own.

    >>> import gamegraph as gg, json, urllib.request
    >>> server = gg.serve(gg.games.tic_tac_toe(), port=0, block=False)
    >>> url = server.url.split("#")[0] + "api/play-game?game=tic-tac-toe&move=b2"
    >>> view = json.load(urllib.request.urlopen(urllib.request.Request(url, method="POST")))
    >>> view["position"], view["best"], view["advice"]
    ('.../.X./...', 'a3', 'a3 ties in 8 plies')
    >>> server.shutdown(); server.server_close()
    """
    name = game.name or "game"
    first, _, rest = name.partition(" ")
    entry = {
        "name": first,
        "arguments": rest,
        "about": f"{name}: {len(game)} positions, solved",
        "notation": "",
        "moves": "a move's name, as the buttons show it",
        "example": rest,
    }
    files = {path: (kind, body) for path, kind, body in _native._page_files()}
    files["/assets/games.json"] = ("application/json", json.dumps([entry]).encode())
    files["/assets/served.json"] = (
        "application/json", json.dumps({"games": [name], "only": True}).encode())
    # Positions given by Python functions are read under one lock, a request at a time.
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def _send(self, status: int, kind: str, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            self.wfile.write(body)

        def _error(self, status: int, message: str) -> None:
            self._send(status, "application/json", json.dumps({"error": message}).encode())

        def _host_ok(self) -> bool:
            port = self.server.server_address[1]
            allowed = {f"{h}:{port}" for h in (host, "127.0.0.1", "localhost", "[::1]")}
            if self.headers.get("Host") in allowed:
                return True
            self._error(403, "this server answers requests to its own address only")
            return False

        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            if not self._host_ok():
                return
            found = files.get(urlsplit(self.path).path)
            if found is None:
                self._error(404, f"no page {urlsplit(self.path).path}")
                return
            self._send(200, *found)

        def do_POST(self) -> None:  # noqa: N802
            if not self._host_ok():
                return
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            url = urlsplit(self.path)
            if url.path != "/api/play-game":
                self._error(404, f"no endpoint {url.path}: this server plays {name}")
                return
            moves = parse_qs(url.query, keep_blank_values=True).get("move", [])
            try:
                with lock:
                    body = game._view(moves)
            except ValueError as e:
                self._error(400, str(e))
                return
            self._send(200, "application/json", body.encode())

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = Server((host, port), Handler)
    server.url = f"http://{host}:{server.server_address[1]}/#games"
    if open:
        webbrowser.open(server.url)
    if not block:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return server
