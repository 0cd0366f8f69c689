"""A loopback stand-in for an Ollama server, for tests that exercise the real ``ollama`` client.

It speaks the subset of the HTTP API the client uses here: POST /api/embed, POST /api/chat,
GET /api/tags, GET /api/version (and GET / like the real server). Embeddings are
deterministic functions of the text; chat answers are scripted by the test. Every request
body is recorded so tests can assert on the prompt, ``format`` and ``options``.

    with OllamaStandIn(dim=768) as server:
        server.script('{"facts": []}')
        extractor = OllamaExtractor(host=server.host)
        ...
        assert server.chat_requests[0]["options"]["temperature"] == 0
"""

from __future__ import annotations

import hashlib
import json
import socket
import struct
import threading
from collections import deque
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ChatReply = Callable[[dict[str, Any]], str]


def deterministic_vector(text: str, dim: int) -> list[float]:
    """A fixed pseudo-random vector for ``text``: sha256 blocks read as floats in [-1, 1)."""
    values: list[float] = []
    block = 0
    while len(values) < dim:
        digest = hashlib.sha256(f"{block}\x00{text}".encode()).digest()
        for (word,) in struct.iter_unpack(">I", digest):
            values.append(word / 2**31 - 1.0)
        block += 1
    return values[:dim]


