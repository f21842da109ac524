"""Browser tests of the `kawari web` page, through its contract
(docs/web.md): data-square / data-piece squares, data-hand pieces and the
data-testid controls."""

import os
import re
import signal
from pathlib import Path

import pytest
from conftest import SHOTS

# The start positions (src/variant/builtin.rs) and board sizes.
STARTS = {
    "shogi": ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 9, 9),
    "judkins": ("rbnsgk/5p/6/6/P5/KGSNBR b - 1", 6, 6),
    "yarishogi": ("rnnkbbr/7/ppppppp/7/7/7/PPPPPPP/7/RBBKNNR b - 1", 7, 9),
    "heian": ("lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1", 9, 9),
    "heian9x8": ("lnsgkgsnl/9/ppppppppp/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1", 9, 8),
    "heian8x9": ("lnsgksnl/8/pppppppp/8/8/8/PPPPPPPP/8/LNSKGSNL b - 1", 8, 9),
    "heian8x8": ("lnsgksnl/8/pppppppp/8/8/PPPPPPPP/8/LNSKGSNL b - 1", 8, 8),
}

# Failed requests the browser logs as console errors where a test asks for
# them (a bad position, a dead engine).
HTTP_ERRORS = ("the server responded with a status of",)


def board_of(sfen):
    """{square: piece} of a SFEN's board."""
    rows = sfen.split()[0].split("/")
    out = {}
    for r, row in enumerate(rows):
        files = 0
        cells = re.findall(r"\+?[A-Za-z]|\d+", row)
        width = sum(int(c) if c.isdigit() else 1 for c in cells)
        for c in cells:
            if c.isdigit():
                for _ in range(int(c)):
                    out[f"{width - files}{chr(97 + r)}"] = ""
                    files += 1
            else:
                out[f"{width - files}{chr(97 + r)}"] = c
                files += 1
    return out


def squares(page):
    return page.eval_on_selector_all(
        "[data-square]",
        "els => Object.fromEntries(els.map(e => [e.dataset.square, e.dataset.piece]))",
    )


def moves(page):
    return page.eval_on_selector_all(
        "[data-testid=moves] > *", "els => els.map(e => e.dataset.usi)"
    )


def sfen(page):
    return page.get_by_test_id("sfen").text_content()


def click(page, sq):
    page.click(f"[data-square='{sq}']")


def wait_moves(page, n, timeout=15_000):
    page.wait_for_function(
        f"document.querySelectorAll('[data-testid=moves] > *').length >= {n}"
        " && window.kawari.view.legal.length > 0 || !!window.kawari.end",
        timeout=timeout,
    )


def load(page, text):
    page.get_by_test_id("position-input").fill(text)
    page.get_by_test_id("load-position").click()


def wait_sfen(page, expected, timeout=10_000):
    page.wait_for_function(
        "s => document.querySelector('[data-testid=sfen]').textContent === s",
        arg=expected,
        timeout=timeout,
    )


@pytest.mark.parametrize("variant", list(STARTS))
def test_every_variant_starts(open_page, variant):
    start, files, ranks = STARTS[variant]
    page = open_page(f"?variant={variant}")
    assert page.get_by_test_id("variant").input_value() == variant
    assert sfen(page) == start
    board = squares(page)
    assert len(board) == files * ranks
    assert board == board_of(start)
    assert page.locator("[data-hand]").count() == 0
    assert "move" in page.get_by_test_id("status").text_content().lower()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{variant}.png"))


def test_clicked_move_and_engine_reply(open_page):
    page = open_page("?variant=shogi&movetime=300")
    click(page, "7g")
    assert page.locator("[data-square='7g'].selected").count() == 1
    # The pawn's one legal target is highlighted.
    assert page.eval_on_selector_all(
        ".sq.target", "els => els.map(e => e.dataset.square)"
    ) == ["7f"]
    click(page, "7f")
    wait_moves(page, 2)
    played = moves(page)
    assert played[0] == "7g7f"
    reply = played[1]
    board = squares(page)
    assert board["7f"] == "P" and board["7g"] == ""
    # The reply is on the board: its target holds a White piece.
    assert board[reply[2:4]].islower(), (reply, board[reply[2:4]])
    assert sfen(page).split()[1] == "b"


