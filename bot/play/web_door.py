"""``/web`` and the table's "Web table" button: a person's own link to the web table.

A seated person gets a link to their seat; anyone else (or a seated person asking
``/web watch``) a link to watch, when the table lets people watch. The link is private:
it comes back in the answer (ephemeral on Discord, the private chat on Telegram), as a
link button and as text. Without a public address the bot has no web table to offer and
says so.
"""

from __future__ import annotations

from bot.commands.inputs import Ctx
from bot.ops.clock import Clock
from bot.platform import Button, Reply
from bot.play.registry import TableRegistry
from bot.play.seat_links import LINK_SECONDS, SeatLinks
from bot.refused import Refused
from bot.show.i18n import _

#: where the page lives under the bot's public address
PAGE_PATH = "/table/"


class WebDoor:
    """Hands out web table links (``links``: None when the web table is off)."""

    def __init__(
        self, registry: TableRegistry, links: SeatLinks | None, public_url: str | None, clock: Clock
    ) -> None:
        self._registry = registry
        self._links = links
        self._public = public_url.rstrip("/") if public_url else None
        self._clock = clock

    @property
    def on(self) -> bool:
        return self._links is not None and self._public is not None

    def page_url(self) -> str | None:
        return None if self._public is None else self._public + PAGE_PATH

    async def command(self, ctx: Ctx) -> list[Reply]:
        """``/web [watch] [tN]``."""
        if self._links is None or self._public is None:
            raise Refused("web-off")
        watch = any(a.lower() == "watch" for a in ctx.args)
        ctx.args = [a for a in ctx.args if a.lower() != "watch"]
        t = self._registry.pick(ctx, seated=False)
        seated = t.seat_of(ctx.user.id) is not None and not watch
        if not seated and not t.settings.spectators and not ctx.user.is_admin:
            raise Refused("err-settings-spectators", table=t.tid)
        token = self._links.token(
            "seat" if seated else "watch",
            ctx.user.id,
            ctx.user.name,
            ctx.locale,
            t.channel,
            t.id,
            self._clock.now(),
        )
        url = f"{self._public}{PAGE_PATH}#k={token}"
        key = "web-link-seat" if seated else "web-link-watch"
        minutes = int(LINK_SECONDS // 60)
        text = _(key, ctx.locale, table=t.tid, url=url, minutes=minutes)
        button = Button(_("label-web-open", ctx.locale), "", style="primary", url=url)
        return [Reply(text, buttons=((button,),))]
