"""Print the AT-SPI events of the running "elicit-tray" application as JSON lines, the way a
screen reader receives them. Runs with the system Python (Debian's python3-pyatspi), not the
venv, until it is ended; prints ``ready`` once it listens.

Usage: /usr/bin/python3 atspi_events.py EVENT_TYPE...   (e.g. ``focus:`` ``object:state-changed``;
needs DBUS_SESSION_BUS_ADDRESS)

Each line: ``{"type", "role", "name", "detail1", "parent"}``: the event's type and detail, its
source's role and name, and the source's parent as ``[role, name]``. (A popup, such as a date
picker's calendar, is no child of the application in Qt's tree: its parts are seen here.)
"""

import json
import sys

import pyatspi


def _print(event):
    try:
        source = event.source
        if source is None or source.getApplication().name != "elicit-tray":
            return
        parent = source.parent
        line = {
            "type": event.type,
            "role": source.getRoleName(),
            "name": source.name,
            "detail1": event.detail1,
            "parent": [parent.getRoleName(), parent.name] if parent is not None else None,
        }
    except Exception as error:  # a source gone by now: say so, never stop listening
        line = {"type": event.type, "error": str(error)}
    print(json.dumps(line, ensure_ascii=False), flush=True)


def main():
    for kind in sys.argv[1:]:
        pyatspi.Registry.registerEventListener(_print, kind)
    print("ready", flush=True)
    pyatspi.Registry.start()


if __name__ == "__main__":
    sys.exit(main())
