"""An AI decision's random stream (``bot.scheduling.DecisionRandom``) is exactly
``random.Random(seed_text)``'s, although it is seeded only when first drawn from: a seeded
game must replay move for move, whatever the session does to save the seeding."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.scheduling import DecisionRandom

# One draw: (method name, its argument); every way ``engine.ai`` draws, and a few more.
_DRAWS = st.one_of(
    st.tuples(st.just("choice"), st.integers(0, 40)),  # 0: both refuse
    st.tuples(st.just("random"), st.none()),
    st.tuples(st.just("shuffle"), st.integers(0, 6)),
    st.tuples(st.just("randrange"), st.integers(1, 40)),
    st.tuples(st.just("getrandbits"), st.integers(1, 64)),
    st.tuples(st.just("sample"), st.integers(1, 5)),
    st.tuples(st.just("uniform"), st.none()),
    st.tuples(st.just("getstate"), st.none()),
)


def _draw(rng: random.Random, name: str, argument: Any) -> Any:
    if name == "choice":
        try:
            return rng.choice(list(range(10, 10 + argument)))
        except IndexError as error:
            return f"refused: {error}"
    if name == "shuffle":
        items = list(range(argument))
        rng.shuffle(items)
        return items
    if name == "randrange":
        return rng.randrange(argument)
    if name == "getrandbits":
        return rng.getrandbits(argument)
    if name == "sample":
        return rng.sample(range(8), argument)
    if name == "uniform":
        return rng.uniform(-1.0, 1.0)
    if name == "getstate":
        return rng.getstate()
    return rng.random()


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12), st.lists(_DRAWS, max_size=12))
def test_a_decision_draws_what_an_eagerly_seeded_random_draws(
    seed_text: str, draws: list[tuple[str, Any]]
) -> None:
    eager = random.Random(seed_text)
    lazy = DecisionRandom(seed_text)
    for name, argument in draws:
        assert _draw(lazy, name, argument) == _draw(eager, name, argument)


def test_single_choices_before_the_first_draw_are_owed_to_the_stream() -> None:
    """The case the laziness is for: picking among one item draws bits from the stream
    (``choice`` of one item still calls ``_randbelow``); the lazy stream skips the
    seeding then, and must replay those draws before its first real one."""
    eager = random.Random("7:12:3")
    lazy = DecisionRandom("7:12:3")
    assert [eager.choice("x") for _ in range(5)] == [lazy.choice("x") for _ in range(5)]
    assert lazy._seed_text is not None  # still not seeded: nothing was drawn
    assert [eager.random() for _ in range(3)] == [lazy.random() for _ in range(3)]
    assert eager.choice(range(100)) == lazy.choice(range(100))
