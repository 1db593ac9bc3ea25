"""What the secret detector and the history's URL rule cost: milliseconds for a whole form of
distinct fields judged the first time (cold) and again (warm: the dialog, the checker and the
recorder judge each field), and for one URL. The form dialog judges every field as it is built
(docs/design.md target: a 200-field form built in at most 100 ms). Prints a table.

    PYTHONPATH=src .venv/bin/python benchmarks/privacy_bench.py
"""

from __future__ import annotations

import statistics
import time

from elicit_tray.history.privacy import history_url
from elicit_tray.schema.model import FieldKind, FieldSpec
from elicit_tray.schema.secrets import looks_secret

TITLES = {
    "latin": ("field_{i}_someCamelCaseName", "A rather long title for field {i} with several words"),
    "cyrillic": ("поле_{i}", "Длинное название поля номер {i} с несколькими словами"),
    "cjk": ("字段{i}", "请输入第{i}个字段的内容"),
}
URLS = {
    "short": "https:user:pw@bank.example/reset/8f3a9c1d2e/confirm?t=1",
    "50 segments": "https://bank.example/" + "/".join(f"segment-{i}" for i in range(50)),
}


def _form(script: str, fields: int, run: int) -> list[FieldSpec]:
    name, title = TITLES[script]
    return [
        FieldSpec(name=name.format(i=f"{run}x{i}"), kind=FieldKind.TEXT, title=title.format(i=f"{run}x{i}"))
        for i in range(fields)
    ]


def _ms(action, repeat: int = 5) -> float:
    times = []
    for run in range(repeat):
        start = time.perf_counter()
        action(run)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _judge(specs: list[FieldSpec]) -> float:
    start = time.perf_counter()
    for spec in specs:
        looks_secret(spec)
    return (time.perf_counter() - start) * 1000


def main() -> None:
    print(f"{'what':38} {'cold ms':>9} {'warm ms':>9}")
    for script in TITLES:
        for fields in (10, 200):
            cold, warm = [], []
            for run in range(5):  # a new form judged, then the same form again at once
                specs = _form(script, fields, run)
                cold.append(_judge(specs))
                warm.append(_judge(specs))
            label = f"looks_secret, {fields} {script} fields"
            print(f"{label:38} {statistics.median(cold):9.2f} {statistics.median(warm):9.2f}")
    for name, url in URLS.items():
        print(f"{f'history_url, {name}':38} {_ms(lambda _run, url=url: history_url(url)):9.3f} {'':>9}")


if __name__ == "__main__":
    main()
