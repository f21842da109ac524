//! `kawari bench`: the engine's bench job.

use std::io::Write;

/// `kawari bench`: the engine's bench job, its lines on stdout.
pub(crate) fn run(args: &[String]) -> Result<(), String> {
    use kawari::engine::{Engine, Report, Sink};
    use std::sync::{Arc, Mutex};
    let failed = Arc::new(Mutex::new(None));
    let f = failed.clone();
    let sink: Sink = Arc::new(move |r| match r {
        Report::Bench(line) => {
            let _ = writeln!(std::io::stdout().lock(), "{line}");
        }
        Report::Error(e) => *f.lock().unwrap_or_else(|p| p.into_inner()) = Some(e),
        _ => {}
    });
    let mut engine = Engine::new(sink);
    engine.bench(args).map_err(|e| e.to_string())?;
    engine.wait();
    let err = failed.lock().unwrap_or_else(|p| p.into_inner()).take();
    err.map_or(Ok(()), Err)
}
