#!/bin/sh
# Issue 33: the viewer's peak memory against the number of games, and
# `view --index` beside `show --index`.
#   GAMEREC=target/release/gamerec bench/view.sh
set -eu
gamerec=${GAMEREC:-target/release/gamerec}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
echo "| games | page | peak memory | time |"
echo "|---|---|---|---|"
for n in 100 1000 2000 5000 10000; do
    "$gamerec" gen --game oshi --games "$n" --seed 3 -o "$dir/g.grec"
    /usr/bin/time -f "%M %e" -o "$dir/t" "$gamerec" view "$dir/g.grec" -q -o "$dir/g.html"
    read -r kb s < "$dir/t"
    bytes=$(wc -c < "$dir/g.html")
    echo "| $n | $((bytes / 1000000)) MB | $((kb / 1024)) MiB | $s s |"
done
"$gamerec" gen --game oshi --games 150000 --seed 1 -o "$dir/big.grec"
/usr/bin/time -f "view --index 140000 of 150,000: %M KB, %e s" "$gamerec" view "$dir/big.grec" --index 140000 -q -o "$dir/i.html"
/usr/bin/time -f "show --index 140000 of 150,000: %M KB, %e s" "$gamerec" show "$dir/big.grec" --index 140000 > /dev/null
