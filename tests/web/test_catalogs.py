"""The translation catalogs: complete, not fuzzy, in step with the code, and safe to format."""

from __future__ import annotations

import string
from pathlib import Path

import marshmallow as ma
import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

import thirtyone.web
from thirtyone.web import api, games, hands, meta, race, tables, variants
from thirtyone.web.i18n import LANGUAGES
from thirtyone.web.validation import Message

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "translations"
CATALOGS = sorted(TRANSLATIONS.glob("*/LC_MESSAGES/*.po"))


def _read(path):
    with path.open("rb") as file:
        return read_po(file, locale=path.parts[-3])


def _key(message):
    msgid = message.id if isinstance(message.id, str) else message.id[0]
    return message.context, msgid


def _fields(text):
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_language_has_a_messages_catalog():
    assert {path.parts[-3] for path in CATALOGS if path.stem == "messages"} == set(LANGUAGES)


@pytest.mark.parametrize("path", CATALOGS, ids=lambda path: "/".join(path.parts[-3:]))
def test_catalog_is_complete_and_not_fuzzy(path):
    """Every domain present; an English catalog of another domain may leave its entries
    empty, since English is the language its messages are written in."""
    catalog = _read(path)
    untranslated = [
        message.id for message in catalog
        if message.id and not (
            message.string if isinstance(message.string, str) else all(message.string)
        )
    ]
    fuzzy = [message.id for message in catalog if message.id and message.fuzzy]
    if path.parts[-3] != "en" or path.stem == "messages":
        assert untranslated == []
    assert fuzzy == []


def test_template_matches_a_fresh_extraction():
    with (TRANSLATIONS / "babel.cfg").open() as file:
        method_map, options_map = parse_mapping_cfg(file)
    fresh = {
        (context, message if isinstance(message, str) else message[0])
        for _, _, message, _, context in extract_from_dir(str(ROOT), method_map, options_map)
    }
    with (TRANSLATIONS / "messages.pot").open("rb") as file:
        committed = {_key(message) for message in read_po(file) if message.id}
    assert sorted(fresh - committed, key=str) == [], "run the pybabel extract in babel.cfg"
    assert sorted(committed - fresh, key=str) == [], "run the pybabel extract in babel.cfg"


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalog_follows_the_template(language):
    with (TRANSLATIONS / "messages.pot").open("rb") as file:
        template = {_key(message) for message in read_po(file) if message.id}
    catalog = {_key(m) for m in _read(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po")
               if m.id}
    assert catalog == template, "run the pybabel update in babel.cfg"


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_use_the_placeholders_of_their_message(language):
    catalog = _read(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po")
    wrong = []
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, str):
            if _fields(message.string) != _fields(message.id):
                wrong.append(message.id)
        elif any(_fields(form) != _fields(message.id[1]) for form in message.string):
            wrong.append(message.id)
    assert wrong == []


def _schemas():
    for module in (api, games, hands, meta, race, tables, variants):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, ma.Schema) and (
                value.__module__ == module.__name__
            ):
                yield value


def _walk(field):
    yield field
    for inner in (getattr(field, "inner", None), getattr(field, "value_field", None)):
        if isinstance(inner, ma.fields.Field):
            yield from _walk(inner)


def test_every_request_message_is_translated():
    """A field whose messages marshmallow would raise in English only fails here."""
    english = []
    for schema_class in _schemas():
        if not issubclass(schema_class, thirtyone.web.validation.Schema):
            continue
        for name, field in schema_class().fields.items():
            for part in _walk(field):
                english += [
                    (schema_class.__name__, name, key) for key, text in part.error_messages.items()
                    if not isinstance(text, Message)
                ]
    assert english == []


def test_request_schemas_refuse_unknown_fields():
    lenient = [
        schema.__name__ for schema in _schemas()
        if schema.__name__.endswith("RequestSchema") and schema().unknown != ma.RAISE
    ]
    assert lenient == []
