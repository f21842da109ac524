//! The USI protocol front end. (PLACEHOLDER until the front end lands.)

/// Runs the USI loop on stdin/stdout until `quit` or EOF.
pub fn run_stdio() {}