def test_illegal_click_refused(open_page):
    page = open_page("?variant=shogi&movetime=300")
    before = sfen(page)
    click(page, "7g")
    click(page, "7e")  # a pawn moves one square
    click(page, "5a")  # White's king: not Black's to move
    assert moves(page) == []
    assert sfen(page) == before
    assert squares(page)["7g"] == "P"


def test_drop_and_promotion_choice(open_page):
    page = open_page("?variant=shogi", expect_errors=HTTP_ERRORS)
    load(page, "4k4/9/9/4S4/9/9/9/9/4K4 b P 1")
    wait_sfen(page, "4k4/9/9/4S4/9/9/9/9/4K4 b P 1")
    assert page.get_by_test_id("side").input_value() == "both"
    hand = page.locator("[data-hand='black'][data-piece='P']")
    assert hand.get_attribute("data-count") == "1"
    # Optional promotion: the choice is offered; declined.
    click(page, "5d")
    click(page, "5c")
    page.get_by_test_id("no-promote").click()
    wait_moves(page, 1)
    assert moves(page) == ["5d5c"]
    assert squares(page)["5c"] == "S"
    click(page, "5a")
    click(page, "4a")
    wait_moves(page, 2)
    # A drop from the hand.
    hand.click()
    click(page, "1e")
    wait_moves(page, 3)
    assert moves(page)[2] == "P*1e"
    assert squares(page)["1e"] == "P"
    assert page.locator("[data-hand='black']").count() == 0
    # Forced promotion: no choice is offered.
    load(page, "4k4/7P1/9/9/9/9/9/9/4K4 b - 1")
    wait_sfen(page, "4k4/7P1/9/9/9/9/9/9/4K4 b - 1")
    click(page, "2b")
    click(page, "2a")
    wait_moves(page, 1)
    assert page.get_by_test_id("promote").count() == 0
    assert moves(page) == ["2b2a+"]
    assert squares(page)["2a"] == "+P"


def test_drag_a_piece(open_page):
    page = open_page("?variant=judkins&side=both")
    src = page.locator("[data-square='6e']").bounding_box()
    dst = page.locator("[data-square='6d']").bounding_box()
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
    page.mouse.down()
    page.mouse.move(dst["x"] + 5, dst["y"] + 5, steps=5)
    page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2, steps=5)
    page.mouse.up()
    wait_moves(page, 1)
    assert moves(page) == ["6e6d"]


def test_analysis_arrows_lines_and_hint(open_page):
    page = open_page("?variant=yarishogi&side=both")
    page.get_by_test_id("analyse").click()
    page.wait_for_function(
        "document.querySelectorAll('[data-testid=pv] > *').length >= 3"
        " && document.querySelectorAll('[data-testid=arrow]').length >= 3",
        timeout=15_000,
    )
    legal = page.evaluate("window.kawari.view.legal")
    arrows = page.eval_on_selector_all(
        "[data-testid=arrow]", "els => els.map(e => e.dataset.usi)"
    )
    assert all(a in legal for a in arrows), (arrows, legal)
    text = page.get_by_test_id("pv").text_content()
    assert re.search(r"d\d+", text) and "kn/s" in text
    page.get_by_test_id("analyse").click()
    page.wait_for_function(
        "document.querySelectorAll('[data-testid=arrow]').length === 0"
    )
    page.get_by_test_id("hint").click()
    page.wait_for_function(
        "document.querySelectorAll('[data-testid=arrow]').length === 1", timeout=10_000
    )
    hint = page.locator("[data-testid=arrow]").get_attribute("data-usi")
    assert hint in legal
    assert "Hint" in page.get_by_test_id("status").text_content()


