"""The game server under load, under crashes and under abuse, on SQLite and PostgreSQL.

Starts ``ttr serve`` as a subprocess on a free port of 127.0.0.1 and measures three things
on each database, printing one ``key=value`` line per figure (``sqlite.load.games=200``)
and then a short summary:

- ``load``: ``--games`` concurrent games, seat 0 of each played by a scripted WebSocket
  client (a seeded random index into ``legal`` whenever it is its turn) and the other
  seats by server bots, to the end. An action's latency is the time from sending it to
  the first state message on the same socket whose ``events`` are not empty: while a
  seat is to act nobody else can change its game, so those events are that action's.
- ``faults``: the same load, with the server killed (SIGKILL) ``--kills`` times at seeded
  random moments (each just after a randomly chosen acknowledged action, plus a random
  delay) and restarted on the same database and port; clients reconnect with backoff.
  Every acknowledged action must be in the final record at its position.
- ``abuse``: every kind of bad input the protocol refuses, counted; each must be refused,
  no answer may hold a traceback, and the games must still be played to the end after.

The script exits with status 1 when a promise is broken: a lost action, an accepted abuse,
a record that does not replay, a game left unfinished.

    python benchmarks/server_load.py --games 200 --kills 10
    python benchmarks/server_load.py --postgres postgresql://ttr:ttr@127.0.0.1/ttr_bench

Traffic goes to 127.0.0.1 only, and everything is bounded: ``--deadline`` seconds for
the whole run, ``--max-games`` games a phase, ``--max-sends`` actions a client.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any, TextIO

import httpx2
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

import ttr_core as ttr
from ttr_core.formats.serialize import action_to_json

Json = dict[str, Any]

HOST = "127.0.0.1"
MESSAGE_LIMIT = 8 * 1024
"""The documented largest client WebSocket message (bytes)."""
FRAME_LIMIT = 64 * 1024
"""The documented largest WebSocket frame the server reads at all."""
BODY_LIMIT = 16 * 1024
"""The documented largest HTTP request body."""
RATE_BURST = 40
"""The documented burst of messages a socket may send before the rate limit applies."""
RATE_PER_SECOND = 20.0
"""The documented long-run rate of messages a socket may send."""
SEND_INTERVAL = 1.25 / RATE_PER_SECOND
"""The least time between two actions of a playing client: under the documented rate."""
BAD_LIMIT = 50
"""The documented number of refused messages that closes a socket."""
CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
RECV_SECONDS = 10.0
"""How long a client waits for one message before it counts the socket as dead."""
DEFAULT_HUMAN_ACTIONS = 40
"""The human seat's actions a game is expected to take when no load phase ran before."""


class Failures:
    """The promises broken during a run, with what broke them."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, what: str) -> None:
        """Note one broken promise."""
        self.items.append(what)


class Server:
    """One ``ttr serve`` subprocess on a fixed port and database, started and killed at will."""

    def __init__(self, db: str, port: int, log: TextIO) -> None:
        self.db = db
        self.port = port
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.base = f"http://{HOST}:{port}"

    def start(self) -> None:
        """Start the server in a process group of its own (so it can be killed with all)."""
        command = [sys.executable, "-m", "ttr_core", "serve", "--host", HOST]
        command += ["--port", str(self.port), "--db", self.db]
        if _has_create_rate():
            command += ["--create-rate", "0"]
        self.proc = subprocess.Popen(
            command, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )

    async def ready(self, deadline: float) -> None:
        """Wait until the server answers ``GET /api/games``.

        :raises RuntimeError: it exited, or the deadline passed.
        """
        async with httpx2.AsyncClient(base_url=self.base, trust_env=False, timeout=5) as http:
            while True:
                if self.proc is None or self.proc.poll() is not None:
                    raise RuntimeError("the server exited on start; see its log")
                if time.monotonic() > deadline:
                    raise RuntimeError("the server did not start before the deadline")
                try:
                    if (await http.get("/api/games")).status_code == 200:
                        return
                except httpx2.HTTPError:
                    pass
                await asyncio.sleep(0.1)

    def kill(self) -> None:
        """``kill -9`` the server's process group and reap it."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait()

    def stop(self) -> None:
        """Stop the server: SIGTERM, then SIGKILL after five seconds."""
        if self.proc is None or self.proc.poll() is not None:
            return
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()


_CREATE_RATE: list[bool] = []


def _has_create_rate() -> bool:
    """Whether this ``ttr serve`` has ``--create-rate`` (then it is passed as 0)."""
    if not _CREATE_RATE:
        shown = subprocess.run(
            [sys.executable, "-m", "ttr_core", "serve", "--help"],
            capture_output=True,
            text=True,
            check=False,
        )
        _CREATE_RATE.append("--create-rate" in shown.stdout)
    return _CREATE_RATE[0]


