"""The request forms the benchmarks send: ``n`` fields rotating over the common kinds (text
with a description, integer with bounds, boolean, single-select, email), each with a default,
so a scripted Accept is valid without typing."""

from __future__ import annotations

from typing import Any


def field(k: int) -> dict[str, Any]:
    kind = k % 5
    if kind == 0:
        return {"type": "string", "title": f"Name {k}", "description": f"What to call item {k}", "default": f"item {k}"}
    if kind == 1:
        return {"type": "integer", "title": f"Count {k}", "minimum": 0, "maximum": 1000, "default": k}
    if kind == 2:
        return {"type": "boolean", "title": f"Enable {k}", "default": k % 2 == 0}
    if kind == 3:
        return {"type": "string", "title": f"Size {k}", "enum": ["small", "medium", "large"], "default": "medium"}
    return {"type": "string", "title": f"Email {k}", "format": "email", "default": f"user{k}@example.com"}


def form_params(n: int, message: str | None = None) -> dict[str, Any]:
    """``elicitation/create`` params with an ``n``-field form."""
    return {
        "message": message or f"Benchmark form with {n} fields",
        "requestedSchema": {"type": "object", "properties": {f"f{k}": field(k) for k in range(n)}},
        "_meta": {"elicit-tray/requester": {"serverName": "bench-server"}},
    }
