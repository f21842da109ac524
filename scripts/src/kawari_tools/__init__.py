"""Kawari's Python tools: refereed matches, SPRT, SPSA, calibration, datagen on a
cluster, and the test and reference tools.

The layers, each importing only those above it:

* ``referee``, ``usi_client``, ``elo_stats``, ``progress``, ``paths``, ``probe``:
  the rules (with pyffish), talking USI, the statistics, progress text, file
  locations, and whether an engine runs here at all.
* ``games``: the games core both match runners share: the clock, openings,
  records and the player that referees one game between two engines.
* ``match``: a match as a ``MatchConfig`` run by ``LocalRunner`` (threads) or
  ``match.ray_runner.RayRunner`` (a Ray cluster, the ``[cluster]`` extra) with a
  ``Reporter`` passed in: ``run_match(config, runner, reporter)``.
* ``spsa``, ``calibrate``, ``datagen``, ``opening_suite``, ``mate_check``: the
  tools' own logic, calling ``run_match`` where they play games.
* ``cli``: one module per command (``kawari-match``, ...); nothing imports them.

``cluster`` is the Ray plumbing (joining, shipping files, probing the nodes) that
``match.ray_runner`` and ``datagen`` use; only these import Ray, so a local match
needs none.
"""
