"""The Grafana dashboard of the bot's metrics, and a picture of it from real scrapes.

Each panel is written once, as structured queries: :func:`promql` turns a query into the
PromQL that Grafana runs, and :func:`evaluate` computes the same quantity from /metrics
scrapes taken here (a rate of a counter, a quantile of a histogram, a gauge), so the
picture shows what the dashboard shows, measured, not drawn by hand.

    python bench/dashboard.py json > deploy/grafana/belote-dashboard.json
    python bench/dashboard.py picture --tables 24 --seconds 90 --out docs/pictures/dashboard.png

``picture`` runs a load in this process (bots-only tables on a null platform, pictures
drawn, drand asked of a local fake relay that only knows quicknet's first rounds, so every
deal falls back), opening tables during the first third and closing them during the last,
scrapes ``/metrics`` over HTTP every ``--interval`` seconds and draws the panels with
matplotlib (``pip install -e ".[docs]"``). No Grafana is involved.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from prometheus_client.parser import text_string_to_metric_families

WINDOW = "1m"  # the rate window of the dashboard's queries


@dataclass(frozen=True)
class Query:
    """``kind``: "gauge" (summed by ``by``), "rate" (per second, summed by ``by``) or
    "quantile" (``q`` of a histogram, by ``by``)."""

    kind: str
    metric: str
    by: tuple[str, ...] = ()
    q: float = 0.95
    legend: str = ""


@dataclass(frozen=True)
class Panel:
    title: str
    unit: str  # Grafana's unit id: "short", "ops", "s", "bytes"
    queries: tuple[Query, ...]
    description: str = ""
    stat: bool = False  # a single-value panel


def _quantiles(metric: str, by: tuple[str, ...] = ()) -> tuple[Query, ...]:
    return tuple(Query("quantile", metric, by, q, f"p{int(q * 100)}") for q in (0.5, 0.95, 0.99))


PANELS: tuple[Panel, ...] = (
    Panel(
        "Tables open",
        "short",
        (Query("gauge", "belote_tables_open", ("platform", "ruleset")),),
        "Tables not closed, by platform and ruleset.",
    ),
    Panel(
        "Matches in progress",
        "short",
        (Query("gauge", "belote_matches_in_progress", ("platform", "ruleset")),),
        "Matches being played, by platform and ruleset.",
    ),
    Panel(
        "Actions a second",
        "ops",
        (Query("rate", "belote_actions_total", ("platform", "by")),),
        "Bids and cards applied, by platform and by who made them (player, bot, standin, timeout).",
    ),
    Panel(
        "Handling an action",
        "s",
        _quantiles("belote_action_seconds"),
        "Commit plus the posts it changes (the AI's thinking not included).",
    ),
    Panel(
        "Database commit",
        "s",
        _quantiles("belote_commit_seconds"),
        "One transaction of the group commit.",
    ),
    Panel(
        "Bots' think time (p95)",
        "s",
        (Query("quantile", "belote_bot_think_seconds", ("level",), 0.95),),
        "The 95th percentile of a bot's decision, by level.",
    ),
    Panel(
        "Pictures drawn a second",
        "ops",
        (Query("rate", "belote_picture_seconds_count", ("kind",)),),
        "Table, hand and replay pictures drawn.",
    ),
    Panel(
        "Picture drawing time (p95)",
        "s",
        (Query("quantile", "belote_picture_seconds", ("kind",), 0.95),),
        "The 95th percentile of drawing one picture, by kind.",
    ),
    Panel(
        "Platform API errors a second",
        "ops",
        (Query("rate", "belote_platform_api_errors_total", ("platform", "status")),),
        "Failed Discord / Telegram calls, by HTTP status or error type.",
    ),
    Panel(
        "Rate-limit waits",
        "ops",
        (
            Query("rate", "belote_platform_rate_limit_waits_total", ("platform",), legend="waits"),
            Query(
                "rate",
                "belote_platform_rate_limit_wait_seconds_total",
                ("platform",),
                legend="seconds waited",
            ),
        ),
        "Times a platform's rate limit made the bot wait, and the seconds waited, a second.",
    ),
    Panel(
        "drand beacons a second",
        "ops",
        (Query("rate", "belote_drand_beacons_total", ("outcome",)),),
        "Fetched from a relay, verified, rejected, or fallback (dealt without drand).",
    ),
    Panel(
        "Platform connected",
        "short",
        (Query("gauge", "belote_platform_connected", ("platform",)),),
        "1 while the Discord gateway / Telegram polling is up.",
        stat=True,
    ),
    Panel(
        "Process CPU",
        "percentunit",
        (Query("rate", "process_cpu_seconds_total", legend="CPU"),),
        "CPU seconds a second (1 = one core).",
    ),
    Panel(
        "Process memory",
        "bytes",
        (Query("gauge", "process_resident_memory_bytes", legend="RSS"),),
        "Resident memory.",
    ),
)


# --- PromQL and the Grafana dashboard ------------------------------------------------------


def promql(query: Query) -> str:
    by = f" by ({', '.join(query.by)})" if query.by else ""
    if query.kind == "gauge":
        return f"sum{by} ({query.metric})"
    if query.kind == "rate":
        return f"sum{by} (rate({query.metric}[{WINDOW}]))"
    labels = ", ".join(("le", *query.by))
    inner = f"sum by ({labels}) (rate({query.metric}_bucket[{WINDOW}]))"
    return f"histogram_quantile({query.q}, {inner})"


def legend(query: Query) -> str:
    if query.legend:
        prefix = " ".join("{{" + b + "}}" for b in query.by)
        return f"{prefix} {query.legend}".strip()
    return " ".join("{{" + b + "}}" for b in query.by) or query.metric


def dashboard() -> dict:
    panels = []
    for n, panel in enumerate(PANELS):
        width = 8
        panels.append(
            {
                "id": n + 1,
                "type": "stat" if panel.stat else "timeseries",
                "title": panel.title,
                "description": panel.description,
                "datasource": {"type": "prometheus", "uid": "${datasource}"},
                "gridPos": {"h": 8, "w": width, "x": (n % 3) * width, "y": (n // 3) * 8},
                "fieldConfig": {"defaults": {"unit": panel.unit}, "overrides": []},
                "options": {"legend": {"displayMode": "list", "placement": "bottom"}},
                "targets": [
                    {
                        "refId": chr(ord("A") + i),
                        "expr": promql(q),
                        "legendFormat": legend(q),
                        "datasource": {"type": "prometheus", "uid": "${datasource}"},
                    }
                    for i, q in enumerate(panel.queries)
                ],
            }
        )
    return {
        "title": "Belote bot",
        "uid": "belote-bot",
        "description": "Tables, matches, latency, bots, pictures, platforms and drand "
        "(docs/operations.md).",
        "tags": ["belote"],
        "timezone": "utc",
        "refresh": "30s",
        "schemaVersion": 39,
        "version": 1,
        "time": {"from": "now-6h", "to": "now"},
        "templating": {
            "list": [
                {
                    "name": "datasource",
                    "type": "datasource",
                    "query": "prometheus",
                    "label": "Prometheus",
                }
            ]
        },
        "panels": panels,
    }


# --- evaluating the same queries on scrapes ------------------------------------------------


@dataclass
class Scrape:
    at: float
    samples: list[tuple[str, dict[str, str], float]] = field(default_factory=list)

    @classmethod
    def parse(cls, at: float, text: str) -> Scrape:
        samples = [
            (s.name, dict(s.labels), s.value)
            for family in text_string_to_metric_families(text)
            for s in family.samples
        ]
        return cls(at, samples)

    def series(self, metric: str, by: tuple[str, ...]) -> dict[tuple[str, ...], float]:
        out: dict[tuple[str, ...], float] = {}
        for name, labels, value in self.samples:
            if name == metric:
                key = tuple(labels.get(b, "") for b in by)
                out[key] = out.get(key, 0.0) + value
        return out


def _histogram_quantile(q: float, buckets: dict[float, float]) -> float | None:
    """PromQL's histogram_quantile: linear inside the bucket the rank falls in."""
    if not buckets:
        return None
    bounds = sorted(buckets)
    total = buckets[bounds[-1]]
    if total <= 0:
        return None
    rank = q * total
    lower, below = 0.0, 0.0
    for bound in bounds:
        count = buckets[bound]
        if count >= rank:
            if bound == float("inf"):
                return lower
            return lower + (bound - lower) * (rank - below) / max(count - below, 1e-12)
        lower, below = bound, count
    return lower


