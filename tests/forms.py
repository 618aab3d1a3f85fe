"""Elicitation forms the tests ask: the core's (tests/core/test_elicitation_schemas.py) and the
command line's terminal client (tests/cli/) answer the same ones."""

TITLED = [{"const": "#f00", "title": "Red"}, {"const": "#0f0", "title": "Green"}, {"const": "#00f", "title": "Blue"}]
# One of every kind of enum: plain, titled (oneOf), legacy enumNames, multi-select plain and titled.
ENUMS = {"type": "object", "required": ["single"], "properties": {
    "single": {"type": "string", "title": "Size", "enum": ["S", "M", "L"]},
    "titled": {"type": "string", "description": "Pick one", "oneOf": TITLED, "default": "#f00"},
    "legacy": {"type": "string", "enum": ["a", "b"], "enumNames": ["Option A", "Option B"], "default": "b"},
    "multi": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string", "enum": ["x", "y", "z"]},
              "default": ["x"]},
    "titledMulti": {"type": "array", "maxItems": 2, "items": {"anyOf": TITLED}, "default": ["#0f0", "#00f"]},
}}
