#!/usr/bin/python3
"""validate_json.py SCHEMA_DIR SCHEMA_NAME [FILE...]: validates each FILE (standard input when none,
or for -) against SCHEMA_DIR/SCHEMA_NAME with JSON Schema draft 2020-12. References between the
schemas in SCHEMA_DIR ("profile.schema.json") resolve to those files, never to the network.

Prints every error as FILE: $.json.path: message and exits 0 when every file is valid, 1 when one
is not, 2 for a usage error, a schema that is not valid draft 2020-12, or a file that is not JSON.
Stricter than JSON itself on purpose: NaN, Infinity and a key twice in one object are errors.

Uses Debian's python3-jsonschema: run it with /usr/bin/python3."""
import json
import pathlib
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("validate_json.py: no jsonschema module for " + sys.executable +
             " (apt-get install python3-jsonschema; scripts/setup installs it)")


def reject_constant(name):
    raise ValueError(f"{name} is not JSON (amdahl writes null for infinite numbers)")


def no_duplicate_keys(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"key {key!r} appears twice in one object")
        seen[key] = value
    return seen


def load_json(text):
    return json.loads(text, parse_constant=reject_constant, object_pairs_hook=no_duplicate_keys)


def json_path(parts):
    path = "$"
    for part in parts:
        path += f"[{part}]" if isinstance(part, int) else f".{part}"
    return path


def report(name, error, depth):
    """Prints an error and, indented below it, why each branch of a oneOf/anyOf failed."""
    message = error.message if len(error.message) <= 300 else error.message[:297] + "..."
    print(f"{name}: {'  ' * depth}{json_path(error.absolute_path)}: {message}")
    for sub in sorted(error.context or [], key=lambda e: json_path(e.absolute_path)):
        report(name, sub, depth + 1)


def make_validator(schema_dir, schema_name):
    schemas = {}
    for path in sorted(schema_dir.glob("*.schema.json")):
        schema = load_json(path.read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator.check_schema(schema)
        schemas[path.name] = schema
    if schema_name not in schemas:
        raise ValueError(f"no {schema_name} in {schema_dir}")
    schema = schemas[schema_name]
    try:  # jsonschema >= 4.18: a registry of resources
        from referencing import Registry, Resource
        registry = Registry().with_resources(
            (s["$id"], Resource.from_contents(s)) for s in schemas.values())
        return jsonschema.Draft202012Validator(schema, registry=registry)
    except ImportError:  # older jsonschema (Debian 12 has 4.10): a resolver with a store
        store = {s["$id"]: s for s in schemas.values()}
        resolver = jsonschema.RefResolver.from_schema(schema, store=store)
        return jsonschema.Draft202012Validator(schema, resolver=resolver)


def main(argv):
    if len(argv) < 3:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        return 2
    schema_dir, schema_name = pathlib.Path(argv[1]), argv[2]
    try:
        validator = make_validator(schema_dir, schema_name)
    except (OSError, ValueError, jsonschema.SchemaError) as e:
        print(f"{schema_dir / schema_name}: {e}", file=sys.stderr)
        return 2
    status = 0
    for name in argv[3:] or ["-"]:
        try:
            text = sys.stdin.read() if name == "-" else pathlib.Path(name).read_text(encoding="utf-8")
            document = load_json(text)
        except (OSError, ValueError) as e:
            print(f"{name}: not JSON: {e}")
            return 2
        errors = sorted(validator.iter_errors(document), key=lambda e: json_path(e.absolute_path))
        for error in errors:
            report(name, error, 0)
        if errors:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
