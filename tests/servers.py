"""Servers on 127.0.0.1 that misbehave on purpose, for the LLM client's tests."""

from __future__ import annotations

import socket
import threading

__all__ = ["Trickle"]


class Trickle:
    """A server on 127.0.0.1 that answers with headers, then one byte every 0.2 s."""

    def __init__(self, chunks: int = 150) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.server.getsockname()[1]}/v1"
        self.sent = 0
        self.finished = threading.Event()
        self.stop = threading.Event()
        self.chunks = chunks
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        connection, _ = self.server.accept()
        with connection:
            connection.recv(65536)
            connection.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                + f"Content-Length: {self.chunks}\r\n\r\n".encode()
            )
            try:
                while self.sent < self.chunks and not self.stop.wait(0.2):
                    connection.sendall(b" ")
                    self.sent += 1
            except OSError:
                pass  # the client hung up: what the test wants
        self.finished.set()

    def close(self) -> None:
        self.stop.set()
        self.server.close()