def evaluate(query: Query, scrapes: list[Scrape], window: int) -> dict[str, list[tuple]]:
    """The query's series over the scrapes: {legend: [(seconds, value)]}; rates over the
    last ``window`` scrapes, like ``rate(...[1m])`` at one scrape a second or so."""
    out: dict[str, list[tuple]] = {}
    t0 = scrapes[0].at

    def put(key: tuple[str, ...], at: float, value: float | None) -> None:
        name = " ".join(k for k in key if k) or query.legend or query.metric
        if query.legend and key and any(key):
            name = f"{name} {query.legend}"
        if value is not None:
            out.setdefault(name, []).append((at - t0, value))

    for i, now in enumerate(scrapes):
        if query.kind == "gauge":
            for key, value in now.series(query.metric, query.by).items():
                put(key, now.at, value)
            continue
        then = scrapes[max(0, i - window)]
        span = now.at - then.at
        if span <= 0:
            continue
        if query.kind == "rate":
            old = then.series(query.metric, query.by)
            for key, value in now.series(query.metric, query.by).items():
                put(key, now.at, max(0.0, value - old.get(key, 0.0)) / span)
            continue
        by_le = (*query.by, "le")
        new_b = now.series(query.metric + "_bucket", by_le)
        old_b = then.series(query.metric + "_bucket", by_le)
        groups: dict[tuple[str, ...], dict[float, float]] = {}
        for key, value in new_b.items():
            delta = value - old_b.get(key, 0.0)
            groups.setdefault(key[:-1], {})[float(key[-1])] = delta
        for key, buckets in groups.items():
            put(key, now.at, _histogram_quantile(query.q, buckets))
    return out


