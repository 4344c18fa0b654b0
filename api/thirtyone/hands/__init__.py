"""What a hand of three cards is worth, and how hands compare (RULES.md §2).

Read top-down: :mod:`~thirtyone.hands.scoring` holds the entry points (:func:`score_hand`,
:func:`compare_hands`, :func:`evaluator`); :mod:`~thirtyone.hands.score` what they give
(:class:`HandScore`, the category names); :mod:`~thirtyone.hands.tables` the scoring tables and
the wild cards; :mod:`~thirtyone.hands.reading` how natural cards read (suits, ranks, trips,
brag) as order keys; :mod:`~thirtyone.hands.basis` which options decide a hand's worth;
:mod:`~thirtyone.hands.evaluators` the bounded cache of evaluators.

Every set of scoring options (:data:`SCORING_OPTIONS`) has one lookup table: it maps the
bitwise OR of a hand's card masks to a :class:`HandScore`, made the first time that hand is
asked for and kept. Scoring a hand is then one dict lookup, and no request pays for the hands
it does not ask about (a whole table costs 0.1-0.5 s to make, and house rules make many);
anything that is not three distinct cards of the deck misses the table and falls to a slow path
that raises the right error. Scores from card codes are also kept by the codes and the rule
set, the way the API asks for them.

Where RULES.md leaves a case open, this package decides so:

- a blitz ranks above any other hand of 31 (a 31 that is not ace-king-ten, three aces worth 31);
- when two suits give equal points, the counted suit is the one whose cards rank higher, then
  the higher one in the suit order; under the ``suit`` tie-break the higher suit counts first,
  as the better choice, and a hand that counts no suit (three of a kind, three aces) ranks
  below every suit;
- trips made with the jack of clubs lose to every pure trips of their points (RULES.md §2), and
  among themselves the higher rank wins whatever the tie-break; where trips are a plain 30
  they rank just below every other 30, a suited one included, as a pure trips ties with a
  suited 30 under no tie-break; the jack of clubs with two aces makes three aces;
- with ``count_same_rank`` a hand whose cards of one rank count as much as its best suit counts
  the rank (category ``same-rank``), whose cards rank higher: K-K over K-Q; three aces added up
  count 30, not 33 (RULES.md §4.15), unless ``three_aces`` gives them more;
- a wild card takes the best hand; among equal hands, higher ranks, then the higher suit; the
  short-deck wild card may stand for itself;
- under the brag ranking ``points`` is the hand's usual count, for information only;
- three aces that are Feuer (``three_aces_fire``, ``fire: aces``) are a blitz (``is_blitz``)
  whatever their points, with the category ``three-aces``; with ``fire: any-trips`` every
  three of a kind is (category ``three-of-a-kind`` or ``same-rank``); the flows end the round
  on them as on a blitz.

>>> score_hand("AS KS QS")
HandScore(points=31, category='blitz', suit='S', counted='AS KS QS')
>>> score_hand("7H 7D 7C", "schnautz")
HandScore(points=30.5, category='three-of-a-kind', suit=None, counted='7H 7D 7C')
>>> score_hand("AS KS X1", "jokers").wild
mappingproxy({'X1': 'QS'})
>>> compare_hands(["AS KS QS", "AH KH JH", "9D 8D 7C"], "schnautz").order
[[0], [1], [2]]
"""

from thirtyone.hands.basis import HAND_SIZE, SCORING_OPTIONS
from thirtyone.hands.score import CATEGORY_NAMES, HandScore, ScoreData
from thirtyone.hands.scoring import Ranking, compare_hands, evaluator, score_hand
from thirtyone.hands.tables import Evaluator

__all__ = [
    "CATEGORY_NAMES",
    "HAND_SIZE",
    "SCORING_OPTIONS",
    "Evaluator",
    "HandScore",
    "Ranking",
    "ScoreData",
    "compare_hands",
    "evaluator",
    "score_hand",
]
