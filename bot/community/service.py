"""Each community's settings, read and changed: ``/settings`` on every platform.

The core decides who may change them (an adapter passes the facts: the platform's admin
right in :attr:`User.is_admin`, the roles held in :attr:`User.roles`): a platform admin
(Discord's Manage Server, a Telegram group's administrators), or a member of a role the
server named in ``admin_roles``. Everyone may read them.

A *group* is a Discord server or a Telegram group (the channel id up to its ``/``); a
channel (or a forum topic) may set its own value of a setting declared ``per_channel``,
which wins over the group's. Values are read from the database for every new table (so
every process sees a change at once), and through a short cache for what every input
reads (its language).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from bot.commands.inputs import Ctx
from bot.community.registry import BY_NAME, SETTINGS, Defaults, Setting, setting
from bot.ops.clock import Clock
from bot.platform import Button, Buttons, Channel, Reply, User
from bot.refused import Refused
from bot.show.i18n import _, has_text
from bot.store import Store
from bot.store.community import SettingChange, SettingsWrite
from engine import OPTIONS

log = logging.getLogger(__name__)

CACHE_SECONDS = 5.0  # how stale another process's change may look to an input's language
LOG_SHOWN = 10  # changes ``/settings log`` shows
PRESS = "st:"  # the settings buttons' payload prefix
HERE = "here"  # the typed word for "this channel only"
PARENT = "parent"  # the typed word for "the channel this thread or post belongs to"


def group_of(channel: Channel) -> str:
    """The group a channel belongs to: ``discord:<server>``, ``telegram:<chat>``."""
    head, _, _rest = channel.id.partition("/")
    return head


def scope_chain(channel: Channel) -> list[tuple[str, str]]:
    """Where ``channel``'s values come from, the weakest first, each with the word its
    source is shown with: the group (``server``), the channel it belongs to (``parent``:
    a thread's or forum post's channel), then its own (``channel``)."""
    grp = group_of(channel)
    tiers = [("server", grp)]
    if channel.parent and channel.parent != grp and group_of(Channel(channel.parent)) == grp:
        tiers.append(("parent", channel.parent))
    if channel.id != grp:
        tiers.append(("channel", channel.id))
    return tiers


def is_private(channel: Channel) -> bool:
    """A direct message: no community to configure."""
    return group_of(channel).endswith(":@me")


@dataclass(frozen=True)
class Values:
    """A channel's settings as they apply now: each value, and where it comes from
    (``channel``, ``server`` or ``default``)."""

    values: dict[str, Any]
    source: dict[str, str]

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def options_for(self, ruleset: str) -> dict[str, bool]:
        """The options set by default at this community's ``ruleset`` tables."""
        return {s.name: True for s in OPTIONS if ruleset in s.rulesets and self.values[s.name]}

    def level(self, wanted: str) -> str:
        """``wanted`` when allowed here, else the nearest allowed level."""
        allowed: tuple[str, ...] = self.values["levels"]
        return wanted if wanted in allowed else allowed[0]

    def locale(self, user_locale: str) -> str:
        lang: str = self.values["language"]
        return user_locale if lang == "auto" else lang


