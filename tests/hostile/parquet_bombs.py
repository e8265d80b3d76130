"""Writes the Parquet bombs of issue 32, item 4, from a real games table
(TEMPLATE.parquet, made by `gamerec convert --to parquet`): its first row
repeated, with

  tags.parquet   16 games of 2.79 million empty tags each (`[a ""]`: each
                 game just under the 16 MiB cap as text, 13 KB on disk);
  event.parquet  8 games whose `event` and Event tag are 40 MB each;
  mixed.parquet  one good game, one game of 20 MB of tag text, one good game
                 (a row group of ordinary size per row).

    python3 parquet_bombs.py TEMPLATE.parquet OUTDIR

The arrays are built from buffers (no Python object per tag), so the
script itself stays small.
"""

import sys
from array import array

import pyarrow as pa
import pyarrow.parquet as pq


def offsets(n, step):
    """0, step, 2 step, ... n step as 32-bit integers."""
    return array("i", range(0, (n + 1) * step, step)) if step else array("i", bytes(4 * (n + 1)))


def tags_column(per_row, rows, name=b"a", value_bytes=0):
    """A `tags` list column: `rows` lists of `per_row` (name, value) pairs."""
    n = per_row * rows
    names = pa.StringArray.from_buffers(
        n,
        pa.py_buffer(offsets(n, len(name))),
        pa.py_buffer(name * n),
    )
    values = pa.StringArray.from_buffers(
        n,
        pa.py_buffer(offsets(n, value_bytes)),
        pa.py_buffer(b"v" * (value_bytes * n)),
    )
    fields = [pa.field("name", pa.string(), nullable=False), pa.field("value", pa.string(), nullable=False)]
    items = pa.StructArray.from_arrays([names, values], fields=fields)
    starts = pa.array(offsets(rows, per_row), pa.int32())
    return pa.ListArray.from_arrays(starts, items, type=pa.list_(pa.field("item", items.type, nullable=False)))


def write(table, template, path, row_group_size=None):
    table = table.replace_schema_metadata(template.schema.metadata)
    pq.write_table(table, path, compression="zstd", row_group_size=row_group_size)


def main():
    template = pq.read_table(sys.argv[1])
    out = sys.argv[2]
    first = template.slice(0, 1)
    # 16 games of 2.79 million empty tags.
    rows = pa.concat_tables([first] * 16)
    i = rows.schema.get_field_index("tags")
    tags = tags_column(2_790_000, 16)
    write(rows.set_column(i, rows.schema.field(i), tags), template, f"{out}/tags.parquet")
    # 8 games whose `event` and Event tag are 40 MB each (one chunk a row:
    # 32-bit offsets).
    rows = pa.concat_tables([first] * 8)
    e = rows.schema.get_field_index("event")
    big = pa.chunked_array([pa.array(["e" * (40 << 20)], pa.string())] * 8)
    rows = rows.set_column(e, rows.schema.field(e), big)
    i = rows.schema.get_field_index("tags")
    event = tags_column(1, 1, b"Event", 40 << 20)
    rows = rows.set_column(i, rows.schema.field(i), pa.chunked_array([event] * 8))
    write(rows, template, f"{out}/event.parquet")
    # A good game, one of 20 MB of tags (2,000 tags of 10 KB), a good game.
    good = template.slice(0, 1)
    bad = template.slice(1, 1)
    i = bad.schema.get_field_index("tags")
    bad = bad.set_column(i, bad.schema.field(i), tags_column(2_000, 1, b"Note", 10_000))
    write(pa.concat_tables([good, bad, template.slice(2, 1)]), template, f"{out}/mixed.parquet", 1)


if __name__ == "__main__":
    main()
