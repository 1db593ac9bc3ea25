"""IPC: framing and JSON-RPC envelopes (pure), the dispatcher (asyncio) and the ``QLocalServer`` endpoint."""