# --- the load run and the picture ------------------------------------------------------------


async def load_run(args: argparse.Namespace) -> list[Scrape]:
    import httpx

    from bot.app import BeloteApp, Settings
    from bot.ops.clock import SeededRandomness
    from bot.platform import Channel, NullPlatform, User
    from bot.proof.drand import DrandClient
    from bot.store import open_store
    from tests.fakes.drand_relay import drand_relay

    db = Path(tempfile.mkdtemp(prefix="belote-dashboard-")) / "load.db"
    rulesets = ("club", "classic", "bulgarian")
    levels = ("easy", "normal", "hard")
    admin = User("bench:operator", "operator", is_admin=True)
    scrapes: list[Scrape] = []
    async with drand_relay() as relay:
        store = await open_store(db)
        settings = Settings(
            bot_delay=args.bot_delay,
            render_images=True,
            metrics_port=0,
            max_tables_per_channel=10_000,
        )
        drand = DrandClient([relay.url], timeout=1.0)
        app = BeloteApp(
            store, NullPlatform(), drand=drand, settings=settings, randomness=SeededRandomness(7)
        )
        await app.start()
        url = f"http://127.0.0.1:{app.monitor.port}/metrics"
        start = time.monotonic()
        opened = closed = 0

        async def open_one(i: int) -> None:
            host = User(f"bench:host{i}", f"host{i}")
            channel = Channel(f"bench:room{i % 8}")
            tid = f"t{i + 1}"
            ruleset = rulesets[i % len(rulesets)]
            await app.command(host, channel, f"/table create {ruleset} --target 1000")
            for _ in range(3):
                await app.command(host, channel, f"/addbot {levels[i % len(levels)]} {tid}")
            await app.command(host, channel, f"/leave {tid}")
            await app.command(host, channel, f"/addbot {levels[(i + 1) % len(levels)]} {tid}")
            await app.command(host, channel, f"/start {tid}")

        async with httpx.AsyncClient() as http:
            while (elapsed := time.monotonic() - start) < args.seconds:
                third = args.seconds / 3
                want_open = min(args.tables, int(args.tables * elapsed / third) + 1)
                while opened < want_open:
                    await open_one(opened)
                    opened += 1
                if elapsed > 2 * third:
                    want_closed = int(args.tables * (elapsed - 2 * third) / third)
                    while closed < min(want_closed, opened):
                        t = app.tables.get(closed + 1)
                        if t is not None:
                            await app.command(admin, Channel(t.channel), f"/table close {t.tid}")
                        closed += 1
                resp = await http.get(url)
                scrapes.append(Scrape.parse(time.monotonic(), resp.text))
                await asyncio.sleep(args.interval)
        await app.stop()
        await drand.aclose()
    return scrapes


