"""Reading kbench.results/1 documents in the scripts (gpu-summary.py, merge-results.py)."""
import json
import sys

SCHEMA = "kbench.results/1"


def fail(tool, message):
    """The scripts' one way out on bad input: the message on stderr, exit status 2."""
    print(f"{tool}: {message}", file=sys.stderr)
    sys.exit(2)


def load(tool, path):
    """The document at `path`, or exit 2 (via fail) when it cannot be read or is not kbench results."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        fail(tool, f"cannot read {path}: {e}")
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        fail(tool, f"{path} is not a {SCHEMA} document")
    return doc