class CommunitySettings:
    """Read, change and show the settings; ``store`` keeps them, ``clock`` stamps the
    changes, ``defaults`` are the operator's."""

    def __init__(self, store: Store, clock: Clock, defaults: Defaults) -> None:
        self._store = store
        self._clock = clock
        self.defaults = defaults
        self._cache: dict[str, tuple[float, Values]] = {}

    # --- reading ---------------------------------------------------------------------

    async def values(self, channel: Channel, *, fresh: bool = True) -> Values:
        """The settings of ``channel``; ``fresh=False`` may answer from a cache a few
        seconds old (for what every input reads)."""
        key = f"{channel.id}<{channel.parent or ''}"
        if not fresh:
            hit = self._cache.get(key)
            if hit is not None and time.monotonic() - hit[0] < CACHE_SECONDS:
                return hit[1]
        tiers = scope_chain(channel)
        stored = await self._store.community_settings([scope for _where, scope in tiers])
        by_scope = {(r.scope, r.key): r.value for r in stored}
        values: dict[str, Any] = {}
        source: dict[str, str] = {}
        for s in SETTINGS:
            values[s.name] = s.default(self.defaults)
            source[s.name] = "default"
            for where, scope in tiers if s.per_channel else tiers[:1]:
                text = by_scope.get((scope, s.name))
                if text is None:
                    continue
                try:
                    values[s.name] = s.read(text)
                    source[s.name] = where
                except Refused:  # a value this version no longer accepts: the default
                    log.warning("ignoring the stored %s of %s: %r", s.name, scope, text[:40])
        found = Values(values, source)
        if len(self._cache) > 10_000:
            self._cache.clear()
        self._cache[key] = (time.monotonic(), found)
        return found

    def may_configure(self, user: User, values: Values) -> bool:
        """The core's rule: the platform's admin right there, or a role the server named."""
        named: tuple[str, ...] = values["admin_roles"]
        return user.is_admin or bool(set(user.roles) & set(named))

    async def localised(self, user: User, channel: Channel) -> User:
        """``user`` speaking the community's language, when it set one."""
        if is_private(channel):
            return user
        try:
            lang = (await self.values(channel, fresh=False)).locale(user.locale)
        except Exception:  # a database that cannot answer: the user's own language
            log.debug("no settings for %s", channel.id, exc_info=True)
            return user
        return user if lang == user.locale else replace(user, locale=lang)

    async def history(self, channel: Channel, limit: int = LOG_SHOWN) -> list[SettingChange]:
        return await self._store.community_log(group_of(channel), limit)

    # --- changing --------------------------------------------------------------------

    async def change(
        self,
        user: User,
        channel: Channel,
        changes: Iterable[tuple[Setting, Any]],
        *,
        here: bool = False,
        parent: bool = False,
    ) -> list[SettingChange]:
        """Set (a value) or reset (None) settings, checked first, in one transaction:
        the server's, ``here`` this channel's (thread's, post's) own, ``parent`` the
        values of the channel this thread or post belongs to (a forum's, for all its
        posts).

        Refused, with nothing written: a user who may not, a private chat, a setting of
        the whole server asked for one channel, ``parent`` where there is none."""
        if is_private(channel):
            raise Refused("err-settings-private")
        current = await self.values(channel)
        if not self.may_configure(user, current):
            raise Refused("err-settings-forbidden")
        pairs = list(changes)
        grp = group_of(channel)
        here = here and channel.id != grp  # a chat without topics is its own group
        chain = dict(scope_chain(channel))
        if parent and "parent" not in chain:
            raise Refused("err-setting-no-parent")
        scope = chain["parent"] if parent else channel.id if here else grp
        for s, _value in pairs:
            if scope != grp and not s.per_channel:
                raise Refused("err-setting-here", name=s.name)
        w = SettingsWrite(
            grp=grp,
            scope=scope,
            changes=tuple((s.name, None if v is None else s.write(v)) for s, v in pairs),
            by_user=user.id,
            by_name=user.name[:64],
            at=self._clock.now(),
        )
        done = await self._store.change_community_settings(w)
        self._cache.clear()  # this process sees its change at once
        log.info("settings of %s changed by %s: %s", w.scope, user.id, [k for k, _v in w.changes])
        return done

    # --- the command -----------------------------------------------------------------

    async def command(self, ctx: Ctx) -> list[Reply]:
        """``/settings [show | set NAME VALUE ... [here|parent] | reset NAME ... [here|parent]
        | log]``."""
        args = list(ctx.args)
        sub = args.pop(0).lower() if args else "show"
        scopes: set[str] = set()
        while args and args[-1].lower() in (HERE, PARENT):
            scopes.add(args.pop().lower())
        here, parent = HERE in scopes, PARENT in scopes
        if here and parent:
            raise Refused("err-settings-usage")
        if sub == "show" and not args:
            return [await self.view(ctx.user, ctx.channel)]
        if sub == "log" and not args:
            return [await self.log_view(ctx.user, ctx.channel)]
        if sub == "set" and args and len(args) % 2 == 0:
            pairs = [(setting(args[i]), args[i + 1]) for i in range(0, len(args), 2)]
            read = [(s, s.read(word)) for s, word in pairs]  # every value checked first
            done = await self.change(ctx.user, ctx.channel, read, here=here, parent=parent)
            return [self._changed(ctx.user.locale, done, ctx.channel)]
        if sub == "reset" and args:
            names = [setting(a) for a in args]
            resets = [(s, None) for s in names]
            done = await self.change(ctx.user, ctx.channel, resets, here=here, parent=parent)
            return [self._changed(ctx.user.locale, done, ctx.channel)]
        raise Refused("err-settings-usage")

    def _changed(self, loc: str, done: list[SettingChange], channel: Channel) -> Reply:
        """What changed, and where: the server, this channel, or the channel this
        thread or post belongs to (and so all its threads and posts)."""
        lines = []
        for c in done:
            s = BY_NAME[c.key]
            where = "server" if "/" not in c.scope else "channel"
            if where == "channel" and c.scope != channel.id:
                where = "parent"
            if c.new is None:
                lines.append(_(f"settings-reset-{where}", loc, name=s.name))
            else:
                lines.append(_(f"settings-changed-{where}", loc, name=s.name, value=c.new))
        return Reply("\n".join(lines))

    def label(self, s: Setting, loc: str) -> str:
        if has_text(s.label_id, loc) or has_text(s.label_id):
            return _(s.label_id, loc)
        return s.doc or s.name

    async def view(self, user: User, channel: Channel) -> Reply:
        """Every setting: its value here, where it comes from, its default; the buttons
        that change one, for those who may."""
        loc = user.locale
        v = await self.values(channel)
        lines = [_("settings-header", loc)]
        for s in SETTINGS:
            lines.append(
                _(
                    f"settings-line-{v.source[s.name]}",
                    loc,
                    label=self.label(s, loc),
                    name=s.name,
                    value=s.write(v[s.name]),
                    default=s.write(s.default(self.defaults)),
                )
            )
        may = self.may_configure(user, v) and not is_private(channel)
        lines.append(_("settings-how" if may else "settings-read-only", loc))
        return Reply("\n".join(lines), buttons=self._keys() if may else ())

    async def log_view(self, user: User, channel: Channel) -> Reply:
        loc = user.locale
        changes = await self.history(channel)
        if not changes:
            return Reply(_("settings-log-none", loc))
        lines = [_("settings-log-header", loc)]
        for c in changes:
            when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(c.at))
            key = "settings-log-line-server" if "/" not in c.scope else "settings-log-line-channel"
            lines.append(
                _(
                    key,
                    loc,
                    when=when,
                    who=c.by_name,
                    name=c.key,
                    old=c.old if c.old is not None else "-",
                    new=c.new if c.new is not None else _("settings-default", loc),
                    channel=c.scope.rpartition("/")[2],
                )
            )
        return Reply("\n".join(lines))

    # --- the buttons (Telegram's inline keyboard, Discord's buttons) --------------------

    @staticmethod
    def _keys() -> Buttons:
        row: list[Button] = []
        rows: list[tuple[Button, ...]] = []
        for s in SETTINGS:
            row.append(Button(s.name, f"{PRESS}k:{s.name}"))
            if len(row) == 3:
                rows.append(tuple(row))
                row = []
        if row:
            rows.append(tuple(row))
        return tuple(rows)

    async def press(self, ctx: Ctx, action: str) -> list[Reply]:
        """``st:k:NAME`` (a setting's values), ``st:s:NAME:VALUE``, ``st:r:NAME``, ``st:v``."""
        parts = action.split(":", 3)
        what = parts[1] if len(parts) > 1 else ""
        if what == "v" and len(parts) == 2:
            return [await self.view(ctx.user, ctx.channel)]
        if len(parts) < 3 or parts[2] not in BY_NAME:
            raise Refused("err-stale-button")
        s = BY_NAME[parts[2]]
        loc = ctx.locale
        if what == "k" and len(parts) == 3:
            v = await self.values(ctx.channel)
            if not self.may_configure(ctx.user, v):
                raise Refused("err-settings-forbidden")
            text = _(
                "settings-pick",
                loc,
                label=self.label(s, loc),
                name=s.name,
                value=s.write(v[s.name]),
                default=s.write(s.default(self.defaults)),
            )
            choices = [Button(c, f"{PRESS}s:{s.name}:{c}") for c in s.choices()[:12]]
            rows = [tuple(choices[i : i + 4]) for i in range(0, len(choices), 4)]
            rows.append(
                (
                    Button(_("settings-button-default", loc), f"{PRESS}r:{s.name}"),
                    Button(_("settings-button-back", loc), f"{PRESS}v"),
                )
            )
            return [Reply(text, buttons=tuple(rows))]
        if what == "s" and len(parts) == 4:
            done = await self.change(ctx.user, ctx.channel, [(s, s.read(parts[3]))])
            return [self._changed(loc, done, ctx.channel)]
        if what == "r" and len(parts) == 3:
            done = await self.change(ctx.user, ctx.channel, [(s, None)])
            return [self._changed(loc, done, ctx.channel)]
        raise Refused("err-stale-button")
