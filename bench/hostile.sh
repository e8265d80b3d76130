#!/bin/sh
# bench/hostile.sh: peak memory (and time, disk) of gamerec on issue 32's
# hostile inputs, at 2 jobs. Makes the inputs in a temporary folder (about
# 1.5 GB of disk while it runs; pyarrow for the Parquet ones) and prints
# one line each: what, the command, peak RSS in MiB, seconds, exit code.
#   GAMEREC=target/release/gamerec bench/hostile.sh
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
G=${GAMEREC:-$root/target/release/gamerec}
case $G in /*) ;; *) G=$root/$G ;; esac
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d"
measure() {
    what=$1
    shift
    /usr/bin/time -f "%M %e %x" -o t.txt "$@" > /dev/null 2> err.txt || true
    read -r kb secs code <<EOT
$(tail -n 1 t.txt)
EOT
    printf '%-44s %8.1f MiB %7.2f s  exit %s   (%s)\n' "$what" "$(echo "$kb / 1024" | bc -l)" "$secs" "$code" "$*"
}
# 3. Garden Gate link bombs.
python3 -c "
import importlib.util, sys
spec = importlib.util.spec_from_file_location('seed', '$root/fuzz/seed.py')
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
open('link20k.txt', 'wb').write(m.lz_bomb(20000))
open('link40k.txt', 'wb').write(m.lz_bomb(40000))
"
measure "3 link bomb, 20,000 codes (45 KB)" "$G" validate -j 2 link20k.txt
measure "3 link bomb, 40,000 codes, --from link" "$G" validate -j 2 --from gardengate-link link40k.txt
# 4. Parquet bombs (tests/hostile/parquet_bombs.py).
"$G" gen --game oshi --games 3 -o g.grec
"$G" convert g.grec --to parquet -o g.parquet
python3 "$root/tests/hostile/parquet_bombs.py" g.parquet .
measure "4 Parquet, 16 games x 2.79 M tags" "$G" validate -j 2 tags.parquet
measure "4 Parquet, 8 games x 40 MB tag" "$G" stats -j 2 --summary event.parquet
measure "4 Parquet, a 20 MB game between two" "$G" validate -j 2 mixed.parquet
# 5. A compressed Parquet spool bomb: PAR1 then 2 GiB of zeros (about 70 KB).
printf PAR1 | zstd -q > p.zst
head -c 1G /dev/zero | zstd -q -19 --long=27 > z.zst
cat p.zst z.zst z.zst > evil.zst
measure "5 PAR1 + 2 GiB of zeros, .zst (1 GiB cap)" "$G" validate -j 2 evil.zst
measure "5 the same, --max-spool 64M" "$G" validate -j 2 --max-spool 64M evil.zst
# 6. JSON documents.
"$G" gen --game oshi --games 20000 --seed 4 -o many.grec
"$G" convert many.grec --to json -o many.json
python3 -c "
open('empties.json', 'w').write('{\"format\":\"gamerec\",\"version\":1,\"games\":[' + ','.join(['{}'] * 10_000_000) + ']}')
open('huge.json', 'w').write('{\"format\":\"gamerec\",\"version\":1,\"games\":[{\"comments\":[\"' + 'x' * (300 << 20) + '\"]}]}')
"
measure "6 JSON document, 20,000 games ($(du -m many.json | cut -f1) MB)" "$G" validate -j 2 many.json
measure "6 JSON, 10 million {} games (30 MB)" "$G" validate -j 2 empties.json
measure "6 JSON, one 300 MB game" "$G" validate -j 2 huge.json
rm -f empties.json huge.json many.json
# 7. shard of a 2 GB record.
truncate -s 2G s.grec
measure "7 shard --parts 4 of a 2 GB record" "$G" shard -j 2 --parts 4 -o sh s.grec
rm -rf s.grec sh
# 10. Four games of 2.79 million empty tags (67 MB), and a plain game
# near the cap beside them.
python3 -c "
with open('tags4.grec', 'w') as f:
    for g in range(4):
        f.write('[Game \"oshi\"]\n' + '[a\"\"]\n' * 2_790_000 + '\n1. c2-c3 *\n\n')
with open('plain.grec', 'w') as f:
    f.write('[Game \"oshi\"]\n\n1. c2-c3 {' + ('x' * 79 + '\n') * 209_000 + '} *\n')
"
measure "10 four games of 2.79 M tags (67 MB)" "$G" validate -j 2 tags4.grec
measure "10 the same, stats" "$G" stats -j 2 tags4.grec
measure "10 a plain game of 16.7 MB (beside)" "$G" validate -j 2 plain.grec
# 8. Roshi: every position a million turns.
python3 "$root/../shared/repro/roshi_slow.py" 250 > r.grec 2>/dev/null || python3 -c "
n=250; P='R17R/19/19/19/19/9R9/19/19/19/9S9/19/19/19/19/R18/19/19/19/R17B i9-k11 3-7 r play -'
t=['a19-a18','s1-s2','a18-a19','s2-s1']*n
mv=' '.join(('%d. %s'%(i//2+1,m)) if i%2==0 else m for i,m in enumerate(t))
print('[Game \"roshi\"]\n[Board \"19x19\"]\n[Zone \"i9-k11\"]\n[Position \"%s\"]\n\n%s *'%(P,mv))" > r.grec
measure "8 Roshi, 1,000 plies of ~10^6 turns (9.5 KB)" "$G" stats -j 2 r.grec