def free_port() -> int:
    """A TCP port of 127.0.0.1 that is free now."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


class Context:
    """What the clients of one phase share: the server's address, the deadline, counters."""

    def __init__(self, server: Server, deadline: float, max_sends: int, positions: bool):
        self.server = server
        self.deadline = deadline
        self.max_sends = max_sends
        self.positions = positions
        """Whether clients ask the server for each action's position (the fault phase)."""
        self.http = self._client()
        self._old: list[httpx2.AsyncClient] = []
        self.acked = 0
        self.texts_with_traceback = 0

    def _client(self) -> httpx2.AsyncClient:
        # No cap on connections: a request never waits for a pooled one.
        limits = httpx2.Limits(max_connections=None, max_keepalive_connections=50)
        return httpx2.AsyncClient(
            base_url=self.server.base, trust_env=False, timeout=10, limits=limits
        )

    def renew(self) -> None:
        """A new HTTP client after a restart: none of its connections is to a dead server."""
        self._old.append(self.http)
        self.http = self._client()

    async def close(self) -> None:
        """Close the HTTP clients."""
        for http in [*self._old, self.http]:
            await http.aclose()

    def ws_url(self, game_id: str, token: str | None) -> str:
        """The WebSocket address of a game, for a seat's token or a spectator."""
        query = "" if token is None else f"?token={token}"
        return f"ws://{HOST}:{self.server.port}/ws/games/{game_id}{query}"

    def over(self) -> bool:
        """Whether the deadline has passed."""
        return time.monotonic() > self.deadline

    def seen(self, text: str) -> str:
        """Note a text the server sent (a traceback in it breaks a promise)."""
        if "Traceback" in text or 'File "' in text:
            self.texts_with_traceback += 1
        return text


class Pending:
    """An action sent and not yet acknowledged: what, when, and at which position."""

    def __init__(self, action: Json, position: int | None) -> None:
        self.action = action
        self.position = position
        self.sent = time.perf_counter()


class SeatClient:
    """A scripted player of one seat: picks a seeded random legal index on its turn and
    keeps every action it saw acknowledged, with its position when it knows it."""

    def __init__(self, ctx: Context, game_id: str, seat: int, token: str, seed: int) -> None:
        self.ctx = ctx
        self.game_id = game_id
        self.seat = seat
        self.token = token
        self.choices = random.Random(seed)
        self.jitter = random.Random(seed ^ 0x5EED)
        self.acked: list[tuple[int | None, Json]] = []
        self.applied_unacked: list[tuple[int | None, Json]] = []
        self.lost_unacked = 0
        self.latencies: list[float] = []
        self.refused = 0
        self.errors: list[str] = []
        self.sends = 0
        self.connects = 0
        self.finished = False
        self.pending: Pending | None = None
        self.last_send = -SEND_INTERVAL

    async def play(self) -> None:
        """Play the seat to the end of the game, reconnecting with backoff, until the
        deadline or ``max_sends`` actions."""
        delay = 0.05
        while not self.ctx.over() and self.sends < self.ctx.max_sends:
            try:
                async with connect(
                    self.ctx.ws_url(self.game_id, self.token),
                    proxy=None,
                    open_timeout=5,
                    ping_interval=None,
                    compression=None,
                ) as ws:
                    self.connects += 1
                    delay = 0.05
                    await self._session(ws)
                    if self.finished:
                        return
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError, httpx2.HTTPError):
                pass
            await asyncio.sleep(delay * self.jitter.uniform(0.5, 1.5))
            delay = min(delay * 2, 2.0)

    async def _session(self, ws: ClientConnection) -> None:
        first = True
        legal: list[Json] = []
        while not self.finished and not self.ctx.over():
            wait = max(1.0, min(60.0, self.ctx.deadline - time.monotonic()))
            message = json.loads(self.ctx.seen(str(await asyncio.wait_for(ws.recv(), wait))))
            if message["type"] == "error":
                # A legal action refused (the server could not save it): choose again.
                self.refused += 1
                self.errors.append(str(message.get("message")))
                self.pending = None
                await self._send(ws, legal)
                continue
            legal = message["legal"]
            if self.pending is not None:
                if first:
                    await self._settle(legal)
                elif message["events"]:
                    self.latencies.append(time.perf_counter() - self.pending.sent)
                    self.acked.append((self.pending.position, self.pending.action))
                    self.ctx.acked += 1
                    self.pending = None
            first = False
            if message["view"]["phase"] == "game_over":
                self.finished = self.pending is None
                return
            await self._send(ws, legal)

    async def _send(self, ws: ClientConnection, legal: list[Json]) -> None:
        """Send a random index into ``legal`` if the seat is to act and nothing is pending."""
        if legal and self.pending is None and self.sends < self.ctx.max_sends:
            position = await self._position() if self.ctx.positions else None
            index = self.choices.randrange(len(legal))
            # A client keeps to the documented per-connection rate: against a quick bot on
            # a free machine a scripted seat could otherwise act faster than it allows.
            wait = self.last_send + SEND_INTERVAL - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self.last_send = time.monotonic()
            self.pending = Pending(legal[index], position)
            self.sends += 1
            await ws.send(json.dumps({"type": "action", "index": index}))

    async def _settle(self, legal: list[Json]) -> None:
        """After a reconnect: was the unacknowledged action applied? It was unless the
        seat is still to act at the same position."""
        assert self.pending is not None
        taken = (not legal) or (await self._position() != self.pending.position)
        if taken:
            self.applied_unacked.append((self.pending.position, self.pending.action))
        else:
            self.lost_unacked += 1
        self.pending = None

    async def _position(self) -> int:
        """The game's action count (while this seat is to act, nobody else changes it)."""
        answer = await asyncio.wait_for(self.ctx.http.get(f"/api/games/{self.game_id}"), 15)
        answer.raise_for_status()
        count: int = answer.json()["actions"]
        return count


class Created:
    """A game the benchmark created: its id and the human seats' tokens."""

    def __init__(self, game_id: str, tokens: dict[int, str]) -> None:
        self.id = game_id
        self.tokens = tokens


