//! What a `go` (or `ponderhit`) sends, as the parser reads it and before
//! a dialect turns it into search limits: its own file, so that the parser
//! (`command`) and the dialects (`dialect`) both see it without seeing each
//! other.

/// Clock times, as sent with `go` or `ponderhit` (milliseconds).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// `btime`.
    pub btime: Option<u64>,
    /// `wtime`.
    pub wtime: Option<u64>,
    /// `binc`.
    pub binc: Option<u64>,
    /// `winc`.
    pub winc: Option<u64>,
    /// `byoyomi`.
    pub byoyomi: Option<u64>,
    /// Names of time fields that were negative and were read as 0.
    pub negative: Vec<&'static str>,
}

/// The limits of a normal `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoSearch {
    /// Clock times.
    pub clock: Clock,
    /// `movestogo`.
    pub movestogo: Option<u32>,
    /// `movetime`.
    pub movetime: Option<u64>,
    /// `depth`.
    pub depth: Option<u32>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `infinite`.
    pub infinite: bool,
    /// `ponder`.
    pub ponder: bool,
    /// `searchmoves`: the moves as sent (checked by the engine).
    pub searchmoves: Vec<String>,
}
