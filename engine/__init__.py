"""The Belote rules engine: pure (no I/O, no clock, no randomness of its own).

Everything other layers use is importable from here; see docs/engine-api.md.
"""

from engine.actions import Action
from engine.cards import (
    RANKS,
    SUITS,
    card_text,
    cards_of,
    cards_text,
    mask_of,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from engine.contract import CONTRACT_TEXTS, Contract
from engine.core import Meld, card_points, find_melds, legal_plays, trick_winner
from engine.errors import (
    EngineError,
    IllegalAction,
    InvalidCard,
    InvalidSeed,
    MatchOver,
    NotYourTurn,
    UnknownRuleset,
)
from engine.events import (
    Bid,
    CardPlayed,
    ContractMade,
    DealEnded,
    DealResult,
    Dealt,
    Event,
    MatchEnded,
    MeldsShown,
    Redealt,
    Trick,
    TrickWon,
)
from engine.match import DealRecord, Match, Phase, SeatView
from engine.options import OPTION_NAMES, OPTIONS, OptionSpec, TableRules, options_of
from engine.recipe import DeckInputs, commitment, parse_seed_hex, shuffled_deck
from engine.rulesets import RULESETS, Ruleset, get_ruleset

__all__ = [
    "CONTRACT_TEXTS",
    "OPTIONS",
    "OPTION_NAMES",
    "RANKS",
    "RULESETS",
    "SUITS",
    "Action",
    "Bid",
    "CardPlayed",
    "Contract",
    "ContractMade",
    "DealEnded",
    "DealRecord",
    "DealResult",
    "Dealt",
    "DeckInputs",
    "EngineError",
    "Event",
    "IllegalAction",
    "InvalidCard",
    "InvalidSeed",
    "Match",
    "MatchEnded",
    "MatchOver",
    "Meld",
    "MeldsShown",
    "NotYourTurn",
    "OptionSpec",
    "Phase",
    "Redealt",
    "Ruleset",
    "SeatView",
    "TableRules",
    "Trick",
    "TrickWon",
    "UnknownRuleset",
    "card_points",
    "card_text",
    "cards_of",
    "cards_text",
    "commitment",
    "find_melds",
    "get_ruleset",
    "legal_plays",
    "mask_of",
    "options_of",
    "parse_card",
    "parse_cards",
    "parse_seed_hex",
    "rank_of",
    "shuffled_deck",
    "suit_of",
    "trick_winner",
]
