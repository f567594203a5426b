"""Load on ``bansugoroku serve``: 50 concurrent clients of ``POST /api/plays``
on the loopback, bounded in time.

The server runs as ``bansugoroku serve [--workers N]`` runs it (the Host
check, no access log), in processes of its own; the load comes from another
process: Debian's ``wrk`` with a Lua script for the POST where it is
installed, else a plain asyncio client (keep-alive HTTP/1.1, one connection
per client). A warm-up of the same load (2 s) comes first and is not
counted. Each request asks for the plays of a roll from one of a few
positions, so the server does real work (reading the body, decoding the id,
generating the plays, writing their ids) for positions and rolls taken from
games (2,000 items, a quarter of them Ban-sugoroku's, so that nothing the
server remembers serves them all).

    python -m benchmarks.serve_load [--clients 50] [--seconds 10] [--workers 1] [--client wrk|asyncio]
    python -m benchmarks.serve_load --in-process

Prints the requests per second, the latency percentiles, the errors, the
server's CPU time per request (all its processes; a figure that other work
on the machine changes less than the rate) and the load average before and
after, and exits 1 if the target is missed (at least 1,000 requests a
second, the 99th percentile under 50 ms, no error). ``--in-process`` prints
only the app's own CPU time per request, called with no server nor socket.
The figures of this machine are in ``docs/guides/browser.md``.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The (position, dice, rules) items the clients ask for.
ITEMS = 2000


def bodies(count: int = ITEMS) -> list[dict[str, object]]:
    """Bodies of ``POST /api/plays``: positions and rolls of games played by the heuristic."""
    from bansugoroku_fast import Position, play_games

    out: list[dict[str, object]] = []
    for rules, share in (("backgammon", 3 * count // 4), ("ban-sugoroku", count - 3 * count // 4)):
        records = play_games(rules, games=share // 20 + 1, policy="heuristic", seed=7)
        for position, dice in list(zip(records.positions, records.dice))[:share]:
            out.append({"position": Position(position).id, "dice": [int(dice[0]), int(dice[1])], "rules": rules})
    return out
TARGET_RATE = 1000.0
TARGET_P99_MS = 50.0

SERVER = """
from bansugoroku_fast.web.app import run_server
run_server("127.0.0.1", {port}, log_level="warning", workers={workers})
"""

WRK_SCRIPT = """
local bodies = {%s}
local i = 0
request = function()
  i = i %% #bodies + 1
  return wrk.format("POST", "/api/plays", {["Content-Type"] = "application/json"}, bodies[i])
