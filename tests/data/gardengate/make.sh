#!/bin/sh
# Regenerates this folder with the Garden Gate's own LZ-String (npm
# lz-string 1.4.4, the version the site ships in js_util/):
#   tests/data/gardengate/make.sh path/to/gamerec
# games.txt: Vagabond games in Garden Gate notation, one per line (random
# legal games from `gamerec gen`, some cut short); links.txt: the same games
# as the site's long links (links.js); other.txt: links that hold no
# Vagabond game (shortened, spectate, Skud Pai Sho). Needs Node and npm.
set -eu
gamerec=$(cd "$(dirname "${1:?usage: make.sh GAMEREC}")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm init -y > /dev/null && npm install --no-audit --no-fund --silent lz-string@1.4.4)
"$gamerec" gen --game vagabond --count 12 --seed 15 --finish --max-plies 80 \
    | "$gamerec" convert -q --to gardengate - > "$here/games.txt"
cp "$here/links.js" "$work/"
(cd "$work" && node links.js < "$here/games.txt" > "$here/links.txt" 2> "$here/other.txt")
