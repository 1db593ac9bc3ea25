"""Print the AT-SPI tree of the running "elicit-tray" application as JSON lines, the way a
screen reader sees it. Runs with the system Python (Debian's python3-pyatspi), not the venv.

Usage: /usr/bin/python3 atspi_dump.py [APP_NAME]   (needs DBUS_SESSION_BUS_ADDRESS)
"""

import json
import sys

import pyatspi


def _node(acc, depth):
    states = [pyatspi.stateToString(s) for s in acc.getState().getStates()]
    text = None
    try:
        iface = acc.queryText()
        text = iface.getText(0, iface.characterCount)
    except NotImplementedError:
        pass
    relations = {}
    for relation in acc.getRelationSet():
        kind = pyatspi.relationToString(relation.getRelationType())
        relations[kind] = [relation.getTarget(i).name for i in range(relation.getNTargets())]
    return {
        "depth": depth,
        "role": acc.getRoleName(),
        "name": acc.name,
        "description": acc.description,
        "states": sorted(states),
        "text": text,
        "relations": relations,
    }


def _walk(acc, depth, out):
    out.append(_node(acc, depth))
    for index in range(acc.childCount):
        child = acc.getChildAtIndex(index)
        if child is not None:
            _walk(child, depth + 1, out)


def main():
    wanted = sys.argv[1] if len(sys.argv) > 1 else "elicit-tray"
    desktop = pyatspi.Registry.getDesktop(0)
    for index in range(desktop.childCount):
        app = desktop.getChildAtIndex(index)
        if app is not None and app.name == wanted:
            out = []
            _walk(app, 0, out)
            for node in out:
                print(json.dumps(node, ensure_ascii=False))
            return 0
    print(f"no application named {wanted!r}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
