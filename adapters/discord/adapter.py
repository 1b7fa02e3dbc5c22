"""The Discord side of the core: interactions in, posts out.

Inbound, every slash command and button click becomes one call of the core
(``app.command`` / ``app.press``) with the clicking user; its replies go back ephemerally.
Each interaction is answered within Discord's 3 s: the core runs as a task, and if it has
not finished after ``defer_after`` seconds the interaction is deferred first.

Outbound, :meth:`DiscordAdapter.deliver` is the core's ``Platform``. It never waits on
Discord: it puts the post in a delivery queue (:mod:`bot.ops.delivery`) and returns, so the
core releases the table's lock at once. A lane per channel sends its public messages and a
lane per player their private ones, in order, a newer version of a message replacing the
one still waiting (the table message jumps to its latest state under a rate limit):

- a public post is a channel message, created once per key and edited in place after;
- a private post (``to_user``) is an ephemeral message. The posts the core makes for
  the very user whose interaction it handles come back in its answer (``Reply.post``):
  the clicked hand is updated in place (callback type 7), anything else is a new
  ephemeral message. One delivered at another time (a bot played and it is now this
  player's turn) edits the player's hand through the webhook of their latest
  interaction, or is sent as a follow-up of it, while that token lives (15 min). Of two
  versions of one post the newer (``Post.version``) is shown, however each arrived.
  Every click refreshes that token, so an active player's hand stays live.
- when no live interaction can show a private post (the player has been idle for 15
  minutes, or the bot restarted since they last clicked), it goes by direct message, with
  the same picture and buttons. Later versions of the same post edit that DM in place,
  except one that asks them to act (any enabled button: their move) when the DM does not
  ask for that move already: it is sent as a new DM and the old one deleted, because
  Discord notifies new messages, never edits. When the player interacts in the channel
  again, ephemeral takes over. The DM's buttons carry the table's place (see
  ``ids.place_of``), so a click there reaches the table's channel in the core. A user
  whose settings refuse DMs (403, code 50007) keeps today's behaviour: the table message
  says whose turn it is, and their next click brings the hand back.

One message shows a player's hand at a time, and it shows the newest version: an answer
(``/hand``, "Show my hand") computed before a later version of the hand was delivered is
shown as that later version; when a new message takes the hand over, the older ephemeral
one is deleted, and a DM left behind loses its buttons, so nothing stale can be pressed.

The core decides who may do what; the adapter never refuses anything itself.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

import discord

from adapters.discord.ids import (
    channel_of,
    channel_of_place,
    channel_snowflake,
    guild_snowflake,
    place_of,
    user_of,
    user_snowflake,
)
from adapters.discord.messages import (
    TOKEN_TTL,
    Person,
    PrivateMessage,
    PublicMessages,
    dm_key,
)
from adapters.discord.shards import Shards
from adapters.discord.threads import ThreadParents
from adapters.discord.widgets import ActionButton, OutgoingMessage, shown
from bot.ops.delivery import DeliveryQueue
from bot.platform import Channel, Choices, Post, Reply, User
from bot.show.i18n import _, has_text

log = logging.getLogger(__name__)


class CoreApp(Protocol):
    """What the adapter needs of ``bot.app.BeloteApp`` (its documented entry points)."""

    async def command(self, user: User, channel: Channel, text: str) -> list[Reply]: ...

    async def press(self, user: User, channel: Channel, action: str) -> list[Reply]: ...

    async def choices(self, user: User, channel: Channel) -> Choices: ...


@dataclass
class _Answering:
    """An interaction being handled; ``pending``: the private posts of its answer."""

    user_id: str
    channel_id: str
    locale: str = "en"
    open: bool = True
    pending: list[tuple[int, Post]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # adapter troubles the user should know
    since: int = 0  # the delivery sequence when it arrived: later posts are newer than it
    interaction: discord.Interaction | None = None
    answered: asyncio.Event = field(default_factory=asyncio.Event)  # its answer is sent
    frozen: bool = False  # acknowledged by showing the clicked message's buttons disabled


@dataclass(frozen=True)
class _Job:
    """One queued post: ``seq`` orders versions; ``origin``, the interaction whose handling
    delivered it (told if the channel refuses it); ``once``: a one-off line the adapter
    wrote (sent as written, not kept in the message map)."""

    post: Post
    seq: int
    origin: _Answering | None = None
    once: bool = False


@dataclass
class _Item:
    """One message of an answer."""

    key: str | None
    seq: int
    shown: OutgoingMessage
    public: bool = False
    adoptable: bool = False


PERMISSIONS_HINT = (
    "I cannot post the table in this channel: please give me View Channel, Send Messages "
    "and Attach Files here."
)
DM_SENT_HINT = "{name}, your hand was sent to you by direct message."
#: Discord's JSON code for "Cannot send messages to this user" (DMs closed, or blocked).
CANNOT_MESSAGE_USER = 50007
#: Discord wants the first answer to an interaction within 3 s.
RESPONSE_DEADLINE = 3.0
#: An answer not ready after this long is acknowledged first (deferred), so the first
#: answer comes far inside Discord's 3 s whatever the core, the network or Discord take.
DEFER_AFTER = 0.35
#: The newest private posts kept to bring an answer up to date (a few hundred tables' hands).
LATEST_KEPT = 4000
RESTARTING_HINT = "The bot is restarting: please try again in a minute."


def _text(msgid: str, locale: str, fallback: str, **kwargs: object) -> str:
    if has_text(msgid):
        return _(msgid, locale, **kwargs)
    return fallback.format(**kwargs) if kwargs else fallback


def _in_dm(interaction: discord.Interaction) -> bool:
    """Did this interaction happen in a direct message (no server)?"""
    return interaction.guild_id is None


def _is_dm(message: PrivateMessage) -> bool:
    """Is it a DM of ours that its user clicked (updated in place through that click), not
    an ephemeral message?"""
    clicked = message.interaction.message
    return (
        _in_dm(message.interaction)
        and clicked is not None
        and clicked.id == message.message_id
        and not clicked.flags.ephemeral
    )


class DiscordAdapter:
    """The core's ``Platform`` on Discord, and the handler of every interaction."""

    def __init__(
        self,
        client: discord.Client,
        *,
        messages_path: str | None = None,
        defer_after: float = DEFER_AFTER,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self.app: CoreApp | None = None
        # the core runs (and takes over) the tables of these shards' servers only: every
        # Discord server when unsharded, never another platform's tables
        self.shards = Shards((0,), 1)
        self.public = PublicMessages(messages_path)
        self.threads = ThreadParents()  # each thread's parent channel, from the gateway
        self.defer_after = defer_after
        self.now = clock
        # (user id, channel id) -> their private side there: an ephemeral message lives in
        # the channel of the interaction that made it, so a hand is shown where its table is
        self.people: dict[tuple[str, str], Person] = {}
        self._seq = itertools.count(1)
        # every Discord call that may wait (a rate limit) goes through here, never under
        # the core's table lock; its stats are the place for delivery metrics
        self.outbox: DeliveryQueue[_Job] = DeliveryQueue(self._send, name="discord")
        # (user, channel, post key) -> the newest version of each private post delivered
        self._latest: OrderedDict[tuple[str, str, str], tuple[int, Post]] = OrderedDict()
        # users whose settings refused a DM: not asked again until they interact (a new
        # try per post would only repeat Discord's 403)
        self._dm_refused: set[str] = set()
        self._handling: set[asyncio.Task[object]] = set()  # interactions being answered
        self._retired: OrderedDict[int, None] = OrderedDict()  # messages we deleted
        self.closing = False  # stopping: new interactions are told to come back shortly
        # channel id -> the interactions being handled there: told if the channel refuses
        # a post (missing permissions) while they wait for their answer
        self._answering: dict[str, list[_Answering]] = {}

    # ------------------------------------------------------------------ outbound

    def serves(self, channel_id: str) -> bool:
        """The core's channels this process serves (its shards' Discord servers)."""
        return self.shards.serves(channel_id)

    async def deliver(self, post: Post) -> None:
        """Take a post of the core (see the module docstring); never waits on Discord."""
        seq = next(self._seq)
        if post.to_user is None:
            if channel_snowflake(post.channel) is not None:
                waiting = self._answering.get(post.channel.id)
                origin = waiting[0] if waiting else None
                self.outbox.put(("channel", post.channel.id), post.key, _Job(post, seq, origin))
            return
        self._keep_latest(post, seq)
        # one lane per player: their private posts keep their order (a DM channel is one)
        self.outbox.put(("user", post.to_user), (post.channel.id, post.key), _Job(post, seq))

    def _keep_latest(self, post: Post, seq: int) -> None:
        assert post.to_user is not None
        latest = (post.to_user, post.channel.id, post.key)
        self._latest[latest] = (seq, post)
        self._latest.move_to_end(latest)
        while len(self._latest) > LATEST_KEPT:
            self._latest.popitem(last=False)

    def _answered_post(self, post: Post) -> tuple[int, Post]:
        """A private post that came in an answer, with its place in the delivery order:
        the newest version of that post this adapter has (one delivered meanwhile may be
        newer than the answer's, by ``Post.version``)."""
        assert post.to_user is not None
        known = self._latest.get((post.to_user, post.channel.id, post.key))
        if known is not None and post.version and known[1].version >= post.version:
            return known  # (a post without a version is taken as the newest)
        seq = next(self._seq)
        self._keep_latest(post, seq)
        return seq, post

    async def flush(self, timeout: float | None = None, *, public: bool = True) -> bool:
        """Wait until the interactions in flight are answered and every queued post is
        shown (``public=False``: the private ones only); False if ``timeout`` passed."""
        handling = [t for t in self._handling if t is not asyncio.current_task()]
        if handling:
            _done, left = await asyncio.wait(handling, timeout=timeout)
            if left:
                return False
        if public:
            return await self.outbox.flush(timeout)
        return await self.outbox.flush(timeout, lambda lane: lane[0] == "user")  # type: ignore[index]

    async def _send(self, lane: object, key: object, job: _Job) -> None:
        """A queue worker shows one post (the lanes never wait for each other)."""
        post = job.post
        if post.to_user is None:
            await self._send_public(job)
            return
        person = self.people.setdefault((post.to_user, post.channel.id), Person())
        async with person.lock:
            await self._show_private(person, post, job.seq)

    async def _send_public(self, job: _Job) -> None:
        post = job.post
        channel_id = channel_snowflake(post.channel)
        if channel_id is None:
            return
        if job.once:  # the adapter's own line: its mention is meant (it never pings)
            view = OutgoingMessage(post.text, None, "", ())
        else:
            view = shown(post.text, post.image, post.image_name, post.buttons, alt=post.image_alt)
        target = self.client.get_partial_messageable(channel_id)
        known = None if job.once else self.public.get(post.key)
        try:
            if known is not None and known[0] == channel_id:
                try:
                    await target.get_partial_message(known[1]).edit(**view.edit_kwargs())
                    return
                except discord.NotFound:
                    self.public.forget(post.key)  # deleted by someone: post it again
            message = await target.send(**view.send_kwargs())
            if not job.once:
                self.public.set(post.key, channel_id, message.id)
        except discord.HTTPException as exc:
            log.warning("could not post %s in channel %s: %s", post.key, channel_id, exc.status)
            if isinstance(exc, discord.Forbidden) and job.origin is not None:
                await self._tell_origin(job.origin)

    async def _tell_origin(self, origin: _Answering) -> None:
        """The channel refused a post the user's action made: tell them which permissions
        the bot needs there (in the answer if it is not sent yet, else as a follow-up)."""
        note = _text("err-discord-permissions", origin.locale, PERMISSIONS_HINT)
        if origin.open:
            if note not in origin.notes:
                origin.notes.append(note)
            return
        if origin.interaction is None or note in origin.notes:
            return
        origin.notes.append(note)
        try:
            await asyncio.wait_for(origin.answered.wait(), RESPONSE_DEADLINE)
            await origin.interaction.followup.send(content=note, ephemeral=True)
        except (TimeoutError, discord.HTTPException) as exc:
            log.info("could not tell the user about missing permissions: %s", exc)

    async def _show_private(self, person: Person, post: Post, seq: int) -> None:
        """A private post outside its user's interaction; the caller holds person.lock."""
        if seq < person.applied.get(post.key, 0):
            log.debug("%s v%d: v%d is shown already", post.key, seq, person.applied[post.key])
            return
        plain = shown(post.text, post.image, post.image_name, post.buttons, alt=post.image_alt)
        now = self.now()
        person.prune(now)
        message = person.find(post.key, adopt=_adoptable(post.key, plain))
        log.debug("%s v%d: to %s", post.key, seq, message.message_id if message else "new")
        if message is not None and _is_dm(message):
            # a DM she clicked: not through that click's webhook (an edit would not ping
            # her when it is her move again) but as any DM, by the channel route
            person.drop(message.message_id)
            message = None
        if message is not None:
            view = self._private_view(post, message.interaction)
            try:
                if message.original:
                    await message.interaction.edit_original_response(**view.edit_kwargs())
                else:
                    await message.interaction.followup.edit_message(
                        message.message_id, **view.edit_kwargs()
                    )
                person.applied[post.key] = seq
                await self._dm_outdated(post.to_user, post.key)
                return
            except discord.HTTPException as exc:
                log.info("could not edit %s (%s): sending it anew", post.key, exc.status)
                person.drop(message.message_id)
        latest = person.fresh_latest(now)
        if latest is None or _in_dm(latest):
            # nothing ephemeral can show it (or they play in the DM): a direct message
            await self._show_by_dm(person, post, seq)
            return
        view = self._private_view(post, latest)
        try:
            sent = await latest.followup.send(ephemeral=True, wait=True, **view.send_kwargs())
        except discord.HTTPException as exc:
            log.info("could not send %s privately: %s", post.key, exc.status)
            return
        old = person.remember(
            sent.id, latest, person.latest_at, post.key, view.rich, original=False
        )
        person.applied[post.key] = seq
        await self._retire(old)
        await self._dm_outdated(post.to_user, post.key)

    def _private_view(self, post: Post, interaction: discord.Interaction) -> OutgoingMessage:
        """A private post as shown through ``interaction``: in a DM its buttons carry the
        table's place, as the click there comes from the DM channel."""
        place = place_of(post.channel) if _in_dm(interaction) else None
        return shown(
            post.text, post.image, post.image_name, post.buttons, place, alt=post.image_alt
        )

    async def _show_by_dm(self, person: Person, post: Post, seq: int) -> None:
        """A private post no live interaction can show: edit the user's DM showing this
        post key, or send a new DM; the caller holds person.lock.

        The DM is an ordinary message of the bot (it may edit it for ever), so its id is
        kept in the persisted map and survives a restart. Discord notifies a new message,
        never an edit: a version that asks the user to act (:attr:`OutgoingMessage.asks`: their
        move) is sent as a new DM, and the previous one deleted, unless the DM already
        asks for this move (the map keeps whether it asks; it stops asking when a version
        was shown ephemerally since, see :meth:`_dm_outdated`). So an idle player is
        pinged once per move (else the timer runs out and the AI plays for them); any
        other version edits the DM quietly. A user who refuses DMs is logged (their id
        only) and not asked again until they interact."""
        user_id = post.to_user or ""
        user = user_snowflake(user_id)
        place = place_of(post.channel)
        if user is None or place is None or user_id in self._dm_refused:
            log.info("post %s: no live interaction of that user to show it with", post.key)
            return
        view = shown(
            post.text, post.image, post.image_name, post.buttons, place, alt=post.image_alt
        )
        key = dm_key(user_id, post.key)
        known = self.public.get(key)
        renew = view.asks and not self.public.asking(key)  # a ping: their move, newly
        try:
            if known is not None and not renew:
                dm = self.client.get_partial_messageable(known[0], type=discord.ChannelType.private)
                try:
                    await dm.get_partial_message(known[1]).edit(**view.edit_kwargs())
                    self.public.set(key, *known, asking=view.asks)
                    person.applied[post.key] = seq
                    return
                except discord.NotFound:
                    self.public.forget(key)  # gone (the DM channel closed): send it anew
                    known = None
            channel = await self.client.create_dm(discord.Object(id=user))
            message = await channel.send(**view.send_kwargs())
        except discord.HTTPException as exc:
            if isinstance(exc, discord.Forbidden) and exc.code == CANNOT_MESSAGE_USER:
                log.info("post %s: user %s does not accept direct messages", post.key, user)
                self._dm_refused.add(user_id)
            else:
                log.warning(
                    "could not send %s by direct message: %s %s", post.key, exc.status, exc.code
                )
            return
        self.public.set(key, channel.id, message.id, asking=view.asks)
        person.applied[post.key] = seq
        log.info("post %s: sent to user %s by direct message", post.key, user)
        if known is not None:
            # the new DM replaces it: delete the old one so the DM does not fill up with
            # stale hands (whose buttons the core would only call out of date)
            await self._delete_dm(post.key, *known)
        elif post.key.startswith("hand:"):
            self._tell_dm_sent(post.channel, user, person)

    async def _dm_outdated(self, user_id: str | None, post_key: str) -> None:
        """A version of ``post_key`` was shown to the user outside their DM (ephemerally):
        the DM is older than it, so its next version that asks them to act is a new DM
        (a ping) even if the DM asked for an earlier move. A DM that still offered a move
        loses its buttons (the picture stays), so nothing stale can be pressed there."""
        if user_id is None:
            return
        key = dm_key(user_id, post_key)
        known = self.public.get(key)
        if known is None or not self.public.asking(key):
            return
        self.public.outdated(key)
        dm = self.client.get_partial_messageable(known[0], type=discord.ChannelType.private)
        try:
            await dm.get_partial_message(known[1]).edit(view=None)
        except discord.NotFound:
            self.public.forget(key)
        except discord.HTTPException as exc:
            log.warning("could not take the buttons off the DM of %s: %s", post_key, exc.status)

    async def _retire(self, message: PrivateMessage | None) -> None:
        """An ephemeral message that a newer one took over from: delete it (through its
        interaction's webhook, while it lives), so a player's hand is in one message and
        no stale hand stays pressable. A DM is never retired here (see _dm_outdated)."""
        if message is None or _is_dm(message) or self.now() - message.at >= TOKEN_TTL:
            return
        log.debug("%s: message %s retired", message.key, message.message_id)
        self._retired[message.message_id] = None
        while len(self._retired) > LATEST_KEPT:
            self._retired.popitem(last=False)
        try:
            if message.original:
                await message.interaction.delete_original_response()
            else:
                await message.interaction.followup.delete_message(message.message_id)
        except discord.NotFound:
            pass  # already gone (the player dismissed it)
        except discord.HTTPException as exc:
            log.info("could not delete an older hand message: %s %s", exc.status, exc.code)

    async def _delete_dm(self, post_key: str, channel_id: int, message_id: int) -> None:
        """Delete a DM of ours that a newer one replaced; one already gone is fine, and any
        other failure only leaves a stale copy behind (its buttons are out of date)."""
        dm = self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        try:
            await dm.get_partial_message(message_id).delete()
        except discord.NotFound:
            pass
        except discord.HTTPException as exc:
            log.warning("could not delete the old DM of %s: %s %s", post_key, exc.status, exc.code)

    def _tell_dm_sent(self, channel: Channel, user: int, person: Person) -> None:
        """One line in the table's channel when a new DM carries a hand, so the player (and
        the table) know where to look; the mention does not ping (allowed mentions: none)."""
        channel_id = channel_snowflake(channel)
        if channel_id is None:
            return
        locale = person.locale
        if locale is None:
            guild = self.client.get_guild(guild_snowflake(channel) or 0)
            locale = str(guild.preferred_locale) if guild is not None else "en"
        text = _text("notice-dm-sent", locale, DM_SENT_HINT, name=f"<@{user}>")
        # in the channel's lane, behind its rate limit, not in the player's
        notice = Post(channel, f"notice-dm:{user}", text)
        self.outbox.put(("channel", channel.id), notice.key, _Job(notice, 0, once=True))

    # ------------------------------------------------------------------ inbound

    async def on_command(
        self, interaction: discord.Interaction, text: str, *, public: bool = False
    ) -> None:
        """A slash command, as the core's command text; ``public``: a good answer is shown
        to the channel (``/verify``), refusals stay private."""

        async def call(user: User, channel: Channel) -> list[Reply]:
            assert self.app is not None
            return await self.app.command(user, channel, text)

        await self._handle(interaction, call, public=public)

    async def on_press(
        self, interaction: discord.Interaction, action: str, *, place: str | None = None
    ) -> None:
        """A button of ours was clicked: hand its action to the core. ``place``: the
        table's channel a button on a direct message carries."""

        async def call(user: User, channel: Channel) -> list[Reply]:
            assert self.app is not None
            return await self.app.press(user, channel, action)

        await self._handle(interaction, call, place=place)

    async def _handle(
        self,
        interaction: discord.Interaction,
        call: Callable[[User, Channel], Awaitable[list[Reply]]],
        *,
        public: bool = False,
        place: str | None = None,
    ) -> None:
        user, channel = user_of(interaction), channel_of(interaction)
        if _in_dm(interaction) and place is not None:
            # a click on a DM we sent: it acts at the table the DM belongs to. Only our
            # buttons carry a place, and Discord reports clicks only on buttons we put on
            # a message, so it is a place we wrote for this user. In a server the click's
            # channel stays the truth (the core refuses a button of another channel's).
            channel = channel_of_place(place) or channel
        channel = self.threads.placed(channel, interaction)  # a thread: its parent's values
        if self.closing:
            await self._turn_away(interaction, user.locale)
            return
        current = asyncio.current_task()
        if current is not None:
            self._handling.add(current)
        try:
            await self._handle_in_time(interaction, call, user, channel, public, place)
        finally:
            if current is not None:
                self._handling.discard(current)

    async def _handle_in_time(
        self,
        interaction: discord.Interaction,
        call: Callable[[User, Channel], Awaitable[list[Reply]]],
        user: User,
        channel: Channel,
        public: bool,
        place: str | None,
    ) -> None:
        """Run the core, then answer; deferred first if the answer is not ready after
        ``defer_after`` seconds, whatever holds it up (the core, or this player's
        private lane showing an earlier post)."""
        loop = asyncio.get_running_loop()
        defer_at = loop.time() + self.defer_after
        dm_place = place_of(channel) if _in_dm(interaction) else None
        person = self.people.setdefault((user.id, channel.id), Person())
        person.locale = user.locale
        self._dm_refused.discard(user.id)  # they may have opened their DMs since
        arrived = self.now()
        person.prune(arrived)
        answering = _Answering(
            user.id, channel.id, user.locale, since=next(self._seq), interaction=interaction
        )
        here = self._answering.setdefault(channel.id, [])
        here.append(answering)
        try:
            task = asyncio.ensure_future(self._call(call, user, channel))
            done, _pending = await asyncio.wait({task}, timeout=max(0.0, defer_at - loop.time()))
            if not done:
                answering.frozen = await self._defer(interaction, public, person, arrived)
            replies = await task
        finally:
            answering.open = False
            here.remove(answering)
            if not here:
                self._answering.pop(channel.id, None)
        # the user's own new posts (their hand) come in the answer: shown as its items
        for reply in replies:
            if reply.post is not None and reply.post.to_user == user.id:
                answering.pending.append(self._answered_post(reply.post))
        if any(r.key for r in replies):
            person.exact = True  # the core names its hands: no guessing from here on
        locked = asyncio.ensure_future(person.lock.acquire())
        try:
            done, _pending = await asyncio.wait({locked}, timeout=max(0.0, defer_at - loop.time()))
            if not done and not interaction.response.is_done():
                answering.frozen = await self._defer(interaction, public, person, arrived)
            await locked
            try:
                await self._answer(
                    interaction, person, arrived, answering, replies, public, dm_place
                )
            except discord.HTTPException as exc:
                log.warning("could not answer an interaction: %s %s", exc.status, exc.code)
                return
            # only now is its webhook open (follow-ups need an answered interaction)
            person.touch(interaction, arrived)
        finally:
            answering.answered.set()
            if locked.done() and not locked.cancelled():
                person.lock.release()
            else:
                locked.cancel()

    async def _turn_away(self, interaction: discord.Interaction, locale: str) -> None:
        """The bot is stopping: an interaction that comes now is answered at once (nothing
        is done), so no one is left with "This interaction failed"."""
        text = _text("err-restarting", locale, RESTARTING_HINT)
        try:
            await interaction.response.send_message(content=text, ephemeral=True)
        except discord.HTTPException as exc:
            log.info("could not answer an interaction while stopping: %s", exc.status)

    async def stop_input(self, timeout: float = 5.0) -> bool:
        """Take no more input (new interactions are told to come back shortly) and wait,
        at most ``timeout`` seconds, until the interactions in flight are answered."""
        self.closing = True
        handling = [t for t in self._handling if t is not asyncio.current_task()]
        if not handling:
            return True
        _done, left = await asyncio.wait(handling, timeout=timeout)
        if left:
            log.warning("stopping with %d interactions not answered", len(left))
        return not left

    async def drain(self, timeout: float = 10.0) -> bool:
        """Show what is queued, at most ``timeout`` seconds; what is left then is dropped
        and logged (nothing is lost: the core shows every table and hand at its start)."""
        if await self.flush(timeout):
            return True
        dropped = await self.outbox.cancel()
        log.warning("stopped with %d posts not shown (shown again at the next start)", dropped)
        return False

    async def _call(
        self,
        call: Callable[[User, Channel], Awaitable[list[Reply]]],
        user: User,
        channel: Channel,
    ) -> list[Reply]:
        try:
            return await call(user, channel)
        except Exception:
            log.exception("the core failed on an interaction")
            text = _text(
                "err-internal", user.locale, "Something went wrong on my side; please try again."
            )
            return [Reply(text, ok=False)]

    async def _defer(
        self, interaction: discord.Interaction, public: bool, person: Person, arrived: float
    ) -> bool:
        """Acknowledge now, answer later. A click on a private message of ours (a hand) is
        acknowledged by showing that message with every button disabled (type 7): until
        the answer comes it must not offer the move just made. True if it did that."""
        try:
            if interaction.type != discord.InteractionType.component:
                await interaction.response.defer(ephemeral=not public, thinking=True)  # 5
                return False
            frozen = None
            if self._clicked(interaction, person, arrived) is not None:
                frozen = _copy_view(interaction.message, disabled=True)
            if frozen is None:
                await interaction.response.defer()  # 6: update later, nothing shown yet
                return False
            await interaction.response.edit_message(view=frozen)  # 7: the same, disabled
            return True
        except discord.HTTPException as exc:
            log.warning("could not defer an interaction: %s", exc.status)
            return False

    async def _answer(
        self,
        interaction: discord.Interaction,
        person: Person,
        arrived: float,
        answering: _Answering,
        replies: list[Reply],
        public: bool,
        place: str | None,
    ) -> None:
        """Show the core's answer; ``place``: the buttons' place when answering in a DM."""
        items = self._items(person, answering, replies, public, place)
        clicked = self._clicked(interaction, person, arrived)
        if clicked is not None and clicked.message_id in self._retired:
            # clicked just before a newer copy replaced it (and it was deleted): the
            # answer is a new message, which takes the hand over in turn
            clicked = None
        thawed = None
        if answering.frozen and clicked is not None:
            thawed = self._thawed(interaction, answering, clicked, items, place)
            if isinstance(thawed, _Item):
                items.insert(0, thawed)
        update: _Item | None = None
        if clicked is not None:
            same = [i for i in items if i.key is not None and i.key == clicked.key]
            adopt = [i for i in items if clicked.key is None and i.adoptable]
            update = (same or adopt or [None])[0]
            if update is not None:
                items.remove(update)
                items.insert(0, update)
        response = interaction.response
        thinking = response.is_done() and interaction.type != discord.InteractionType.component
        original_free = thinking
        if not items and not response.is_done():
            if interaction.type == discord.InteractionType.component:
                await response.defer()  # acknowledged: the table message shows the result
                return
            items.append(_Item(None, next(self._seq), shown("✅", None, "", ())))
        retired: list[PrivateMessage | None] = []
        outdated: list[str] = []
        log.debug("answer %s: %s", interaction.id, [(i.key, i.seq) for i in items])
        for item in items:
            original = True  # the message is this interaction's @original
            in_dm = False  # shown in a DM of ours (else ephemerally)
            if item is update and clicked is not None:
                kwargs = item.shown.edit_kwargs()
                if not response.is_done():
                    await response.edit_message(**kwargs)  # 7: the hand, in place
                else:
                    await interaction.edit_original_response(**kwargs)
                message_id = clicked.message_id
                in_dm = self._keep_dm(interaction, item, message_id)
            elif not response.is_done():
                sent = await response.send_message(
                    ephemeral=not item.public, **item.shown.send_kwargs()
                )
                message_id = sent.message_id or 0
            elif original_free:
                original_free = False
                if not item.public and public:
                    # deferred in public for /verify, but this answer is a refusal
                    await interaction.delete_original_response()
                    sent_message = await interaction.followup.send(
                        ephemeral=True, wait=True, **item.shown.send_kwargs()
                    )
                    message_id, original = sent_message.id, False
                else:
                    edited = await interaction.edit_original_response(**item.shown.edit_kwargs())
                    message_id = edited.id
            else:
                sent_message = await interaction.followup.send(
                    ephemeral=not item.public, wait=True, **item.shown.send_kwargs()
                )
                message_id, original = sent_message.id, False
            if item.public or not message_id:
                continue
            log.debug(
                "answer %s: %s v%s shown by %s", interaction.id, item.key, item.seq, message_id
            )
            retired.append(
                person.remember(
                    message_id, interaction, arrived, item.key, item.shown.rich, original=original
                )
            )
            if item.key is not None:
                person.applied[item.key] = item.seq
                if not in_dm:
                    outdated.append(item.key)
        # the answer is out: now the older copies go (deleted, or a DM's buttons taken off)
        for message in retired:
            await self._retire(message)
        for key in outdated:
            await self._dm_outdated(user_of(interaction).id, key)
        if isinstance(thawed, discord.ui.View):
            await interaction.edit_original_response(view=thawed)

    def _thawed(
        self,
        interaction: discord.Interaction,
        answering: _Answering,
        clicked: PrivateMessage,
        items: list[_Item],
        place: str | None,
    ) -> _Item | discord.ui.View | None:
        """The clicked message was shown with its buttons disabled while the core worked;
        if the answer does not update it (a refusal: the click changed nothing), it shows
        again the newest version of its post, or its own buttons as they were."""
        key = clicked.key
        if any(i.key is not None and i.key == key for i in items) or (
            key is None and any(i.adoptable for i in items)
        ):
            return None  # the answer updates it
        newest = self._latest.get((answering.user_id, answering.channel_id, key or ""))
        if newest is not None:
            seq, post = newest
            view = shown(
                post.text, post.image, post.image_name, post.buttons, place, alt=post.image_alt
            )
            return _Item(key, seq, view, adoptable=_adoptable(key or "", view))
        return _copy_view(interaction.message, disabled=False)

    def _keep_dm(self, interaction: discord.Interaction, item: _Item, message_id: int) -> bool:
        """If a DM of ours was updated in place to show ``item``, note it in the map (with
        whether it asks to act): later versions of that post edit it, or replace it when
        they ask to act and it does not (see :meth:`_show_by_dm`). True if it was a DM."""
        message = interaction.message
        key = item.key
        if key is None or not _in_dm(interaction) or message is None or message.flags.ephemeral:
            return False
        user_id = user_of(interaction).id
        where = (interaction.channel_id or 0, message_id)
        self.public.set(dm_key(user_id, key), *where, asking=item.shown.asks)
        return True

    def _items(
        self,
        person: Person,
        answering: _Answering,
        replies: list[Reply],
        public: bool,
        place: str | None = None,
    ) -> list[_Item]:
        """What the answer shows, each keyed post as its newest version: one delivered
        after the core computed it (a move made meanwhile) replaces it, so an answer never
        brings back an older state of the hand than the one already delivered."""
        newest: dict[str, tuple[int, Post]] = {}
        for seq, post in answering.pending:
            newest[post.key] = self._later(answering, post.key, seq) or (seq, post)
        items: list[_Item] = []
        for key, (seq, post) in sorted(newest.items(), key=lambda kv: kv[1][0]):
            if seq < person.applied.get(key, 0):
                continue  # a newer version was shown meanwhile
            view = shown(
                post.text, post.image, post.image_name, post.buttons, place, alt=post.image_alt
            )
            items.append(_Item(key, seq, view, adoptable=_adoptable(key, view)))
        for note in answering.notes:
            items.append(_Item(None, next(self._seq), shown(note, None, "", ())))
        for reply in replies:
            key = reply.key
            if key is not None and key in newest:
                continue  # a version of that very post is in the answer already
            later = self._later(answering, key, answering.since) if key else None
            if later is not None:
                # delivered after the interaction came, so at least as new as this answer
                seq, post = later
                view = shown(
                    post.text, post.image, post.image_name, post.buttons, place, alt=post.image_alt
                )
                items.append(_Item(key, seq, view))
                continue
            document = None if reply.file is None else (reply.file_name, reply.file)
            view = shown(
                reply.text,
                reply.image,
                reply.image_name,
                reply.buttons,
                place,
                document,
                alt=reply.image_alt,
            )
            items.append(_Item(key, next(self._seq), view, public=public and reply.ok))
        return items

    def _later(self, answering: _Answering, key: str, seq: int) -> tuple[int, Post] | None:
        """The newest version of the user's private post ``key``, if delivered after
        ``seq`` (the core shows a hand again after every change to it)."""
        later = self._latest.get((answering.user_id, answering.channel_id, key))
        return later if later is not None and later[0] > seq else None

    def _clicked(
        self, interaction: discord.Interaction, person: Person, arrived: float
    ) -> PrivateMessage | None:
        """The private message of ours that was clicked, if any: an ephemeral one or a DM
        (one from before a restart is taken over: its hand is updated in place like any
        other; a DM we know says which post it shows)."""
        message = interaction.message
        if interaction.type != discord.InteractionType.component or message is None:
            return None
        known = person.messages.get(message.id)
        if known is not None:
            return known
        dm = _in_dm(interaction) and not message.flags.ephemeral
        if dm:
            key = self.public.dm_post_key(user_of(interaction).id, message.id)
            if key is not None:
                return PrivateMessage(message.id, interaction, arrived, key, True, 0, True)
        if (message.flags.ephemeral or dm) and (message.components or message.attachments):
            # not remembered unless it is updated: only then is it this interaction's
            return PrivateMessage(message.id, interaction, arrived, None, True, 0, True)
        return None


def _copy_view(message: discord.Message | None, *, disabled: bool) -> discord.ui.View | None:
    """The buttons of ``message`` as they are, all disabled (``disabled=True``) or as they
    were; None if it has no button of ours."""
    if message is None:
        return None
    view = discord.ui.View(timeout=None)
    for index, row in enumerate(message.components):
        for child in getattr(row, "children", ()):
            custom_id = getattr(child, "custom_id", None)
            if custom_id is None or ActionButton.parse(custom_id) is None:
                continue
            view.add_item(
                discord.ui.Button(
                    label=child.label,
                    style=child.style,
                    custom_id=custom_id,
                    disabled=disabled or child.disabled,
                    row=index,
                )
            )
    return view if view.children else None


def _adoptable(key: str, view: OutgoingMessage) -> bool:
    """May this post take over a keyless hand shown by ``/hand`` or "Show my hand"?"""
    return key.startswith("hand:") or view.rich
