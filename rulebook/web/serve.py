"""``rulebook serve``: a game at a table in the browser.

One process holds the game (the only full state) and serves a page that
draws it. Each human seat has its own URL with a secret token; the page
opens a WebSocket with that token and gets, after every change, only what
its seat may see: ``rulebook.table.seat_table``, built from
``view(state, seat)`` and the narration meant for that seat. A request for a
seat whose token the server does not hold is refused (HTTP 403, WebSocket
closed with 1008) and a decision is only ever applied for the seat the token
belongs to. Bots play the other seats (greedy by default).

With ``--author`` a further URL opens the author's panel: the whole state,
the pending decision and the rule line that asks it (``Game.asked_at``), the
event log with every decision, stepping back and forth through the game's
positions (time travel), branching from a past step, acting for any seat,
turning a seat from human to bot and back, and the phase graph. Everything
runs in one asyncio loop; bots think in a worker thread while the game is
locked.

A table outlives its game: a rematch starts a new game at the same seats
with the same links; a takeback, once the other humans accept it, puts the
game back at the asker's last decision (the state kept after that step,
which is what replaying the log to it gives); with ``--save DIR`` every
change is written to DIR (``rulebook.web.saved``) and a server started
again on DIR resumes the table with the same links.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
import socket
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import click

from rulebook.display.forced import answered_by_table
from rulebook.display.tidy import tidy
from rulebook.interpreter.labels import player_name
from rulebook.interpreter.narrate import narrate_lines
from rulebook.interpreter.ops import zone_family
from rulebook.web.help import decision_help
from rulebook.web.layout import author_table, seat_table
from rulebook.web.life import TableLife

WEB = Path(__file__).resolve().parent
LOG_KEPT = 400  # narrated lines sent to a seat (the page scrolls them)
AUTHOR_KEPT = 3000  # lines of the author's log sent around the step the panel shows
OUTBOX = 64  # messages queued for one connection: one that falls further behind is dropped
AUTHOR = "author"


@dataclass
class Client:
    """One open WebSocket: whose it is, the step its author panel shows, and
    its own bounded queue of messages still to send (written by its own
    task, so that no seat ever waits for another's socket)."""

    ws: object
    who: object  # a seat, or AUTHOR
    outbox: asyncio.Queue = field(default_factory=lambda: asyncio.Queue(maxsize=OUTBOX))
    travel: int | None = None  # the author's panel: the step shown (None: the present)
    writer: asyncio.Task | None = None


@dataclass
class Host(TableLife):
    """The game being served, its seats' tokens and what each seat has been told."""

    game: object
    st: object
    humans: tuple[int, ...]  # 0-based seats played in browsers
    bots: dict  # seat -> agent (agents.base.as_agent)
    author: bool = False
    params: dict = field(default_factory=dict)  # the game's parameters (a rematch keeps them)
    bot_spec: str = "greedy"  # --bots: a rematch, or a seat turned into a bot, gets its agent from it
    names: dict = field(default_factory=dict)  # seat -> the name its player chose (rulesets without names)
    takeback: dict | None = None  # {"by": seat, "waiting": [seats still to accept]}
    games: int = 1  # games played at this table (a rematch counts one more)
    save: object | None = None  # rulebook.web.saved.Saved: where every change is written
    bot_delay: float = 0.6
    tokens: dict = field(default_factory=dict)
    author_token: str | None = None
    logs: dict = field(default_factory=dict)  # seat or AUTHOR -> [{"step", "kind", "player", "text"}]
    seen: set = field(default_factory=set)  # zone families that have held a component
    snapshots: list = field(default_factory=list)  # the state after each decision (index: decisions made)
    clients: dict = field(default_factory=dict)  # websocket -> Client
    failure: dict | None = None  # the error that stopped the game: {"text", "where", "code", "hint"}
    lock: asyncio.Lock | None = None
    timer: asyncio.Task | None = None

    def __post_init__(self):
        self.tokens = self.tokens or {p: secrets.token_urlsafe(18) for p in self.humans}
        if self.author and not self.author_token:
            self.author_token = secrets.token_urlsafe(18)
        for key in [*self.humans, AUTHOR]:
            self.logs.setdefault(key, [])
        self.seen |= {zone_family(self.st, z) for z, zone in enumerate(self.st.zones) if zone}
        self.record()
        self.snapshots.append(self.st.clone())

    # ------------------------------------------------------------ who is who
    def seat_of(self, token: str | None) -> int | None:
        """The seat a token belongs to (None: no seat)."""
        for seat, t in self.tokens.items():
            if token and secrets.compare_digest(str(token), t):
                return seat
        return None

    def is_author(self, token: str | None) -> bool:
        return bool(self.author_token and token and secrets.compare_digest(str(token), self.author_token))

    # ------------------------------------------------------------ the game
    def record(self) -> None:
        """Narrate the new events to each seat and to the author; note the
        zone families that received something."""
        st = self.st
        if not st.events:
            return
        step = len(st.history)
        self.seen |= {zone_family(st, ev.dest) for ev in st.events if ev[0] == "move" and ev.dest >= 0}
        for seat in self.humans:
            self.logs[seat] += [_line(step, ln) for ln in tidy(st, narrate_lines(st, st.events, seat)) if ln.text]
        self.logs[AUTHOR] += author_lines(st, st.events, step)
        st.events.clear()

    def apply(self, seat: int, index: int) -> bool:
        """Apply one answer, all or nothing: on a copy of the state, which
        replaces it only when the rules ran to the next decision. A rule that
        fails leaves the table as it was and stops the game (``fail``)."""
        return self.attempt(lambda st: self.game.apply(st, seat, index))

    def attempt(self, change) -> bool:
        trial = self.st.clone()
        try:
            change(trial)
        except Exception as err:  # noqa: BLE001 - a failing rule must stop the game, never the server
            self.fail(err)
            return False
        self.st = trial
        self.record()
        self.snapshots.append(self.st.clone())
        self.saved()
        return True

    def saved(self) -> None:
        if self.save is not None:
            self.save.write(self)

    def fail(self, err: Exception) -> None:
        """The game cannot go on: every seat and the author are shown the
        error in one line with its rule place, and the command prints it
        once (and exits 1 when the table is closed)."""
        from rulebook.interpreter.errors import RulebookError
        from rulebook.validator.files import escape

        if isinstance(err, RulebookError):
            text = str(err).splitlines()[0]
        else:
            text = f"internal error: {type(err).__name__}: {err}"
        self.failure = {"text": escape(text), "where": getattr(err, "where", ""), "code": getattr(err, "code", ""),
                        "hint": getattr(err, "hint", None)}
        click.echo(f"rulebook: {self.failure['text']}", err=True)

    def next_bot(self) -> int | None:
        return next((p for p in self.game.to_move(self.st) if p not in self.humans), None)

    def forced_human(self) -> int | None:
        return answered_by_table(self.game, self.st, self.humans)

    async def advance(self) -> None:
        """Let bots (and forced answers) play until a human must decide, the
        game is over or a rule failed, sending the table after each step."""
        from rulebook.agents.base import decide

        while not self.st.over and self.failure is None:
            if self.forced_human() is None:
                if self.next_bot() is None:
                    break
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)  # so that people can follow the bots' moves
            async with self.lock:  # checked again: a human's answer may have come in meanwhile
                if self.st.over or self.failure is not None:
                    break
                p = self.forced_human()
                if p is not None:
                    self.apply(p, 0)
                else:
                    p = self.next_bot()
                    if p is None:
                        break
                    try:
                        answer = await asyncio.to_thread(decide, self.game, self.st, p, self.bots[p])
                    except Exception as err:  # noqa: BLE001 - a rule failing in a bot's search stops the game
                        self.fail(err)
                    else:
                        self.apply(p, answer)
            self.broadcast()
        self.arm_timer()

    def arm_timer(self) -> None:
        """A human decision with a time limit (a turn's ``time_limit``): when
        it runs out, ``Game.time_out`` applies the ruleset's penalty."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        st = self.st
        if st.over or self.failure is not None:
            return
        for p in self.game.to_move(st):
            if p in self.humans:
                limit = self.game.time_limit(st, p)
                if limit:
                    self.timer = asyncio.get_running_loop().create_task(self._expire(p, len(st.history), limit))
                    return

    async def _expire(self, seat: int, steps: int, limit: float) -> None:
        await asyncio.sleep(limit)
        async with self.lock:
            if len(self.st.history) != steps or seat not in self.game.to_move(self.st) or self.failure:
                return
            self.attempt(lambda st: self.game.time_out(st, seat))
        self.broadcast()
        await self.advance()

    async def choose(self, seat: int, index, number) -> str | None:
        """A seat's answer from its page to decision ``number`` (the count
        of decisions made before it, sent with the table); an error
        message, or None."""
        async with self.lock:
            st = self.st
            if self.failure is not None:
                return "the game stopped: " + self.failure["text"]
            if st.over:
                return "the game is over"
            now = len(st.history)
            if not isinstance(number, int) or isinstance(number, bool) or number != now:
                return (f"that answer was for decision {number}, and this is decision {now}: "
                        "the table changed before your answer arrived; choose again"
                        if isinstance(number, int) and not isinstance(number, bool)
                        else "an answer must say which decision it answers")
            if seat not in self.game.to_move(st):
                return "you have no decision to make now"
            count = len(self.game.options(st, seat))
            if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < count:
                return "that is not one of your options"
            self.apply(seat, index)
        self.broadcast()
        await self.advance()
        return None

    async def handle(self, client: Client, msg: dict) -> str | None:
        """One message from a page: an answer, or one of the table's own
        requests (a rematch, a takeback and its answer, a name; for the
        author: time travel, a branch, an answer for any seat, a seat made
        human or bot). An error message, or None."""
        kind, who = msg.get("type"), client.who
        seat = msg.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.st.n:
            seat = None
        if who != AUTHOR and who not in self.humans:
            return "a bot plays this seat now (the author made it one)"
        if kind == "choose":
            target = seat if who == AUTHOR else who
            if target is None:
                return "which seat does the author answer for?"
            return await self.choose(target, msg.get("index"), msg.get("decision"))
        if kind == "travel" and who == AUTHOR:
            step = msg.get("step")
            client.travel = step if isinstance(step, int) and not isinstance(step, bool) else None
            self.send(client)
            return None
        if kind == "rematch":
            return await self.rematch(who, bool(msg.get("same_seed")))
        async with self.lock:
            if kind == "takeback" and who != AUTHOR:
                problem = self.ask_takeback(who)
            elif kind == "takeback_answer" and who != AUTHOR:
                problem = self.answer_takeback(who, msg.get("accept") is True)
            elif kind == "name" and who != AUTHOR:
                problem = self.rename(who, msg.get("name"))
            elif kind == "branch" and who == AUTHOR:
                step = msg.get("step")
                if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step < len(self.snapshots):
                    return "a branch starts at a step of the game"
                self.rewind(step, f"The author branched from step {step}: the game goes on from there.")
                client.travel = None
                problem = None
            elif kind == "seat_kind" and who == AUTHOR and seat is not None:
                self.set_human(seat, msg.get("human") is True)
                problem = None
            else:
                return "the table does not know that request"
        if problem:
            return problem
        self.broadcast()
        await self.advance()
        return None

    async def rematch(self, who, same_seed: bool) -> str | None:
        async with self.lock:
            if who != AUTHOR and not self.st.over and self.failure is None:
                return "a rematch is offered when the game is over"
            seed = self.st.seed if same_seed else (self.st.seed * 7919 + self.games) % 100000
            self.restart(seed)
        self.broadcast()
        await self.advance()
        return None

    # ------------------------------------------------------------ what is sent
    def payload(self, who, step: int | None = None) -> dict:
        if who == AUTHOR:
            out = self.author_payload(step)
        else:
            table = seat_table(self.game, self.st, who, self.logs[who][-LOG_KEPT:], self.seen,
                               forced_answered=len(self.humans) == 1)
            tb = self.takeback
            out = {"type": "table", "table": self.renamed(table), "game": self.games,
                   "can_take_back": self.takeback_step(who) is not None and tb is None and not self.st.over,
                   "takeback": None if tb is None else {"by": self.name(tb["by"]), "mine": tb["by"] == who,
                                                        "asks_me": who in tb["waiting"]},
                   "can_rename": self.game.program.player_label is None,
                   "help": decision_help(self.game, self.st, who)}
        out["failure"] = self.failure
        return out

    def renamed(self, data):
        """``data`` with P1, P2... replaced by the names the seats chose
        (a ruleset that names its players keeps its own names)."""
        if not self.names or self.game.program.player_label is not None:
            return data
        names = {f"P{p + 1}": n for p, n in self.names.items()}

        def walk(x):
            if isinstance(x, str):
                return re.sub(r"(?<![\w])P[0-9]+(?![\w])", lambda m: names.get(m.group(0), m.group(0)), x)
            if isinstance(x, list):
                return [walk(v) for v in x]
            if isinstance(x, dict):
                return {k: walk(v) for k, v in x.items()}
            return x

        return walk(data)

    def author_payload(self, step: int | None) -> dict:
        from rulebook.validator.graph import END

        present = len(self.snapshots) - 1
        st = self.st if step is None or step >= present else self.snapshots[max(0, step)]
        shown = present if step is None else max(0, min(step, present))
        log = self.logs[AUTHOR]
        at = next((i for i, ln in enumerate(log) if ln["step"] >= shown), len(log))
        start = max(0, min(at - AUTHOR_KEPT // 2, len(log) - AUTHOR_KEPT))
        # the whole game (up to AUTHOR_KEPT lines around the step shown): the page marks the step, dims the rest
        table = author_table(self.game, st, log[start:start + AUTHOR_KEPT], self.seen)
        where = self.game.asked_at(st)
        pending = None
        if st.pending is not None and not st.over:
            pending = {
                "players": [player_name(st, p) for p in self.game.to_move(st)],
                "prompt": self.game.prompt(st, self.game.to_move(st)[0]) if self.game.to_move(st) else "",
                "kind": st.pending.get("kind"),
                "options": {player_name(st, p): self.game.options(st, p).labels
                            for p in self.game.to_move(st)},
                "seats": [{"seat": p, "name": player_name(st, p),
                           "options": [{"index": o.index, "label": o.label} for o in self.game.options(st, p)]}
                          for p in self.game.to_move(st)],
                "number": len(st.history),
            }
        data = st.to_data()
        data.pop("stack", None)  # the interpreter's frames: not the game's state as an author reads it
        seats = [{"seat": p, "name": self.name(p), "human": p in self.humans,
                  "link": f"/seat/{p + 1}?t={self.tokens[p]}" if p in self.humans else None}
                 for p in range(self.st.n)]
        return {"type": "author", "table": self.renamed(table), "step": shown, "steps": present,
                "live": step is None, "pending": self.renamed(pending), "asked_at": where, "rule": rule_line(where),
                "phase": str(END) if st.over else st.phase, "state": data, "seats": seats, "game": self.games}

    def post(self, client: Client, message: dict) -> None:
        """Queue a message for one connection. One whose queue is full has
        fallen behind (it does not read): it is dropped, and its page, when
        it reconnects, is sent the whole table again."""
        try:
            client.outbox.put_nowait(json.dumps(message, default=str))
        except asyncio.QueueFull:
            self.drop(client)

    def send(self, client: Client) -> None:
        self.post(client, self.payload(client.who, client.travel))

    def broadcast(self) -> None:
        for client in list(self.clients.values()):
            self.send(client)

    def drop(self, client: Client) -> None:
        self.clients.pop(client.ws, None)
        if client.writer is not None:
            client.writer.cancel()


async def pump(client: Client) -> None:
    """Send one connection's queued messages, in order, for as long as it reads them."""
    while True:
        text = await client.outbox.get()
        await client.ws.send_text(text)