async def patiently(send: Callable[[], Awaitable[httpx2.Response]]) -> httpx2.Response:
    """Send a request, waiting out the server's creation rate limit (a 429 says how long
    in ``retry-after``) and sending it again, up to twenty times; a connection the server
    dropped (it closes one after a failure of its own) is opened again, up to three times."""
    dropped = 0
    for _ in range(20):
        try:
            answer: httpx2.Response = await send()
        except httpx2.TransportError:
            dropped += 1
            if dropped > 3:
                raise
            await asyncio.sleep(0.2)
            continue
        if answer.status_code != 429:
            return answer
        await asyncio.sleep(float(answer.headers.get("retry-after", "1")))
    return answer


async def create_game(http: httpx2.AsyncClient, body: Json) -> Created:
    """``POST /api/games`` with ``body``.

    :raises RuntimeError: the server refused it.
    """
    answer = await patiently(partial(http.post, "/api/games", json=body))
    if answer.status_code != 201:
        raise RuntimeError(f"creating a game failed: {answer.status_code} {answer.text}")
    data = answer.json()
    tokens = {s["seat"]: s["token"] for s in data["seats"] if "token" in s}
    return Created(data["id"], tokens)


def game_body(args: argparse.Namespace, seed: int, humans: int = 1) -> Json:
    """A new game: ``humans`` scripted seats first, then bots to ``--players`` seats."""
    players: list[Json] = [{"name": f"Human{s}"} for s in range(humans)]
    players += [{"name": f"Bot{s}", "bot": args.bots} for s in range(humans, args.players)]
    return {"edition": args.edition, "players": players, "seed": seed}


class RecordCheck:
    """What the final records say about a phase's games and its clients' actions."""

    def __init__(self) -> None:
        self.finished = 0
        self.replayed = 0
        self.actions = 0
        self.lost = 0
        self.unacked_applied = 0
        self.unacked_not_applied = 0
        self.mismatched = 0
        """Unacknowledged sends judged applied that are not in the record where they were
        sent, and human actions in a record that no client sent."""


def actors(record: Json, game: ttr.Game) -> list[int]:
    """The seat that took each action of ``game`` (loaded from ``record``)."""
    again = ttr.Game.new(
        record["edition"],
        list(game.names),
        seed=record["seed"],
        start_player=record["start_player"],
        options=record["options"],
    )
    seats = []
    for entry in game.log:
        seats.append(again.current_player)
        again.apply(entry.action, seat=again.current_player)
    return seats


async def check_records(
    http: httpx2.AsyncClient, games: dict[str, list[SeatClient]], check: RecordCheck
) -> None:
    """Fetch every game's record, replay it with the library, and look for each client's
    acknowledged actions in it."""
    for game_id, clients in games.items():
        answer = await http.get(f"/api/games/{game_id}/record")
        try:
            game = ttr.Game.load(answer.text)
        except ttr.TtrError:
            continue
        check.replayed += 1
        check.finished += game.is_over
        check.actions += len(game.log)
        seats = actors(json.loads(answer.text), game)
        taken = [action_to_json(entry.action) for entry in game.log]
        for client in clients:
            check_client(client, seats, taken, check)


def at(position: int | None, seats: list[int], taken: list[Json], seat: int) -> Json | None:
    """The action ``seat`` took at ``position``, or None if it took none there."""
    if position is None or position >= len(taken) or seats[position] != seat:
        return None
    return taken[position]


def check_client(
    client: SeatClient, seats: list[int], taken: list[Json], check: RecordCheck
) -> None:
    """Count the client's acknowledged actions missing from the record (lost)."""
    own = [a for s, a in zip(seats, taken, strict=True) if s == client.seat]
    check.unacked_applied += len(client.applied_unacked)
    check.unacked_not_applied += client.lost_unacked
    if not client.ctx.positions:
        # Without positions (no faults): the seat's actions are exactly those acknowledged.
        acked = [a for _, a in client.acked]
        check.lost += sum(1 for i, a in enumerate(acked) if i >= len(own) or own[i] != a)
        check.mismatched += max(0, len(own) - len(acked))
        return
    for position, action in client.acked:
        check.lost += at(position, seats, taken, client.seat) != action
    for position, action in client.applied_unacked:
        check.mismatched += at(position, seats, taken, client.seat) != action
    sent = len(client.acked) + len(client.applied_unacked)
    check.mismatched += abs(len(own) - sent)


