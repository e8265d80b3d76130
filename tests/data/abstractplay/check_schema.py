#!/usr/bin/env python3
"""check_schema.py SCHEMA FILE...: validates every AbstractPlay record in
the FILEs (a JSON object, or an array of them) against the JSON schema
SCHEMA with Python's jsonschema (draft 7, formats such as date-time
checked). Prints one JSON object per violation (`file`, `index` of the
record in its file, `path` in the record, `message`) and a last line
`checked N records, M invalid`; exits 1 when any record is invalid."""

import json
import sys

import jsonschema


def main():
    schema = json.load(open(sys.argv[1], encoding="utf-8"))
    validator = jsonschema.Draft7Validator(
        schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    checked = invalid = 0
    for path in sys.argv[2:]:
        data = json.load(open(path, encoding="utf-8"))
        records = data if isinstance(data, list) else [data]
        for i, record in enumerate(records):
            checked += 1
            errors = sorted(validator.iter_errors(record), key=str)
            if errors:
                invalid += 1
            for e in errors:
                where = "/" + "/".join(str(p) for p in e.absolute_path)
                print(json.dumps({"file": path, "index": i, "path": where,
                                  "message": e.message}))
    print(f"checked {checked} records, {invalid} invalid")
    sys.exit(1 if invalid else 0)


if __name__ == "__main__":
    main()
