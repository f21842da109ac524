//! `d`'s game lines (src/protocol/display.rs): legal moves, the game's
//! status by the engine's rules, the declaration and the FEN, as the
//! `kawari web` page reads them.

use crate::common::UsiProcess;
use std::time::Duration;

/// The value of each `name: value` game line `d` prints now.
fn game_lines(e: &mut UsiProcess, position: &str) -> std::collections::HashMap<String, String> {
    e.send(position);
    e.send("d");
    let (mut lines, last) = e.until(Duration::from_secs(10), |l| l.starts_with("declare: "));
    lines.push(last);
    lines
        .iter()
        .filter_map(|l| l.split_once(": "))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn status(e: &mut UsiProcess, position: &str) -> String {
    game_lines(e, position)["status"].clone()
}

#[test]
fn legal_moves_fen_and_declaration() {
    let mut e = UsiProcess::start();
    e.send("usi");
    e.until(Duration::from_secs(10), |l| l == "usiok");
    let g = game_lines(&mut e, "position startpos");
    let legal: Vec<&str> = g["legal"].split(' ').collect();
    assert_eq!(legal.len(), 30, "{legal:?}");
    assert!(legal.contains(&"7g7f") && legal.contains(&"2h1h"));
    assert_eq!(g["status"], "ongoing");
    assert_eq!(g["declare"], "no");
    assert_eq!(
        g["Fen"],
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1"
    );
    // Drops and promotion choices as USI writes them.
    let g = game_lines(&mut e, "position sfen 4k4/9/9/4S4/9/9/9/9/4K4 b P 1");
    let legal: Vec<&str> = g["legal"].split(' ').collect();
    assert!(legal.contains(&"P*1e") && legal.contains(&"5d5c+") && legal.contains(&"5d5c"));
    // CSA rule 27: Black may declare.
    let g = game_lines(
        &mut e,
        "position sfen 4K4/PPPPPPPPP/7BR/9/9/9/9/9/4k4 b 4G4SN 1",
    );
    assert_eq!(g["declare"], "yes");
    e.quit();
}

#[test]
fn every_way_a_game_ends() {
    let mut e = UsiProcess::start();
    let mated = game_lines(&mut e, "position sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1");
    assert_eq!(mated["status"], "loss checkmate");
    assert_eq!(mated["legal"], "-");
    assert_eq!(mated["checkers"], "5b");
    let cycle = "5i4i 5a4a 4i5i 4a5a ".repeat(3);
    assert_eq!(
        status(
            &mut e,
            &format!("position sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1 moves {cycle}")
        ),
        "draw repetition"
    );
    let checks = "2c1c 1a2a 1c2c 2a1a ".repeat(3);
    let perpetual = format!("position sfen 8k/9/7R1/9/9/9/9/9/K8 b - 1 moves {checks}");
    assert_eq!(status(&mut e, &perpetual), "loss perpetual-check");
    assert_eq!(
        status(&mut e, &format!("{perpetual} 2c1c")),
        "win perpetual-check"
    );
    e.send("setoption name MaxMovesToDraw value 4");
    assert_eq!(
        status(&mut e, "position startpos moves 7g7f 3c3d 2g2f 8c8d"),
        "draw move-cap"
    );
    assert_eq!(
        status(&mut e, "position startpos moves 7g7f 3c3d 2g2f"),
        "ongoing"
    );
    // No legal move, not in check (White has nothing in hand to drop).
    assert_eq!(
        status(&mut e, "position sfen 8k/6G2/7G1/9/9/9/9/9/4K4 w - 1"),
        "loss stalemate"
    );
    e.send("setoption name USI_Variant value heian");
    assert_eq!(
        status(&mut e, "position sfen 4k4/9/9/9/9/9/9/9/G3K4 w - 1"),
        "loss bare-king"
    );
    e.quit();
}