def percentile(values: Sequence[float], share: float) -> float:
    """The ``share`` quantile of ``values`` (nearest rank), 0 when there are none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Printer:
    """Prints ``key=value`` lines under a prefix and keeps them for the summary."""

    def __init__(self) -> None:
        self.figures: dict[str, float | int | str] = {}

    def __call__(self, prefix: str, **figures: float | int | str) -> None:
        for key, value in figures.items():
            shown = f"{value:.2f}" if isinstance(value, float) else str(value)
            self.figures[f"{prefix}.{key}"] = value
            print(f"{prefix}.{key}={shown}", flush=True)


async def play_games(
    ctx: Context, args: argparse.Namespace, count: int, seed: int
) -> tuple[dict[str, list[SeatClient]], float]:
    """Create ``count`` games and play them all at once; the clients and the wall time."""
    start = time.perf_counter()
    games: dict[str, list[SeatClient]] = {}
    for i in range(count):
        created = await create_game(ctx.http, game_body(args, seed + i))
        games[created.id] = [SeatClient(ctx, created.id, 0, created.tokens[0], seed + i)]
    await asyncio.gather(*(c.play() for clients in games.values() for c in clients))
    return games, time.perf_counter() - start


def report_play(
    out: Printer, prefix: str, games: dict[str, list[SeatClient]], check: RecordCheck
) -> None:
    """Print the figures every played phase shares."""
    clients = [c for cs in games.values() for c in cs]
    latencies = [x for c in clients for x in c.latencies]
    out(
        prefix,
        games=len(games),
        games_finished=check.finished,
        records_replay=check.replayed,
        actions=check.actions,
        acknowledged=sum(len(c.acked) for c in clients),
        lost=check.lost,
        mismatched=check.mismatched,
        refused_legal=sum(c.refused for c in clients),
        latency_p50_ms=1000 * percentile(latencies, 0.5),
        latency_p99_ms=1000 * percentile(latencies, 0.99),
    )


def judge_play(
    prefix: str, games: dict[str, list[SeatClient]], check: RecordCheck, fail: Failures
) -> None:
    """Note the broken promises of a played phase."""
    if check.finished != len(games):
        fail.add(f"{prefix}: {len(games) - check.finished} games did not finish")
    if check.replayed != len(games):
        fail.add(f"{prefix}: {len(games) - check.replayed} records do not replay")
    if check.lost:
        fail.add(f"{prefix}: {check.lost} acknowledged actions lost")
    if check.mismatched:
        fail.add(f"{prefix}: {check.mismatched} actions not where their client sent them")
    errors = [e for clients in games.values() for c in clients for e in c.errors]
    if errors:
        fail.add(f"{prefix}: {len(errors)} legal actions refused, first: {errors[0]}")


async def load_phase(
    server: Server, args: argparse.Namespace, prefix: str, out: Printer, fail: Failures
) -> float:
    """The load figures; returns the human seat's actions per game, for the fault phase."""
    ctx = Context(server, args.deadline_at, args.max_sends, positions=False)
    try:
        games, wall = await play_games(ctx, args, args.games, args.seed)
        check = RecordCheck()
        await check_records(ctx.http, games, check)
    finally:
        await ctx.close()
    report_play(out, prefix, games, check)
    out(prefix, wall_s=wall, games_per_minute=60 * check.finished / wall)
    judge_play(prefix, games, check, fail)
    if ctx.texts_with_traceback:
        fail.add(f"{prefix}: {ctx.texts_with_traceback} messages held a traceback")
    return ctx.acked / max(1, len(games))


async def fault_phase(
    server: Server,
    args: argparse.Namespace,
    per_game: float,
    prefix: str,
    out: Printer,
    fail: Failures,
) -> None:
    """The fault figures: the load again, with the server killed and restarted."""
    ctx = Context(server, args.deadline_at, args.max_sends, positions=True)
    rng = random.Random(args.seed ^ 0xDEAD)
    expected = max(args.kills + 1, int(per_game * args.fault_games))
    at_acks = sorted(rng.sample(range(1, max(2, int(0.7 * expected))), args.kills))
    kills = restarts = 0
    playing = True

    async def killer() -> None:
        nonlocal kills, restarts
        for threshold in at_acks:
            while playing and ctx.acked < threshold and not ctx.over():
                await asyncio.sleep(0.01)
            if not playing or ctx.over():
                return
            await asyncio.sleep(rng.uniform(0.0, 0.2))
            server.kill()
            kills += 1
            server.start()
            await server.ready(ctx.deadline)
            ctx.renew()
            restarts += 1

    try:
        task = asyncio.create_task(killer())
        games, wall = await play_games(ctx, args, args.fault_games, args.seed + 1_000_000)
        playing = False
        await task
        check = RecordCheck()
        await check_records(ctx.http, games, check)
    finally:
        await ctx.close()
    report_play(out, prefix, games, check)
    clients = [c for cs in games.values() for c in cs]
    out(
        prefix,
        wall_s=wall,
        kills=kills,
        restarts=restarts,
        reconnects=sum(c.connects - 1 for c in clients),
        unacked_applied=check.unacked_applied,
        unacked_not_applied=check.unacked_not_applied,
    )
    judge_play(prefix, games, check, fail)
    if kills != args.kills:
        fail.add(f"{prefix}: {kills} kills of {args.kills} happened before the games ended")
    if ctx.texts_with_traceback:
        fail.add(f"{prefix}: {ctx.texts_with_traceback} messages held a traceback")


