"""One pushed event per table version, seat and language, shared by the streams of a table."""

from __future__ import annotations

from thirtyone.web.jsonio import dumps
from thirtyone.web.tables import answers, fanout, presence
from thirtyone.web.tables.ledger import load_table, table_state


def test_streams_of_one_version_seat_and_language_share_one_event(client, monkeypatch):
    opened = client.post("/v1/tables", json={"variant": "scat", "players": 2,
                                             "bots": {"1": "greedy"}}).json
    built: list[int | None] = []
    build = answers.table_answer

    def counted(record, version, state, seat, events=None, digest=None):
        built.append(seat)
        return build(record, version, state, seat, events, digest)

    monkeypatch.setattr(fanout, "table_answer", counted)
    sent = {}
    for language in ("en", "en", "ru", "en"):
        with client.application.test_request_context(f"/v1/tables/t/events?lang={language}"):
            client.application.preprocess_request()
            # Each stream holds its own record.
            record = load_table(opened["table"])
            state = table_state(record)
            event, connected, looked = fanout.event(record, record.version, record.digest,
                                                    state, None, [])
            expected = answers.table_answer(record, record.version, state, None, [])
            sent.setdefault(language, set()).add(event)
            assert connected == [seat["connected"] for seat in expected["seats"]]
            # When it was looked at, shared or not: presence answers as shown until it moves.
            assert looked.record is record and presence.same(record, looked)
            assert event == b"id: %s\ndata: %s\n\n" % (expected["cursor"].encode(),
                                                         dumps(expected))
    assert {language: len(events) for language, events in sent.items()} == {"en": 1, "ru": 1}
    # Built once per language: the other English streams took the shared event.
    assert built == [None, None]
