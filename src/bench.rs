//! `bench`: fixed-depth searches over fixed positions; the total node count is
//! the engine's behaviour signature. (PLACEHOLDER until the real search lands.)

/// Runs the bench and prints to stdout; `args` as given after `bench`.
pub fn run(_args: &[String]) -> Result<(), String> {
    Err("bench is not implemented yet".into())
}