def closed_port_host() -> str:
    """A loopback URL nothing listens on (a port bound then released), for connection-refused tests."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


class OllamaStandIn:
    """The stand-in server; use as a context manager, talk to it at ``.host``.

    dim: width of /api/embed vectors (set it unlike the embedder's dim to test the check).
    models: if given, requests naming any other model get 404 {"error": "model 'x' not found"},
        as the real server answers for a model that was never pulled.
    """

    def __init__(self, dim: int = 768, models: Iterable[str] | None = None) -> None:
        self.dim = dim
        self.models: set[str] | None = set(models) if models is not None else None
        #: drop this many vectors from each embed answer (to test the count check)
        self.embed_shortfall = 0
        #: (method, path, body) for every request, in arrival order
        self.requests: list[tuple[str, str, dict[str, Any]]] = []
        self._replies: deque[str] = deque()
        self._reply_fn: ChatReply | None = None
        self._failures: deque[tuple[str | None, int, dict[str, Any]]] = deque()
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- scripting ---------------------------------------------------------------------------

    def script(self, *contents: str) -> None:
        """Queue chat answers; each /api/chat call takes the next one."""
        with self._lock:
            self._replies.extend(contents)

    def reply_with(self, fn: ChatReply | None) -> None:
        """Answer /api/chat with ``fn(request_body)`` whenever the queue is empty."""
        with self._lock:
            self._reply_fn = fn

    def fail_next(self, status: int, error: str, path: str | None = None) -> None:
        """Make the next request (to ``path``, or to any path) fail with {"error": error}."""
        with self._lock:
            self._failures.append((path, status, {"error": error}))

    # -- what was received -------------------------------------------------------------------

    def bodies(self, path: str) -> list[dict[str, Any]]:
        """The JSON bodies received on ``path``, in order."""
        with self._lock:
            return [body for _, p, body in self.requests if p == path]

    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        return self.bodies("/api/chat")

    @property
    def embed_requests(self) -> list[dict[str, Any]]:
        return self.bodies("/api/embed")

    # -- lifecycle ---------------------------------------------------------------------------

    @property
    def host(self) -> str:
        if self._server is None:
            raise RuntimeError("the stand-in is not running; use it as a context manager")
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> OllamaStandIn:
        handler = type("Handler", (_Handler,), {"standin": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        # A short poll interval keeps shutdown (once per test) from costing half a second.
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.02},
            name="ollama-standin",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> OllamaStandIn:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- request handling (called from server threads) ---------------------------------------

    def _take_failure(self, path: str) -> tuple[int, dict[str, Any]] | None:
        with self._lock:
            for i, (want, status, body) in enumerate(self._failures):
                if want is None or want == path:
                    del self._failures[i]
                    return status, body
        return None

    def _unknown_model(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        model = body.get("model", "")
        if self.models is not None and model not in self.models:
            return 404, {"error": f"model '{model}' not found"}
        return None

    def _embed(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        inputs = body.get("input", "")
        texts = [inputs] if isinstance(inputs, str) else list(inputs)
        vectors = [deterministic_vector(t, self.dim) for t in texts]
        if self.embed_shortfall:
            vectors = vectors[: max(0, len(vectors) - self.embed_shortfall)]
        return 200, {
            "model": body.get("model"),
            "embeddings": vectors,
            "total_duration": 1000,
            "load_duration": 10,
            "prompt_eval_count": sum(len(t.split()) for t in texts),
        }

    def _chat_content(self, body: dict[str, Any]) -> str:
        with self._lock:
            if self._replies:
                return self._replies.popleft()
            fn = self._reply_fn
        if fn is not None:
            return fn(body)
        return '{"facts": []}'

    def _chat(self, body: dict[str, Any]) -> dict[str, Any]:
        return {
            "model": body.get("model"),
            "created_at": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
            "message": {"role": "assistant", "content": self._chat_content(body)},
            "done": True,
            "done_reason": "stop",
            "total_duration": 1000,
            "load_duration": 10,
            "prompt_eval_count": 1,
            "eval_count": 1,
        }

    def _tags(self) -> dict[str, Any]:
        names = sorted(self.models) if self.models is not None else []
        return {
            "models": [
                {
                    "name": n,
                    "model": n,
                    "modified_at": "2024-01-01T00:00:00Z",
                    "size": 1,
                    "digest": hashlib.sha256(n.encode()).hexdigest(),
                    "details": {},
                }
                for n in names
            ]
        }


class _Handler(BaseHTTPRequestHandler):
    standin: OllamaStandIn  # set on the per-server subclass

    def log_message(self, format: str, *args: Any) -> None:
        # Keep pytest output clean; requests are recorded on the stand-in instead.
        pass

    def _send(self, status: int, payload: dict[str, Any] | str, ndjson: bool = False) -> None:
        if isinstance(payload, str):
            data, ctype = payload.encode(), "text/plain; charset=utf-8"
        elif ndjson:
            data, ctype = (json.dumps(payload) + "\n").encode(), "application/x-ndjson"
        else:
            data, ctype = json.dumps(payload).encode(), "application/json; charset=utf-8"
        try:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            # The client gave up (a timeout test); nothing is listening for the answer.
            pass

    def _record(self, body: dict[str, Any]) -> None:
        with self.standin._lock:
            self.standin.requests.append((self.command, self.path, body))

    def do_GET(self) -> None:
        self._record({})
        failure = self.standin._take_failure(self.path)
        if failure:
            self._send(*failure)
        elif self.path == "/":
            self._send(200, "Ollama is running")
        elif self.path == "/api/version":
            self._send(200, {"version": "0.0.0-standin"})
        elif self.path == "/api/tags":
            self._send(200, self.standin._tags())
        else:
            self._send(404, "404 page not found")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            self._record({"_raw": raw.decode("utf-8", "replace")})
            self._send(400, {"error": "invalid JSON body"})
            return
        self._record(body)
        failure = self.standin._take_failure(self.path)
        if failure:
            self._send(*failure)
            return
        if self.path not in ("/api/embed", "/api/chat"):
            self._send(404, "404 page not found")
            return
        unknown = self.standin._unknown_model(body)
        if unknown:
            self._send(*unknown)
            return
        if self.path == "/api/embed":
            self._send(*self.standin._embed(body))
            return
        # The real server streams unless told "stream": false; mirror that default.
        if body.get("stream", True):
            self._send(200, self.standin._chat(body), ndjson=True)
        else:
            self._send(200, self.standin._chat(body))
