"""Pure-Python ``requestedSchema`` handling (no Qt): usable by server authors too.

``parse_requested_schema(schema) -> FormSpec`` (raises ``SchemaError`` listing every
violation), value checks with user-facing messages, content building and final validation.
Implements MCP 2025-11-25 / 2026-07-28 "Requested Schema" plus docs/design.md's lenient extras.
"""

from .model import FieldKind, FieldSpec, FormSpec, Option, SchemaError, Violation
from .parse import STRING_FORMATS, parse_requested_schema
from .values import (
    build_content,
    check_value,
    coerce_number,
    describe_constraints,
    format_number,
    looks_secret,
    validate_content,
)

__all__ = [
    "FieldKind",
    "FieldSpec",
    "FormSpec",
    "Option",
    "SchemaError",
    "Violation",
    "STRING_FORMATS",
    "parse_requested_schema",
    "build_content",
    "check_value",
    "coerce_number",
    "describe_constraints",
    "format_number",
    "looks_secret",
    "validate_content",
]
