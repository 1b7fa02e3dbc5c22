"""The web table: a page the bot serves and one socket a person (docs/web.md)."""
