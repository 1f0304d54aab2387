#!/usr/bin/env python3
"""Sums the unit times of a `cargo build --timings` report by crate, and by group.

    bench/timings.py target/peer/timings-contract-release.html [CRATE...]

Prints the total unit time (the sum over every unit, more than the wall time on two cores),
the twenty longest crates, and for each CRATE (a regular expression) the time of the crates
it matches. The cost benchmark (`--only build`) writes one report per style and profile.
"""

import json
import re
import sys
from collections import defaultdict


def units(path):
    text = open(path, encoding="utf-8").read()
    match = re.search(r"const UNIT_DATA = (\[.*?\n\]);", text, re.S)
    return json.loads(match.group(1))


def main():
    data = units(sys.argv[1])
    by_crate = defaultdict(float)
    for u in data:
        by_crate[u["name"]] += u["duration"]
    total = sum(by_crate.values())
    print(f"{len(by_crate)} crates, {len(data)} units, {total:.1f} s of unit time")
    for name, t in sorted(by_crate.items(), key=lambda kv: -kv[1])[:20]:
        print(f"  {t:7.1f} s  {name}")
    for name in sys.argv[2:]:
        picked = sum(t for n, t in by_crate.items() if re.fullmatch(name, n))
        print(f"{name}: {picked:.1f} s ({picked / total:.0%})")


if __name__ == "__main__":
    main()
