"""Issue 11 §1: the biggest legal form builds in work proportional to its size, counted in
widgets and rows per event-loop turn (not timed): 256 multi-selects x 200 options (51,200
checkboxes) stalled the app 8.2 s; the options of a form are now limited in total
(``MAX_FORM_OPTIONS``), so a legal form holds at most that many option widgets."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QCheckBox, QRadioButton, QWidget

from elicit_tray.elicitation import ParamsError, parse_elicit_params
from elicit_tray.limits import MAX_FORM_OPTIONS, MAX_PROPERTIES
from elicit_tray.ui.form_dialog import FIRST_ROWS, LATER_ROWS, FormDialog

#: Widgets per field besides its options (row cell, layout holder, label, hint, error, group ...).
PER_FIELD = 5
#: Widgets of the dialog itself (header, message, buttons, scroll areas ...).
CHROME = 48


def _params(per_field: list[int]) -> dict[str, Any]:
    props = {
        f"f{i}": {"type": "array", "title": f"Field {i}", "items": {"enum": [f"o{j}" for j in range(n)]}}
        for i, n in enumerate(per_field)
    }
    return {"message": "Pick", "requestedSchema": {"type": "object", "properties": props}}


def _build_all(dialog: FormDialog) -> list[int]:
    """Build the rows the way the dialog does after its first paint; the rows built per turn."""
    batches = [len(dialog.rows)]
    while dialog._later:
        before = len(dialog.rows)
        dialog._build_later()
        batches.append(len(dialog.rows) - before)
    return batches


@pytest.mark.parametrize(
    "per_field",
    [
        [2] * MAX_PROPERTIES,  # the most fields, with the most options they may share
        [200, 200, 112],  # the longest lists
    ],
    ids=["256-fields-x-2", "3-fields-x-200"],
)
def test_the_biggest_legal_forms_build_a_bounded_number_of_widgets(qapp, per_field):
    assert sum(per_field) == MAX_FORM_OPTIONS
    dialog = FormDialog(parse_elicit_params(_params(per_field)), arm_delay_ms=0)
    try:
        batches = _build_all(dialog)
        assert batches[0] == min(FIRST_ROWS, len(per_field))
        assert all(0 < batch <= LATER_ROWS for batch in batches[1:])
        assert len(dialog.rows) == len(per_field)
        options = dialog.findChildren(QCheckBox) + dialog.findChildren(QRadioButton)
        assert len(options) == MAX_FORM_OPTIONS
        widgets = len(dialog.findChildren(QWidget))
        assert widgets <= CHROME + PER_FIELD * len(per_field) + MAX_FORM_OPTIONS, widgets
    finally:
        dialog.close()
        dialog.deleteLater()


def test_the_form_that_stalled_the_app_is_refused_before_anything_is_built():
    with pytest.raises(ParamsError) as caught:
        parse_elicit_params(_params([200] * MAX_PROPERTIES))
    assert [v.to_json() for v in caught.value.violations] == [
        {"path": "/requestedSchema/properties", "message": "more than 512 options in the form (51200)"}
    ]
