"""Ticket to Ride as an OpenSpiel game: ``pyspiel.load_game("python_ttr(edition=usa)")``.

The game is sequential, imperfect-information and explicitly stochastic. Its returns are
zero-sum placings (`ttr_core.rl.placing_rewards`): 1 for a two-player win, -1 for a loss.
Player actions are the codes of `ttr_core.rl.ActionEncoding`; every draw of a train card
or a ticket is a chance node of its own (see [`ttr_core.openspiel.draws`][]), whose
outcomes are the card kinds (0 to 8) or the tickets (9 plus the ticket's index in map
order) the pile holds, each with its share of the pile. Seat 0 starts.

Parameters: ``edition`` (an installed edition's id or alias), ``players`` and every
option of the installed editions under its own name (``opening_tickets=4``). An option
the chosen edition does not offer must keep its default.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from typing import Any, Final

import pyspiel
from attrs import field, frozen

from ttr_core.hidden.determinize import sample_state
from ttr_core.model.actions import Action
from ttr_core.model.cards import CARD_NAMES
from ttr_core.model.errors import ActionCodeError, OptionError, SetupError, quote
from ttr_core.model.state import Phase
from ttr_core.openspiel import draws
from ttr_core.openspiel.context import TICKET_OUTCOMES, Context, context_for
from ttr_core.openspiel.observer import TtrObserver, seen_line
from ttr_core.rl.env import placing_rewards
from ttr_core.rules.scoring import score_game
from ttr_core.rules.views import PlayerView, view_of
from ttr_core.ruleset.editions import find_edition, installed_editions
from ttr_core.ruleset.ruleset import Ruleset

SHORT_NAME: Final = "python_ttr"
"""The name the game is registered under."""
MAX_GAME_LENGTH: Final = 20_000
"""The most player decisions OpenSpiel is told a game can last. The rules set no bound
(a seat may try and withdraw from tunnels for ever), so this is a cap far above what
games reach: random players take a few hundred decisions."""


def _option_defaults() -> dict[str, Any]:
    """Every option of the installed editions with its default (the first edition's, by
    id, where editions differ)."""
    found: dict[str, Any] = {}
    for edition in sorted(installed_editions()):
        for spec in Ruleset.build(edition).option_specs:
            if type(spec.default) in (bool, int, float, str):
                found.setdefault(spec.name, spec.default)
    return found


OPTION_DEFAULTS: Final = _option_defaults()
"""The option parameters and their defaults."""

GAME_TYPE: Final = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Ticket to Ride",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=max(e.players[1] for e in installed_editions().values()),
    min_num_players=min(e.players[0] for e in installed_editions().values()),
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"edition": "usa", "players": 2, **OPTION_DEFAULTS},
)


@functools.cache
def _option_names(edition: str) -> frozenset[str]:
    """The names of the options an edition offers."""
    return frozenset(spec.name for spec in Ruleset.build(edition).option_specs)


def _options(edition: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The options to build ``edition`` with, from the game's parameters: those it offers
    (an option it does not offer must keep its default)."""
    offered = _option_names(edition)
    chosen: dict[str, Any] = {}
    for name, default in OPTION_DEFAULTS.items():
        value = params.get(name, default)
        if name in offered:
            chosen[name] = value
        elif value != default:
            raise OptionError(
                f"edition {edition!r} has no option {quote(name)}; it has {sorted(offered)}"
            )
    return chosen


class TtrGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game of one edition, options and player count."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        """The game of ``params`` (see the module).

        :raises UnknownEditionError: no such edition is installed.
        :raises OptionError: an option is unknown, not offered or has a bad value.
        :raises SetupError: the edition is not played by that many players.
        """
        params = dict(params or {})
        edition = find_edition(str(params.get("edition", "usa"))).info.id
        players = params.get("players", 2)
        options = _options(edition, params)
        lo, hi = find_edition(edition).players
        if type(players) is not int or not lo <= players <= hi:
            raise SetupError(f"{edition} is played by {lo} to {hi} players, not {quote(players)}")
        self.context: Context = context_for(edition, tuple(sorted(options.items())), players)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.context.actions.size,
            max_chance_outcomes=self.context.chance_outcomes,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(GAME_TYPE, info, {**params, "edition": edition})

    def new_initial_state(self) -> TtrState:
        """A game before the deal (a chance node)."""
        return TtrState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> TtrObserver:
        """The observer of ``iig_obs_type`` (perfect recall: the information state)."""
        if params:
            raise ValueError(f"the ttr observer takes no parameters, not {params!r}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return TtrObserver(self.context, perfect_recall=recall)


@frozen
class Node:
    """Where a state is: the position reached, the decision being played out with its
    draws and the next draw it needs, and what each seat (then a spectator) has seen."""

    position: draws.Position | None
    step: draws.Step | None
    need: draws.Need | None
    seen: tuple[tuple[str, ...], ...]
    cache: dict[str, Any] = field(factory=dict, eq=False, repr=False)

    def __deepcopy__(self, memo: object) -> Node:
        return self  # immutable (the cache only holds what the node determines)

    def __reduce__(self) -> tuple[Any, ...]:
        return Node, (self.position, self.step, self.need, self.seen)


class TtrState(pyspiel.State):  # type: ignore[misc]
    """A state of the OpenSpiel game: an immutable [`Node`][] and the game's context."""

    def __init__(self, game: TtrGame) -> None:
        super().__init__(game)
        ctx = game.context
        self._ctx = ctx
        need = ctx.deal_need
        assert isinstance(need, draws.Need)
        self._node = Node(None, draws.Step(None), need, ((),) * (ctx.players + 1))

    # -- what the state is --------------------------------------------------------------

    @property
    def node(self) -> Node:
        """The state's node."""
        node: Node = self._node
        return node

    @property
    def context(self) -> Context:
        """The game's shared context."""
        ctx: Context = self._ctx
        return ctx

    def position(self) -> draws.Position | None:
        """The position reached (None before the deal)."""
        return self.node.position

    def current_player(self) -> int:
        """The seat to decide, or OpenSpiel's chance or terminal player."""
        node = self.node
        if node.need is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert node.position is not None
        if node.position.state.phase is Phase.GAME_OVER:
            return int(pyspiel.PlayerId.TERMINAL)
        return node.position.state.current

    def is_terminal(self) -> bool:
        """True once the game is over."""
        position = self.node.position
        return (
            self.node.need is None
            and position is not None
            and position.state.phase is Phase.GAME_OVER
        )

    def view(self, seat: int) -> PlayerView | None:
        """What ``seat`` sees of the position reached (None before the deal)."""
        node = self.node
        if node.position is None:
            return None
        key = f"view{seat}"
        if key not in node.cache:
            node.cache[key] = view_of(self.context.ruleset, node.position.state, seat)
        found: PlayerView = node.cache[key]
        return found

    def returns(self) -> list[float]:
        """Each seat's placing reward once the game is over, else zeros."""
        if not self.is_terminal():
            return [0.0] * self.context.players
        position = self.node.position
        assert position is not None
        return placing_rewards(score_game(self.context.ruleset, position.state))

    def actions_by_code(self) -> dict[int, Action]:
        """The legal actions of the seat to decide, by code (empty at chance nodes and
        once the game is over)."""
        if self.current_player() < 0:
            return {}
        node = self.node
        found: dict[int, Action] | None = node.cache.get("legal")
        if found is None:
            assert node.position is not None
            state = node.position.state
            sim = self.context.scratch(state)
            sim.load(state)
            view = self.view(state.current)
            assert view is not None
            encode = self.context.actions.encode
            found = {encode(a, view): a for a in sim.legal_actions()}
            node.cache["legal"] = found
        return found

    def _legal_actions(self, player: int) -> list[int]:
        """The codes of the legal actions of ``player``, the seat to decide, ascending."""
        if player != self.current_player():
            return []
        return sorted(self.actions_by_code())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes of the next draw with their probabilities, ascending."""
        need = self.node.need
        assert need is not None
        offset = 0 if need.pile == draws.TRAIN else TICKET_OUTCOMES
        total = need.total
        return [(offset + item, n / total) for item, n in need.counts]

    # -- playing ------------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        """Apply a player's action code, or a chance outcome.

        :raises ActionCodeError: the code is not legal, or not an outcome of the chance
            node; the state does not change.
        """
        node = self.node
        if node.need is not None:
            assert node.step is not None
            item = action if node.need.pile == draws.TRAIN else action - TICKET_OUTCOMES
            if item not in dict(node.need.counts):
                raise ActionCodeError(f"{action} is not an outcome of this chance node")
            step = node.step.with_draw(node.need.pile, item)
        else:
            found = self.actions_by_code().get(action)
            if found is None:
                raise ActionCodeError(f"action code {action} is not legal in this state")
            step = draws.Step(found)
        self._node = self._play(node, step)

    def _play(self, node: Node, step: draws.Step) -> Node:
        """The node after trying ``step``: waiting for a draw, or the step done."""
        ctx = self.context
        if node.position is None:
            out = draws.deal(ctx.ruleset, ctx.players, step)
        else:
            sim = ctx.scratch(node.position.state)
            out = draws.play(ctx.ruleset, node.position, step, sim)
        if isinstance(out, draws.Need):
            return Node(node.position, step, out, node.seen)
        actor = "deal" if node.position is None else str(node.position.state.current)
        n = ctx.players
        seen = tuple(
            (*lines, seen_line(actor, out.events, seat if seat < n else -1))
            for seat, lines in enumerate(node.seen)
        )
        return Node(out.position, None, None, seen)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> TtrState:
        """A state ``player_id`` cannot tell from this one, its hidden cards and tickets
        drawn by `ttr_core.sample_state` (seeded from ``probability_sampler``).

        Only ``player_id``'s information state is kept; the other seats' show the
        public record only. Not at chance nodes, where a decision is half played out.
        """
        node = self.node
        if node.need is not None or node.position is None:
            raise ValueError("states are resampled at decisions, not at chance nodes")
        view = self.view(player_id)
        assert view is not None
        seed = int(probability_sampler() * 2**53)
        sampled = sample_state(self.context.ruleset, view, random.Random(seed))
        position = draws.position_of(sampled, node.position.shuffled_tickets)
        public = node.seen[-1]
        seen = tuple(
            node.seen[seat] if seat == player_id else public for seat in range(self.context.players)
        )
        out = self.clone()
        out._node = Node(position, None, None, (*seen, public))
        return out  # type: ignore[no-any-return]

    # -- text ---------------------------------------------------------------------------

    def _action_to_string(self, player: int, action: int) -> str:
        """A player's action or a chance outcome, in words."""
        if player == pyspiel.PlayerId.CHANCE:
            if action < TICKET_OUTCOMES:
                return f"draw {CARD_NAMES[action]}"
            return f"draw ticket {self.context.ruleset.ticket_name(action - TICKET_OUTCOMES)}"
        found = self.actions_by_code().get(action) if self.current_player() == player else None
        if found is not None:
            return repr(found)
        return f"{self.context.actions.section_of(action).name} code {action}"

    def __str__(self) -> str:
        node = self.node
        if node.position is None:
            return f"the deal, draws {node.step!r}"
        text = repr(node.position)
        if node.step is not None:
            text += f"\nplaying out {node.step!r}"
        return text


def load(edition: str = "usa", players: int = 2, **options: Any) -> TtrGame:
    """The game of an edition, player count and options (``pyspiel.load_game`` with them)."""
    params: dict[str, Any] = {"edition": edition, "players": players, **options}
    game = pyspiel.load_game(SHORT_NAME, params)
    assert isinstance(game, TtrGame)
    return game


pyspiel.register_game(GAME_TYPE, TtrGame)
