"""Each community's own settings: a Discord server's or a Telegram group's defaults and
bounds for its tables, who may change them, and the log of every change.

``registry`` declares every setting once (name, reader, default, bounds, label); the
``service`` reads and changes them for the core and every front end renders from the
declarations; ``admins`` caches a platform's list of a group's administrators.
"""