def draw(scrapes: list[Scrape], out: Path, args: argparse.Namespace) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    window = max(2, round(60 / args.interval / 4))  # a 15 s rate window for a short run
    cols = 3
    rows = (len(PANELS) + cols - 1) // cols
    plt.style.use("dark_background")
    fig, axes = plt.subplots(rows, cols, figsize=(cols * 5.2, rows * 2.9), squeeze=False)
    fig.patch.set_facecolor("#111217")
    for ax, panel in zip(axes.flat, PANELS, strict=False):
        ax.set_facecolor("#181b1f")
        ax.set_title(panel.title, loc="left", fontsize=10, color="#d8d9da")
        drawn = False
        for query in panel.queries:
            for name, points in sorted(evaluate(query, scrapes, window).items()):
                xs, ys = zip(*points, strict=True)
                ax.plot(xs, ys, linewidth=1.3, label=name[:32])
                drawn = True
        if drawn:
            ax.legend(fontsize=6, loc="upper left", frameon=False, ncol=2)
        else:
            ax.text(0.5, 0.5, "no data in this run", ha="center", va="center",
                    transform=ax.transAxes, color="#8e8e8e")  # fmt: skip
        ax.tick_params(labelsize=7, colors="#8e8e8e")
        ax.grid(color="#2c3235", linewidth=0.5)
        ax.set_xlabel("seconds", fontsize=7, color="#8e8e8e")
        if panel.unit == "s":
            ax.set_ylabel("seconds", fontsize=7, color="#8e8e8e")
    for ax in list(axes.flat)[len(PANELS) :]:
        ax.axis("off")
    fig.suptitle(
        "Belote bot dashboard: its panels computed from real /metrics scrapes "
        f"({args.tables} bot tables opened then closed over {args.seconds:.0f} s, one process; "
        "not a Grafana screenshot)",
        fontsize=10,
        color="#d8d9da",
    )
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=80, facecolor=fig.get_facecolor())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    sub.add_parser("json", help="print the Grafana dashboard")
    p = sub.add_parser("picture", help="run a load, scrape it, draw the panels")
    p.add_argument("--tables", type=int, default=24)
    p.add_argument("--seconds", type=float, default=90.0)
    p.add_argument("--interval", type=float, default=1.0, help="seconds between scrapes")
    p.add_argument("--bot-delay", type=float, default=0.3)
    p.add_argument("--out", default="docs/pictures/dashboard.png")
    args = parser.parse_args()
    if args.what == "json":
        print(json.dumps(dashboard(), indent=2))
        return
    scrapes = asyncio.run(load_run(args))
    draw(scrapes, Path(args.out), args)
    print(f"{len(scrapes)} scrapes drawn to {args.out}")


if __name__ == "__main__":
    main()
