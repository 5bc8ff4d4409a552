"""Shard leases: which bot process serves which shards, so that two never serve the same.

A process takes a lease on each of its shards when it starts and renews them while it
lives; a lease that was not renewed in time expires, and the next process to start for
that shard takes it over (a process that was killed holds nothing for long).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from .base import StoreBase, Tx
from .errors import StoreError


class ShardTaken(StoreError):
    """Another living process holds a lease this one asked for."""


def _stamp(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds")  # sorts as text, as every stored time


_TAKE_SQL = (
    "INSERT INTO shard_leases (shard_count, shard_id, holder, expires_at) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (shard_count, shard_id) DO UPDATE SET holder = excluded.holder,"
    " expires_at = excluded.expires_at"
    " WHERE shard_leases.holder = excluded.holder OR shard_leases.expires_at < ?")


class LeasesMixin(StoreBase):
    async def take_shards(self, shard_count: int, shard_ids: Sequence[int], holder: str,
                          seconds: float) -> None:
        """Hold every shard in shard_ids for `seconds`, all or none; raises ShardTaken
        naming the holder of a shard another process still holds."""
        now = datetime.now(UTC)
        expires, current = _stamp(now + timedelta(seconds=seconds)), _stamp(now)

        async def take(tx: Tx) -> None:
            for shard in sorted(set(shard_ids)):
                if await tx.execute(_TAKE_SQL, (shard_count, shard, holder, expires, current)):
                    continue
                found = await tx.fetchrow(
                    "SELECT holder, expires_at FROM shard_leases"
                    " WHERE shard_count = ? AND shard_id = ?", (shard_count, shard))
                who, until = found if found else ("?", "?")
                raise ShardTaken(
                    f"Shard {shard} of {shard_count} is already served by another process "
                    f"({who}, its lease runs until {until} UTC); stop that one first or "
                    "give this one other --shards.")

        await self._writing(f"taking shards {list(shard_ids)} of {shard_count}", take)

    async def renew_shards(self, shard_count: int, shard_ids: Sequence[int], holder: str,
                           seconds: float) -> list[int]:
        """Extend this holder's leases; return the shards it no longer holds (taken over
        after they expired), which the process must stop serving."""
        expires = _stamp(datetime.now(UTC) + timedelta(seconds=seconds))
        lost = []
        for shard in sorted(set(shard_ids)):
            if not await self._write(
                    f"renewing the lease of shard {shard}",
                    "UPDATE shard_leases SET expires_at = ? WHERE shard_count = ?"
                    " AND shard_id = ? AND holder = ?", (expires, shard_count, shard, holder)):
                lost.append(shard)
        return lost

    async def release_shards(self, shard_count: int, shard_ids: Sequence[int],
                             holder: str) -> None:
        """Give the leases up (a clean stop): the next process need not wait."""
        for shard in sorted(set(shard_ids)):
            await self._write(
                f"releasing the lease of shard {shard}",
                "DELETE FROM shard_leases WHERE shard_count = ? AND shard_id = ?"
                " AND holder = ?", (shard_count, shard, holder))