def test_bad_sfen_is_answered_with_the_engines_error(open_page):
    page = open_page("?variant=judkins", expect_errors=HTTP_ERRORS)
    before = sfen(page)
    load(page, "lnsgkgsnl/9/9 b - 1")
    err = page.get_by_test_id("error")
    err.wait_for(state="visible")
    assert "position rejected" in err.text_content()
    assert "judkins" in err.text_content()
    assert sfen(page) == before
    assert squares(page) == board_of(before)


def test_tsume_line_and_no_mate(open_page):
    # No attacking king: gold drop at 5b, guarded by the pawn, mates.
    page = open_page("?variant=shogi")
    load(page, "4k4/9/4P4/9/9/9/9/9/9 b G 1")
    wait_sfen(page, "4k4/9/4P4/9/9/9/9/9/9 b G 1")
    page.get_by_test_id("mate").click()
    page.wait_for_selector("[data-testid=mate-line] > *", timeout=15_000)
    line = page.eval_on_selector_all(
        "[data-testid=mate-line] > *", "els => els.map(e => e.dataset.usi)"
    )
    assert line == ["G*5b"]
    page.click("#mate-next")
    assert squares(page)["5b"] == "G"
    page.click("#mate-prev")
    assert squares(page)["5b"] == ""
    load(page, "4k4/9/9/9/9/9/9/9/4K4 b - 1")
    wait_sfen(page, "4k4/9/9/9/9/9/9/9/4K4 b - 1")
    page.get_by_test_id("mate").click()
    page.wait_for_function(
        "document.querySelector('[data-testid=mate-result]').textContent.startsWith('No mate')",
        timeout=15_000,
    )
    assert page.locator("[data-testid=mate-line] > *").count() == 0


def test_game_end_says_why(open_page):
    page = open_page("?variant=shogi")
    load(page, "4k4/9/4P4/9/9/9/9/9/9 b G 1")
    wait_sfen(page, "4k4/9/4P4/9/9/9/9/9/9 b G 1")
    page.locator("[data-hand='black'][data-piece='G']").click()
    click(page, "5b")
    page.wait_for_function("!!window.kawari.end")
    assert page.get_by_test_id("status").text_content() == "Checkmate — ☗ Black wins"
    assert squares(page)["5b"] == "G"


def test_level_and_clock(open_page):
    page = open_page("?variant=judkins")
    page.get_by_test_id("level").select_option("elo:1200")
    page.get_by_test_id("clock").select_option("byoyomi:0:10")
    page.wait_for_function("window.kawari.clock.kind === 'byoyomi'")
    assert page.locator("#clocks").is_visible()
    click(page, "6e")
    click(page, "6d")
    wait_moves(page, 2)
    assert moves(page)[0] == "6e6d"
    assert "10" in page.get_by_test_id("clock-black").text_content()


def test_set_up_a_position(open_page):
    page = open_page("?variant=shogi", expect_errors=HTTP_ERRORS)
    page.get_by_test_id("edit").click()
    page.get_by_test_id("edit-clear").click()
    assert all(p == "" for p in squares(page).values())
    for piece, sq in [("K", "5i"), ("k", "5a"), ("P", "1a")]:
        page.click(f"[data-testid=palette][data-piece='{piece}']")
        click(page, sq)
    page.click("[data-testid=edit-hand][data-owner=black][data-piece=G]")
    # A pawn on the last rank: the engine refuses, the set-up stays.
    page.get_by_test_id("edit-done").click()
    page.get_by_test_id("error").wait_for(state="visible")
    assert "could never move" in page.get_by_test_id("error").text_content()
    page.click("[data-testid=palette][data-piece='P']")
    click(page, "1a")
    page.get_by_test_id("edit-done").click()
    wait_sfen(page, "4k4/9/9/9/9/9/9/9/4K4 b G 1")
    assert page.locator("#editor").is_hidden()
    assert (
        page.locator("[data-hand='black'][data-piece='G']").get_attribute("data-count")
        == "1"
    )


