"""The parts of ``benchmarks/bench_server.py``, the load on ``meeple serve``, by job.

- :mod:`.measures`: readings of processes (CPU, memory from ``/proc``) and latency summaries;
- :mod:`.processes`: the process runner: ``meeple serve``, its database, a Redis;
- :mod:`.http`: the minimal keep-alive HTTP client each game uses;
- :mod:`.game`: one game played through the API by its four seats (and the run's settings);
- :mod:`.services`: what the servers, PostgreSQL and Redis spent while measuring;
- :mod:`.driver`: the load driver: the games kept in play, in one client process or several;
- :mod:`.report`: the figures of a run, and their table.

``bench_server.py`` reads the command line and puts these together.
"""
