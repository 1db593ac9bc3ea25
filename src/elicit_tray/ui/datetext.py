"""Date and date-time text as the date pickers (:mod:`~elicit_tray.ui.datepicker`) read it:
the "not set" sentinel date, RFC 3339 date-times to the picker's parts, whether a picker can
show a default exactly (:func:`picker_shows`: otherwise the registry's ``"date-as-text"`` row
keeps it as typed text), and the offset shown beside a date-time.
"""

from __future__ import annotations

import datetime as _dt
import re

from PySide6.QtCore import QDate, QTime

from ..schema import FieldKind, FieldSpec

__all__ = ["NO_DATE", "offset_text", "parse_rfc3339", "picker_shows"]

#: Sentinel date meaning "no date" in the date pickers (shown as the empty special text): Qt's
#: earliest picker date, so every date from 0100-01-02 on can be shown.
NO_DATE = QDate(100, 1, 1)


def parse_rfc3339(value: str) -> tuple[QDate, QTime, _dt.timedelta, bool] | None:
    """``(date, time to the second, offset, exact)`` of an RFC 3339 date-time; ``exact`` is
    False when the picker cannot show it as it is (a fraction of a second, a leap second)."""
    found = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(\.\d+)?(?:[Zz]|([+-])(\d\d):(\d\d))", value)
    if not found:
        return None
    y, mo, d, h, mi, sec = (int(g) for g in found.groups()[:6])
    fraction, sign, oh, om = found.groups()[6:]
    offset = (
        _dt.timedelta(0) if sign is None else (1 if sign == "+" else -1) * _dt.timedelta(hours=int(oh), minutes=int(om))
    )
    date = QDate(y, mo, d)
    exact = date.isValid() and date > NO_DATE and sec < 60 and fraction is None
    return date, QTime(h, mi, min(sec, 59)), offset, exact


def picker_shows(spec: FieldSpec) -> bool:
    """Whether the date/date-time picker can show ``spec.default`` exactly (dates after
    0100-01-01, whole seconds); otherwise the field is a validated text field."""
    if spec.default is None:
        return True
    if spec.kind is FieldKind.DATE:
        date = QDate.fromString(spec.default, "yyyy-MM-dd")
        return date.isValid() and date > NO_DATE
    parsed = parse_rfc3339(spec.default)
    return parsed is not None and parsed[3]


def offset_text(offset: _dt.timedelta) -> str:
    """``offset`` as shown beside a date-time picker: ``UTC+01:00``, ``UTC-05:30``."""
    minutes = int(offset.total_seconds()) // 60
    sign = "+" if minutes >= 0 else "-"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
