#!/usr/bin/env python3
"""bench/players.py ARCHIVE N > NAMED

Gives the games `gamerec gen` made players, for the `ratings` and `report`
benchmarks and screenshots: N players (P0 … P{N-1}) whose strengths are
drawn from a normal distribution (seeded), two drawn for each game; the
game's winner (as the rules ended it) is drawn by the Bradley–Terry model
over their strengths and put on the side that won. A Date tag, ten games a
day from 2026-01-01. An unfinished game keeps its two players.
"""

import math
import random
import re
import sys


def main():
    path, n = sys.argv[1], int(sys.argv[2])
    random.seed(1)
    strength = [random.gauss(0, 1) for _ in range(n)]
    text = open(path, encoding="utf-8").read()
    records = [r for r in re.split(r"\n(?=\[Game )", text) if r.strip()]
    for i, record in enumerate(records):
        m = re.search(r'\[Result "([^"]+)"\]', record)
        result = m.group(1) if m else "*"
        a, b = random.sample(range(n), 2)
        first, second = a, b
        if result in ("1-0", "0-1"):
            p = 1 / (1 + math.exp(strength[b] - strength[a]))
            winner, loser = (a, b) if random.random() < p else (b, a)
            first, second = (winner, loser) if result == "1-0" else (loser, winner)
        names = iter([first, second])
        record = re.sub(
            r'^\[(\w+) "random"\]',
            lambda t: f'[{t.group(1)} "P{next(names)}"]',
            record,
            count=2,
            flags=re.M,
        )
        day = i // 10
        date = f"{2026 + day // 336}.{1 + day // 28 % 12:02d}.{1 + day % 28:02d}"
        record = record.replace("[Round", f'[Date "{date}"]\n[Round', 1)
        sys.stdout.write(record.strip() + "\n\n")


if __name__ == "__main__":
    main()
