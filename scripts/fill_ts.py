"""Fill a Qt Linguist .ts file from a Python dict of source -> translation (maintainer tool).

Usage: python scripts/fill_ts.py resources/i18n/elicit_tray_de.ts TRANSLATIONS.py
TRANSLATIONS.py defines ``TRANSLATIONS = {source: translation}``. Existing finished
translations are kept; a source without a translation stays "unfinished".
"""

from __future__ import annotations

import runpy
import sys
import xml.etree.ElementTree as ET


def main() -> int:
    ts_path, table_path = sys.argv[1], sys.argv[2]
    table = runpy.run_path(table_path)["TRANSLATIONS"]
    tree = ET.parse(ts_path)
    missing = []
    for message in tree.getroot().iter("message"):
        source = message.find("source").text
        translation = message.find("translation")
        if translation.get("type") != "unfinished" and translation.text:
            continue
        if source in table:
            translation.text = table[source]
            translation.attrib.pop("type", None)
        else:
            missing.append(source)
    tree.write(ts_path, encoding="utf-8", xml_declaration=True)
    for source in missing:
        print(f"untranslated: {source}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