def _line(step: int, ln) -> dict:
    return {"step": step, "kind": ln.kind, "player": ln.player, "text": ln.text}


def author_lines(st, events, step: int) -> list[dict]:
    """The author's log: what everybody is told, with every decision in
    full (the author sees the whole state anyway)."""
    out = []
    start = 0
    for i, ev in enumerate(events + [None]):
        if ev is None or ev[0] == "decision":
            if i > start:
                out += [_line(step, ln) for ln in tidy(st, narrate_lines(st, events[start:i], None)) if ln.text]
            if ev is not None:
                who = player_name(st, ev.player)
                text = f"{who} ran out of time." if ev.asked == "time_out" else f"{who}: {ev.label}."
                out.append({"step": step, "kind": "decision", "player": ev.player, "text": text})
            start = i + 1
    return out


def rule_line(where: str) -> dict | None:
    """The ruleset line at ``file:line:col``: its place and its text."""
    parts = where.rsplit(":", 2)
    if len(parts) != 3 or not parts[1].isdigit():
        return None
    try:
        lines = Path(parts[0]).read_text(encoding="utf-8").splitlines()
        text = lines[int(parts[1]) - 1]
    except (OSError, IndexError, UnicodeDecodeError):
        return None
    return {"where": f"{Path(parts[0]).name}:{parts[1]}", "text": text.strip(), "file": parts[0],
            "line": int(parts[1])}