end
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(port: int, workers: int) -> subprocess.Popen[bytes]:
    """The server, once every worker answers (each connection goes to one of them)."""
    server = subprocess.Popen([sys.executable, "-c", SERVER.format(port=port, workers=workers)], cwd=ROOT,
                              stdout=subprocess.DEVNULL)
    answered = 0
    deadline = time.monotonic() + 60
    while answered < 4 * workers and time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
                connection.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                answered += connection.recv(64).startswith(b"HTTP/1.1 200")
        except OSError:
            time.sleep(0.1)
    if answered < 4 * workers:
        server.kill()
        raise SystemExit("the server did not start")
    return server


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` and its children (Linux's /proc; 0 elsewhere)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
        pending += [int(child) for child in children]
    return total


def run_wrk(port: int, clients: int, seconds: int, quiet: bool = False) -> dict[str, float]:
    """wrk's figures: requests/s, p50/p99 latency (ms), errors, requests."""
    lua_bodies = ", ".join(json.dumps(json.dumps(body)) for body in bodies())
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_SCRIPT % lua_bodies)
    try:
        command = ["wrk", "-t", "1", "-c", str(clients), "-d", f"{seconds}s", "--latency", "-s", script.name,
                   f"http://127.0.0.1:{port}/api/plays"]
        if not quiet:
            print("load:", " ".join(command[:-3]), "POST /api/plays")
        output = subprocess.run(command, capture_output=True, text=True, check=True,
                                timeout=seconds + 30).stdout
    finally:
        os.unlink(script.name)
    if not quiet:
        print(output)

    def latency(label: str) -> float:
        match = re.search(rf"^\s*{label}%\s+([\d.]+)(us|ms|s)\s*$", output, re.M)
        assert match, f"no {label}% latency in wrk's output"
        scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[match.group(2)]
        return float(match.group(1)) * scale

    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))  # type: ignore[union-attr]
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    errors = (int(bad.group(1)) if bad else 0) + (sum(map(int, socket_errors.groups())) if socket_errors else 0)
    count = int(re.search(r"(\d+) requests in", output).group(1))  # type: ignore[union-attr]
    return {"rate": rate, "p50": latency("50"), "p99": latency("99"), "errors": errors, "requests": count}


async def _client(port: int, deadline: float, latencies: list[float], errors: list[int], first: int,
                  items: list[dict[str, object]]) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    requests = []
    for body in items:
        data = json.dumps(body).encode()
        requests.append(b"POST /api/plays HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        b"Content-Length: " + str(len(data)).encode() + b"\r\n\r\n" + data)
    i = first
    try:
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            writer.write(requests[i % len(requests)])
            i += 1
            head = await reader.readuntil(b"\r\n\r\n")
            length = int(re.search(rb"content-length: (\d+)", head, re.I).group(1))  # type: ignore[union-attr]
            await reader.readexactly(length)
            latencies.append(time.perf_counter() - started)
            if not head.startswith(b"HTTP/1.1 200"):
                errors.append(1)
    finally:
        writer.close()


def run_asyncio(port: int, clients: int, seconds: int, quiet: bool = False) -> dict[str, float]:
    """The same load from asyncio clients in this process (the server is in another)."""
    if not quiet:
        print(f"load: {clients} asyncio clients for {seconds} s, POST /api/plays")
    latencies: list[float] = []
    errors: list[int] = []
    items = bodies()

    async def main() -> None:
        deadline = time.perf_counter() + seconds
        await asyncio.gather(*(_client(port, deadline, latencies, errors, k * 37, items) for k in range(clients)))

    started = time.perf_counter()
    asyncio.run(main())
    elapsed = time.perf_counter() - started
    latencies.sort()
    at = lambda q: 1000 * latencies[min(int(q * len(latencies)), len(latencies) - 1)]  # noqa: E731
    return {"rate": len(latencies) / elapsed, "p50": at(0.5), "p99": at(0.99), "errors": len(errors),
            "requests": len(latencies)}


def in_process(rounds: int = 5) -> float:
    """CPU seconds per ``POST /api/plays`` through the ASGI app, called
    in-process with no server nor socket (best of ``rounds`` passes over
    the items): the app's own share of a request."""
    from bansugoroku_fast.web.app import LOOPBACK_HOSTS, create_app

    app = create_app(allowed_hosts=list(LOOPBACK_HOSTS))
    requests = [json.dumps(body).encode() for body in bodies()]

    async def call(data: bytes) -> None:
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
                 "scheme": "http", "path": "/api/plays", "raw_path": b"/api/plays", "root_path": "",
                 "query_string": b"", "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000),
                 "headers": [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/json"),
                             (b"content-length", str(len(data)).encode())]}
        status = []

        async def receive() -> dict[str, object]:
            return {"type": "http.request", "body": data, "more_body": False}

        async def send(message: dict[str, object]) -> None:
            if message["type"] == "http.response.start":
                status.append(message["status"])

        await app(scope, receive, send)  # type: ignore[arg-type]
        assert status == [200], status

    async def one_pass() -> float:
        started = time.process_time()
        for data in requests:
            await call(data)
        return time.process_time() - started

    async def passes() -> list[float]:
        await one_pass()                  # warm-up
        return [await one_pass() for _ in range(rounds)]

    return min(asyncio.run(passes())) / len(requests)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=int, default=10, help="the load's length (at most 120)")
    parser.add_argument("--workers", type=int, default=1, help="the server's processes (bansugoroku serve --workers)")
    parser.add_argument("--warmup", type=int, default=2, help="seconds of load first, not counted (at most 30)")
    parser.add_argument("--client", choices=("wrk", "asyncio"), default="wrk" if shutil.which("wrk") else "asyncio")
    parser.add_argument("--in-process", action="store_true",
                        help="only the CPU time per request through the app, called in-process (no server, no target)")
    args = parser.parse_args(argv)
    if args.in_process:
        print(f"{1e6 * in_process():.0f} us of CPU per request through the app in-process (best of 5 passes over "
              f"{ITEMS} items), load average {os.getloadavg()[0]:.2f}")
        return 0
    seconds = max(1, min(args.seconds, 120))
    warmup = max(0, min(args.warmup, 30))
    port = free_port()
    server = start_server(port, max(1, args.workers))
    load_before = os.getloadavg()[0]
    try:
        load = run_wrk if args.client == "wrk" else run_asyncio
        if warmup:
            load(port, args.clients, warmup, quiet=True)
        cpu_before = cpu_seconds(server.pid)
        figures = load(port, args.clients, seconds)
        cpu_used = cpu_seconds(server.pid) - cpu_before
    finally:
        server.terminate()
        server.wait(timeout=30)
    load_after = os.getloadavg()[0]
    cpu = f"server CPU {1e6 * cpu_used / figures['requests']:.0f} us/request, " if cpu_used else ""
    print(f"{figures['rate']:.0f} requests/s, p50 {figures['p50']:.1f} ms, p99 {figures['p99']:.1f} ms, "
          f"{figures['errors']:.0f} errors; {cpu}load average {load_before:.2f} before, {load_after:.2f} after "
          f"({args.clients} clients, {seconds} s, {args.workers} worker{'s' if args.workers > 1 else ''}, "
          f"{args.client}, {warmup} s of warm-up first, {os.cpu_count()} cores)")
    met = figures["rate"] >= TARGET_RATE and figures["p99"] < TARGET_P99_MS and figures["errors"] == 0
    print(f"target (>= {TARGET_RATE:.0f} requests/s, p99 < {TARGET_P99_MS:.0f} ms, no error): "
          f"{'met' if met else 'MISSED'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
