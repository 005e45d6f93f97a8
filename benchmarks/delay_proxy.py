"""A TCP proxy on 127.0.0.1 that delays every byte it forwards: a network in a box.

``DelayProxy(target_port, one_way_seconds)`` listens on a port of its own and
forwards each connection to ``127.0.0.1:target_port``; everything sent either
way arrives ``one_way_seconds`` later, in order, so a round trip costs twice
that. It runs an asyncio loop on a daemon thread of the process that starts it;
clients may be other processes.
"""

from __future__ import annotations

import asyncio
import threading
import time

__all__ = ["DelayProxy"]

_CHUNK = 65_536


class DelayProxy:
    """Forwards 127.0.0.1:``port`` to 127.0.0.1:``target_port`` with a fixed delay each way."""

    def __init__(self, target_port: int, one_way_seconds: float) -> None:
        self.target_port = target_port
        self.delay = one_way_seconds
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._server: asyncio.base_events.Server | None = None
        threading.Thread(target=self._run, name="delay-proxy", daemon=True).start()
        if not self._ready.wait(10):
            raise RuntimeError("the delay proxy did not start")

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._connection, "127.0.0.1", 0)
        )
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Copy ``reader`` to ``writer``, each chunk held back until its delay has passed."""
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def send() -> None:
            while True:
                due, chunk = await queue.get()
                wait = due - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                if not chunk:
                    break
                writer.write(chunk)
                await writer.drain()
            writer.close()

        sender = asyncio.ensure_future(send())
        try:
            while True:
                chunk = await reader.read(_CHUNK)
                await queue.put((time.monotonic() + self.delay, chunk))
                if not chunk:
                    break
        except ConnectionError:
            await queue.put((time.monotonic(), b""))
        await sender

    async def _connection(
        self, client_reader: asyncio.StreamReader, client_writer: asyncio.StreamWriter
    ) -> None:
        try:
            server_reader, server_writer = await asyncio.open_connection(
                "127.0.0.1", self.target_port
            )
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(
            self._pipe(client_reader, server_writer),
            self._pipe(server_reader, client_writer),
            return_exceptions=True,
        )

    def close(self) -> None:
        """Stop accepting and forwarding."""

        def stop() -> None:
            if self._server is not None:
                self._server.close()
            self._loop.stop()

        self._loop.call_soon_threadsafe(stop)

    def __enter__(self) -> DelayProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