# ------------------------------------------------------------------ the web app
def make_app(host: Host):
    """The Starlette application serving ``host``'s game."""
    from starlette.applications import Starlette
    from starlette.responses import FileResponse, HTMLResponse, PlainTextResponse, Response
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket

    page = (WEB / "table.html").read_text(encoding="utf-8")

    async def index(request):
        return HTMLResponse(page.replace("{{TITLE}}", _html(host.game.program.title)).replace("{{ROLE}}", "index"))

    async def seat_page(request):
        seat = _seat_number(request.path_params["seat"])
        if seat is None or host.seat_of(request.query_params.get("t")) != seat:
            return PlainTextResponse("This link does not open that seat: ask the host for your own link.",
                                     status_code=403)
        return HTMLResponse(page.replace("{{TITLE}}", _html(host.game.program.title)).replace("{{ROLE}}", "seat"))

    async def author_page(request):
        if not host.is_author(request.query_params.get("t")):
            return PlainTextResponse("This link does not open the author's panel.", status_code=403)
        return HTMLResponse(page.replace("{{TITLE}}", _html(host.game.program.title)).replace("{{ROLE}}", "author"))

    async def graph(request):
        if not host.is_author(request.query_params.get("t")):
            return PlainTextResponse("forbidden", status_code=403)
        return Response(phase_graph_svg(host.game.program), media_type="image/svg+xml")

    async def asset(request):
        name = request.path_params["name"]
        if name not in ("table.js", "table.css"):
            return PlainTextResponse("not found", status_code=404)
        return FileResponse(WEB / name, headers={"Cache-Control": "no-store"})

    async def ws_endpoint(websocket: WebSocket):
        token = websocket.query_params.get("t")
        role = websocket.query_params.get("role")
        if role == AUTHOR:
            who = AUTHOR if host.is_author(token) else None
        else:
            seat = _seat_number(websocket.query_params.get("seat", ""))
            who = seat if seat is not None and host.seat_of(token) == seat else None
        if who is None or not same_origin(websocket.headers):
            await websocket.close(code=1008)  # before accepting: the handshake is refused (HTTP 403)
            return
        await websocket.accept()
        client = Client(websocket, who)
        host.clients[websocket] = client
        host.send(client)
        client.writer = asyncio.get_running_loop().create_task(pump(client))
        reader = asyncio.get_running_loop().create_task(read(websocket, client))
        try:
            await asyncio.wait({client.writer, reader}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            host.drop(client)
            reader.cancel()
            code = 1013  # fell behind: try again later (the page reconnects)
            if reader.done() and not reader.cancelled() and reader.exception() is None:
                code = reader.result()
            if code != 1000:
                with contextlib.suppress(Exception):  # a socket that does not read may never take the close
                    await asyncio.wait_for(websocket.close(code=code), 1.0)

    async def read(websocket: WebSocket, client: Client) -> int:
        """Read one connection's messages until it closes; the close code
        to answer with (1003: a binary frame, 1007: a text that is not JSON)."""
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return 1000
            if message.get("text") is None:
                return 1003  # a binary frame: the table speaks JSON text only
            try:
                msg = json.loads(message["text"])
            except json.JSONDecodeError:
                return 1007
            if not isinstance(msg, dict):
                continue
            problem = await host.handle(client, msg)
            if problem:
                host.post(client, {"type": "refused", "message": problem})
                host.send(client)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        host.lock = asyncio.Lock()
        task = asyncio.get_running_loop().create_task(host.advance())
        yield
        task.cancel()
        if host.timer is not None:
            host.timer.cancel()

    routes = [
        Route("/", index),
        Route("/seat/{seat}", seat_page),
        Route("/author", author_page),
        Route("/author/graph.svg", graph),
        Route("/static/{name}", asset),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        WebSocketRoute("/ws", ws_endpoint),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def _seat_number(text) -> int | None:
    """A seat from a URL (1-based there, 0-based here): one to three ASCII
    digits (``str.isdigit`` also takes "²", which ``int`` refuses)."""
    if not isinstance(text, str) or not re.fullmatch(r"[0-9]{1,3}", text) or int(text) < 1:
        return None
    return int(text) - 1


def same_origin(headers) -> bool:
    """Whether a WebSocket may be opened from where it was asked: a browser
    names the page's origin, which must be this server's own (the host the
    request was sent to), so that another site's page cannot play a seat
    with a token it obtained. A client that is not a browser sends none."""
    origin = headers.get("origin")
    if origin is None:
        return True
    host = headers.get("host", "")
    return bool(host) and origin in (f"http://{host}", f"https://{host}")


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def phase_graph_svg(prog) -> str:
    """The phase graph as SVG: Graphviz's drawing when ``dot`` is installed,
    else a simple one of our own (phases on a circle, arrows between them)."""
    from rulebook.display import graphs

    try:
        return graphs.render(graphs.to_dot(prog.phase_graph, prog.title, prog.start_phase or None), "svg").decode()
    except (graphs.GraphvizMissing, graphs.GraphvizFailed):
        return graphs.to_simple_svg(prog.phase_graph, prog.start_phase or None)


# ------------------------------------------------------------------ the command
def run(game_arg, variants, players, seed, humans, params, author, bots, host_name, port, bot_delay, open_page,
        save_dir=None):
    """The ``serve`` command's body (see ``rulebook.cli.serve``)."""
    import uvicorn

    from rulebook.files.loading import EXIT_PROBLEMS, load_game, parse_params, player_count
    from rulebook.terminal.play import _bots
    from rulebook.web import saved

    loaded, path = load_game(game_arg, variants)
    if save_dir is not None and saved.exists(save_dir):
        host, port = resumed(loaded, save_dir, path, port, author, bot_delay)
        n = host.st.n
        seed, bots = host.st.seed, host.bot_spec
    else:
        n = player_count(loaded, players)
        humans = tuple(dict.fromkeys(humans or (1,)))
        for h in humans:
            if not 1 <= h <= n:
                raise click.UsageError(f"--human {h}: seats are 1 to {n}")
        if seed is None:
            seed = int(time.time()) % 100000
        game_params = parse_params(params)
        st = loaded.new(players=n, seed=seed, params=game_params)
        agents = _bots(bots or "greedy", n, seed)
        host = Host(loaded, st, tuple(h - 1 for h in humans), agents, author=author, bot_delay=bot_delay,
                    params=game_params, bot_spec=bots or "greedy")
    port = 8000 if port is None else port
    sock = socket.socket(socket.AF_INET6 if ":" in host_name else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host_name, port))
        sock.listen(128)  # listening before the links are printed: a browser may connect at once
    except OSError as err:
        raise click.UsageError(f"cannot listen on {host_name}:{port}: {err.strerror or err}") from None
    real_port = sock.getsockname()[1]
    if save_dir is not None:
        host.save = saved.Saved(save_dir, path, real_port)
        host.saved()
    shown = _reachable_name(host_name)
    base = f"http://{shown}:{real_port}"
    prog = loaded.program
    title = prog.title + (f" ({', '.join(prog.variants)})" if prog.variants else "")
    from rulebook.display.words import seats_text

    bot_seats = [p + 1 for p in range(n) if p not in host.humans]
    click.echo(f"{title}: {n} players, seed {seed}; " + (f"bots ({bots or 'greedy'}) play {seats_text(bot_seats)}."
                                                         if bot_seats else "no bots: every seat is a person."))
    if save_dir is not None:
        click.echo(f"The table is saved in {save_dir} after every change: serve it again with --save {save_dir} "
                   "to go on with the same links.")
    for p in host.humans:
        click.echo(f"seat {p + 1}: {base}/seat/{p + 1}?t={host.tokens[p]}")
    if host.author_token:
        click.echo(f"author: {base}/author?t={host.author_token}")
    click.echo("Each link is a secret: give each player only their own. Ctrl-C stops the table.")
    sys.stdout.flush()
    if open_page:
        import webbrowser

        webbrowser.open(f"{base}/seat/{host.humans[0] + 1}?t={host.tokens[host.humans[0]]}")
    config = uvicorn.Config(make_app(host), log_level="warning", lifespan="on", ws="websockets-sansio")
    server = uvicorn.Server(config)
    try:
        asyncio.run(server.serve(sockets=[sock]))
    except KeyboardInterrupt:
        pass
    click.echo("The table is closed.")
    if host.failure is not None:  # the error was printed when it happened, in one line
        sys.exit(EXIT_PROBLEMS)


def resumed(game, save_dir, path, port, author: bool, bot_delay: float):
    """The table saved in ``save_dir``, its game played again decision by
    decision (each seat's narration is rebuilt as it was told), and the
    port to listen on (the saved one, so that the links stay the same,
    unless --port is given)."""
    from rulebook.terminal.play import _bots
    from rulebook.web import saved

    data, log = saved.load(save_dir, game)
    h = log.header
    n = h["players"]
    st = game.new(players=n, seed=h["seed"], params=h["params"])
    humans = tuple(p for p in data["humans"] if 0 <= p < n)
    tokens = {int(k): v for k, v in data["tokens"].items() if 0 <= int(k) < n}
    host = Host(game, st, humans, _bots(data.get("bots") or "greedy", n, h["seed"]), author=author or bool(
        data.get("author_token")), bot_delay=bot_delay, params=dict(h["params"]), bot_spec=data.get("bots") or
        "greedy", names={int(k): str(v)[:24] for k, v in data.get("names", {}).items() if k.isdigit()},
        tokens=tokens, author_token=data.get("author_token"), games=int(data.get("games") or 1))
    for rec in log.decisions:
        if rec.get("time_out") is True:
            game.time_out(host.st, rec["player"])
        else:
            game.apply(host.st, rec["player"], game.options(host.st, rec["player"]).index_of(rec.get("value")))
        host.record()
        host.snapshots.append(host.st.clone())
    saved_port = data.get("port")
    if port is None and isinstance(saved_port, int) and 0 < saved_port < 65536:
        port = saved_port
    return host, port


def _reachable_name(host_name: str) -> str:
    """The address to print: the machine's address on the local network
    when listening on every interface, else the one given."""
    if host_name not in ("0.0.0.0", "::"):
        return host_name if ":" not in host_name else f"[{host_name}]"
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))  # no packet is sent: this only picks the outgoing interface
            return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
