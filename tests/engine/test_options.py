"""A table's rules (engine/options.py): one typed value, valid or refused whole."""

from __future__ import annotations

import pytest

from engine import OPTIONS, EngineError, Match, TableRules, UnknownRuleset, options_of


def test_defaults_are_the_rulesets_own():
    rules = TableRules("classic")
    assert rules.match_target == 1000
    assert rules.options == {}
    assert rules.to_dict() == {"ruleset": "classic", "target": None, "options": {}}


def test_the_ruleset_name_is_read_as_the_lobby_reads_it():
    assert TableRules(" Club ").ruleset == "club"
    with pytest.raises(UnknownRuleset):
        TableRules("belotte")


@pytest.mark.parametrize("target", [0, -5, 100_001, 3.5, True])
def test_a_target_out_of_range_is_refused(target):
    with pytest.raises(EngineError, match="whole number from 1 to 100000"):
        TableRules("club", target)


def test_an_option_belongs_to_the_rulesets_that_declare_it():
    for spec in OPTIONS:
        for name in ("classic", "club", "bulgarian"):
            if name not in spec.rulesets:
                with pytest.raises(EngineError, match=f"{spec.name} is for"):
                    TableRules(name, **{spec.name: True})
    assert [s.name for s in options_of("classic")] == []


def test_from_dict_refuses_unknown_or_malformed_options():
    with pytest.raises(EngineError, match="Unknown option 'doubling'"):
        TableRules.from_dict({"ruleset": "club", "options": {"doubling": True}})
    with pytest.raises(EngineError, match="yes or no"):
        TableRules.from_dict({"ruleset": "club", "options": {"no_trump": "yes"}})
    with pytest.raises(EngineError, match="name their ruleset"):
        TableRules.from_dict({"target": 500})


def test_a_match_log_records_the_target_and_reads_back_the_same_rules():
    rules = TableRules("club", 300)
    m = Match(rules, decks=lambda k: list(range(32)))
    log = m.to_log()
    assert "options" not in log  # none set: a log reads as it did before options existed
    assert log["target"] == 300
    again = Match.from_log(log)
    assert again.table_rules == rules
    assert again.target == 300