def test_two_tabs_play_two_games(open_page):
    a = open_page("?variant=shogi&movetime=200")
    b = open_page("?variant=judkins&movetime=200")
    click(a, "7g")
    click(b, "6e")
    click(a, "7f")
    click(b, "6d")
    wait_moves(a, 2)
    wait_moves(b, 2)
    assert moves(a)[0] == "7g7f" and moves(b)[0] == "6e6d"
    assert a.evaluate("window.kawariSession.id") != b.evaluate(
        "window.kawariSession.id"
    )
    assert (
        len(sfen(a).split()[0].split("/")) == 9
        and len(sfen(b).split()[0].split("/")) == 6
    )


def test_fen_round_trip_and_records(open_page):
    page = open_page("?variant=shogi&movetime=200")
    click(page, "7g")
    click(page, "7f")
    wait_moves(page, 2)
    played = moves(page)
    fen = page.get_by_test_id("fen").text_content()
    position = sfen(page)
    with page.expect_download() as d:
        page.get_by_test_id("download-usi").click()
    usi = Path(d.value.path()).read_text(encoding="utf-8")
    assert usi == "position startpos moves " + " ".join(played) + "\n"
    with page.expect_download() as d:
        page.get_by_test_id("download-kif").click()
    kif = Path(d.value.path()).read_text(encoding="utf-8")
    assert "手合割：平手" in kif and "   1 ７六歩(77)" in kif, kif
    load(page, fen)
    page.wait_for_function(
        "document.querySelectorAll('[data-testid=moves] > *').length === 0"
    )
    page.wait_for_function(
        "window.kawari.side === 'both' && window.kawari.view.legal.length > 0"
    )
    assert sfen(page).split()[:3] == position.split()[:3]


def test_dead_engine_continues(open_page):
    page = open_page("?variant=heian&movetime=200", expect_errors=HTTP_ERRORS)
    click(page, "7g")
    click(page, "7f")
    wait_moves(page, 2)
    played = moves(page)
    pid = page.evaluate("window.kawariSession.pid")
    os.kill(pid, signal.SIGKILL)
    page.locator("#dead").wait_for(state="visible", timeout=10_000)
    page.get_by_test_id("continue").click()
    page.locator("#dead").wait_for(state="hidden", timeout=10_000)
    assert moves(page) == played
    click(page, "3g")
    click(page, "3f")
    wait_moves(page, 4)
    assert moves(page)[:3] == played + ["3g3f"]
    assert page.evaluate("window.kawariSession.pid") != pid


def test_closed_session_continues_with_a_new_one(open_page):
    page = open_page("?variant=judkins&movetime=200")
    click(page, "6e")
    click(page, "6d")
    wait_moves(page, 2)
    played = moves(page)
    old = page.evaluate("window.kawariSession.id")
    # The server closes the session (as it does for a page silent too long).
    page.evaluate(
        f"fetch('/api/session/{old}/close', {{method: 'POST', body: '{{}}'}})"
    )
    page.get_by_test_id("analyse").click()
    page.locator("#dead").wait_for(state="visible", timeout=10_000)
    page.get_by_test_id("continue").click()
    page.locator("#dead").wait_for(state="hidden", timeout=10_000)
    assert page.evaluate("window.kawariSession.id") != old
    assert moves(page) == played
    page.wait_for_function(
        "document.querySelectorAll('[data-testid=arrow]').length >= 1", timeout=15_000
    )


def test_phone_size(open_page):
    page = open_page("?variant=shogi")
    page.set_viewport_size({"width": 390, "height": 844})
    box = page.locator("[data-testid=board]").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    page.screenshot(path=str(SHOTS / "shogi-phone.png"), full_page=True)
