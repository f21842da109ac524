"""progress.py: done of total, rate and time left from a controllable clock."""

from kawari_tools.progress import Progress, duration


def test_rate_and_time_left():
    now = [100.0]
    p = Progress(200, "games", already=20, clock=lambda: now[0])
    assert p.text() == "20/200 games, starting"
    now[0] += 10
    p.add(5)                      # 5 games in 10 s this run; 175 left
    assert p.rate() == 0.5
    assert p.text() == "25/200 games, 0.5 games/s, 5m50s left"


def test_durations():
    assert (duration(42), duration(185), duration(3725)) == ("42s", "3m05s", "1h02m")
