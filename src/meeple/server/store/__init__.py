"""The games database by job: its tables (:mod:`.rows`), the connection (:mod:`.database`),
the games store (:mod:`.games`), the quotas a new game must fit in (:mod:`.quotas`), the
lists (:mod:`.listings`), the sweeps (:mod:`.sweeps`), the chat (:mod:`.chat`) and the leases
(:mod:`.leases`). :class:`meeple.server.storage.Storage` is all of them over one engine."""
