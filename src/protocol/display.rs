//! The game lines `d` prints after the diagram, for GUIs that keep no rules of
//! their own (the `kawari web` page): read-only, computed by the engine's
//! rules (src/position/rules.rs) on the position `position` set.
//!
//! - `Fen: <fen>`: the position in Fairy-Stockfish's FEN (both dialects).
//! - `legal: <move> ...`: every legal move in the dialect's notation (`-`
//!   when there is none).
//! - `status: ongoing`, or `status: <loss|win|draw> <reason>` from the side
//!   to move's view, the reason one of `checkmate`, `stalemate` (no legal
//!   move, not in check), `bare-king`, `perpetual-check`, `repetition`,
//!   `move-cap` (MaxMovesToDraw reached, unless the last move mated).
//! - `declare: yes|no`: whether the side to move may declare a win under the
//!   entering-king rule in force (`bestmove win` in USI).

use super::Dialect;
use crate::core::BitWord;
use crate::engine::Engine;
use crate::position::{EndReason, Position, Repetition};

/// The game lines of `d` for the engine's position, in `dialect`.
pub(super) fn game_lines(engine: &Engine, dialect: Dialect) -> Vec<String> {
    let cap = engine.search_options().max_moves_to_draw;
    let declaration = engine.search_options().declaration;
    let root = engine.root();
    let fen = root.text(Dialect::Uci.notation());
    crate::with_root!(root, pos => lines(pos.as_ref(), dialect, cap, declaration, fen))
}

fn lines<W: BitWord>(
    pos: &Position<W>,
    dialect: Dialect,
    cap: u32,
    declaration: bool,
    fen: String,
) -> Vec<String> {
    let v = pos.variant();
    let legal: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| dialect.notation().move_text(m, v))
        .collect();
    let legal = if legal.is_empty() {
        "-".to_string()
    } else {
        legal.join(" ")
    };
    vec![
        format!("Fen: {fen}"),
        format!("legal: {legal}"),
        format!("status: {}", status(pos, cap)),
        format!(
            "declare: {}",
            if declaration && pos.can_declare() {
                "yes"
            } else {
                "no"
            }
        ),
    ]
}

/// The `status:` value: the rules' own order (`Position::end_reason`); a
/// mate on the capped move still counts.
fn status<W: BitWord>(pos: &Position<W>, cap: u32) -> &'static str {
    match pos.end_reason() {
        Some(EndReason::BareKing) => "loss bare-king",
        Some(EndReason::Repetition(Repetition::Win)) => "win perpetual-check",
        Some(EndReason::Repetition(Repetition::Loss)) => "loss perpetual-check",
        Some(EndReason::Repetition(_)) => "draw repetition",
        Some(EndReason::Checkmate) => "loss checkmate",
        Some(EndReason::Stalemate) => "loss stalemate",
        None if cap > 0 && pos.game_ply() >= cap => "draw move-cap",
        None => "ongoing",
    }
}