class Abuse:
    """The abuse attempts of one server: each either refused or a broken promise."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.attempts = 0
        self.refused = 0
        self.accepted: list[str] = []

    def judge(self, what: str, refused: bool) -> None:
        """Count one attempt."""
        self.attempts += 1
        if refused:
            self.refused += 1
        else:
            self.accepted.append(what)

    @asynccontextmanager
    async def socket(self, game_id: str, token: str | None) -> AsyncIterator[ClientConnection]:
        """A WebSocket to a game (frames up to four times the server's limit may be sent)."""
        async with connect(
            self.ctx.ws_url(game_id, token),
            proxy=None,
            ping_interval=None,
            compression=None,
            max_size=None,
            open_timeout=10,
        ) as ws:
            yield ws

    async def receive(self, ws: ClientConnection) -> Json | None:
        """The next message, or None once the socket is closed."""
        try:
            text = await asyncio.wait_for(ws.recv(), RECV_SECONDS)
        except ConnectionClosed:
            return None
        message: Json = json.loads(self.ctx.seen(str(text)))
        return message

    async def refused_message(
        self, ws: ClientConnection, text: str | bytes, what: str, needle: str = ""
    ) -> None:
        """Send a message that must get an error (naming ``needle``) and change nothing."""
        await ws.send(text)
        answer = await self.receive(ws)
        ok = answer is not None and answer["type"] == "error"
        self.judge(what, ok and needle in str(answer.get("message", "") if answer else ""))

    async def closed_after(self, ws: ClientConnection, code: int, what: str) -> None:
        """Read until the socket closes: it must close with ``code``, sending no state."""
        states = 0
        while (message := await self.receive(ws)) is not None:
            states += message["type"] == "state"
        self.judge(what, states == 0 and ws.close_code == code)

    async def http(
        self, what: str, status: int, send: Callable[[], Awaitable[httpx2.Response]]
    ) -> None:
        """An HTTP request that must be answered ``status`` with a JSON error body."""
        answer = await patiently(send)
        self.ctx.seen(answer.text)
        try:
            ok = answer.status_code == status and isinstance(answer.json()["error"], str)
        except (ValueError, KeyError, TypeError):
            ok = False
        self.judge(what, ok)


BAD_CREATES: list[tuple[str, Any]] = [
    ("no edition", {"players": [{"name": "a"}, {"name": "b"}]}),
    ("no players", {"edition": "usa"}),
    ("unknown edition", {"edition": "atlantis", "players": [{"name": "a"}, {"name": "b"}]}),
    ("unknown field", {"edition": "usa", "players": [{"name": "a"}, {"name": "b"}], "x": 1}),
    ("players not a list", {"edition": "usa", "players": "ab"}),
    ("no seats", {"edition": "usa", "players": []}),
    ("one seat", {"edition": "usa", "players": [{"name": "a"}]}),
    ("six seats", {"edition": "usa", "players": [{"name": f"p{i}"} for i in range(6)]}),
    ("same names", {"edition": "usa", "players": [{"name": "a"}, {"name": "a"}]}),
    ("empty name", {"edition": "usa", "players": [{"name": ""}, {"name": "b"}]}),
    ("blank name", {"edition": "usa", "players": [{"name": "  "}, {"name": "b"}]}),
    ("long name", {"edition": "usa", "players": [{"name": "n" * 41}, {"name": "b"}]}),
    ("name a number", {"edition": "usa", "players": [{"name": 5}, {"name": "b"}]}),
    ("seat field", {"edition": "usa", "players": [{"name": "a", "token": "t"}, {"name": "b"}]}),
    ("seat not object", {"edition": "usa", "players": ["a", "b"]}),
    (
        "bot by path",
        {"edition": "usa", "players": [{"name": "a", "bot": "os:system"}, {"name": "b"}]},
    ),
    ("unknown bot", {"edition": "usa", "players": [{"name": "a", "bot": "oracle"}, {"name": "b"}]}),
    (
        "bot bad spec",
        {"edition": "usa", "players": [{"name": "a", "bot": "greedy:=x"}, {"name": "b"}]},
    ),
    ("bot a number", {"edition": "usa", "players": [{"name": "a", "bot": 1}, {"name": "b"}]}),
    ("seed negative", {"edition": "usa", "players": [{"name": "a"}, {"name": "b"}], "seed": -1}),
    ("seed 2**63", {"edition": "usa", "players": [{"name": "a"}, {"name": "b"}], "seed": 2**63}),
    ("seed float", {"edition": "usa", "players": [{"name": "a"}, {"name": "b"}], "seed": 1.5}),
    ("seed bool", {"edition": "usa", "players": [{"name": "a"}, {"name": "b"}], "seed": True}),
    ("seed text", {"edition": "usa", "players": [{"name": "a"}, {"name": "b"}], "seed": "7"}),
    ("options list", {"edition": "usa", "players": [{"name": "a"}, {"name": "b"}], "options": []}),
    (
        "unknown option",
        {"edition": "usa", "players": [{"name": "a"}, {"name": "b"}], "options": {"zz": 1}},
    ),
    ("long edition", {"edition": "u" * 201, "players": [{"name": "a"}, {"name": "b"}]}),
    ("body a list", []),
    ("body null", None),
]

BAD_TEXTS: list[tuple[str, str | bytes]] = [
    ("not JSON", "hello"),
    ("truncated JSON", '{"type": "action", "index": '),
    ("empty text", ""),
    ("NUL byte", "\x00"),
    ("deep nesting", "[" * 4000 + "]" * 4000),
    ("a list", "[1, 2]"),
    ("a string", '"action"'),
    ("null", "null"),
    ("undecodable bytes", b"\xff\xfe{"),
    ("unknown type", '{"type": "hello"}'),
    ("no type", '{"index": 0}'),
    ("type only", '{"type": "action"}'),
    ("unknown field", '{"type": "action", "index": 0, "extra": 1}'),
    ("index and action", '{"type": "action", "index": 0, "action": {"tag": "draw_blind"}}'),
    ("index a string", '{"type": "action", "index": "0"}'),
    ("index a float", '{"type": "action", "index": 0.0}'),
    ("index a bool", '{"type": "action", "index": true}'),
    ("index null", '{"type": "action", "index": null}'),
    ("unknown action tag", '{"type": "action", "action": {"tag": "win_game"}}'),
    ("action field", '{"type": "action", "action": {"tag": "draw_blind", "n": 2}}'),
    ("action not object", '{"type": "action", "action": "draw_blind"}'),
]


async def abuse_phase(
    server: Server, args: argparse.Namespace, prefix: str, out: Printer, fail: Failures
) -> None:
    """Try every refused input on a fresh server, then play its games to the end."""
    ctx = Context(server, args.deadline_at, args.max_sends, positions=True)
    abuse = Abuse(ctx)
    try:
        three = await create_game(
            ctx.http, {"edition": args.edition, "players": [{"name": n} for n in "ABC"], "seed": 5}
        )
        other = await create_game(ctx.http, game_body(args, 6))
        legit = await abuse_websockets(abuse, three, other)
        await abuse_http(abuse, three)
        count = (await ctx.http.get(f"/api/games/{three.id}")).json()["actions"]
        abuse.judge("abuse changed the game", count == legit)
        listed = (await ctx.http.get("/api/games")).json()["games"]
        abuse.judge("a refused request created a game", len(listed) == 2)
        clients = {
            three.id: [
                SeatClient(ctx, three.id, s, t, args.seed + s) for s, t in three.tokens.items()
            ],
            other.id: [SeatClient(ctx, other.id, 0, other.tokens[0], args.seed)],
        }
        await asyncio.gather(*(c.play() for cs in clients.values() for c in cs))
        check = RecordCheck()
        await check_records(ctx.http, clients, check)
    finally:
        await ctx.close()
    out(
        prefix,
        attempts=abuse.attempts,
        refused=abuse.refused,
        accepted=len(abuse.accepted),
        tracebacks_sent=ctx.texts_with_traceback,
        games_finished_after=check.finished,
        records_replay=check.replayed,
    )
    for what in abuse.accepted:
        fail.add(f"{prefix}: not refused: {what}")
    if ctx.texts_with_traceback:
        fail.add(f"{prefix}: {ctx.texts_with_traceback} answers held a traceback")
    if check.finished != 2 or check.replayed != 2:
        fail.add(f"{prefix}: the games were not served to the end after the abuse")


async def current_seat(abuse: Abuse, game: Created) -> tuple[int, list[Json]]:
    """The seat to act in a game of humans only, and its legal actions."""
    for seat, token in game.tokens.items():
        async with abuse.socket(game.id, token) as ws:
            state = await abuse.receive(ws)
            if state is not None and state["legal"]:
                return seat, state["legal"]
    raise RuntimeError("no seat of the game is to act")


async def abuse_websockets(abuse: Abuse, three: Created, other: Created) -> int:
    """The WebSocket abuse, mostly on ``three`` (three human seats); returns how many
    legitimate actions it took there (one a round, to pass the turn around)."""
    legit = 0
    for _ in range(len(three.tokens)):
        await abuse_seats(abuse, three)
        seat, legal = await current_seat(abuse, three)
        async with abuse.socket(three.id, three.tokens[seat]) as ws:
            await abuse.receive(ws)
            await ws.send(json.dumps({"type": "action", "action": legal[0]}))
            answer = await abuse.receive(ws)
            if answer is None or answer["type"] != "state":
                raise RuntimeError(f"a legal action was refused: {answer}")
            legit += 1
    seat, legal = await current_seat(abuse, three)
    token = three.tokens[seat]
    async with abuse.socket(three.id, token) as ws:
        await abuse.receive(ws)
        for what, text in BAD_TEXTS:
            await abuse.refused_message(ws, text, f"message: {what}")
    async with abuse.socket(three.id, token) as ws:
        await abuse.receive(ws)
        for index in (-1, len(legal), 10**9, 2**70):
            await abuse.refused_message(
                ws, json.dumps({"type": "action", "index": index}), f"index {index}", "index"
            )
        for what, action in illegal_actions(legal):
            await abuse.refused_message(ws, json.dumps({"type": "action", "action": action}), what)
    async with abuse.socket(three.id, None) as ws:
        await abuse.receive(ws)
        for text in (
            '{"type": "action", "index": 0}',
            json.dumps({"type": "action", "action": legal[0]}),
        ):
            await abuse.refused_message(ws, text, "a spectator acts", "spectator")
    await abuse_limits(abuse, three, seat, legal)
    await abuse_tokens(abuse, three, other)
    return legit


def illegal_actions(legal: list[Json]) -> list[tuple[str, Json]]:
    """Well-formed actions that are not legal now (none of them is in ``legal``)."""
    tried: list[tuple[str, Json]] = [
        ("claim with no cards", {"tag": "claim_route", "route": 0, "cards": {}}),
        ("claim with 99 cards", {"tag": "claim_route", "route": 0, "cards": {"red": 99}}),
        ("claim an unknown route", {"tag": "claim_route", "route": 10**6, "cards": {"red": 1}}),
        ("keep unknown tickets", {"tag": "keep_tickets", "tickets": [999]}),
        ("keep no tickets", {"tag": "keep_tickets", "tickets": []}),
        ("take a locomotive face up", {"tag": "take_face_up", "card": "locomotive"}),
        ("pay a tunnel with none", {"tag": "pay_tunnel", "cards": {}}),
        ("pass", {"tag": "pass"}),
    ]
    return [(w, a) for w, a in tried if a not in legal]


async def abuse_seats(abuse: Abuse, game: Created) -> None:
    """Every other seat's token tries the current seat's actions; every token sees only
    its own seat's hand, tickets and offer."""
    seat, legal = await current_seat(abuse, game)
    record = (await abuse.ctx.http.get(f"/api/games/{game.id}/record")).text
    truth = ttr.Game.load(record)
    for other, token in game.tokens.items():
        async with abuse.socket(game.id, token) as ws:
            state = await abuse.receive(ws)
            own = ttr.view_to_json(truth.view(other))
            for watched in game.tokens:
                if watched != other:
                    secret = ttr.view_to_json(truth.view(watched))
                    sees = state is not None and state["view"] == own and state["view"] != secret
                    abuse.judge(f"seat {other}'s token sees seat {watched}'s hand", sees)
            if other == seat:
                continue
            for action in legal[:5]:
                text = json.dumps({"type": "action", "action": action})
                await abuse.refused_message(
                    ws, text, f"seat {other}'s token acts for seat {seat}", "TURN-4"
                )
            await abuse.refused_message(
                ws, '{"type": "action", "index": 0}', f"seat {other} plays an index out of turn"
            )


async def abuse_limits(abuse: Abuse, game: Created, seat: int, legal: list[Json]) -> None:
    """Oversized messages and frames, a flood, and too many refused messages."""
    token = game.tokens[seat]
    padded = json.dumps({"type": "action", "index": 0, "pad": "x" * MESSAGE_LIMIT})
    big_action = {"tag": "claim_route", "route": 0, "cards": {"red": 1}, "p": "x" * MESSAGE_LIMIT}
    for what, text in [
        ("message over 8 KiB", padded),
        ("valid action over 8 KiB", json.dumps({"type": "action", "action": big_action})),
        ("text over 8 KiB of multibyte characters", '"' + "é" * (MESSAGE_LIMIT // 2 + 1) + '"'),
    ]:
        async with abuse.socket(game.id, token) as ws:
            await abuse.receive(ws)
            await ws.send(text)
            answer = await abuse.receive(ws)
            got_error = answer is not None and answer["type"] == "error"
            await abuse.closed_after(ws, CLOSE_TOO_BIG, what)
            abuse.judge(f"{what}: error message first", got_error)
    async with abuse.socket(game.id, token) as ws:
        await abuse.receive(ws)
        await ws.send("x" * (FRAME_LIMIT + 1))
        await abuse.closed_after(ws, CLOSE_TOO_BIG, "frame over 64 KiB")
    others = [t for s, t in game.tokens.items() if s != seat]
    out_of_turn = json.dumps({"type": "action", "action": legal[0]})
    async with abuse.socket(game.id, others[0]) as ws:
        await abuse.receive(ws)
        for _ in range(RATE_BURST + 20):
            await ws.send(out_of_turn)
        errors = 0
        while (message := await abuse.receive(ws)) is not None:
            errors += message["type"] == "error"
        abuse.judge("flood over the rate limit", ws.close_code == CLOSE_POLICY and errors > 0)
    async with abuse.socket(game.id, others[-1]) as ws:
        await abuse.receive(ws)
        for _ in range(BAD_LIMIT):
            await ws.send(out_of_turn)
            await asyncio.sleep(0.07)
        errors = 0
        while (message := await abuse.receive(ws)) is not None:
            errors += message["type"] == "error"
        abuse.judge("50 refused messages", ws.close_code == CLOSE_POLICY and errors == BAD_LIMIT)


async def abuse_tokens(abuse: Abuse, three: Created, other: Created) -> None:
    """Tokens of other games, forged tokens and unknown games: an error, then a close."""
    some = three.tokens[0]
    tries: list[tuple[str, str, str | None]] = []
    for seat, token in three.tokens.items():
        tries.append((f"seat {seat}'s token on another game", other.id, token))
    for seat, token in other.tokens.items():
        tries.append((f"other game's seat {seat} token", three.id, token))
    forged = some[:-1] + ("A" if some[-1] != "A" else "B")
    bad: list[tuple[str, str]] = [
        ("a token with one character changed", forged),
        ("an empty token", ""),
        ("a random token", "x" * len(some)),
        ("a token in upper case", some.upper() if some.upper() != some else some.lower()),
        ("a very long token", "t" * 4000),
    ]
    tries += [(what, three.id, forgery) for what, forgery in bad]
    tries.append(("an unknown game", "no-such-game", None))
    tries.append(("a game id with a NUL byte", "%00", None))
    tries.append(("an unknown game with a token", "no-such-game", some))
    for what, game_id, tried in tries:
        try:
            async with abuse.socket(game_id, tried) as ws:
                first = await abuse.receive(ws)
                await abuse.closed_after(ws, CLOSE_POLICY, what)
                abuse.judge(
                    f"{what}: error message", first is not None and first["type"] == "error"
                )
        except InvalidHandshake:
            abuse.judge(what, True)


async def abuse_http(abuse: Abuse, game: Created) -> None:
    """Unknown games, bad creation requests and over-long bodies over HTTP."""
    http = abuse.ctx.http
    for path in (
        "/api/games/no-such-game",
        "/api/games/no-such-game/record",
        "/api/games/%00",
        "/api/games/%00/record",
    ):
        await abuse.http(f"GET {path}", 404, partial(http.get, path))
    await abuse.http("DELETE a game", 405, lambda: http.delete(f"/api/games/{game.id}"))
    await abuse.http("PUT the game list", 405, lambda: http.put("/api/games", json={}))
    for what, body in BAD_CREATES:
        await abuse.http(f"create: {what}", 400, partial(http.post, "/api/games", json=body))
    for what, raw in [("not JSON", b"{"), ("not UTF-8", b"\xff\xfe"), ("empty", b"")]:
        await abuse.http(f"create: body {what}", 400, partial(http.post, "/api/games", content=raw))
    big = json.dumps({"edition": "usa", "players": [{"name": "a"}, {"name": "b"}]})
    big = big[:-1] + ', "pad": "' + "x" * BODY_LIMIT + '"}'
    await abuse.http("body over 16 KiB", 413, lambda: http.post("/api/games", content=big.encode()))

    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(BODY_LIMIT // 1024 + 4):
            yield b" " * 1024

    await abuse.http(
        "chunked body over 16 KiB", 413, lambda: http.post("/api/games", content=chunks())
    )


@asynccontextmanager
async def running(db: str, logs: Path, name: str, deadline: float) -> AsyncIterator[Server]:
    """A server on ``db`` and a free port, stopped (or killed) on leaving."""
    with (logs / f"{name}.log").open("w") as log:
        server = Server(db, free_port(), log)
        try:
            server.start()
            await server.ready(deadline)
            yield server
        finally:
            server.stop()
            server.kill()


@asynccontextmanager
async def fresh_database(kind: str, url: str, work: Path, name: str) -> AsyncIterator[str]:
    """A new empty database for one phase: a SQLite file, or a PostgreSQL schema of its
    own in ``url``'s database (dropped on leaving)."""
    if kind == "sqlite":
        yield str(work / f"{name}.sqlite")
        return
    import psycopg

    schema = f"ttr_bench_{os.getpid()}_{name}"
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        joiner = "&" if "?" in url else "?"
        yield f"{url}{joiner}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


async def run_all(args: argparse.Namespace, out: Printer, fail: Failures) -> None:
    """Every phase on every database asked for."""
    databases = [] if args.no_sqlite else [("sqlite", "")]
    if args.postgres:
        databases.append(("postgresql", args.postgres))
    with tempfile.TemporaryDirectory(prefix="ttr-server-load-") as tmp:
        work = Path(tmp)
        logs = work if args.logs is None else Path(args.logs)
        logs.mkdir(parents=True, exist_ok=True)
        for kind, url in databases:
            per_game = float(DEFAULT_HUMAN_ACTIONS)
            for phase in args.phases:
                prefix = f"{kind}.{phase}"
                async with (
                    fresh_database(kind, url, work, phase) as db,
                    running(db, logs, f"{kind}-{phase}", args.deadline_at) as server,
                ):
                    if phase == "load":
                        per_game = await load_phase(server, args, prefix, out, fail)
                    elif phase == "faults":
                        await fault_phase(server, args, per_game, prefix, out, fail)
                    else:
                        await abuse_phase(server, args, prefix, out, fail)
                log_text = (logs / f"{kind}-{phase}.log").read_text()
                out(prefix, server_log_tracebacks=log_text.count("Traceback"))


def summary(out: Printer, fail: Failures) -> None:
    """A few lines for people: the main figures and every broken promise."""
    figures = out.figures
    print()
    for key in sorted({k.rsplit(".", 1)[0] for k in figures}):
        if key.endswith(".load"):
            print(
                f"{key}: {figures[key + '.games_finished']} games in "
                f"{float(figures[key + '.wall_s']):.1f} s "
                f"({float(figures[key + '.games_per_minute']):.0f}/min), action to ack p50 "
                f"{float(figures[key + '.latency_p50_ms']):.1f} ms, p99 "
                f"{float(figures[key + '.latency_p99_ms']):.1f} ms"
            )
        elif key.endswith(".faults"):
            print(
                f"{key}: {figures[key + '.kills']} kills, {figures[key + '.acknowledged']} "
                f"acknowledged actions, {figures[key + '.lost']} lost; unacknowledged sends "
                f"{figures[key + '.unacked_applied']} applied and "
                f"{figures[key + '.unacked_not_applied']} not (both allowed)"
            )
        elif key.endswith(".abuse"):
            print(
                f"{key}: {figures[key + '.refused']} of {figures[key + '.attempts']} "
                "abuse attempts refused"
            )
    print("every promise kept" if not fail.items else "BROKEN PROMISES:")
    for item in fail.items:
        print(f"  {item}")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line (every size and time has a bound)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200, help="concurrent games (load)")
    parser.add_argument("--fault-games", type=int, help="games of the fault phase (--games)")
    parser.add_argument("--kills", type=int, default=10, help="kill -9s of the fault phase")
    parser.add_argument("--edition", default="usa")
    parser.add_argument("--players", type=int, default=2, help="seats a game (one scripted)")
    parser.add_argument("--bots", default="greedy", help="the bot of the other seats")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--phases", default="load,faults,abuse", help="comma-separated")
    parser.add_argument("--postgres", help="also on this PostgreSQL database (own schema)")
    parser.add_argument("--no-sqlite", action="store_true", help="only on --postgres")
    parser.add_argument("--deadline", type=float, default=1800, help="seconds, whole run")
    parser.add_argument("--max-games", type=int, default=1000, help="the cap on --games")
    parser.add_argument("--logs", help="keep the servers' logs in this directory")
    parser.add_argument("--max-sends", type=int, default=2000, help="actions a client")
    args = parser.parse_args(argv)
    args.fault_games = args.games if args.fault_games is None else args.fault_games
    args.phases = [p for p in args.phases.split(",") if p]
    if not set(args.phases) <= {"load", "faults", "abuse"}:
        parser.error("--phases takes load, faults and abuse")
    if not (0 < args.games <= args.max_games and 0 < args.fault_games <= args.max_games):
        parser.error(f"--games and --fault-games must be from 1 to --max-games={args.max_games}")
    if args.kills < 0 or args.players < 2:
        parser.error("--kills must be 0 or more and --players at least 2")
    if args.no_sqlite and not args.postgres:
        parser.error("--no-sqlite needs --postgres")
    args.deadline_at = time.monotonic() + args.deadline
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; 0 when every promise held, 1 otherwise."""
    args = parse_args(argv)
    out, fail = Printer(), Failures()
    load = os.getloadavg()
    out("machine", cores=os.cpu_count() or 0, load_average=load[0])
    started = time.perf_counter()
    asyncio.run(run_all(args, out, fail))
    out("run", wall_s=time.perf_counter() - started, load_average=os.getloadavg()[0])
    out("run", create_rate_passed=int(_has_create_rate()), broken=len(fail.items))
    summary(out, fail)
    return 1 if fail.items else 0


if __name__ == "__main__":
    raise SystemExit(main())
